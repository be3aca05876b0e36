//! The driver each vendor's GPUs run with, read from the host's files, and whether it meets
//! what the GPUs need (docs/fleet.md#drivers). NVIDIA's loaded module comes from the same
//! reader doctor uses; AMD's and Intel's are in the kernel, so their module directories and the
//! driver bound to each GPU say what runs.

use std::path::Path;

use gpuctl_core::check::kernel::{module_parameter, parse_osrelease};
use gpuctl_core::host::Host;
use gpuctl_core::requirement::Version;
use gpuctl_intel::table::tables as intel_tables;
use gpuctl_nvidia::cuda::driver_cuda_line;
use gpuctl_nvidia::doctor::{PROC_VERSION, loaded_driver};
use gpuctl_nvidia::release::DriverRelease;

use crate::model::{
    BoundDriver, ConstraintEntry, DeviceEntry, DriverState, Fit, Kind, UNKNOWN, VendorRequirement,
};

/// AMD's out-of-tree (DKMS) amdgpu has a version file; the in-kernel module has none.
pub const AMDGPU_VERSION: &str = "/sys/module/amdgpu/version";

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

/// NVIDIA: the loaded module's flavour and branch.
pub fn nvidia(host: &Host, kernel: Option<&str>, req: &VendorRequirement) -> DriverState {
    let Some(d) = loaded_driver(host) else {
        return not_loaded(req, PROC_VERSION, "no NVIDIA kernel module is loaded");
    };
    let module = if d.open { "open" } else { "proprietary" };
    let mut known = base(kernel);
    known
        .choices
        .push(("nvidia-kernel-module", module.to_string()));
    if let Ok(v) = Version::parse(&d.branch.to_string()) {
        known.versions.push(("nvidia-driver-branch", v));
    }
    let (fits, why) = fit(req, &known);
    // The newest CUDA line the loaded release runs, from the CUDA release notes' table
    // (docs/requirement.md); a release the table cannot place is unknown, never guessed.
    let cuda = DriverRelease::parse(&d.version)
        .ok()
        .and_then(|r| driver_cuda_line(&r))
        .map_or_else(|| UNKNOWN.to_string(), |c| c.to_string());
    DriverState {
        state: "loaded".into(),
        source: Some(PROC_VERSION.into()),
        version: Some(d.version),
        kernel_module: Some(module.into()),
        cuda_ceiling: Some(cuda),
        bound: Vec::new(),
        fits,
        why,
    }
}

/// AMD: the DKMS module's version, or the kernel's own amdgpu.
pub fn amd(host: &Host, kernel: Option<&str>, req: &VendorRequirement) -> DriverState {
    let known = base(kernel);
    let version = host
        .read_to_string(Path::new(AMDGPU_VERSION), 256)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    let (state, source) = match &version {
        Some(_) => ("loaded", AMDGPU_VERSION),
        None if host
            .is_dir(Path::new("/sys/module/amdgpu"))
            .unwrap_or(false) =>
        {
            ("in-kernel", "/sys/module/amdgpu")
        }
        None => return not_loaded(req, "/sys/module/amdgpu", "the amdgpu module is not loaded"),
    };
    let (fits, why) = fit(req, &known);
    DriverState {
        state: state.into(),
        source: Some(source.into()),
        version,
        kernel_module: None,
        cuda_ceiling: None,
        bound: Vec::new(),
        fits,
        why,
    }
}

/// Intel: the driver bound to each GPU (i915 or xe) and whether it needs `force_probe`.
pub fn intel(
    host: &Host,
    kernel: Option<&str>,
    devices: &[DeviceEntry],
    req: &VendorRequirement,
) -> DriverState {
    let mut known = base(kernel);
    let kernel_v = kernel.and_then(kernel_version);
    let mut bound = Vec::new();
    for d in devices {
        let Some(addr) = &d.pci_address else { continue };
        let driver = d.bound_driver.clone();
        if let Some(drv) = &driver {
            known
                .device_choices
                .push((addr.clone(), "intel-kernel-driver", drv.clone()));
        }
        let device_id =
            d.id.as_deref()
                .and_then(|id| id.split_once(':'))
                .and_then(|(_, dev)| u16::from_str_radix(dev, 16).ok());
        let force_probe = driver
            .as_deref()
            .and_then(|drv| module_parameter(host, drv, "force_probe").ok().flatten());
        bound.push(BoundDriver {
            pci_address: addr.clone(),
            needs_force_probe: device_id
                .and_then(|id| needs_force_probe(id, driver.as_deref(), kernel_v.as_ref())),
            driver,
            force_probe,
        });
    }
    let loaded = bound
        .iter()
        .any(|b| matches!(b.driver.as_deref(), Some("i915" | "xe")));
    if !loaded && !req.gpus.is_empty() {
        let mut s = not_loaded(
            req,
            "/sys/bus/pci/devices",
            "no Intel GPU is bound to i915 or xe",
        );
        s.bound = bound;
        return s;
    }
    let (fits, why) = fit(req, &known);
    DriverState {
        state: if loaded { "loaded" } else { "not-loaded" }.into(),
        source: Some("/sys/bus/pci/devices".into()),
        version: None,
        kernel_module: None,
        cuda_ceiling: None,
        bound,
        fits,
        why,
    }
}

/// Whether `driver` binds Intel GPU `id` only with `force_probe` on kernel `kernel`; with no
/// driver bound, whether every driver listing it would. `None` where the tables or the kernel
/// release leave it open.
fn needs_force_probe(id: u16, driver: Option<&str>, kernel: Option<&Version>) -> Option<bool> {
    let t = intel_tables();
    let rows = t.drivers_of(t.macro_of(id)?);
    let row_needs = |row: &gpuctl_intel::table::DriverRow| -> Option<bool> {
        match (row.force_probe?, row.default_from.as_ref(), kernel) {
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
