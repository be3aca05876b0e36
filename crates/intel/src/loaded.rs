//! Intel's loaded driver for `gpuctl report` ([`gpuctl_core::backend::GpuBackend::loaded_driver`]): i915
//! and xe are in the kernel, so the driver bound to each GPU says what runs, and the Intel table
//! says whether that driver binds the GPU only with `force_probe` on this kernel.

use gpuctl_core::check::kernel::module_parameter;
use gpuctl_core::host::Host;
use gpuctl_core::requirement::{BoundDriver, GpuOnHost, LoadState, LoadedDriver, Version};

use crate::table::{DriverRow, tables};

/// Where the bound drivers are read.
const SOURCE: &str = "/sys/bus/pci/devices";

/// The driver bound to each GPU (i915 or xe) and whether it needs `force_probe`.
pub fn read(host: &Host, kernel: Option<Version>, gpus: &[GpuOnHost]) -> LoadedDriver {
    let mut device_choices = Vec::new();
    let mut bound = Vec::new();
    for g in gpus {
        let Some(addr) = &g.pci_address else { continue };
        let driver = g.bound_driver.clone();
        if let Some(drv) = &driver {
            device_choices.push((addr.clone(), "intel-kernel-driver", drv.clone()));
        }
        let force_probe = driver
            .as_deref()
            .and_then(|drv| module_parameter(host, drv, "force_probe").ok().flatten());
        let needs = g
            .device_id
            .and_then(|id| needs_force_probe(id, driver.as_deref(), kernel));
        bound.push(BoundDriver::new(addr.clone(), driver, needs, force_probe));
    }
    let loaded = bound
        .iter()
        .any(|b| matches!(b.driver.as_deref(), Some("i915" | "xe")));
    let mut out = if loaded {
        LoadedDriver::new(LoadState::Loaded, SOURCE)
    } else {
        LoadedDriver::not_loaded(SOURCE, "no Intel GPU is bound to i915 or xe")
    };
    // One spec for THE verdict when every GPU is bound to the same driver (`xe`); the
    // requirement's choice is per device, so with mixed or missing bindings the kernel alone
    // is asked and each GPU binds what it may.
    let drivers: Vec<&str> = bound.iter().filter_map(|b| b.driver.as_deref()).collect();
    if let Some(first) = drivers.first()
        && drivers.len() == bound.len()
        && drivers.iter().all(|d| d == first)
        && matches!(*first, "i915" | "xe")
    {
        out.specs.push((*first).to_string());
    }
    out.device_choices = device_choices;
    out.bound = bound;
    out
}

/// Whether `driver` binds Intel GPU `id` only with `force_probe` on kernel `kernel`; with no
/// driver bound, whether every driver listing it would. `None` where the tables or the kernel
/// release leave it open.
fn needs_force_probe(id: u16, driver: Option<&str>, kernel: Option<Version>) -> Option<bool> {
    let t = tables();
    let rows = t.drivers_of(t.macro_of(id)?);
    let row_needs = |row: &DriverRow| -> Option<bool> {
        match (row.force_probe?, row.default_from.as_ref(), kernel.as_ref()) {
            (false, _, _) => Some(false),
            (true, Some(from), Some(k)) => Some(k < from),
            (true, None, _) => Some(true),
            (true, Some(_), None) => None,
        }
    };
    match driver {
        Some(drv) => rows
            .iter()
            .find(|r| r.driver == drv)
            .and_then(|r| row_needs(r)),
        None => {
            let all: Option<Vec<bool>> = rows.iter().map(|r| row_needs(r)).collect();
            all.filter(|v| !v.is_empty()).map(|v| v.iter().all(|n| *n))
        }
    }
}
