//! What this host and the Intel table say about an Intel failure: for a GPU the kernel would
//! bind only with `force_probe`, its platform, the kernel that binds it by default and the exact
//! parameter for this host's kernel (docs/requirement.md#intel-table).

use std::path::Path;

use gpuctl_core::plugin::FamilyCode;
use gpuctl_core::plugin::Probe;

use crate::families;
use crate::requirement::{INTEL_GPU_CLASSES, INTEL_VENDOR_ID, lookup};

/// The kernel release, as the kernel reports it.
const OSRELEASE: &str = "/proc/sys/kernel/osrelease";

/// Facts for `gpuctl explain` (see [`gpuctl_core::plugin::Diagnostics::explain_details`]).
pub fn details(code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
    if code != families::FORCE_PROBE && code != families::LEVEL_ZERO_NO_DEVICE {
        return Vec::new();
    }
    let host = probe.host();
    let kernel = host
        .read_to_string(Path::new(OSRELEASE), 4096)
        .ok()
        .map(|k| k.trim().to_string());
    let mut ids: Vec<u16> = device_in(text).into_iter().collect();
    let (gpus, _) = probe.pci().gpus_of(INTEL_VENDOR_ID, INTEL_GPU_CLASSES);
    for g in &gpus {
        if !ids.contains(&g.device_id) {
            ids.push(g.device_id);
        }
    }
    let mut out: Vec<String> = ids.iter().map(|&id| binding(id)).collect();
    if let Some(p) = parameter_in(text) {
        out.push(format!("the kernel's message names the parameter '{p}'"));
    }
    if ids.is_empty() {
        out.push("this host has no Intel GPU under /sys/bus/pci/devices".to_string());
    }
    out.push(match kernel {
        Some(k) => format!("this host runs kernel {k} ({OSRELEASE})"),
        None => format!("this host's kernel release is unknown ({OSRELEASE} unreadable)"),
    });
    out
}

/// The device id the kernel's message names: `Your graphics device 56a0 is not ...`.
fn device_in(text: &str) -> Option<u16> {
    let rest = &text[text.find("graphics device ")? + 16..];
    let id: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    (id.len() == 4).then(|| u16::from_str_radix(&id, 16).ok())?
}

/// What `gpuctl requirement` says of device `id`: its platform, the drivers that bind it and
/// from which kernel, with their `force_probe` parameters.
fn binding(id: u16) -> String {
    let gpu = lookup(id);
    let name = gpu
        .platform
        .unwrap_or("an Intel GPU the table does not name");
    format!(
        "8086:{id:04x} is {name}; 'gpuctl requirement 8086:{id:04x}': {}",
        gpu.requirement().describe()
    )
}

/// The module parameter the kernel's message names (`i915.force_probe=56c0`,
/// `xe.force_probe='4680'`).
fn parameter_in(text: &str) -> Option<String> {
    let at = text
        .find("use i915.force_probe=")
        .map(|a| a + 4)
        .or_else(|| text.find("use xe.force_probe=").map(|a| a + 4))?;
    let word: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .filter(|c| *c != '\'')
        .collect();
    Some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_id_is_read_from_the_kernel_message() {
        let t = "i915 0000:03:00.0: Your graphics device 56c0 is not properly supported";
        assert_eq!(device_in(t), Some(0x56c0));
        assert_eq!(device_in("no device"), None);
    }

    #[test]
    fn an_arc_gpu_names_its_platform_and_parameter() {
        let s = binding(0x56a0);
        assert!(
            s.contains("Alchemist") && s.contains("force_probe=56a0"),
            "{s}"
        );
        let xe = "To force Xe probe,\n use xe.force_probe='4680' and i915.force_probe='!4680'";
        assert_eq!(parameter_in(xe).as_deref(), Some("xe.force_probe=4680"));
    }
}
