#!/usr/bin/env python3
"""Writes proprietary-branches.tsv: for each driver branch whose README supported-GPU list
(supported-gpus.json) Debian bookworm ships, the newest release's device ids that the branch
supports (rows without a legacy branch). GPUs are added to a branch, not removed, so an id the
newest release does not list is supported by no release of that branch.

Inputs (unpacked with dpkg-deb -x, fetched with apt-get download from bookworm non-free):
  nvidia-driver 535.309.01-0+deb12u1:      usr/share/doc/nvidia-driver/supported-gpus.json.gz
  nvidia-tesla-470-driver 470.256.02-1~deb12u1: usr/share/doc/nvidia-tesla-470-driver/supported-gpus.json.gz

Usage: proprietary-branches.py ROOT_535 ROOT_470 > proprietary-branches.tsv
"""
import gzip
import json
import os
import sys

SOURCES = [
    ("470.256.02", "nvidia-tesla-470-driver 470.256.02-1~deb12u1", sys.argv[2],
     "usr/share/doc/nvidia-tesla-470-driver/supported-gpus.json.gz"),
    ("535.309.01", "nvidia-driver 535.309.01-0+deb12u1", sys.argv[1],
     "usr/share/doc/nvidia-driver/supported-gpus.json.gz"),
]

print("# Device ids each branch's newest release read supports (its README's supported-gpus.json,")
print("# rows without a legacy branch), as Debian bookworm non-free ships them; proprietary-branches.py.")
print("# columns: release<TAB>Debian package<TAB>count<TAB>device ids, space-separated")
for release, package, root, path in SOURCES:
    chips = json.load(gzip.open(os.path.join(root, path), "rt"))["chips"]
    ids = sorted({c["devid"][2:].lower() for c in chips if not c.get("legacybranch")})
    print(f"{release}\t{package}\t{len(ids)}\t{' '.join(ids)}")
