//! The fake machine every scenario runs on: two NVIDIA GPUs, two AMD GPUs and one Intel GPU,
//! with the device nodes, majors and PCI addresses real drivers would give them.
//!
//! All of them exist as real character devices on the host for the whole run, whatever the
//! scenario: a scenario's fake root shows gpuctl only some vendors, and the container must then
//! hold exactly what gpuctl granted and none of the other nodes that sit next to them on the
//! host. Two orders are deliberately not the obvious ones, as on real machines:
//! NVIDIA's Device Minors are swapped relative to PCI order (index 0 is `/dev/nvidia1`), and
//! AMD's render numbers run against PCI order (amd:0 is `renderD130`).

use crate::check::{CharNode, Expectation};

/// NVIDIA's fixed character major (`nvidia`/`nvidia-frontend` in /proc/devices).
pub const NVIDIA_MAJOR: u32 = 195;
/// DRM's fixed character major.
pub const DRM_MAJOR: u32 = 226;

/// Majors Documentation/admin-guide/devices.txt reserves for local or experimental use. The
/// kernel never hands them out dynamically, so no driver can take one in the middle of a run;
/// `nvidia-uvm` and `kfd`, whose real majors are dynamic, get their fake majors from here.
pub const EXPERIMENTAL_MAJORS: [std::ops::RangeInclusive<u32>; 3] = [120..=127, 60..=63, 240..=254];

/// A GPU vendor of the fake machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vendor {
    /// NVIDIA: `/dev/nvidia*`, procfs minors.
    Nvidia,
    /// AMD: `/dev/kfd` and render nodes.
    Amd,
    /// Intel: render nodes.
    Intel,
}

/// One NVIDIA GPU.
#[derive(Debug, Clone, Copy)]
pub struct NvidiaGpu {
    /// PCI address; the index is the position in PCI order.
    pub addr: &'static str,
    /// The driver's Device Minor: the N of `/dev/nvidiaN`.
    pub minor: u32,
    /// The GPU UUID (a CDI device name, as nvidia-ctk declares it).
    pub uuid: &'static str,
}

/// The NVIDIA GPUs, in PCI (index) order: two GeForce RTX 4090 (`10de:2684`).
pub const NVIDIA_GPUS: [NvidiaGpu; 2] = [
    NvidiaGpu {
        addr: "0000:01:00.0",
        minor: 1,
        uuid: "GPU-c5432938-dbb4-a4d8-2151-363de7fbeb9d",
    },
    NvidiaGpu {
        addr: "0000:41:00.0",
        minor: 0,
        uuid: "GPU-d46b1407-0ddd-e2eb-2e7b-22a336b39e15",
    },
];

/// The NVIDIA nodes every GPU shares: (name under /dev, minor, on the nvidia-uvm major).
pub const NVIDIA_SHARED: [(&str, u32, bool); 4] = [
    ("nvidia-modeset", 254, false),
    ("nvidia-uvm", 0, true),
    ("nvidia-uvm-tools", 1, true),
    ("nvidiactl", 255, false),
];

/// One GPU with DRM render and card nodes.
#[derive(Debug, Clone, Copy)]
pub struct DrmGpu {
    /// AMD or Intel.
    pub vendor: Vendor,
    /// PCI address.
    pub addr: &'static str,
    /// PCI device id.
    pub device_id: u16,
    /// The N of `/dev/dri/cardN`.
    pub card: u32,
    /// The N of `/dev/dri/renderDN`.
    pub render: u32,
}

impl DrmGpu {
    /// `/dev/dri/renderDN`.
    pub fn render_path(&self) -> String {
        format!("/dev/dri/renderD{}", self.render)
    }

    /// `/dev/dri/cardN`.
    pub fn card_path(&self) -> String {
        format!("/dev/dri/card{}", self.card)
    }

    /// udev's `/dev/dri/by-path/pci-<addr>-render` link.
    pub fn by_path(&self) -> String {
        format!("/dev/dri/by-path/pci-{}-render", self.addr)
    }

    /// The PCI vendor id.
    pub fn pci_vendor(&self) -> u16 {
        match self.vendor {
            Vendor::Amd => 0x1002,
            _ => 0x8086,
        }
    }
}

/// The DRM GPUs: a Comet Lake iGPU, an RX 7900 XTX and an RX 7800 XT. In PCI order AMD's are
/// 03:00.0 (renderD130, amd:0) then 0b:00.0 (renderD129, amd:1).
pub const DRM_GPUS: [DrmGpu; 3] = [
    DrmGpu {
        vendor: Vendor::Intel,
        addr: "0000:00:02.0",
        device_id: 0x9b41,
        card: 0,
        render: 128,
    },
    DrmGpu {
        vendor: Vendor::Amd,
        addr: "0000:03:00.0",
        device_id: 0x744c,
        card: 2,
        render: 130,
    },
    DrmGpu {
        vendor: Vendor::Amd,
        addr: "0000:0b:00.0",
        device_id: 0x747e,
        card: 1,
        render: 129,
    },
];

/// AMD's compute node.
pub const KFD: &str = "/dev/kfd";

/// The fake machine, with the dynamic majors this run picked.
#[derive(Debug, Clone)]
pub struct Universe {
    /// The fake `nvidia-uvm` major.
    pub uvm_major: u32,
    /// The fake `kfd` major.
    pub kfd_major: u32,
}

impl Universe {
    /// Every node to create on the host, with its vendor.
    pub fn nodes(&self) -> Vec<(Vendor, CharNode)> {
        let mut out = Vec::new();
        for g in NVIDIA_GPUS {
            let path = format!("/dev/nvidia{}", g.minor);
            out.push((Vendor::Nvidia, CharNode::new(&path, NVIDIA_MAJOR, g.minor)));
        }
        for (name, minor, uvm) in NVIDIA_SHARED {
            let major = if uvm { self.uvm_major } else { NVIDIA_MAJOR };
            out.push((
                Vendor::Nvidia,
                CharNode::new(&format!("/dev/{name}"), major, minor),
            ));
        }
        out.push((Vendor::Amd, CharNode::new(KFD, self.kfd_major, 0)));
        for g in DRM_GPUS {
            out.push((g.vendor, CharNode::new(&g.card_path(), DRM_MAJOR, g.card)));
            out.push((
                g.vendor,
                CharNode::new(&g.render_path(), DRM_MAJOR, g.render),
            ));
        }
        out.sort_by(|a, b| a.1.path.cmp(&b.1.path));
        out
    }

    /// The by-path links to create on the host: (vendor, link, relative target).
    pub fn links(&self) -> Vec<(Vendor, String, String)> {
        DRM_GPUS
            .iter()
            .map(|g| (g.vendor, g.by_path(), format!("../renderD{}", g.render)))
            .collect()
    }

    /// Every path the fake machine has under /dev: nodes, then links.
    pub fn all_paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self.nodes().into_iter().map(|(_, n)| n.path).collect();
        paths.extend(self.links().into_iter().map(|(_, l, _)| l));
        paths
    }

    /// The majors of every fake GPU node.
    pub fn gpu_majors(&self) -> Vec<u32> {
        vec![NVIDIA_MAJOR, DRM_MAJOR, self.uvm_major, self.kfd_major]
    }

    /// The node at `path`; a by-path link stands for its render node's numbers, because the
    /// bind mount of the link puts the render node itself at the link's path.
    pub fn node_at(&self, path: &str) -> Option<CharNode> {
        if let Some(g) = DRM_GPUS.iter().find(|g| g.by_path() == path) {
            return Some(CharNode::new(path, DRM_MAJOR, g.render));
        }
        self.nodes()
            .into_iter()
            .map(|(_, n)| n)
            .find(|n| n.path == path)
    }

    /// What a container granted exactly `granted` (host paths) must show: those nodes, and
    /// nothing else of the fake machine.
    pub fn expectation(&self, granted: &[String]) -> Result<Expectation, String> {
        let mut nodes = Vec::new();
        for path in granted {
            nodes.push(self.node_at(path).ok_or_else(|| {
                format!("the scenario grants {path}, which the fake machine lacks")
            })?);
        }
        let absent = self
            .all_paths()
            .into_iter()
            .filter(|p| !granted.contains(p))
            .collect();
        Ok(Expectation {
            granted: nodes,
            absent,
            gpu_majors: self.gpu_majors(),
            groups: None,
            env: Vec::new(),
        })
    }
}

/// `/dev/nvidia*` as gpuctl's raw tier lists them for a whole grant: every entry, by name.
pub fn nvidia_raw_all() -> Vec<String> {
    let mut all: Vec<String> = NVIDIA_GPUS
        .iter()
        .map(|g| format!("/dev/nvidia{}", g.minor))
        .chain(NVIDIA_SHARED.iter().map(|(n, _, _)| format!("/dev/{n}")))
        .collect();
    all.sort();
    all
}

/// The raw tier's nodes for an index grant: the shared nodes by name, then each selected GPU's
/// `/dev/nvidia<Device Minor>`.
pub fn nvidia_raw_indexed(indexes: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = NVIDIA_SHARED
        .iter()
        .map(|(n, _, _)| format!("/dev/{n}"))
        .collect();
    out.sort();
    out.extend(
        indexes
            .iter()
            .filter_map(|&i| NVIDIA_GPUS.get(i))
            .map(|g| format!("/dev/nvidia{}", g.minor)),
    );
    out
}

/// The DRM GPUs of one vendor in index (PCI address) order.
pub fn drm_gpus(vendor: Vendor) -> Vec<DrmGpu> {
    let mut gpus: Vec<DrmGpu> = DRM_GPUS
        .iter()
        .copied()
        .filter(|g| g.vendor == vendor)
        .collect();
    gpus.sort_by_key(|g| g.addr);
    gpus
}

/// The character majors `/proc/devices` lists as registered.
pub fn registered_char_majors(proc_devices: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut in_char = false;
    for line in proc_devices.lines() {
        let t = line.trim();
        if t == "Character devices:" {
            in_char = true;
        } else if t.ends_with("devices:") {
            in_char = false;
        } else if in_char
            && let Some(Ok(major)) = t.split_whitespace().next().map(str::parse::<u32>)
        {
            out.push(major);
        }
    }
    out
}

/// `n` majors from the experimental ranges that `used` does not hold.
pub fn pick_free_majors(used: &[u32], n: usize) -> Option<Vec<u32>> {
    let free: Vec<u32> = EXPERIMENTAL_MAJORS
        .iter()
        .flat_map(|r| r.clone())
        .filter(|m| !used.contains(m))
        .take(n)
        .collect();
    (free.len() == n).then_some(free)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const PROC_DEVICES: &str = "Character devices:\n  1 mem\n  4 /dev/vc/0\n120 foo\n136 pts\n254 ndctl\n\nBlock devices:\n  7 loop\n121 blk\n";

    #[test]
    fn char_majors_only() {
        assert_eq!(registered_char_majors(PROC_DEVICES), [1, 4, 120, 136, 254]);
    }

    #[rstest]
    #[case(&[], Some(vec![120, 121]))]
    #[case(&[120, 122], Some(vec![121, 123]))]
    #[case(&[120, 121, 122, 123, 124, 125, 126, 127], Some(vec![60, 61]))]
    fn free_majors(#[case] used: &[u32], #[case] want: Option<Vec<u32>>) {
        assert_eq!(pick_free_majors(used, 2), want);
    }

    fn universe() -> Universe {
        Universe {
            uvm_major: 120,
            kfd_major: 121,
        }
    }

    #[test]
    fn minors_are_swapped_against_pci_order() {
        assert_eq!(
            nvidia_raw_indexed(&[1]).last().map(String::as_str),
            Some("/dev/nvidia0")
        );
        assert_eq!(
            nvidia_raw_all(),
            [
                "/dev/nvidia-modeset",
                "/dev/nvidia-uvm",
                "/dev/nvidia-uvm-tools",
                "/dev/nvidia0",
                "/dev/nvidia1",
                "/dev/nvidiactl"
            ]
        );
    }

    #[test]
    fn amd_render_order_runs_against_pci_order() {
        let amd: Vec<String> = drm_gpus(Vendor::Amd)
            .iter()
            .map(DrmGpu::render_path)
            .collect();
        assert_eq!(amd, ["/dev/dri/renderD130", "/dev/dri/renderD129"]);
    }

    #[test]
    fn a_by_path_link_has_its_render_nodes_numbers() {
        let u = universe();
        assert_eq!(
            u.node_at("/dev/dri/by-path/pci-0000:0b:00.0-render"),
            Some(CharNode::new(
                "/dev/dri/by-path/pci-0000:0b:00.0-render",
                226,
                129
            ))
        );
        assert_eq!(
            u.node_at("/dev/kfd"),
            Some(CharNode::new("/dev/kfd", 121, 0))
        );
    }

    #[test]
    fn expectation_makes_everything_else_absent() {
        let u = universe();
        let e = u.expectation(&["/dev/kfd".to_string()]).unwrap_or_default();
        assert_eq!(e.granted, [CharNode::new("/dev/kfd", 121, 0)]);
        assert_eq!(e.absent.len(), u.all_paths().len() - 1);
        assert!(e.absent.contains(&"/dev/nvidia0".to_string()));
        assert!(u.expectation(&["/dev/nope".to_string()]).is_err());
    }
}
