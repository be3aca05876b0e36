//! NVIDIA's raw tier: the `/dev/nvidia*` nodes and the device-minor map in procfs.

use std::path::Path;

use gpuctl_core::GpuError;
use gpuctl_core::host::Host;
use gpuctl_core::text::{is_ascii_digits, py_splitlines, py_strip};

use crate::numbering::Numbering;

/// Marks the raw tier: the driver's control node.
pub const NVIDIA_CTL: &str = "/dev/nvidiactl";
/// Per-GPU procfs directories, named by PCI address.
pub const PROC_GPUS: &str = "/proc/driver/nvidia/gpus";

/// procfs `information` files are a dozen short lines.
const INFO_LIMIT: u64 = 64 * 1024;

pub(crate) fn host_error(e: gpuctl_core::HostError) -> GpuError {
    GpuError::host(e, "check that /dev and /proc are the host's".to_string())
}

/// Every `/dev` entry whose name starts with `nvidia` (nodes, the `nvidia-caps` directory,
/// dangling links alike), sorted by name: `nvidia10` before `nvidia2`, as the reference sorts.
pub fn dev_entries(host: &Host) -> Result<Vec<String>, GpuError> {
    let entries = match host.list_dir(Path::new("/dev")) {
        Ok(e) => e,
        Err(e) if e.is_absent() => return Ok(Vec::new()),
        Err(e) => return Err(host_error(e)),
    };
    Ok(entries
        .iter()
        .filter_map(|e| e.name_str())
        .filter(|n| n.starts_with("nvidia"))
        .map(|n| format!("/dev/{n}"))
        .collect())
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

/// The raw nodes for an index grant: the shared nodes, then `/dev/nvidia<minor>` of each
/// selected GPU, the minor looked up by the GPU's PCI address (built from the minor, not
/// checked: the minor is the driver's word). A numbering that cannot be trusted is refused
/// whichever index is asked for, as the reference refuses a gappy map.
pub fn indexed_nodes(
    host: &Host,
    numbering: &Numbering,
    indexes: &[u32],
) -> Result<Vec<String>, GpuError> {
    if let Some(refusal) = numbering.refusal() {
        return Err(refusal);
    }
    let n = numbering.gpus.len();
    let bad: Vec<u32> = indexes
        .iter()
        .copied()
        .filter(|&i| i as usize >= n)
        .collect();
    if !bad.is_empty() {
        return Err(unserved(format!(
            "the selection asks for nvidia device(s) {} but this host has {n} NVIDIA device(s) (see /proc/driver/nvidia/gpus); choose an index below {n}, or run 'gpuctl detect' to list them",
            gpuctl_core::text::py_int_list(&bad),
        )));
    }
    let minors = indexes
        .iter()
        .map(|&i| numbering.minor_at(host, i))
        .collect::<Result<Vec<u32>, GpuError>>()?;
    let mut nodes = shared_nodes(&dev_entries(host)?);
    nodes.extend(minors.iter().map(|m| format!("/dev/nvidia{m}")));
    Ok(nodes)
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
