//! Intel's loaded driver for `gpuctl report` ([`gpuctl_core::plugin::Requirements::loaded_driver`]): i915
//! and xe are in the kernel, so the driver bound to each GPU says what runs, and the Intel table
//! says whether that driver binds the GPU only with `force_probe` on this kernel. The settings
//! the host has for each GPU (`i915.force_probe=56c0`) are specs too, so THE verdict judges the
//! host with them (a host that sets it fits; a stock one does not).

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::kernel::{bound_driver, module_parameter, parameter_in_effect};
use gpuctl_core::plugin::pci;
use gpuctl_core::plugin::requirement::{BoundDriver, GpuOnHost, LoadState, LoadedDriver, Version};

use crate::doctor::{ForceProbe, force_probe};
use crate::requirement::{Binding, INTEL_GPU_CLASSES, INTEL_VENDOR_ID, lookup};
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
    // Every Intel GPU on the bus, not only those the caller found usable: an unbound GPU is
    // the one whose settings decide whether the stack binds it.
    let (on_bus, _) = pci::gpus_of(host, INTEL_VENDOR_ID, INTEL_GPU_CLASSES);
    for d in &on_bus {
        let given = gpus
            .iter()
            .find(|g| g.pci_address.as_deref() == Some(d.address.as_str()));
        let bound = match given {
            Some(g) => g.bound_driver.clone(),
            None => bound_driver(host, &d.address).ok().flatten(),
        };
        for s in settings_in_effect(host, d.device_id, bound.as_deref(), kernel) {
            if !out.specs.contains(&s) {
                out.specs.push(s);
            }
        }
    }
    out.device_choices = device_choices;
    out.bound = bound;
    out
}

/// The settings the Intel table names for GPU `id` (its drivers' `force_probe`, i915's
/// `alpha_support`) that this host has in effect, as `--driver` specs: those the modules'
/// parameters (or, for a module not loaded, the kernel command line) say, read as i915 and xe
/// read them; and every setting the bound driver asks on this kernel, since it bound the GPU
/// with them (a module option gpuctl does not read, such as one in modprobe.d, counts so).
fn settings_in_effect(
    host: &Host,
    id: u16,
    bound: Option<&str>,
    kernel: Option<Version>,
) -> Vec<String> {
    let gpu = lookup(id);
    let mut out = Vec::new();
    for d in &gpu.drivers {
        let settings = gpu.settings(d);
        let asks = match kernel {
            Some(k) => matches!(gpu.binding(d, k), Binding::Asked { .. }),
            None => d.force_probe == Some(true) || d.default_from.is_some(),
        };
        for s in settings {
            let set = (asks && bound == Some(d.driver)) || setting_set(host, &s, id);
            if set && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// True when `module.param=value` (as [`crate::requirement::IntelGpu::settings`] names it) is in
/// effect for GPU `id`.
fn setting_set(host: &Host, setting: &str, id: u16) -> bool {
    let Some((name, want)) = setting.split_once('=') else {
        return false;
    };
    let Some((module, param)) = name.split_once('.') else {
        return false;
    };
    let Some(value) = parameter_in_effect(host, module, param) else {
        return false;
    };
    match param {
        "force_probe" => {
            let says = force_probe(&value, id);
            if want.starts_with('!') {
                says == ForceProbe::Blocked
            } else {
                says == ForceProbe::Forced
            }
        }
        // A bool parameter: sysfs shows Y or N; the command line takes 1, y, Y and the rest.
        _ => want == "1" && matches!(value.as_str(), "1" | "Y" | "y"),
    }
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
