#!/usr/bin/env python3
"""Writes kernel-releases.tsv from Debian's linux-source-* packages: for each kernel release, every
device id that i915's pciidlist (drivers/gpu/drm/i915/i915_pci.c) and xe's
(drivers/gpu/drm/xe/xe_pci.c) bind, with the platform macro the list names it under and the gate
of the info/desc struct it points at: force_probe (.require_force_probe), alpha_support
(.is_alpha_support) or none. Macros are expanded with that release's own id header
(include/drm/i915_pciids.h, include/drm/intel/i915_pciids.h, include/drm/intel/xe_pciids.h or
include/drm/intel/pciids.h).

Only those files are taken out of the package's linux-source-X.Y.tar.xz (with tar); nothing is
installed. The packages come from a private apt configuration, e.g.
  apt-get -o Dir::State=S -o Dir::Cache=C -o Dir::Etc::SourceList=L download linux-source-6.12

Usage: kernel-releases.py DEB... > kernel-releases.tsv
"""
import datetime
import os
import re
import subprocess
import sys
import tempfile

I915 = "drivers/gpu/drm/i915/i915_pci.c"
XE = "drivers/gpu/drm/xe/xe_pci.c"
HEADERS = ["include/drm/i915_pciids.h", "include/drm/intel/i915_pciids.h",
           "include/drm/intel/xe_pciids.h", "include/drm/intel/pciids.h"]


def extract(deb, paths, into):
    """The kernel version and the tree root of `paths` taken from `deb`'s source tarball."""
    listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
    tarball = next(l.split()[-1] for l in listing.splitlines() if re.search(r"linux-source-[\d.]+\.tar\.xz$", l))
    top = os.path.basename(tarball)[: -len(".tar.xz")]
    fsys = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    inner = subprocess.Popen(["tar", "-xO", tarball], stdin=fsys.stdout, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-xJ", "-C", into, "--ignore-failed-read"] + [f"{top}/{p}" for p in paths + ["Makefile"]],
                   stdin=inner.stdout, stderr=subprocess.DEVNULL)
    root = os.path.join(into, top)
    mk = open(os.path.join(root, "Makefile")).read()
    ver = ".".join(re.search(rf"^{k} = (\d+)", mk, re.M).group(1) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL"))
    return ver, root


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True, check=True).stdout.strip()


def read(root, path):
    p = os.path.join(root, path)
    return open(p).read() if os.path.exists(p) else ""


def ids_of(name, defs, seen=()):
    body = defs.get(name, "")
    ids = [h.lower() for h in re.findall(r"0[xX]([0-9a-fA-F]{4})\b", body)]
    for sub in re.findall(r"\b((?:INTEL|XE)_\w+_IDS)\b", body):
        if sub != name and sub not in seen:
            ids += ids_of(sub, defs, seen + (name,))
    return ids


def driver(src, hdr, struct):
    """(device id, macro stem, gate) for each id of the file's pciidlist."""
    if not src:
        return []
    defs = {m.group(1): m.group(2) for m in re.finditer(r"^#define\s+(\w+)(?:\([^)]*\))?\s*(.*)$", hdr, re.M)}
    gates = {}
    for m in re.finditer(rf"^static const struct {struct} (\w+)(?:\s+__initconst)? = \{{(.*?)^\}};", src, re.M | re.S):
        body = m.group(2)
        gates[m.group(1)] = (
            "force_probe" if re.search(r"\.require_force_probe = (1|true)", body)
            else "alpha_support" if re.search(r"\.is_alpha_support = (1|true)", body)
            else "none"
        )
    table = re.search(r"struct pci_device_id pciidlist\[\] = \{(.*?)\n\};", src, re.S).group(1)
    out, seen = [], set()
    for m in re.finditer(r"\b((?:INTEL|XE)_(\w+?)_IDS)\((?:INTEL_(?:VGA|PCI)_DEVICE,\s*)?&(\w+)\)", table):
        for i in ids_of(m.group(1), defs):
            if i not in seen:
                seen.add(i)
                out.append((i, m.group(2), gates[m.group(3)]))
    return out


def main():
    reads = []
    with tempfile.TemporaryDirectory() as tmp:
        for deb in sys.argv[1:]:
            ver, root = extract(deb, [I915, XE] + HEADERS, tmp)
            hdr = "".join(read(root, p) for p in HEADERS).replace("\\\n", " ")
            rows = [("i915", *r) for r in driver(read(root, I915), hdr, "intel_device_info")]
            rows += [("xe", *r) for r in driver(read(root, XE), hdr, "xe_device_desc")]
            files = [p for p in [I915, XE] + HEADERS if read(root, p)]
            reads.append((ver, field(deb, "Package"), field(deb, "Version"), os.path.basename(deb), files, rows))
    reads.sort(key=lambda r: [int(x) for x in r[0].split(".")])
    print("# i915's and xe's pciidlist at each kernel release read: driver, device id (lowercased), the\n"
          "# platform macro stem the list names it under (INTEL_<stem>_IDS or XE_<stem>_IDS), and the gate of\n"
          "# the info/desc struct it points at: force_probe (.require_force_probe: binds only with\n"
          "# <driver>.force_probe=<id>), alpha_support (.is_alpha_support, before Linux 5.3) or none.\n"
          "# A release is the Makefile's VERSION.PATCHLEVEL.SUBLEVEL of the tree; a driver with no rows at a\n"
          "# release has no such file there (xe before 6.8).\n"
          f"# Extracted {datetime.date.today().isoformat()} by kernel-releases.py from Debian's linux-source packages\n"
          "# (apt-get download; only these files taken out of each package's tarball):")
    for ver, pkg, dv, f, files, _ in reads:
        print(f"#   {ver}: {pkg} {dv} (Debian pool/main/l/linux/{f}): {', '.join(files)}")
    print("# release\tdriver\tdevice_id\tmacro\tgate")
    for ver, _, _, _, _, rows in reads:
        for drv, dev, mac, gate in rows:
            print(f"{ver}\t{drv}\t{dev}\t{mac}\t{gate}")


if __name__ == "__main__":
    main()
