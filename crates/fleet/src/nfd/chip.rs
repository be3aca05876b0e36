//! The NVIDIA chip labels that sit beside GPU Feature Discovery's: the architecture, the CUDA
//! compute capability and MIG capability, each from the report's devices, which took them from
//! bundled tables (gpuctl_nvidia::chips), not from NVML: they are there before a driver loads
//! (docs/fleet.md#beside-gpu-feature-discovery).

use super::Labels;
use crate::model::VendorEntry;

/// One value every device has, or `None` (a device without it, or two that differ).
fn all_same<T: PartialEq + Copy>(mut values: impl Iterator<Item = Option<T>>) -> Option<T> {
    let first = values.next()??;
    values.all(|v| v == Some(first)).then_some(first)
}

/// `<v>.architecture` and `<v>.compute.major`, `.minor` when every GPU shares them (a host of
/// two architectures has neither: no one value is true of it); `<v>.mig.capable=true` when any
/// GPU is MIG-capable, as GFD's `nvidia.com/mig.capable`, `false` only when every GPU is known
/// not to be.
pub(crate) fn chip_labels(l: &mut Labels, v: &VendorEntry) {
    let name = v.vendor.as_str();
    if let Some(a) = all_same(v.devices.iter().map(|d| d.architecture.as_deref())) {
        l.add_host(&format!("{name}.architecture"), a);
    }
    let compute = all_same(v.devices.iter().map(|d| {
        d.compute_capability
            .as_deref()
            .and_then(|c| c.split_once('.'))
    }));
    if let Some((major, minor)) = compute {
        l.add_host(&format!("{name}.compute.major"), major);
        l.add_host(&format!("{name}.compute.minor"), minor);
    }
    let mig: Vec<Option<bool>> = v.devices.iter().map(|d| d.mig_capable).collect();
    if mig.contains(&Some(true)) {
        l.add(&format!("{name}.mig.capable"), "true");
    } else if !mig.is_empty() && mig.iter().all(|m| *m == Some(false)) {
        l.add(&format!("{name}.mig.capable"), "false");
    }
}
