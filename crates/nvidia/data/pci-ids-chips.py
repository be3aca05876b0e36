#!/usr/bin/env python3
"""Writes pci-ids-chips.tsv: per NVIDIA PCI device id, the GPU chip pci.ids names it by.

pci.ids names NVIDIA's GPU functions "<chip>[<suffix>] [<product>]" (`2704  AD103 [GeForce RTX
4080]`, `1023  GK110BGL [Tesla K40m]`). This keeps the device ids whose name starts with a chip of
the prefixes gpuctl maps to an architecture (GF GK GM GP GV TU GA AD GH GB, docs/fleet.md#gfd),
the chip with pci.ids' board suffix (GL workstation/data centre, GLM, GLS, M mobile) taken off,
and the name as pci.ids writes it. Functions that are not the GPU itself (the HDMI audio, USB
and UCSI controllers, bridges) are left out.

Usage: pci-ids-chips.py PCI_IDS  (writes pci-ids-chips.tsv next to this script)
"""
import os
import re
import sys

CHIP = re.compile(r"^(?P<chip>(?:GF|GK|GM|GP|GV|TU|GA|AD|GH|GB)[0-9][0-9A-Z]*?)(?:GLM|GLS|GL|M)?(?=[ /]|$)")
NOT_GPU = re.compile(r"Audio|USB|UCSI|[Bb]ridge|NVSwitch")


def main(path):
    version = date = None
    rows = []
    in_nvidia = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#\tVersion:"):
                version = line.split(":", 1)[1].strip()
            elif line.startswith("#\tDate:"):
                date = line.split(":", 1)[1].strip()
            if re.match(r"^[0-9a-f]{4}  ", line):
                in_nvidia = line.startswith("10de  ")
                continue
            if not in_nvidia:
                continue
            m = re.match(r"^\t([0-9a-f]{4})  (.*)$", line)
            if not m:
                continue
            device, name = m.groups()
            c = CHIP.match(name)
            if c and not NOT_GPU.search(name):
                rows.append((device, c.group("chip"), name))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pci-ids-chips.tsv")
    with open(out, "w", encoding="utf-8") as f:
        f.write(
            "# NVIDIA GPU chips by PCI device id, from pci.ids (The PCI ID Repository, https://pci-ids.ucw.cz/;\n"
            f"# Version {version}, Date {date}, as Debian's package pci.ids 0.0~2026.10.24-1 ships it in\n"
            "# /usr/share/misc/pci.ids; read 2026-12-01), written by pci-ids-chips.py.\n"
            "# columns: device_id<TAB>chip (pci.ids' first word, its GL/GLM/GLS/M board suffix off)<TAB>pci.ids name\n"
        )
        for device, chip, name in rows:
            f.write(f"{device}\t{chip}\t{name}\n")
    print(f"{len(rows)} rows")


if __name__ == "__main__":
    main(sys.argv[1])
