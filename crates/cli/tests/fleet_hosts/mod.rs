//! The NVIDIA hosts `fleet`'s tests build: one GPU, a loaded driver's banner.

use gpuctl_testkit::Tree;

pub const OPEN: &str = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U22-I3-AE18-23-3)  Thu Sep 18 20:38:17 UTC 2025\n";
pub const PROPRIETARY: &str =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu Sep 18 20:38:17 UTC 2025\n";

/// A host with one NVIDIA GPU `device` and the loaded driver's banner.
pub fn nvidia_host(name: &str, device: u16, banner: &str) -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", &format!("{name}\n"))
        .file("/proc/sys/kernel/osrelease", "6.8.0-60-generic\n")
        .pci("0000:01:00.0", 0x10de, device, 0x03_00_00)
        .link(
            "/sys/devices/pci0000:00/0000:01:00.0/driver",
            "../../../bus/pci/drivers/nvidia",
        )
        .file("/proc/driver/nvidia/version", banner)
        .nvidia_dev();
    t
}
