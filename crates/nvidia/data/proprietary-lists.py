#!/usr/bin/env python3
"""Writes proprietary-lists.tsv: per driver release read, every PCI device id its own README
names in "Appendix A. Supported NVIDIA GPU Products" (the current list, and each legacy section
"The NNN.xx driver supports the following set of GPUs", with "A6. The 470.xx driver still
supports" read as legacy-470), in its "GSP Firmware" chapter ("The following GPUs default to
using the GSP firmware"), and in its supported-gpus.json (current or legacy branch, and the
`kernelopen` feature flag) where the release ships one (450 and newer).

Inputs: Debian driver metapackages, fetched with `apt-get download` from a private apt
configuration (sources.list with main contrib non-free non-free-firmware for bullseye,
bookworm, trixie, sid and experimental, and bookworm-backports; own Dir::State, Dir::Cache and
Dir::Etc::SourceList; nothing installed) and unpacked with `dpkg-deb -x`, one directory per
package named PACKAGE_VERSION (e.g. nvidia-tesla-470-driver_470.256.02-10):
  usr/share/doc/PACKAGE/README.txt.gz and usr/share/doc/PACKAGE/supported-gpus.json.gz.

Usage: proprietary-lists.py READ_DATE UNPACKED_DIR... > proprietary-lists.tsv
"""
import gzip
import json
import os
import re
import sys

ID = r"(?:0x)?([0-9A-F]{4})(?: (?:0x)?([0-9A-F]{4}))?(?: (?:0x)?([0-9A-F]{4}))?"
# Name, two or more spaces, the id (and subsystem ids), then the VDPAU column if any.
ROW = re.compile(r"^ {1,4}(\S.*?)\s{2,}" + ID + r"(?:\s{2,}\S.*?)?\s*$")
# A name as wide as its column is followed by one space only (390-460 READMEs).
ROW_WIDE = re.compile(r"^ {1,4}(\S.*\S) " + ID + r"(?:\s{2,}\S.*?)?\s*$")
LEGACY = re.compile(r"^(?:A\d+\. )?The ([0-9.]+)\.xx driver (still )?supports")
CHAPTER_SEP = "______________________________________________________________________________"


def chapter_bounds(lines, title):
    """The line range of a chapter or appendix body: its title line followed by the separator."""
    start = None
    for i, line in enumerate(lines[:-1]):
        if start is None and line.startswith(title) and lines[i + 1].startswith(CHAPTER_SEP):
            start = i + 2
        elif start is not None and line.startswith(CHAPTER_SEP) and i > start + 1:
            return start, i
    return (start, len(lines)) if start is not None else None


def table_rows(lines, column):
    """(line, id, subsystem) of each table row; `column` is where the id column starts."""
    for line in lines:
        m = ROW.match(line)
        if not m:
            m = ROW_WIDE.match(line)
            if not m or m.start(2) < column:
                continue
        name, dev, a, b = m.group(1).strip(), m.group(2), m.group(3), m.group(4)
        # Old READMEs give the subsystem device alone ("0x0609 0x00A7").
        subsys = f"{a}:{b}" if b else (f"-:{a}" if a else "")
        yield name, dev.lower(), subsys.lower()


def id_column(lines):
    for line in lines:
        pos = line.find("Device PCI ID")
        if pos >= 0:
            return pos
    return 0


def read_readme(path):
    lines = gzip.open(path, "rt", encoding="utf-8", errors="replace").read().split("\n")
    out = []  # (section, name, id, subsys)
    bounds = chapter_bounds(lines, "Appendix A. Supported NVIDIA GPU Products")
    if bounds is None:
        sys.exit(f"{path}: no Appendix A")
    body = lines[bounds[0] : bounds[1]]
    column = id_column(body)
    section = "current"
    chunk = []

    def flush():
        out.extend((section, n, d, s) for n, d, s in table_rows(chunk, column))
        chunk.clear()

    for line in body:
        m = LEGACY.match(line)
        if m:
            flush()
            section = f"legacy-{m.group(1)}"
        else:
            chunk.append(line)
    flush()
    gsp = False
    for i, line in enumerate(lines):
        if line.startswith("The following GPUs default to using the GSP firmware"):
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].startswith(CHAPTER_SEP)),
                len(lines),
            )
            # The table ends at the first paragraph after it.
            rows = []
            for line2 in lines[i + 1 : end]:
                if rows and line2 and not line2.startswith(" "):
                    break
                rows.append(line2)
            out.extend(("gsp", n, d, s) for n, d, s in table_rows(rows, id_column(rows)))
            gsp = True
    return out, gsp


def read_json(path):
    data = json.load(gzip.open(path, "rt", encoding="utf-8"))
    out = []  # (list, kernelopen, name, id, subsys)
    for c in data["chips"]:
        dev = c["devid"].lower().removeprefix("0x")
        sub = ""
        if "subdevid" in c:
            sub = f"{c.get('subvendorid', '-').lower().removeprefix('0x')}:{c['subdevid'].lower().removeprefix('0x')}"
        lb = c.get("legacybranch")
        out.append(
            (f"legacy-{lb.removesuffix('.xx')}" if lb else "current", "kernelopen" in c.get("features", []), c["name"], dev, sub)
        )
    return out


def main():
    date, dirs = sys.argv[1], sys.argv[2:]
    releases = []
    for d in dirs:
        base = os.path.basename(d.rstrip("/"))
        package, version = base.split("_", 1)
        upstream = version.split("-")[0]
        doc = os.path.join(d, "usr/share/doc", package)
        readme = os.path.join(doc, "README.txt.gz")
        js = os.path.join(doc, "supported-gpus.json.gz")
        readme_rows, has_gsp = read_readme(readme)
        json_rows = read_json(js) if os.path.exists(js) else None
        releases.append((upstream, package, version, has_gsp, readme_rows, json_rows))
    # Two packages of one release (Debian ships 470.256.02 as nvidia-driver and as
    # nvidia-tesla-470-driver) must list the same GPUs; the first is kept, both are named.
    merged = {}
    for r in releases:
        if r[0] in merged:
            kept = merged[r[0]]
            if (kept[4], kept[5]) != (r[4], r[5]):
                sys.exit(f"{r[1]} {r[2]} and {kept[1]} {kept[2]} list different GPUs")
            kept[6].append(f"{r[1]} {r[2]}")
        else:
            merged[r[0]] = list(r) + [[]]
    releases = sorted(merged.values(), key=lambda r: [int(p) for p in r[0].split(".")])
    print("# Per-release supported-GPU lists of NVIDIA's driver (proprietary kernel module), as each")
    print("# release's own README gives them (Appendix A. Supported NVIDIA GPU Products, its legacy")
    print("# sections, the GSP Firmware chapter's table) and its supported-gpus.json; from Debian's")
    print(f"# archive (non-free), read {date}, by proprietary-lists.py. Releases read:")
    for upstream, package, version, has_gsp, _, json_rows, same in releases:
        files = f"usr/share/doc/{package}/README.txt.gz"
        if json_rows is not None:
            files += f", usr/share/doc/{package}/supported-gpus.json.gz"
        also = f" (the same lists: {', '.join(same)})" if same else ""
        print(f"# release {upstream}\t{package} {version}\t{files}{also}")
    print("# columns: release<TAB>device_id<TAB>README sections listing it (current, legacy-NNN, gsp; - none)")
    print("# <TAB>supported-gpus.json list (current, legacy-NNN; - absent; n/a no json)<TAB>kernelopen flag")
    print("# (yes, no, n/a)<TAB>subsystem-only (yes: every row names a subsystem)<TAB>name of its first row")
    for upstream, package, version, has_gsp, readme_rows, json_rows, _ in releases:
        ids = {}
        for section, name, dev, sub in readme_rows:
            e = ids.setdefault(dev, {"readme": [], "json": [], "open": False, "plain": False, "name": name})
            if section not in e["readme"]:
                e["readme"].append(section)
            e["plain"] |= sub == ""
        for lst, kopen, name, dev, sub in json_rows or []:
            e = ids.setdefault(dev, {"readme": [], "json": [], "open": False, "plain": False, "name": name})
            if lst not in e["json"]:
                e["json"].append(lst)
            e["open"] |= kopen
            e["plain"] |= sub == ""
        for dev in sorted(ids):
            e = ids[dev]
            js = ",".join(e["json"]) or "-" if json_rows is not None else "n/a"
            kopen = ("yes" if e["open"] else "no") if json_rows is not None else "n/a"
            print(
                "\t".join(
                    [upstream, dev, ",".join(e["readme"]) or "-", js, kopen, "no" if e["plain"] else "yes", e["name"]]
                )
            )


if __name__ == "__main__":
    main()
