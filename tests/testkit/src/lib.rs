//! Fake host trees for tests, shaped the way the kernel and udev shape real ones: PCI devices
//! under `/sys/devices/pci0000:00/<addr>`, reached through relative links from
//! `/sys/bus/pci/devices` and `/sys/class/drm`; render nodes with a relative `device` link;
//! `/dev/dri/by-path` links relative to `/dev/dri`. Device nodes are empty regular files:
//! gpuctl only checks that they exist.
//!
//! Panics are fine here: a test that cannot build its tree should fail loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

/// A fake host root in a temporary directory, deleted when dropped.
pub struct Tree {
    dir: TempDir,
}

impl Default for Tree {
    fn default() -> Self {
        Self::new()
    }
}

impl Tree {
    /// An empty root.
    pub fn new() -> Self {
        Tree {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    /// The root directory, to pass as `--root`.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The real path of a host path (`/dev/kfd` → `<root>/dev/kfd`).
    pub fn path(&self, host_path: &str) -> PathBuf {
        self.root().join(host_path.trim_start_matches('/'))
    }

    /// Writes a file, creating its directories.
    pub fn file(&self, host_path: &str, content: &str) -> &Self {
        let p = self.path(host_path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, content).unwrap();
        self
    }

    /// Creates a directory.
    pub fn dir(&self, host_path: &str) -> &Self {
        fs::create_dir_all(self.path(host_path)).unwrap();
        self
    }

    /// Creates a symbolic link at `host_path` with the raw `target`.
    pub fn link(&self, host_path: &str, target: &str) -> &Self {
        let p = self.path(host_path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, &p).unwrap();
        self
    }

    /// Creates device nodes (empty files) under `/dev`: `tree.dev(&["nvidiactl", "nvidia0"])`.
    pub fn dev(&self, names: &[&str]) -> &Self {
        for n in names {
            self.file(&format!("/dev/{n}"), "");
        }
        self
    }

    /// Gives a node the mode and group udev would (`0660` and the render group): fixture nodes
    /// are plain files of the test's own user and umask.
    pub fn owned(&self, host_path: &str, mode: u32, gid: u32) -> &Self {
        use std::os::unix::fs::PermissionsExt;
        let p = self.path(host_path);
        std::os::unix::fs::chown(&p, None, Some(gid)).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    /// `nvidiactl`, `nvidia0`, `nvidia1`, `nvidia-uvm`: the reference's usual NVIDIA `/dev`.
    pub fn nvidia_dev(&self) -> &Self {
        self.dev(&["nvidiactl", "nvidia0", "nvidia1", "nvidia-uvm"])
    }

    /// A PCI function with its vendor, device and class files, and the
    /// `/sys/bus/pci/devices/<addr>` link.
    pub fn pci(&self, addr: &str, vendor: u16, device: u16, class: u32) -> &Self {
        let dir = format!("/sys/devices/pci0000:00/{addr}");
        self.file(&format!("{dir}/vendor"), &format!("0x{vendor:04x}\n"));
        self.file(&format!("{dir}/device"), &format!("0x{device:04x}\n"));
        self.file(&format!("{dir}/class"), &format!("0x{class:06x}\n"));
        self.link(
            &format!("/sys/bus/pci/devices/{addr}"),
            &format!("../../../devices/pci0000:00/{addr}"),
        );
        self
    }

    /// A render node `name` of the PCI function `addr` whose `vendor` file holds `vendor_text`
    /// verbatim (`"0x1002\n"`), linked from `/sys/class/drm/<name>`.
    pub fn render_node_raw(&self, name: &str, vendor_text: &str, addr: &str) -> &Self {
        let dev_dir = format!("/sys/devices/pci0000:00/{addr}");
        self.file(&format!("{dev_dir}/vendor"), vendor_text);
        self.file(&format!("{dev_dir}/drm/{name}/dev"), "226:128\n");
        self.link(
            &format!("{dev_dir}/drm/{name}/device"),
            &format!("../../../{addr}"),
        );
        self.link(
            &format!("/sys/class/drm/{name}"),
            &format!("../../devices/pci0000:00/{addr}/drm/{name}"),
        );
        self
    }

    /// A node `name` of the sysfs class `class` (`accel`, `habanalabs`) that belongs to the PCI
    /// function `addr`: `/sys/class/<class>/<name>` leads to the function's `<class>/<name>`
    /// directory, whose `device` link leads to the function (as the kernel lays it out), and
    /// `/dev/<dev_path>` is the node. The function itself comes from [`Tree::pci`].
    pub fn class_node(&self, class: &str, name: &str, addr: &str, dev_path: &str) -> &Self {
        let dev_dir = format!("/sys/devices/pci0000:00/{addr}");
        self.file(&format!("{dev_dir}/{class}/{name}/dev"), "261:0\n");
        self.link(
            &format!("{dev_dir}/{class}/{name}/device"),
            &format!("../../../{addr}"),
        );
        self.link(
            &format!("/sys/class/{class}/{name}"),
            &format!("../../devices/pci0000:00/{addr}/{class}/{name}"),
        );
        self.file(dev_path, "")
    }

    /// A render node of PCI vendor `vendor` (`0x1002`) at `addr`.
    pub fn render_node(&self, name: &str, vendor: &str, addr: &str) -> &Self {
        self.render_node_raw(name, &format!("{vendor}\n"), addr)
    }

    /// The udev link `/dev/dri/by-path/pci-<addr>-render -> ../<name>` and the node itself.
    pub fn by_path(&self, addr: &str, name: &str) -> &Self {
        self.file(&format!("/dev/dri/{name}"), "");
        self.link(
            &format!("/dev/dri/by-path/pci-{addr}-render"),
            &format!("../{name}"),
        )
    }

    /// A procfs entry `/proc/driver/nvidia/gpus/<addr>/information` with the given minor
    /// (`None`: no `Device Minor` line).
    pub fn nvidia_proc(&self, addr: &str, minor: Option<u32>) -> &Self {
        let mut info = format!(
            "Model: \t\t NVIDIA Test GPU\nIRQ:   \t\t 42\nBus Type: \t PCIe\nBus Location: \t {addr}\n"
        );
        if let Some(m) = minor {
            info.push_str(&format!("Device Minor: \t {m}\n"));
        }
        info.push_str("GPU Excluded:\t No\n");
        self.file(
            &format!("/proc/driver/nvidia/gpus/{addr}/information"),
            &info,
        )
    }

    /// A minimal valid CDI spec of `kind` declaring `names`, at `host_path`; of kind
    /// `nvidia.com/gpu`, with the spec-wide `NVIDIA_VISIBLE_DEVICES=void` that `nvidia-ctk`
    /// writes since toolkit 1.15 (docs/vendors.md#nvidia-cdi-tier).
    pub fn cdi_spec(&self, host_path: &str, kind: &str, names: &[&str]) -> &Self {
        let mut text = cdi_yaml(kind, names);
        if kind == "nvidia.com/gpu" {
            text.push_str("containerEdits:\n  env: [\"NVIDIA_VISIBLE_DEVICES=void\"]\n");
        }
        self.file(host_path, &text)
    }

    /// The legacy NVIDIA OCI hook file in `/usr/share/containers/oci/hooks.d`.
    pub fn nvidia_hook(&self) -> &Self {
        self.file(
            "/usr/share/containers/oci/hooks.d/oci-nvidia-hook.json",
            r#"{"version":"1.0.0","hook":{"path":"/usr/bin/nvidia-container-toolkit","args":["nvidia-container-toolkit","prestart"]},"when":{"always":true,"commands":[".*"]},"stages":["prestart"]}"#,
        )
    }
}

/// A group other than 0 that this process may give its files with [`Tree::owned`]: 44 (video)
/// as root, else its own group; `None` for a non-root process whose group is 0.
pub fn other_gid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let me = fs::metadata("/proc/self").unwrap();
    match (me.uid(), me.gid()) {
        (0, _) => Some(44),
        (_, 0) => None,
        (_, g) => Some(g),
    }
}

/// A valid CDI spec in YAML: cdiVersion 0.5.0, one device node per name.
pub fn cdi_yaml(kind: &str, names: &[&str]) -> String {
    let mut s = format!("cdiVersion: \"0.5.0\"\nkind: \"{kind}\"\ndevices:\n");
    for (i, n) in names.iter().enumerate() {
        s.push_str(&format!(
            "  - name: \"{n}\"\n    containerEdits:\n      deviceNodes:\n        - path: \"/dev/fake{i}\"\n"
        ));
    }
    s
}
pub mod readback;
