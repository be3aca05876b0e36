#!/usr/bin/env python3
"""Writes open-releases.tsv and open-floors.tsv from a clone of NVIDIA/open-gpu-kernel-modules.

open-releases.tsv: every tag from 515.48.07 on (515.43.04, the first, has no "Compatible GPUs"
table), its commit date and the device ids its README table lists (the table reduced to ids).

open-floors.tsv: per PCI device id, the first release whose README "Compatible GPUs" table lists
it (with or without a subsystem id), decided by release DATE and not by version: the tags
interleave across branches (the 525.47.x releases came after 530.30.02) and a later release of an
older branch can lack a device a newer branch already listed. Same-day releases are ordered by
version. Also per id: the product name of its first row, how many releases dated after the first
one lack it (with the first such release), and the newest release that lists it.

Usage: open-floors.py GIT_DIR  (writes both files next to this script)
"""
import os
import re
import subprocess
import sys

ROW = re.compile(r"^\|\s*(?P<name>[^|]*?)\s*\|\s*(?P<ids>[0-9A-Fa-f]{4}(?:\s+[0-9A-Fa-f]{4}){0,2})\s*\|\s*$")


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir, *args], check=True, capture_output=True, text=True).stdout


def version_key(tag):
    return tuple(int(p) for p in tag.split("."))


def table(readme):
    """Device id -> product name of its first row, from the README's Compatible GPUs section."""
    start = readme.find("## Compatible GPUs")
    if start < 0:
        return None
    ids = {}
    for line in readme[start:].splitlines():
        m = ROW.match(line)
        if m:
            dev = m.group("ids").split()[0].lower()
            ids.setdefault(dev, m.group("name"))
    return ids


def main():
    gitdir = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    tags = [t for t in git(gitdir, "tag").split() if re.fullmatch(r"\d+(\.\d+)+", t)]
    releases = []
    for tag in tags:
        if version_key(tag) < version_key("515.48.07"):
            continue
        date = git(gitdir, "log", "-1", "--format=%cs", tag).strip()
        ids = table(git(gitdir, "show", f"{tag}:README.md"))
        if ids is None:
            sys.exit(f"{tag}: README has no Compatible GPUs table")
        releases.append((date, version_key(tag), tag, ids))
    releases.sort()
    head = git(gitdir, "rev-parse", "HEAD").strip()
    with open(os.path.join(here, "open-releases.tsv"), "w") as out:
        out.write("# Releases of github.com/NVIDIA/open-gpu-kernel-modules (tags; HEAD " + head + "),\n")
        out.write("# in release-date order (the tagged commit's date), written by open-floors.py.\n")
        out.write("# columns: release<TAB>date<TAB>how many device ids its README's Compatible GPUs table lists"
                  "<TAB>those ids, space-separated\n")
        for date, _, tag, ids in releases:
            out.write(f"{tag}\t{date}\t{len(ids)}\t{' '.join(sorted(ids))}\n")
    first = {}
    for date, _, tag, ids in releases:
        for dev, name in ids.items():
            first.setdefault(dev, (date, tag, name))
    with open(os.path.join(here, "open-floors.tsv"), "w") as out:
        out.write("# First release of the NVIDIA open GPU kernel modules whose README Compatible GPUs table\n")
        out.write("# lists each PCI device id, by release date (github.com/NVIDIA/open-gpu-kernel-modules,\n")
        out.write(f"# tags 515.48.07 to {releases[-1][2]}, HEAD {head}), written by open-floors.py.\n")
        out.write("# columns: device_id<TAB>first_release<TAB>date<TAB>later releases lacking it"
                  "<TAB>first such release<TAB>newest release listing it<TAB>product name\n")
        for dev in sorted(first):
            date, tag, name = first[dev]
            lacking = [t for d, _, t, ids in releases if (d, version_key(t)) > (date, version_key(tag)) and dev not in ids]
            newest = [t for _, _, t, ids in releases if dev in ids][-1]
            out.write(f"{dev}\t{tag}\t{date}\t{len(lacking)}\t{lacking[0] if lacking else '-'}\t{newest}\t{name}\n")


main()
