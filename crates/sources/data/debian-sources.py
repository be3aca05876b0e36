#!/usr/bin/env python3
"""Writes debian.json: the driver sources of each Debian release, as its archive lists them.

For each release it asks `apt-cache madison` (with the private apt configuration named below)
for the packages that install a GPU driver stack, and writes one row per source, in the order
a Debian user would prefer them: the release's own NVIDIA driver (proprietary module, then the
open module), its Tesla driver series (newest first), its legacy series (newest first); the
ROCm HIP runtime Debian builds, with the release's kernel; the release's kernel for Intel. A
backports package is a row of its own, after the release's, and only when its upstream version
is newer than the release's (the same or an older one adds nothing a user would pick).

Every version is the upstream part of the newest version the release's suites (RELEASE,
RELEASE-updates, RELEASE-security) list, as read on READ_DATE; a package the release does not
list gives no row (nothing is guessed).

Inputs: one apt configuration per release, /tmp/h30apt/<codename>/apt.conf (Dir::State,
Dir::Cache, Dir::Etc::SourceList of its own, Dir::Etc::SourceParts /dev/null, Acquire::Languages
none, APT::Architecture amd64; sources deb.debian.org RELEASE (+ -backports, -updates) and
security.debian.org RELEASE-security, components main contrib non-free non-free-firmware),
after `apt-get update` with it.

Usage: debian-sources.py READ_DATE > debian.json
"""
import json
import os
import re
import subprocess
import sys

RELEASES = [
    # (release, codename, label)
    ("11", "bullseye", "Debian 11 (bullseye)"),
    ("12", "bookworm", "Debian 12 (bookworm)"),
    ("13", "trixie", "Debian 13 (trixie)"),
    ("sid", "sid", "Debian unstable (sid)"),
]
ALIASES = {"sid": ["unstable"]}


def madison(codename, packages):
    """{package: [(version, suite, source line)]}, newest first, as apt-cache madison says."""
    env = dict(os.environ, APT_CONFIG=f"/tmp/h30apt/{codename}/apt.conf")
    out = subprocess.run(["apt-cache", "madison", *packages], env=env, check=False,
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not parts[2].endswith("Packages"):
            continue
        pkg, version, where = parts
        # "http://deb.debian.org/debian bookworm/non-free amd64 Packages"
        suite = where.split()[1].split("/")[0]
        rows.setdefault(pkg, []).append((version, suite, where))
    return rows


def pkgnames(codename):
    env = dict(os.environ, APT_CONFIG=f"/tmp/h30apt/{codename}/apt.conf")
    out = subprocess.run(["apt-cache", "pkgnames", "nvidia-"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return sorted(set(out.split()))


def upstream(version):
    """The upstream version: no epoch, no Debian revision, no +dfsg/~bpo suffix."""
    v = version.split(":", 1)[-1].rsplit("-", 1)[0]
    return re.split(r"[+~]", v)[0]


def newer(a, b):
    """True when upstream version a is newer than b, by dpkg's ordering."""
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b], check=False).returncode == 0


def pick(rows, backports):
    """The newest version of the release's own suites, or of its backports."""
    for version, suite, where in rows:
        if suite.endswith("-backports") == backports:
            return version, suite, where
    return None


def main():
    read = sys.argv[1]
    out = []
    for release, codename, label in RELEASES:
        names = pkgnames(codename)
        tesla = sorted((n for n in names if re.fullmatch(r"nvidia-tesla-\d+-driver", n)),
                       key=lambda n: -int(n.split("-")[2]))
        legacy = sorted((n for n in names if re.fullmatch(r"nvidia-legacy-\d+xx-driver", n)),
                        key=lambda n: -int(n.split("-")[2][:-2]))
        hip = ["libamdhip64-6", "libamdhip64-5"]
        wanted = ["nvidia-driver", "nvidia-open-kernel-dkms", *tesla, *legacy,
                  "linux-image-amd64", *hip, "libze1", "intel-opencl-icd", "intel-media-va-driver"]
        m = madison(codename, wanted)
        base = dict(distro="debian", release=release, aliases=[codename, *ALIASES.get(codename, [])],
                    label=label)

        def row(vendor, package, picked, stack, install, note=None):
            version, suite, where = picked
            r = dict(base, suite=suite, vendor=vendor, package=package, version=version,
                     stack=stack, install=install,
                     source=f"apt-cache madison {package}: {where}", read=read)
            if note:
                r["note"] = note
            out.append(r)

        def rows_of(package, vendor, stack_of, install_of):
            have = m.get(package, [])
            main_ = pick(have, False)
            if main_:
                row(vendor, package, main_, stack_of(upstream(main_[0])), install_of(None))
            bpo = pick(have, True)
            if bpo and (not main_ or newer(upstream(bpo[0]), upstream(main_[0]))):
                row(vendor, package, bpo, stack_of(upstream(bpo[0])), install_of(bpo[1]))

        def apt(*pkgs):
            return lambda suite: "apt-get install " + (f"-t {suite} " if suite else "") + " ".join(pkgs)

        rows_of("nvidia-driver", "nvidia", lambda v: [f"proprietary:{v}"], apt("nvidia-driver"))
        rows_of("nvidia-open-kernel-dkms", "nvidia", lambda v: [f"open:{v}"],
                apt("nvidia-open-kernel-dkms", "nvidia-driver"))
        for p in [*tesla, *legacy]:
            rows_of(p, "nvidia", lambda v: [f"proprietary:{v}"], apt(p))

        kernels = m.get("linux-image-amd64", [])
        kmain, kbpo = pick(kernels, False), pick(kernels, True)
        hip_pkg = next((p for p in hip if pick(m.get(p, []), False)), None)
        if hip_pkg:
            h = pick(m[hip_pkg], False)
            rocm = upstream(h[0])
            for k in [kmain, kbpo]:
                if not k:
                    continue
                kpart = f"-t {k[1]} linux-image-amd64" if k[1].endswith("-backports") else "linux-image-amd64"
                row("amd", hip_pkg, h, [f"rocm:{rocm}", f"kernel:{upstream(k[0])}"],
                    f"apt-get install {hip_pkg} firmware-amd-graphics && apt-get install {kpart}",
                    note=f"Linux kernel from linux-image-amd64 {k[0]} ({k[1]})")
        intel_note = ", ".join(f"{p} {pick(m[p], False)[0]}" for p in
                               ["libze1", "intel-opencl-icd", "intel-media-va-driver"]
                               if pick(m.get(p, []), False))
        for k in [kmain, kbpo]:
            if not k:
                continue
            t = f"-t {k[1]} " if k[1].endswith("-backports") else ""
            row("intel", "linux-image-amd64", k, [f"kernel:{upstream(k[0])}"],
                f"apt-get install {t}linux-image-amd64",
                note=("user space in the release: " + intel_note) if intel_note else None)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
