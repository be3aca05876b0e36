//! `gpuctl detect`: every registered vendor, usable or not, with the reason, plus every CDI
//! spec file found and every warning.

use serde::Serialize;

use crate::backend::Registry;
use crate::device::VendorReport;
use crate::finding::Finding;
/// Kept under this path for callers that de-duplicate warnings.
pub use crate::finding::unique;
use crate::probe::Probe;
use crate::reason::Reason;
use gpuctl_cdi::SpecReport;

/// What the host offers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostReport {
    /// One entry per registered vendor, in canonical order.
    pub vendors: Vec<VendorReport>,
    /// Every CDI spec file found, valid or not.
    pub cdi_specs: Vec<SpecReport>,
    /// Everything that could not be read or was skipped, without repeats.
    pub warnings: Vec<Finding>,
}

/// Asks every vendor what it offers. A vendor whose probe fails is reported unusable with the
/// failure as its reason; the others are still reported.
pub fn detect(registry: &Registry, probe: &Probe) -> HostReport {
    let mut warnings: Vec<Finding> = probe.cdi_findings();
    warnings.extend(stale_specs(probe));
    warnings.extend(registry.rejected().iter().cloned());
    let mut vendors = Vec::new();
    for backend in registry.backends() {
        let report = match backend.detect(probe) {
            Ok(r) => r,
            Err(e) => {
                let (vendor, kind) = (backend.vendor(), backend.cdi_kind());
                VendorReport::new(
                    probe,
                    vendor,
                    kind,
                    None,
                    Reason::ProbeFailed(e),
                    Vec::new(),
                )
            }
        };
        warnings.extend(report.warnings.iter().cloned());
        vendors.push(report);
    }
    if let Ok(drm) = probe.drm() {
        warnings.extend(drm.warnings.iter().cloned());
    }
    HostReport {
        vendors,
        cdi_specs: probe.cdi().specs().to_vec(),
        warnings: crate::finding::unique(warnings),
    }
}

/// A valid spec that injects host device nodes the host lacks was generated for another set of
/// GPUs or driver: podman would fail with "failed to stat CDI host device".
fn stale_specs(probe: &Probe) -> Vec<Finding> {
    let mut out = Vec::new();
    for spec in probe.cdi().specs().iter().filter(|s| s.error.is_none()) {
        let missing: Vec<String> = spec
            .host_nodes
            .iter()
            .filter(|n| matches!(probe.host().exists(std::path::Path::new(n)), Ok(false)))
            .cloned()
            .collect();
        if !missing.is_empty() {
            out.push(Finding::CdiSpecStale {
                path: spec.path.clone(),
                missing,
            });
        }
    }
    out
}
