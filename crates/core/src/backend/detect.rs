//! `Registry::detect`: every vendor's report, with the warnings of the whole probe.

use crate::backend::Registry;
use crate::detect::{HostReport, VendorReport};
use crate::finding::Finding;
use crate::probe::Probe;
use crate::reason::Reason;

impl Registry {
    /// Asks every vendor what it offers. A vendor whose probe fails is reported unusable with the
    /// failure as its reason; the others are still reported.
    pub fn detect(&self, probe: &Probe) -> HostReport {
        let mut warnings: Vec<Finding> = probe.cdi_findings();
        warnings.extend(stale_specs(probe));
        warnings.extend(self.rejected().iter().cloned());
        let mut vendors = Vec::new();
        for backend in self.backends() {
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
