//! What `fleet` keeps of one report: per vendor the GPUs' identity, the combined host-scoped
//! constraints, the running driver; and doctor's findings of a CDI spec written for another
//! driver.

use std::path::Path;

use crate::model::{ConstraintEntry, Fit, Report};

/// Doctor's check of NVIDIA CDI specs against the loaded driver (crates/nvidia/src/doctor.rs).
pub const SPEC_DRIVER_CHECK: &str = "nvidia-spec-driver";

/// One host, as planning sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSummary {
    /// The host's name, or the file's when the report has none.
    pub name: String,
    /// Vendors with GPUs.
    pub vendors: Vec<VendorSummary>,
    /// CDI specs written for another driver than the loaded one, one sentence each.
    pub stale_specs: Vec<String>,
}

/// One vendor's GPUs on a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorSummary {
    /// `nvidia`.
    pub vendor: String,
    /// The GPUs' identity, e.g. `8x 10de:2901`.
    pub gpus: String,
    /// The combined requirement's host-scoped constraints; `None` when the GPUs conflict.
    pub stack: Option<Vec<ConstraintEntry>>,
    /// Why the host's own GPUs conflict.
    pub conflicts: Vec<String>,
    /// The running driver's release.
    pub driver_version: Option<String>,
    /// Whether it fits the GPUs, and why not.
    pub fits: Fit,
    /// Why it does not fit.
    pub why: Option<String>,
    /// NVIDIA: the newest CUDA the loaded driver runs, when known.
    pub cuda: Option<String>,
}

/// The summary of `r`, read from `file`.
pub fn summarize(r: &Report, file: &Path) -> HostSummary {
    let name = r.host.name.clone().unwrap_or_else(|| {
        file.file_stem().map_or_else(
            || file.display().to_string(),
            |s| s.to_string_lossy().into(),
        )
    });
    let vendors = r
        .vendors
        .iter()
        .filter(|v| !v.requirement.gpus.is_empty())
        .map(|v| {
            let mut ids: Vec<&str> = v
                .devices
                .iter()
                .map(|d| d.id.as_deref().unwrap_or("?"))
                .collect();
            ids.sort_unstable();
            let mut gpus: Vec<String> = Vec::new();
            let mut i = 0;
            while i < ids.len() {
                let n = ids[i..].iter().take_while(|x| **x == ids[i]).count();
                gpus.push(format!("{n}x {}", ids[i]));
                i += n;
            }
            VendorSummary {
                vendor: v.vendor.clone(),
                gpus: gpus.join(" + "),
                stack: v.requirement.combined.as_ref().map(|c| {
                    c.constraints
                        .iter()
                        .filter(|c| c.scope == "host")
                        .cloned()
                        .collect()
                }),
                conflicts: v.requirement.conflicts.clone(),
                driver_version: v.driver.version.clone(),
                fits: v.driver.fits,
                why: v.driver.why.clone(),
                cuda: v
                    .driver
                    .cuda_ceiling
                    .clone()
                    .filter(|c| c != crate::model::UNKNOWN),
            }
        })
        .collect();
    let stale_specs = r
        .doctor
        .checks
        .iter()
        .filter(|c| c.code == SPEC_DRIVER_CHECK && c.status == "problem")
        .map(|c| format!("{}: {}", c.subject, c.facts.join("; ")))
        .collect();
    HostSummary {
        name,
        vendors,
        stale_specs,
    }
}
