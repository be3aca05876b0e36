#!/usr/bin/env python3
"""Writes amdgpu-kernels.tsv, amdgpu-si-cik.tsv and amdkfd-kernels.tsv from Debian's linux-source-* packages: for each
kernel release, every device id of amdgpu's pciidlist (drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c)
with its CHIP_* and whether it is flagged AMD_EXP_HW_SUPPORT, and whether amdgpu binds SI and CIK
chips by default or only with amdgpu.si_support=1 radeon.si_support=0 (cik_support the same),
and what amdkfd (drivers/gpu/drm/amd/amdkfd/kfd_device.c), ROCm's kernel side, supports: the
LLVM targets kgd2kfd_probe() gives (gfx_target_version) or, in trees before it has them, the
chips of kfd_supported_devices[].

Only the files named below are taken out of the package's linux-source-X.Y.tar.xz (with tar);
nothing is installed. The packages come from a private apt configuration, e.g.
  apt-get -o Dir::State=S -o Dir::Cache=C -o Dir::Etc::SourceList=L download linux-source-6.12

Usage: amdgpu-kernels.py OUTDIR DEB...
"""
import datetime
import os
import re
import subprocess
import sys
import tempfile

DRV = "drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c"
KFD = "drivers/gpu/drm/amd/amdkfd/kfd_device.c"
SI = ("TAHITI", "PITCAIRN", "VERDE", "OLAND", "HAINAN")
CIK = ("BONAIRE", "HAWAII", "KAVERI", "KABINI", "MULLINS")


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


def pciidlist(src):
    """(device id, chip, experimental) per entry, in both forms the trees use:
    {0x1002, 0x6860, PCI_ANY_ID, PCI_ANY_ID, 0, 0, CHIP_VEGA10} and
    { PCI_DEVICE(0x1002, 0x6860), .driver_data = CHIP_VEGA10 }."""
    body = re.search(r"struct pci_device_id pciidlist\[\] = \{(.*?)\n\};", src, re.S).group(1)
    out = []
    for m in re.finditer(r"0x1002,\s*0x([0-9a-fA-F]{4})\b[^}]*?CHIP_(\w+)([^}]*)\}", body):
        out.append((m.group(1).lower(), m.group(2), "AMD_EXP_HW_SUPPORT" in m.group(3)))
    return out


def default_binding(src, gen):
    """'amdgpu' when the release binds the generation's chips by default, 'radeon' when amdgpu
    leaves them to radeon unless amdgpu.<gen>_support=1 (with radeon built, as distributions do)."""
    param = f"amdgpu_{gen}_support"
    if re.search(rf"param = \"{gen}_support\";.*?support_by_default = true;", src, re.S):
        return "amdgpu"
    # Older trees: "int amdgpu_si_support = 0;" (6.12: left 0) when radeon is built, and a probe that returns
    # -ENODEV for SI chips while it is 0.
    if re.search(rf"#if (?:IS_ENABLED|defined)\(CONFIG_DRM_RADEON\)[^\n]*\n\s*int {param}( = 0)?;", src) and \
            f"Use radeon.{gen}_support=0 amdgpu.{gen}_support=1 to override" in src:
        return "radeon"
    sys.exit(f"no known form of {param} handling")


def kfd(src):
    """('target', gfxNNN) for each gfx_target_version kgd2kfd_probe() sets, or ('chip', NAME) for
    each entry of kfd_supported_devices[] in trees that have no gfx_target_version."""
    probe = re.search(r"^struct kfd_dev \*kgd2kfd_probe\(.*?^\}", src, re.M | re.S)
    body = probe.group(0) if probe else ""
    # "uint32_t gfx_target_version = 0;" is the initialisation, no target.
    versions = [int(v) for v in re.findall(r"gfx_target_version = (\d+);", body) if int(v)]
    if versions:
        out = []
        for v in versions:
            t = f"gfx{v // 10000}{v // 100 % 100}{v % 100:x}"
            if ("target", t) not in out:
                out.append(("target", t))
        return out
    table = re.search(r"kfd_supported_devices\[\]\[2\] = \{(.*?)\n\};", src, re.S)
    if not table:
        sys.exit("kfd_device.c has neither gfx_target_version nor kfd_supported_devices")
    return [("chip", c) for c in re.findall(r"\[CHIP_(\w+)\]", table.group(1))]


def main():
    out_dir, debs = sys.argv[1], sys.argv[2:]
    reads = []
    with tempfile.TemporaryDirectory() as tmp:
        for deb in debs:
            ver, root = extract(deb, [DRV, KFD], tmp)
            src = open(os.path.join(root, DRV)).read()
            kfd_src = open(os.path.join(root, KFD)).read()
            reads.append((ver, field(deb, "Package"), field(deb, "Version"), os.path.basename(deb), src, kfd_src))
    reads.sort(key=lambda r: [int(x) for x in r[0].split(".")])
    today = datetime.date.today().isoformat()
    sources = [f"#   {v}: {pkg} {dv} (Debian pool/main/l/linux/{f}), {pkg}/{DRV}" for v, pkg, dv, f, _, _ in reads]
    with open(os.path.join(out_dir, "amdgpu-kernels.tsv"), "w") as o:
        o.write("# amdgpu's pciidlist at each kernel release read: device id (lowercased), CHIP_* without the\n"
                "# prefix, and whether the entry is flagged AMD_EXP_HW_SUPPORT (binds only with\n"
                "# amdgpu.exp_hw_support=1). A release is the Makefile's VERSION.PATCHLEVEL.SUBLEVEL of the tree.\n"
                f"# Extracted {today} by amdgpu-kernels.py from Debian's linux-source packages (apt-get download,\n"
                "# only the file below taken out of the package's tarball):\n" + "\n".join(sources) + "\n"
                "# release\tdevice_id\tchip\texp_hw\n")
        for ver, _, _, _, src, _ in reads:
            for dev, chip, exp in pciidlist(src):
                o.write(f"{ver}\t{dev}\t{chip}\t{'yes' if exp else 'no'}\n")
    with open(os.path.join(out_dir, "amdgpu-si-cik.tsv"), "w") as o:
        o.write("# Which driver binds SI and CIK chips by default at each kernel release read, from amdgpu_drv.c:\n"
                "# 'radeon': amdgpu (built with CONFIG_DRM_AMDGPU_SI / _CIK) binds them only with\n"
                "# amdgpu.si_support=1 radeon.si_support=0 (cik_support the same) when radeon is built too, as\n"
                "# amdgpu_pci_probe's 'Use radeon.si_support=0 amdgpu.si_support=1 to override' says;\n"
                "# 'amdgpu': amdgpu_support_enabled() sets support_by_default for the generation.\n"
                f"# Extracted {today} by amdgpu-kernels.py from the same packages as amdgpu-kernels.tsv:\n"
                + "\n".join(sources) + "\n# release\tgeneration\tdefault_driver\tchips\n")
        for ver, _, _, _, src, _ in reads:
            for gen, chips in (("si", SI), ("cik", CIK)):
                o.write(f"{ver}\t{gen}\t{default_binding(src, gen)}\t{','.join(chips)}\n")
    kfd_sources = [s.replace(DRV, KFD) for s in sources]
    with open(os.path.join(out_dir, "amdkfd-kernels.tsv"), "w") as o:
        o.write("# What amdkfd (ROCm's kernel side) supports at each kernel release read, from kfd_device.c:\n"
                "# 'target' rows are the LLVM targets kgd2kfd_probe() sets as gfx_target_version\n"
                "# (major*10000 + minor*100 + stepping, written gfx<major><minor><stepping in hex>), some under\n"
                "# #ifdef KFD_SUPPORT_IOMMU_V2 or CONFIG_DRM_AMDGPU_CIK; 'chip' rows, for trees without\n"
                "# gfx_target_version, the CHIP_* entries of kfd_supported_devices[].\n"
                f"# Extracted {today} by amdgpu-kernels.py from the same packages as amdgpu-kernels.tsv:\n"
                + "\n".join(kfd_sources) + "\n# release\tkind\tvalue\n")
        for ver, _, _, _, _, kfd_src in reads:
            for kind, value in kfd(kfd_src):
                o.write(f"{ver}\t{kind}\t{value}\n")


if __name__ == "__main__":
    main()
