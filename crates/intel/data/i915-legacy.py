#!/usr/bin/env python3
"""Writes i915-legacy.tsv: the Intel GPUs older than Comet Lake that i915 binds (Gen2 to Gen9:
i830 ... Skylake, Broxton, Gemini Lake, Kaby Lake, Coffee Lake, Whiskey Lake, Amber Lake), one row
per device id, with the first Linux release from 4.12 on whose i915 binds it ("<4.12" when 4.12,
the oldest release read, already does), the first release that binds it without a module
parameter, and that parameter (as in i915-releases.tsv).

The ids and their platforms come from the pciidlist of i915_pci.c and the INTEL_*_IDS macros of
the id header at freebsd/drm-kmod's newest commit read; the releases from the same files at each
release point: 4.12 to 4.15 are the ends of drm-kmod's "vA->vB update" imports (the commits
"Mark build/run ... at patch N/N of v4.11->v4.12 update" and so on; i915's DRIVER_DATE there is
20170403, 20170619, 20170818 and 20171023, the dates of Linux 4.12 to 4.15), 4.16 on are
i915-releases.py's points.

Usage: i915-legacy.py DRM_KMOD_GIT_DIR > i915-legacy.tsv
"""
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("i915_releases", os.path.join(here, "i915-releases.py"))
rel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rel)

OLDER = [
    ("4.12", "d5a371b332"),  # patch 1433/1433 of v4.11->v4.12, DRIVER_DATE 20170403
    ("4.13", "1de6ed967a"),  # patch 1023/1023 of v4.12->v4.13, DRIVER_DATE 20170619
    ("4.14", "5a5838ab00"),  # patch 756/756 of v4.13->v4.14, DRIVER_DATE 20170818
    ("4.15", "63c705716c"),  # patch 2309/2309 of v4.14->v4.15, DRIVER_DATE 20171023
]
NEWEST = "129bf0f2961d"

# The pciidlist's macro (INTEL_<X>_IDS) -> platform stem, for the platforms before Comet Lake.
STEMS = [
    (r"I830|I845G|I85X|I865G|I915G|I915GM|I945G|I945GM|I965G|G33|I965GM|GM45|G45", None),
    (r"PNV_[GM]", "PNV"), (r"ILK_[DM]", "ILK"), (r"SNB_\w+", "SNB"), (r"IVB_\w+", "IVB"),
    (r"HSW_\w+", "HSW"), (r"VLV", "VLV"), (r"BDW_\w+", "BDW"), (r"CHV", "CHV"),
    (r"SKL_\w+", "SKL"), (r"BXT", "BXT"), (r"GLK", "GLK"), (r"KBL_\w+", "KBL"),
    (r"AML_KBL_GT2|AML_CFL_GT2", "AML"), (r"CFL_\w+", "CFL"), (r"WHL_\w+", "WHL"),
]


def stem(macro):
    for pattern, name in STEMS:
        if re.fullmatch(pattern, macro):
            return name or macro
    return None


def newest_ids(repo):
    pci = rel.show(repo, NEWEST, "drivers/gpu/drm/i915/i915_pci.c")
    hdr = "".join(rel.show(repo, NEWEST, p) for p in rel.HEADERS).replace("\\\n", " ")
    defs = {m.group(1): m.group(2) for m in re.finditer(r"^#define\s+(\w+)(?:\([^)]*\))?\s*(.*)$", hdr, re.M)}
    table = re.search(r"pciidlist\[\] = \{(.*?)\n\};", pci, re.S).group(1)
    out = {}
    for m in re.finditer(r"\bINTEL_(\w+)_IDS\(", table):
        s = stem(m.group(1))
        if s is None:
            continue
        for i in rel.ids_of(f"INTEL_{m.group(1)}_IDS", defs):
            out.setdefault(i, s)
    return out


def main():
    repo = sys.argv[1]
    ids = newest_ids(repo)
    seen = [(r, rel.release(repo, ref)) for r, ref in OLDER + rel.POINTS]
    print("# Intel GPUs before Comet Lake that i915 binds, one row per device id, written by")
    print("# i915-legacy.py from freebsd/drm-kmod (ids: its newest commit read, " + NEWEST + ";")
    print("# releases: i915_pci.c and the id header at Linux 4.12 to 6.11 as drm-kmod imported them).")
    print("# first: the first release read whose i915 binds the id, \"<4.12\" when 4.12 already does;")
    print("# default: the first without a module parameter (\"-\": none read); gate: as i915-releases.tsv.")
    print("# stem\tdevice_id\tfirst\tdefault\tgate")
    for i, s in sorted(ids.items(), key=lambda kv: (kv[1], kv[0])):
        listed = [(r, g[i]) for r, g in seen if i in g]
        if not listed:
            continue
        first = "<4.12" if listed[0][0] == "4.12" else listed[0][0]
        default = next((r for r, g in listed if g == "none"), "-")
        if first == "<4.12" and default == "4.12":
            default = "<4.12"
        gated = [g for r, g in listed if g != "none"]
        print(f"{s}\t{i}\t{first}\t{default}\t{gated[-1] if gated else '-'}")


main()
