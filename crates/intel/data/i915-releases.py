#!/usr/bin/env python3
"""Writes i915-releases.tsv: for every device id of pciids.tsv, the first Linux release whose i915
pciidlist binds it, the first release that binds it without a module parameter, and the parameter
the releases before needed. Read from a clone of freebsd/drm-kmod, whose history replays Linux's
drm commits release by release (its scripts/drmgeneratepatch runs `git format-patch vX..vY` over
Linux's drivers/gpu/drm/i915 and include/drm); each release point below is the drm-kmod tag or
"Reduce diff with Linux X.Y" commit that closes that release's import.

Usage: i915-releases.py DRM_KMOD_GIT_DIR < pciids.tsv > i915-releases.tsv
"""
import re
import subprocess
import sys

# (Linux release, drm-kmod commit), oldest first; 4.16 is the baseline that must not list the ids.
POINTS = [
    ("4.16", "32df4a2f49d0"),  # tag drm_v4.16-fbsd12, i915 DRIVER_DATE 20171222
    ("4.17", "12a50b50299a"),  # merge of kms-drm's drm-v4.17 branch, DRIVER_DATE 20180308
    ("5.0", "9f7f15c533e8"),  # tag drm_v5.0
    ("5.1", "315331de9610"),  # tag drm_v5.1
    ("5.2", "5ce2a3d8ece6"),  # tag drm_v5.2
    ("5.3", "94a257bea180"),  # tag drm_v5.3
    ("5.4", "25fed6326722"),  # tag drm_v5.4
    ("5.5", "74a03e60aa5e"),  # tag drm_v5.5_0, DRIVER_DATE 20191101
    ("5.6", "544f5f2b807f"),  # where branch 5.6-stable leaves master, DRIVER_DATE 20200114
    ("5.7", "0b218784ae9d"),  # tag drm_v5.7 ("Mark drm v5.7 import.")
    ("5.8", "150f20f6c399"),  # tag drm_v5.8
    ("5.9", "1a4137b26a87"),  # tag drm_v5.9
    ("5.10", "cbd4699a82ee"),  # tag drm_v5.10
    ("5.11", "996bb865646c"),  # tag drm_v5.11_0
    ("5.12", "cfad481295a0"),  # tag drm_v5.12_0
    ("5.13", "aebab4068542"),  # tag drm_v5.13
    ("5.14", "53ac70c46ff8"),  # tag drm_v5.14
    ("5.15", "595c6869657d"),  # tag drm_v5.15
    ("5.16", "aacd0e4bee6e"),  # tag drm_v5.16
    ("5.17", "4daf99507d32"),  # tag drm_v5.17
    ("5.18", "65b8649e9397"),  # tag drm_v5.18
    ("5.19", "ba6ae7b13491"),  # tag drm_v5.19
    ("6.0", "538ded003c27"),  # tag drm_v6.0
    ("6.1", "18764505e357"),  # tag drm_v6.1
    ("6.2", "1cfd6721536c"),  # "Reduce diff with Linux 6.2"
    ("6.3", "0e47802c23fd"),  # "Reduce diff with Linux 6.3"
    ("6.4", "e86ac3725cfe"),  # "Reduce diff with Linux 6.4"
    ("6.5", "24d845cd4f46"),  # "Reduce diff with Linux 6.5"
    ("6.6", "ad8152555108"),  # tag drm_v6.6
    ("6.7", "dce5ead4a309"),  # tag drm_v6.7
    ("6.8", "36e989a3cbf7"),  # tag drm_v6.8
    ("6.9", "cc2b66f676d5"),  # tag drm_v6.9
    ("6.10", "97acd04c2eb2"),  # tag drm_v6.10
    ("6.11", "9ae47cd3cbd9"),  # tag drm_v6.11
]
HEADERS = ("include/drm/i915_pciids.h", "include/drm/intel/i915_pciids.h", "include/drm/intel/pciids.h")


def show(repo, ref, path):
    r = subprocess.run(["git", "-C", repo, "show", f"{ref}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""


def ids_of(name, defs, seen=()):
    body = defs.get(name, "")
    ids = [h.lower() for h in re.findall(r"0x([0-9a-fA-F]{4})\b", body)]
    for sub in re.findall(r"\b(INTEL_\w+_IDS)\b", body):
        if sub != name and sub not in seen:
            ids += ids_of(sub, defs, seen + (name,))
    return ids


def release(repo, ref):
    """Device id -> gate ("force_probe", "alpha_support" or "none") in one release."""
    pci = show(repo, ref, "drivers/gpu/drm/i915/i915_pci.c")
    hdr = "".join(show(repo, ref, p) for p in HEADERS).replace("\\\n", " ")
    defs = {m.group(1): m.group(2) for m in re.finditer(r"^#define\s+(\w+)(?:\([^)]*\))?\s*(.*)$", hdr, re.M)}
    infos = {}
    for m in re.finditer(r"^static const struct intel_device_info (\w+)(?:\s+__initconst)? = \{(.*?)^\};", pci, re.M | re.S):
        body = m.group(2)
        infos[m.group(1)] = (
            "force_probe" if ".require_force_probe = 1" in body
            else "alpha_support" if ".is_alpha_support = 1" in body
            else "none"
        )
    table = re.search(r"pciidlist\[\] = \{(.*?)\n\};", pci, re.S).group(1)
    out = {}
    for m in re.finditer(r"\b(INTEL_\w+_IDS)\((?:INTEL_VGA_DEVICE,\s*)?&(\w+)\)", table):
        for i in ids_of(m.group(1), defs):
            out.setdefault(i, infos[m.group(2)])
    return out


def main():
    repo = sys.argv[1]
    ids = [l.split()[1] for l in sys.stdin if l.strip() and not l.startswith("#")]
    seen = [(rel, release(repo, ref)) for rel, ref in POINTS]
    if any(i in seen[0][1] for i in ids):
        sys.exit("an id is already listed in the baseline release; extend POINTS backwards")
    for i in ids:
        listed = [(rel, r[i]) for rel, r in seen if i in r]
        if not listed:
            continue
        first = listed[0][0]
        default = next((rel for rel, g in listed if g == "none"), "-")
        gated = [g for rel, g in listed if g != "none"]
        print(f"{i}\t{first}\t{default}\t{gated[-1] if gated else '-'}")


if __name__ == "__main__":
    main()
