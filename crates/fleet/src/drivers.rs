//! The driver each vendor's GPUs run with, read from the host's files by the vendor's backend
//! ([`GpuBackend::loaded_driver`]: NVIDIA's loaded module as doctor reads it, AMD's module
//! directory, the driver bound to each Intel GPU), and whether it meets what the GPUs need
//! (docs/fleet.md#drivers). Nothing here knows a vendor.

use gpuctl_core::check::kernel::parse_osrelease;
use gpuctl_core::requirement::{GpuOnHost, LoadState, Version};
use gpuctl_core::{backend::GpuBackend, host::Host};

use crate::model::{
    BoundDriver, ConstraintEntry, DeviceEntry, DriverState, Fit, Kind, UNKNOWN, VendorRequirement,
};

/// What is known of a host's stack, by component key.
#[derive(Debug, Default)]
pub struct Known {
    choices: Vec<(&'static str, String)>,
    versions: Vec<(&'static str, Version)>,
    /// Per GPU bus address, a device-scoped choice (Intel's bound driver).
    device_choices: Vec<(String, &'static str, String)>,
}

/// A kernel release's `major.minor` (`6.8.0-60-generic` is 6.8), read as doctor's kernel
/// checks read it.
pub fn kernel_version(release: &str) -> Option<Version> {
    parse_osrelease(release)
}

fn base(kernel: Option<&str>) -> Known {
    let mut k = Known::default();
    if let Some(v) = kernel.and_then(kernel_version) {
        k.versions.push(("kernel", v));
    }
    k
}

/// The vendor's driver as its backend reads it ([`GpuBackend::loaded_driver`]), against the
/// GPUs' requirement; a vendor that reads none is [`other`].
pub fn state(
    backend: &dyn GpuBackend,
    host: &Host,
    kernel: Option<&str>,
    devices: &[DeviceEntry],
    req: &VendorRequirement,
) -> DriverState {
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
    let kernel_v = kernel.and_then(kernel_version);
    let Some(l) = backend.loaded_driver(host, kernel_v, &gpus) else {
        return other(kernel, req);
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
    if let LoadState::NotLoaded(why) = &l.state
        && !req.gpus.is_empty()
    {
        let mut s = not_loaded(req, &l.source, why);
        s.bound = bound;
        return s;
    }
    let mut known = base(kernel);
    known.choices.extend(l.choices);
    known.versions.extend(l.versions);
    known.device_choices.extend(l.device_choices);
    let (fits, why) = fit(req, &known);
    DriverState {
        state: l.state.as_str().into(),
        source: Some(l.source),
        version: l.version,
        kernel_module: l.kernel_module,
        cuda_ceiling: l.ceiling,
        bound,
        fits,
        why,
    }
}

fn not_loaded(req: &VendorRequirement, source: &str, why: &str) -> DriverState {
    let (fits, why) = if req.gpus.is_empty() {
        (Fit::Yes, None)
    } else {
        (Fit::No, Some(why.to_string()))
    };
    DriverState {
        state: "not-loaded".into(),
        source: Some(source.into()),
        version: None,
        kernel_module: None,
        cuda_ceiling: None,
        bound: Vec::new(),
        fits,
        why,
    }
}

/// Every counted GPU's constraints against what is known: the first that fails, else unknown
/// when one could not be checked, else yes.
pub fn fit(req: &VendorRequirement, known: &Known) -> (Fit, Option<String>) {
    let mut unchecked: Vec<String> = Vec::new();
    for g in req.gpus.iter().filter(|g| g.counted) {
        for c in &g.need.constraints {
            match check(c, g.pci_address.as_deref(), known) {
                Some(Ok(())) => {}
                Some(Err(have)) => {
                    return (
                        Fit::No,
                        Some(format!(
                            "{} needs {}; the host has {have}",
                            g.who, c.describe
                        )),
                    );
                }
                None => {
                    if !unchecked.contains(&c.noun) {
                        unchecked.push(c.noun.clone());
                    }
                }
            }
        }
    }
    if unchecked.is_empty() {
        (Fit::Yes, None)
    } else {
        let what = unchecked.join(", ");
        (
            Fit::Unknown,
            Some(format!("the host's files do not say its {what}")),
        )
    }
}

/// `Some(Ok)` when the constraint holds, `Some(Err(what the host has))` when not, `None` when
/// the host's value is not known (a constraint without bounds always holds).
fn check(c: &ConstraintEntry, addr: Option<&str>, known: &Known) -> Option<Result<(), String>> {
    match c.kind {
        Kind::Choice if c.allowed.is_empty() => Some(Ok(())),
        Kind::Choice => {
            let value = if c.scope == "device" {
                known
                    .device_choices
                    .iter()
                    .find(|(a, k, _)| Some(a.as_str()) == addr && *k == c.component)
                    .map(|(_, _, v)| v)
            } else {
                known
                    .choices
                    .iter()
                    .find(|(k, _)| *k == c.component)
                    .map(|(_, v)| v)
            }?;
            if c.allowed.contains(value) {
                Some(Ok(()))
            } else {
                Some(Err(format!("the {value} {}", c.noun)))
            }
        }
        Kind::Range if c.min.is_none() && c.max.is_none() => Some(Ok(())),
        Kind::Range => {
            let have = known
                .versions
                .iter()
                .find(|(k, _)| *k == c.component)
                .map(|(_, v)| v)?;
            let min = c.min.as_deref().and_then(|m| Version::parse(m).ok());
            let max = c.max.as_deref().and_then(|m| Version::parse(m).ok());
            let ok = min.is_none_or(|m| *have >= m) && max.is_none_or(|m| have.within_max(&m));
            Some(if ok {
                Ok(())
            } else {
                Err(format!("{} {have}", c.noun))
            })
        }
    }
}

/// A plug-in vendor: gpuctl knows no driver file of its, so only the kernel is checked.
pub fn other(kernel: Option<&str>, req: &VendorRequirement) -> DriverState {
    let (fits, why) = fit(req, &base(kernel));
    DriverState {
        state: UNKNOWN.into(),
        source: None,
        version: None,
        kernel_module: None,
        cuda_ceiling: None,
        bound: Vec::new(),
        fits,
        why,
    }
}
