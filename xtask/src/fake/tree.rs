//! The fake host tree a scenario hands gpuctl with `--root`: the sysfs, procfs, `/dev` and
//! CDI files gpuctl reads, shaped as the kernel and udev shape them (relative links, kernel
//! file formats), for the vendors the scenario shows. Its `/dev` entries are empty files named
//! after the real nodes that [`super::nodes`] made on the host: gpuctl only checks that they
//! exist, and podman then opens the host paths gpuctl prints.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::universe::{DRM_GPUS, DRM_MAJOR, KFD, NVIDIA_GPUS, NVIDIA_SHARED, Vendor};

/// The legacy NVIDIA hook's file, as nvidia-container-toolkit installed it
/// (docs/vendors.md#nvidia-hook-tier).
pub const NVIDIA_HOOK: &str = "/usr/share/containers/oci/hooks.d/oci-nvidia-hook.json";
const NVIDIA_HOOK_JSON: &str = r#"{
    "version": "1.0.0",
    "hook": {
        "path": "/usr/bin/nvidia-container-toolkit",
        "args": ["nvidia-container-toolkit", "prestart"],
        "env": [
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        ]
    },
    "when": {
        "always": true,
        "commands": [".*"]
    },
    "stages": ["prestart"]
}
"#;

/// A fake host root directory.
#[derive(Debug)]
pub struct FakeRoot {
    root: PathBuf,
}

impl FakeRoot {
    /// A fresh, empty root at `dir` (whatever was there, from an earlier run, is replaced).
    pub fn create(dir: &Path) -> Result<Self, String> {
        if dir.exists() {
            fs::remove_dir_all(dir)
                .map_err(|e| format!("cannot clear the old fake root {}: {e}", dir.display()))?;
        }
        fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the fake root {}: {e}", dir.display()))?;
        Ok(FakeRoot {
            root: dir.to_path_buf(),
        })
    }

    /// The directory to pass as `--root`.
    pub fn path(&self) -> &Path {
        &self.root
    }

    fn under(&self, host_path: &str) -> PathBuf {
        self.root.join(host_path.trim_start_matches('/'))
    }

    fn parent_of(&self, p: &Path) -> Result<(), String> {
        match p.parent() {
            Some(dir) => {
                fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
            }
            None => Ok(()),
        }
    }

    /// Writes the file `host_path` under the root.
    pub fn file(&self, host_path: &str, content: &str) -> Result<(), String> {
        let p = self.under(host_path);
        self.parent_of(&p)?;
        fs::write(&p, content).map_err(|e| format!("cannot write {}: {e}", p.display()))
    }

    /// Creates the link `host_path` → `target` (relative, as the kernel writes them).
    pub fn link(&self, host_path: &str, target: &str) -> Result<(), String> {
        let p = self.under(host_path);
        self.parent_of(&p)?;
        symlink(target, &p).map_err(|e| format!("cannot create the link {}: {e}", p.display()))
    }

    /// A PCI function: attribute files in the kernel's formats and the bus link.
    fn pci(
        &self,
        addr: &str,
        vendor: u16,
        device: u16,
        class: u32,
        driver: &str,
    ) -> Result<(), String> {
        let dir = format!("/sys/devices/pci0000:00/{addr}");
        self.file(&format!("{dir}/vendor"), &format!("0x{vendor:04x}\n"))?;
        self.file(&format!("{dir}/device"), &format!("0x{device:04x}\n"))?;
        self.file(&format!("{dir}/class"), &format!("0x{class:06x}\n"))?;
        self.file(
            &format!("{dir}/uevent"),
            &format!(
                "DRIVER={driver}\nPCI_CLASS={:X}\nPCI_ID={vendor:04X}:{device:04X}\nPCI_SLOT_NAME={addr}\n",
                class
            ),
        )?;
        self.link(
            &format!("/sys/bus/pci/devices/{addr}"),
            &format!("../../../devices/pci0000:00/{addr}"),
        )
    }

    /// One DRM minor (`cardN` or `renderDN`) of the PCI function `addr`.
    fn drm_minor(&self, addr: &str, name: &str, minor: u32) -> Result<(), String> {
        let dir = format!("/sys/devices/pci0000:00/{addr}/drm/{name}");
        self.file(&format!("{dir}/dev"), &format!("{DRM_MAJOR}:{minor}\n"))?;
        self.file(
            &format!("{dir}/uevent"),
            &format!("MAJOR={DRM_MAJOR}\nMINOR={minor}\nDEVNAME=dri/{name}\nDEVTYPE=drm_minor\n"),
        )?;
        self.link(&format!("{dir}/device"), &format!("../../../{addr}"))?;
        self.link(
            &format!("/sys/class/drm/{name}"),
            &format!("../../devices/pci0000:00/{addr}/drm/{name}"),
        )?;
        self.file(&format!("/dev/dri/{name}"), "")
    }

    /// Everything gpuctl reads about `vendor`'s GPUs of the fake machine.
    pub fn vendor(&self, vendor: Vendor) -> Result<(), String> {
        match vendor {
            Vendor::Nvidia => self.nvidia(),
            Vendor::Amd | Vendor::Intel => self.drm_vendor(vendor),
        }
    }

    fn nvidia(&self) -> Result<(), String> {
        for g in NVIDIA_GPUS {
            self.pci(g.addr, 0x10de, 0x2684, 0x030000, "nvidia")?;
            self.file(
                &format!("/proc/driver/nvidia/gpus/{}/information", g.addr),
                &format!(
                    "Model: \t\t NVIDIA GeForce RTX 4090\nIRQ:   \t\t 180\nGPU UUID: \t {}\nVideo BIOS: \t 95.02.18.80.87\nBus Type: \t PCIe\nDMA Size: \t 47 bits\nDMA Mask: \t 0x7fffffffffff\nBus Location: \t {}\nDevice Minor: \t {}\nGPU Excluded:\t No\n",
                    g.uuid, g.addr, g.minor
                ),
            )?;
            self.file(&format!("/dev/nvidia{}", g.minor), "")?;
        }
        for (name, _, _) in NVIDIA_SHARED {
            self.file(&format!("/dev/{name}"), "")?;
        }
        self.file(
            "/proc/driver/nvidia/version",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.172.08  Tue Jul  8 18:03:18 UTC 2025\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n",
        )
    }

    fn drm_vendor(&self, vendor: Vendor) -> Result<(), String> {
        self.file("/sys/class/drm/version", "drm 1.1.0 20060810\n")?;
        let driver = if vendor == Vendor::Amd {
            "amdgpu"
        } else {
            "i915"
        };
        for g in DRM_GPUS.iter().filter(|g| g.vendor == vendor) {
            self.pci(g.addr, g.pci_vendor(), g.device_id, 0x030000, driver)?;
            self.drm_minor(g.addr, &format!("card{}", g.card), g.card)?;
            self.drm_minor(g.addr, &format!("renderD{}", g.render), g.render)?;
            self.link(&g.by_path(), &format!("../renderD{}", g.render))?;
        }
        if vendor == Vendor::Amd {
            self.file(KFD, "")?;
        }
        Ok(())
    }

    /// An Intel GPU at `addr` with DRM minors `card` and `render`, and no by-path link: a GPU
    /// whose nodes need not be the fake machine's.
    pub fn intel_gpu(&self, addr: &str, device: u16, card: u32, render: u32) -> Result<(), String> {
        self.file("/sys/class/drm/version", "drm 1.1.0 20060810\n")?;
        self.pci(addr, 0x8086, device, 0x030000, "i915")?;
        self.drm_minor(addr, &format!("card{card}"), card)?;
        self.drm_minor(addr, &format!("renderD{render}"), render)
    }

    /// The legacy NVIDIA OCI hook file.
    pub fn nvidia_hook(&self) -> Result<(), String> {
        self.file(NVIDIA_HOOK, NVIDIA_HOOK_JSON)
    }
}
