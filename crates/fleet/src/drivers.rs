//! The driver each vendor's GPUs run with, read from the host's files by the vendor's backend
//! ([`gpuctl_core::plugin::Requirements::loaded_driver`]: NVIDIA's loaded module as doctor
//! reads it, AMD's module
//! directory, the driver bound to each Intel GPU), and whether it meets what the GPUs need:
//! THE verdict of `gpuctl requirement --driver` on the loaded stack
//! ([`gpuctl_core::plugin::requirement_answer::verdicts`], docs/fleet.md#drivers). Nothing here
//! decides a fit, and nothing here knows a vendor.

use gpuctl_core::plugin::kernel::parse_osrelease;
use gpuctl_core::plugin::requirement::{Fit, GpuOnHost, LoadState, LoadedDriver, Verdict, Version};
use gpuctl_core::plugin::{GpuBackend, Host};

use crate::model::{BoundDriver, DeviceEntry, DriverState, UNKNOWN, VendorRequirement};

/// A kernel release's `major.minor` (`6.8.0-60-generic` is 6.8), read as doctor's kernel
/// checks read it.
pub fn kernel_version(release: &str) -> Option<Version> {
    parse_osrelease(release)
}

/// The vendor's driver as its backend reads it
/// ([`gpuctl_core::plugin::Requirements::loaded_driver`]); `None` for a
/// vendor that reads none (a plug-in).
pub fn loaded(
    backend: &dyn GpuBackend,
    host: &Host,
    kernel: Option<&str>,
    devices: &[DeviceEntry],
) -> Option<LoadedDriver> {
    let gpus: Vec<GpuOnHost> = devices
        .iter()
        .map(|d| {
            let device_id =
                d.id.as_deref()
                    .and_then(|id| id.split_once(':'))
                    .and_then(|(_, dev)| u16::from_str_radix(dev, 16).ok());
            GpuOnHost::new(d.pci_address.clone(), device_id, d.bound_driver.clone())
        })
        .collect();
    backend
        .requirements()
        .loaded_driver(host, kernel.and_then(kernel_version), &gpus)
}

/// The report's driver entry: what the backend read (`None`: a vendor gpuctl reads no driver
/// file of), with THE verdict on it. A vendor without GPUs has nothing to drive (fits); one
/// whose driver is not loaded drives nothing (does not fit, and why).
pub fn state(
    loaded: Option<LoadedDriver>,
    req: &VendorRequirement,
    verdict: Option<Verdict>,
) -> DriverState {
    let verdict = if req.gpus.is_empty() {
        Verdict::FITS
    } else {
        verdict.unwrap_or_else(|| Verdict::unknown("gpuctl could not ask the requirement model"))
    };
    let Some(l) = loaded else {
        return DriverState {
            state: UNKNOWN.into(),
            source: None,
            version: None,
            kernel_module: None,
            cuda_ceiling: None,
            bound: Vec::new(),
            specs: Vec::new(),
            fits: verdict.fit,
            why: verdict.why,
        };
    };
    let bound: Vec<BoundDriver> = l
        .bound
        .iter()
        .map(|b| BoundDriver {
            pci_address: b.pci_address.clone(),
            driver: b.driver.clone(),
            needs_force_probe: b.needs_force_probe,
            force_probe: b.force_probe.clone(),
        })
        .collect();
    if let LoadState::NotLoaded(why) = &l.state {
        let (fits, why) = if req.gpus.is_empty() {
            (Fit::Yes, None)
        } else {
            (Fit::No, Some(why.clone()))
        };
        return DriverState {
            state: "not-loaded".into(),
            source: Some(l.source),
            version: None,
            kernel_module: None,
            cuda_ceiling: None,
            bound,
            specs: Vec::new(),
            fits,
            why,
        };
    }
    DriverState {
        state: l.state.as_str().into(),
        source: Some(l.source),
        version: l.version,
        kernel_module: l.kernel_module,
        cuda_ceiling: l.ceiling,
        bound,
        specs: l.specs,
        fits: verdict.fit,
        why: verdict.why,
    }
}
