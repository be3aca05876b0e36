//! THE verdict for doctor's driver checks (docs/requirement.md#one-verdict): the vendor's loaded
//! stack, as its backend names it ([`LoadedDriver::specs`], and `kernel:X.Y` where the vendor
//! constrains the kernel), asked through the very path `gpuctl requirement --driver` answers by,
//! so doctor never decides a fit on its own.
//!
//! [`LoadedDriver::specs`]: crate::requirement::LoadedDriver::specs

use crate::backend::Registry;
use crate::check::kernel::{bound_driver, kernel_release};
use crate::check::{Check, CheckCode, Status};
use crate::image_env::ImageEnv;
use crate::probe::Probe;
use crate::requirement::{Fit, GpuOnHost, LoadState, VendorRequest, Verdict};
use crate::requirement_answer::{Request, answer_scanned, loaded_specs};

/// THE verdict on a vendor's loaded stack, as doctor reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedVerdict {
    /// The specs asked (`open:570.86.15`, `xe`, `kernel:6.8`).
    pub specs: Vec<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// True when a GPU of the vendor is one no source lists.
    pub unlisted: bool,
}

/// The loaded stack's specs and THE verdict on it for `vendor`'s GPUs on the probed host;
/// `None` when the vendor has no GPU, its backend reads no driver, or its driver is not loaded
/// (doctor's binding checks say that themselves).
pub fn loaded_verdict(probe: &Probe, vendor: &str) -> Option<LoadedVerdict> {
    loaded_verdict_with(probe, vendor, None)
}

/// As [`loaded_verdict`], with an image's environment as `requirement --image-env` reads it
/// (`gpuctl run`'s pre-start check).
pub fn loaded_verdict_with(
    probe: &Probe,
    vendor: &str,
    image: Option<&ImageEnv>,
) -> Option<LoadedVerdict> {
    let registry = Registry::discovered();
    let backend = registry.get(vendor)?;
    let host = probe.host();
    let (devices, _) = probe
        .pci()
        .gpus_of(backend.pci_vendor_id(), backend.pci_classes());
    if devices.is_empty() {
        return None;
    }
    let gpus: Vec<GpuOnHost> = devices
        .iter()
        .map(|d| {
            let bound = bound_driver(host, &d.address).ok().flatten();
            GpuOnHost::new(Some(d.address.clone()), Some(d.device_id), bound)
        })
        .collect();
    let kernel = kernel_release(host).map(|k| k.version);
    let loaded = backend.requirements().loaded_driver(host, kernel, &gpus)?;
    if matches!(loaded.state, LoadState::NotLoaded(_)) {
        return None;
    }
    let specs = loaded_specs(&[vendor], &[(vendor, loaded.specs)], kernel);
    let request = Request {
        ids: &[],
        specs: &specs,
        vendor: VendorRequest {
            image_env: image,
            ..VendorRequest::default()
        },
    };
    let (verdict, unlisted) = match answer_scanned(host, probe.pci(), registry, request) {
        Ok(report) => {
            let unlisted = report
                .vendors
                .iter()
                .filter(|v| v.vendor == vendor)
                .any(|v| v.gpus.iter().any(|g| g.requirement.unknown.is_some()));
            let verdict = report
                .verdict(vendor)
                .unwrap_or_else(|| Verdict::unknown("no verdict for the vendor"));
            (verdict, unlisted)
        }
        Err(e) => (
            Verdict::unknown(format!("gpuctl requirement refuses the loaded stack: {e}")),
            false,
        ),
    };
    Some(LoadedVerdict {
        specs,
        verdict,
        unlisted,
    })
}

/// Adds THE verdict on `vendor`'s loaded stack to doctor's `code` check of the GPUs bound to
/// their driver (the one that is `ok`): a stack that does not fit is a problem; unknown is a
/// warning where a GPU is one no source lists. A component the container image brings (ROCm)
/// is said as a fact: doctor checks the host, and the host cannot say it.
pub fn apply(checks: &mut [Check], code: CheckCode, probe: &Probe, vendor: &str) {
    let Some(c) = checks
        .iter_mut()
        .find(|c| c.code == code && c.status == Status::Ok)
    else {
        return;
    };
    let Some(v) = loaded_verdict(probe, vendor) else {
        return;
    };
    let specs = v.specs.join(", ");
    let why = v.verdict.why.clone().unwrap_or_default();
    match v.verdict.fit {
        Fit::Yes => {
            c.facts.push(format!("driver {specs}: satisfies the GPUs"));
        }
        Fit::No => {
            c.status = Status::Problem;
            c.facts
                .push(format!("driver {specs} does not satisfy them: {why}"));
            c.remedy
                .get_or_insert_with(|| "install a driver 'gpuctl requirement' accepts".into());
        }
        // Unknown, or a word this version does not know: never a pass.
        _ => {
            if v.unlisted {
                c.status = Status::Warning;
            }
            c.facts.push(format!(
                "whether driver {specs} drives them is unknown: {why}"
            ));
        }
    }
}
