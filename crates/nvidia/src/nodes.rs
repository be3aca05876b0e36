//! NVIDIA's raw tier: the `/dev/nvidia*` nodes and the device-minor map in procfs.

use std::path::{Path, PathBuf};

use gpuctl_core::GpuError;
use gpuctl_core::host::Host;
use gpuctl_core::text::{is_ascii_digits, py_splitlines, py_strip};

/// Marks the raw tier: the driver's control node.
pub const NVIDIA_CTL: &str = "/dev/nvidiactl";
/// Per-GPU procfs directories, named by PCI address.
pub const PROC_GPUS: &str = "/proc/driver/nvidia/gpus";

/// procfs `information` files are a dozen short lines.
const INFO_LIMIT: u64 = 64 * 1024;

fn host_error(e: gpuctl_core::HostError) -> GpuError {
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

/// The procfs entries (PCI addresses), sorted by name, or an empty list when there are none.
pub fn proc_entries(host: &Host) -> Result<Vec<String>, GpuError> {
    match host.list_dir(Path::new(PROC_GPUS)) {
        Ok(e) => Ok(e
            .iter()
            .filter_map(|e| e.name_str().map(str::to_string))
            .collect()),
        Err(e) if e.is_absent() => Ok(Vec::new()),
        Err(e) => Err(host_error(e)),
    }
}

/// One procfs entry's minor, or `None` when its information cannot be read or names none.
pub fn minor_of(host: &Host, entry: &str) -> Option<u32> {
    let path = PathBuf::from(PROC_GPUS).join(entry).join("information");
    match host.read_to_string(&path, INFO_LIMIT) {
        Ok(text) => parse_device_minor(&text),
        Err(e) => {
            tracing::debug!("{e}");
            None
        }
    }
}

/// The minors of every NVIDIA GPU in PCI-address order. One entry without a readable minor
/// refuses the whole map: skipping it could shift every later index onto the wrong GPU.
pub fn minors_by_pci_order(host: &Host) -> Result<Vec<u32>, GpuError> {
    let entries = proc_entries(host)?;
    if entries.is_empty() {
        return Err(unserved(format!(
            "the selection asks for an nvidia device by index, but the device-minor map under {PROC_GPUS} is unavailable — cannot identify the device nodes.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec."
        )));
    }
    entries
        .iter()
        .map(|entry| {
            minor_of(host, entry).ok_or_else(|| {
                unserved(format!(
                    "the selection asks for an nvidia device by index, but {entry} under {PROC_GPUS} exposes no readable 'Device Minor' — refusing a device map that could grant the wrong GPU.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec."
                ))
            })
        })
        .collect()
}

/// The raw nodes for an index grant: the shared nodes, then `/dev/nvidia<minor>` of each
/// selected GPU (built from the minor, not checked: the minor is the driver's word).
pub fn indexed_nodes(host: &Host, indexes: &[u32]) -> Result<Vec<String>, GpuError> {
    let minors = minors_by_pci_order(host)?;
    let bad: Vec<u32> = indexes
        .iter()
        .copied()
        .filter(|&i| i as usize >= minors.len())
        .collect();
    if !bad.is_empty() {
        return Err(unserved(format!(
            "the selection asks for nvidia device(s) {} but this host has {} NVIDIA device(s) (see /proc/driver/nvidia/gpus); choose an index below {}, or run 'gpuctl detect' to list them",
            gpuctl_core::text::py_int_list(&bad),
            minors.len(),
            minors.len()
        )));
    }
    let mut nodes = shared_nodes(&dev_entries(host)?);
    nodes.extend(
        indexes
            .iter()
            .map(|&i| format!("/dev/nvidia{}", minors[i as usize])),
    );
    Ok(nodes)
}

fn unserved(message: String) -> GpuError {
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
