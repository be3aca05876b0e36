#!/usr/bin/env python3
"""Writes the proprietary kernel module's per-device first releases from Debian bookworm packages.

Inputs (unpacked .deb files; `apt-get download nvidia-driver-bin nvidia-driver pci.ids` with
bookworm non-free in a temporary sources list, then `dpkg-deb -x`):
  - nvidia-driver-bin: usr/share/doc/nvidia-driver-bin/changelog.gz, NVIDIA's upstream changelog
    (releases to 535.247.01); its "Added support for the following GPUs" entries name products,
    through the 470 releases only (from 495 on new GPUs are not listed there).
  - nvidia-driver: usr/share/doc/nvidia-driver/supported-gpus.json.gz, the driver README's
    supported-GPU list (device id, optional subsystem, name, legacy branch) of 535.309.01.
  - pci.ids: usr/share/misc/pci.ids, for names supported-gpus.json does not carry.

Writes next to this script:
  - proprietary-added.txt: the changelog's version lines and "Added support" blocks, verbatim
    (the source the tests read back);
  - proprietary-supported-gpus.tsv: supported-gpus.json as a table;
  - proprietary-floors.tsv: per device id, the first release (by date) whose changelog entry
    names a product of that id, and how the name was matched.

Usage: proprietary-floors.py UNPACKED_ROOT
"""
import gzip
import json
import os
import re
import sys

HDR = re.compile(r"^(\d{4}-\d{2}-\d{2}) version (\S+)\s*$")
ADDED = re.compile(r"Added support for the following (new )?GPU(s|\(s\))?:")


def norm(name):
    name = re.sub(r"\s+", " ", name.strip().lower())
    return re.sub(r"^nvidia ", "", name)


def changelog_blocks(lines):
    """(release, date, [product names], excerpt lines) per Added-support block."""
    cur = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = HDR.match(line)
        if m:
            cur = (m.group(2), m.group(1))
            i += 1
            continue
        if ADDED.search(line):
            excerpt = [line]
            items = []
            i += 1
            while i < len(lines):
                l = lines[i]
                if l.strip() == "":
                    excerpt.append(l)
                    i += 1
                    continue
                if HDR.match(l) or re.match(r"^ {0,4}\S", l):
                    break
                excerpt.append(l)
                items.append(re.sub(r"^\*\s*", "", l.strip()))
                i += 1
            while excerpt and excerpt[-1].strip() == "":
                excerpt.pop()
            yield cur, items, excerpt
            continue
        i += 1


def pci_names(path):
    names = {}
    in_nvidia = False
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("10de "):
            in_nvidia = True
            continue
        if in_nvidia and line and not line.startswith("\t"):
            if line.startswith("#"):
                continue
            break
        m = re.match(r"^\t([0-9a-f]{4})  (.*)$", line)
        if in_nvidia and m:
            dev, full = m.groups()
            for part in re.findall(r"\[([^\]]+)\]", full) or [full]:
                for alt in part.split(" / "):
                    names.setdefault(norm(alt), {})[dev] = full
    return names


def main():
    root = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    log = gzip.open(os.path.join(root, "usr/share/doc/nvidia-driver-bin/changelog.gz"), "rt").read().splitlines()
    chips = json.load(gzip.open(os.path.join(root, "usr/share/doc/nvidia-driver/supported-gpus.json.gz"), "rt"))["chips"]
    by_name = {}
    with open(os.path.join(here, "proprietary-supported-gpus.tsv"), "w") as out:
        out.write("# The NVIDIA driver README's supported GPUs of release 535.309.01 (supported-gpus.json, shipped\n")
        out.write("# by Debian bookworm's nvidia-driver 535.309.01-0+deb12u1), written by proprietary-floors.py.\n")
        out.write("# columns: device_id<TAB>subsystem vendor<TAB>subsystem device<TAB>legacy branch (- current)<TAB>name\n")
        for c in chips:
            dev = c["devid"][2:].lower()
            sv = c.get("subvendorid", "")[2:].lower()
            sd = c.get("subdevid", "")[2:].lower()
            out.write(f"{dev}\t{sv}\t{sd}\t{c.get('legacybranch') or '-'}\t{c['name']}\n")
            by_name.setdefault(norm(c["name"]), set()).add(dev)
    pci = pci_names(os.path.join(root, "usr/share/misc/pci.ids"))
    first = {}
    unmatched = []
    with open(os.path.join(here, "proprietary-added.txt"), "w") as out:
        out.write("# From NVIDIA's changelog as shipped in Debian bookworm non-free nvidia-driver-bin\n")
        out.write("# 535.309.01-0+deb12u1 (usr/share/doc/nvidia-driver-bin/changelog.gz): each release line\n")
        out.write("# followed by its 'Added support for the following GPUs' block, verbatim; by proprietary-floors.py.\n")
        for (release, date), items, excerpt in changelog_blocks(log):
            out.write(f"\n{date} version {release}\n\n")
            out.write("\n".join(excerpt) + "\n")
            for item in items:
                key = norm(item)
                ids = {dev: "supported-gpus.json" for dev in by_name.get(key, ())}
                if not ids:
                    ids = {dev: f"pci.ids: {full}" for dev, full in pci.get(key, {}).items()}
                if not ids:
                    unmatched.append((release, item))
                    continue
                for dev, how in ids.items():
                    prev = first.get(dev)
                    if prev is None or (date, release) < (prev[1], prev[0]):
                        first[dev] = (release, date, item, how)
    with open(os.path.join(here, "proprietary-floors.tsv"), "w") as out:
        out.write("# First release of NVIDIA's driver (proprietary kernel module) whose changelog says it added\n")
        out.write("# support for a product of each device id, by release date; names matched to ids through the\n")
        out.write("# 535.309.01 README's supported-gpus.json, else pci.ids 2023.04.10 (Debian bookworm pci.ids).\n")
        out.write("# Written by proprietary-floors.py from proprietary-added.txt's source. Products it could not\n")
        out.write("# match are listed at the end as '# unmatched'.\n")
        out.write("# columns: device_id<TAB>first_release<TAB>date<TAB>changelog product name<TAB>matched through\n")
        for dev in sorted(first):
            release, date, item, how = first[dev]
            out.write(f"{dev}\t{release}\t{date}\t{item}\t{how}\n")
        for release, item in unmatched:
            out.write(f"# unmatched\t{release}\t{item}\n")


main()
