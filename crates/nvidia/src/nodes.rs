//! NVIDIA's raw tier: the `/dev` nodes its driver makes (and no link that leads elsewhere), and the
//! device minors in procfs; which GPU has which minor is numbering.rs's business.

use std::path::Path;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::devnode;
use gpuctl_core::plugin::text::{escape_controls, is_ascii_digits, py_splitlines, py_strip};
use gpuctl_core::plugin::{Finding, GpuError};

/// Marks the raw tier: the driver's control node.
pub const NVIDIA_CTL: &str = "/dev/nvidiactl";
/// Per-GPU procfs directories, named by PCI address.
pub const PROC_GPUS: &str = "/proc/driver/nvidia/gpus";

/// The most NVSwitch nodes the driver makes: `NVSWITCH_DEVICE_INSTANCE_MAX` is 64.
const NVSWITCH_MAX: u32 = 63;
/// The largest minor the nvidia driver gives a GPU. NVIDIA's open-gpu-kernel-modules (tag
/// 595.45.04, `kernel-open/common/inc/nv-chardev-numbers.h`) reserves minors 0 to 247 of major
/// 195 for GPUs (`NV_MINOR_DEVICE_NUMBER_REGULAR_MAX`), leaves 248 to 253 unused, and gives 254
/// to nvidia-modeset and 255 to nvidiactl; `nv.c` hands GPUs the lowest free minor of 0..=247.
/// A `Device Minor` outside that range is no GPU's.
pub const GPU_MINOR_MAX: u32 = 247;
/// procfs `information` files are a dozen short lines.
const INFO_LIMIT: u64 = 64 * 1024;

pub(crate) fn host_error(e: gpuctl_core::plugin::HostError) -> GpuError {
    GpuError::host(e, "check that /dev and /proc are the host's".to_string())
}

/// True for the names NVIDIA's driver stack gives its nodes directly under `/dev`, as
/// NVIDIA's open-gpu-kernel-modules (tag 595.45.04) registers them: `nvidiactl` and
/// `nvidia<minor>` for minors 0 to 247 (`nv.c`, `nv-chardev-numbers.h`), `nvidia-modeset`
/// (`nvidia-modeset-linux.c`), `nvidia-uvm` and `nvidia-uvm-tools` (`uvm.c`, `uvm_tools.c`),
/// `nvidia-nvlink` (`nvlink_linux.h`), `nvidia-nvswitchctl` and `nvidia-nvswitch<N>` for N
/// below 64 (`linux_nvswitch.c`, `export_nvswitch.h`), and the directories `nvidia-caps`
/// (`nv-caps.c`) and `nvidia-caps-imex-channels` (`nv-caps-imex.c`).
pub fn is_driver_node_name(name: &str) -> bool {
    let numbered = |prefix: &str, max: u32| {
        name.strip_prefix(prefix).is_some_and(|n| {
            is_ascii_digits(n)
                && (n == "0" || !n.starts_with('0'))
                && n.parse::<u32>().is_ok_and(|v| v <= max)
        })
    };
    matches!(
        name,
        "nvidiactl"
            | "nvidia-modeset"
            | "nvidia-uvm"
            | "nvidia-uvm-tools"
            | "nvidia-nvlink"
            | "nvidia-nvswitchctl"
            | "nvidia-caps"
            | "nvidia-caps-imex-channels"
    ) || numbered("nvidia", GPU_MINOR_MAX)
        || numbered("nvidia-nvswitch", NVSWITCH_MAX)
}

/// The driver's directories of per-capability nodes; every other node is a file.
fn is_driver_dir_name(name: &str) -> bool {
    matches!(name, "nvidia-caps" | "nvidia-caps-imex-channels")
}

/// The NVIDIA nodes of `/dev` a raw grant passes, and why others were left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DevNodes {
    /// Host paths, sorted by name: `nvidia10` before `nvidia2`, as the reference sorts.
    pub nodes: Vec<String>,
    /// At most one finding naming the `nvidia*` entries that are not granted.
    pub warnings: Vec<Finding>,
}

/// The `/dev` entries NVIDIA's driver makes (nodes and the `nvidia-caps` directories). Any
/// other `nvidia*` entry is left out with a warning: a name the driver does not make, a
/// directory where the driver makes a node, or a symbolic link that leads anywhere but to
/// another of the driver's nodes (podman would hand the container the link's target:
/// `/dev/nvidia-bmc -> dri/renderD130` is a BMC's render node).
pub fn dev_nodes(host: &Host) -> Result<DevNodes, GpuError> {
    let entries = match host.list_dir(Path::new("/dev")) {
        Ok(e) => e,
        Err(e) if e.is_absent() => return Ok(DevNodes::default()),
        Err(e) => return Err(host_error(e)),
    };
    let mut out = DevNodes::default();
    let mut left_out = Vec::new();
    for entry in &entries {
        if !entry.name.as_encoded_bytes().starts_with(b"nvidia") {
            continue;
        }
        let shown = format!("/dev/{}", escape_controls(&entry.name.to_string_lossy()));
        let Some(name) = entry.name_str().filter(|n| is_driver_node_name(n)) else {
            left_out.push(format!("{shown} (not a node NVIDIA's GPU driver makes)"));
            continue;
        };
        let path = format!("/dev/{name}");
        if entry.is_symlink {
            if let Err(why) = devnode::vet_link(host, Path::new(&path), leads_to_driver_node) {
                left_out.push(format!("{shown} ({})", why.0));
                continue;
            }
        } else if entry.is_dir != is_driver_dir_name(name) {
            let what = if entry.is_dir {
                "a directory"
            } else {
                "not a directory"
            };
            left_out.push(format!("{shown} ({what}, unlike the driver's)"));
            continue;
        }
        out.nodes.push(path);
    }
    if !left_out.is_empty() {
        let entries = left_out.join(", ");
        out.warnings.push(Finding::vendor(
            "nvidia",
            "nvidia-nodes-not-granted",
            vec![("entries", entries.clone())],
            format!(
                "not granted: {entries} — only the nodes NVIDIA's driver makes are passed; add any other with --device yourself if the container needs it"
            ),
        ));
    }
    Ok(out)
}

/// True when a link's target is itself one of the driver's nodes in `/dev`.
pub(crate) fn leads_to_driver_node(target: &Path) -> bool {
    devnode::is_node_in(target, "/dev", is_driver_node_name)
}

/// A per-GPU node must be the node itself: a link there could lead to any other device.
pub(crate) fn check_gpu_node(host: &Host, path: &str) -> Result<(), GpuError> {
    match host.read_link(Path::new(path)) {
        Ok(target) => Err(unserved(format!(
            "{path} is a symbolic link (to {}), not the GPU's device node — refusing to grant what it leads to; check the host's /dev",
            target.display().to_string().escape_debug()
        ))),
        Err(_) => Ok(()),
    }
}

/// The shared nodes: `/dev/nvidia*` whose suffix is not all digits (`nvidiactl`,
/// `nvidia-uvm`, `nvidia-caps`, ...), in sorted order.
pub fn shared_nodes(entries: &[String]) -> Vec<String> {
    entries
        .iter()
        .filter(|p| !is_ascii_digits(p.trim_start_matches("/dev/nvidia")))
        .cloned()
        .collect()
}

/// The `Device Minor` of one procfs `information` text: the first line whose key (split at the
/// first `:`, stripped) is exactly `Device Minor` and whose value is all digits.
pub fn parse_device_minor(information: &str) -> Option<u32> {
    py_splitlines(information).into_iter().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = py_strip(value);
        (py_strip(key) == "Device Minor" && is_ascii_digits(value)).then(|| value.parse().ok())?
    })
}

/// The minor in the `information` file of one procfs entry (`dir`, a host path), or `None`
/// when it cannot be read or names none.
pub fn minor_of(host: &Host, dir: &Path) -> Option<u32> {
    match host.read_to_string(&dir.join("information"), INFO_LIMIT) {
        Ok(text) => parse_device_minor(&text),
        Err(e) => {
            tracing::debug!("{e}");
            None
        }
    }
}

pub(crate) fn unserved(message: String) -> GpuError {
    GpuError::Unserved {
        vendor: "nvidia".to_string(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("Model: \t\t NVIDIA B200\nDevice Minor: \t 3\n", Some(3))]
    #[case("Device Minor: x\nDevice Minor : 3\n", Some(3))]
    #[case("device minor: 3\n", None)]
    #[case("Bus Location: \t 0000:01:00.0\r\nDevice Minor:\t 12\r\n", Some(12))]
    #[case("Device Minor: \u{663}\n", None)]
    #[case("Device Minor: 99999999999\nDevice Minor: 4", Some(4))]
    #[case("", None)]
    #[case("Device Minor:\u{1c}5\u{1f}", None)] // \x1c is a line break to Python
    fn device_minor(#[case] text: &str, #[case] want: Option<u32>) {
        assert_eq!(parse_device_minor(text), want);
    }

    #[rstest]
    #[case("nvidiactl", true)]
    #[case("nvidia0", true)]
    #[case("nvidia247", true)]
    #[case("nvidia248", false)]
    #[case("nvidia01", false)]
    #[case("nvidia", false)]
    #[case("nvidia-uvm-tools", true)]
    #[case("nvidia-nvswitch63", true)]
    #[case("nvidia-nvswitch64", false)]
    #[case("nvidia-nvswitchctl", true)]
    #[case("nvidia-nvlink", true)]
    #[case("nvidia-caps", true)]
    #[case("nvidia-caps-imex-channels", true)]
    #[case("nvidia-bmc", false)]
    #[case("nvidia-fs0", false)]
    #[case("nvidia0 --privileged", false)]
    #[case("nvidia\u{663}", false)]
    fn driver_node_names(#[case] name: &str, #[case] want: bool) {
        assert_eq!(is_driver_node_name(name), want);
    }

    #[test]
    fn shared_nodes_are_the_non_numeric_ones_in_sorted_order() {
        let entries: Vec<String> = [
            "nvidia-caps",
            "nvidia-modeset",
            "nvidia-uvm",
            "nvidia-uvm-tools",
            "nvidia0",
            "nvidia1",
            "nvidia10",
            "nvidia2",
            "nvidiactl",
        ]
        .iter()
        .map(|n| format!("/dev/{n}"))
        .collect();
        let shared = shared_nodes(&entries);
        assert_eq!(
            shared,
            [
                "/dev/nvidia-caps",
                "/dev/nvidia-modeset",
                "/dev/nvidia-uvm",
                "/dev/nvidia-uvm-tools",
                "/dev/nvidiactl"
            ]
        );
    }
}
