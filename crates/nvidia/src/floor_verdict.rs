//! The floors and the CUDA toolkit added to Rex-GPU's answer (docs/requirement.md, "NVIDIA
//! driver floors" and "CUDA toolkit floors"): Rex's generation, module and ceilings stay as
//! they are; a `--driver` that names a release or a branch is also checked against each GPU's
//! first listing, and `--cuda` adds the toolkit's minimum driver. An image's requirements are
//! [`crate::floor_image`]'s.

use gpuctl_core::plugin::FactValue;
use gpuctl_core::plugin::requirement::report::{GpuView, RequirementView, Section, VendorStack};
use gpuctl_core::plugin::requirement::{Fit, Verdict};

use crate::cuda::{self, CudaVersion};
use crate::floor_check::{Listing, open_listing};
use crate::floor_image::ImageView;
use crate::model::KernelModule;
use crate::release::DriverRelease;
use crate::release_verdict::proprietary_listing;
use crate::requirement::DriverSpec;

/// The CUDA toolkit asked about and what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaView {
    /// The version as asked (`12.8`).
    pub version: String,
    /// The Table 3 row it was read as (`CUDA 12.8 GA`).
    pub toolkit: String,
    /// The minimum Linux driver (`570.26`).
    pub min_driver: String,
    /// What is said but not counted as a pass.
    pub notes: Vec<String>,
}

/// A number among Rex's facts of a requirement (`max_branch`).
pub(crate) fn fact_u32(r: &RequirementView, key: &str) -> Option<u32> {
    match r.facts.0.iter().find(|(k, _)| *k == key) {
        Some((_, FactValue::Number(n))) => u32::try_from(*n).ok(),
        _ => None,
    }
}

/// The kernel module Rex's facts name; `either` when they name none.
pub(crate) fn kernel_module(r: &RequirementView) -> KernelModule {
    match r.facts.0.iter().find(|(k, _)| *k == "kernel_module") {
        Some((_, FactValue::Text(t))) if t == "open" => KernelModule::Open,
        Some((_, FactValue::Text(t))) if t == "proprietary" => KernelModule::Proprietary,
        _ => KernelModule::Either,
    }
}

/// Adds the floors' verdict and the CUDA toolkit's to NVIDIA's entry, and returns the toolkit's
/// section. `cuda` must be a version Table 3 lists ([`cuda::toolkit_floor`]); the model
/// refuses others.
pub fn apply(
    report: &mut VendorStack,
    spec: Option<&DriverSpec>,
    cuda: Option<CudaVersion>,
) -> Option<CudaView> {
    let toolkit = cuda.and_then(|v| cuda::toolkit_floor(v).map(|row| (v, row)));
    let mut view = None;
    if let Some((v, row)) = toolkit {
        view = Some(CudaView {
            version: v.to_string(),
            toolkit: row.label.clone(),
            min_driver: row.driver.to_string(),
            notes: cuda_notes(v),
        });
        let mut added = Vec::new();
        for gpu in report.gpus.iter().filter(|g| g.counted) {
            if let Some(max) = fact_u32(&gpu.requirement, "max_branch")
                && max < row.driver.branch()
            {
                added.push(format!(
                    "{} is supported only up to branch {max}, but CUDA {v} needs driver {} or newer",
                    gpu.requirement.who, row.driver
                ));
            }
        }
        if !added.is_empty() {
            report.combined = None;
            report.conflicts.extend(added);
        }
    }
    gpu_verdicts(report, spec, toolkit.map(|(v, row)| (v, &row.driver)));
    let module = spec.and_then(DriverSpec::kernel_module);
    let legacy = spec
        .and_then(DriverSpec::release)
        .and_then(|rel| legacy_why_not(report, rel, module));
    let Some(verdict) = report.driver.as_mut() else {
        return view;
    };
    if !report.conflicts.is_empty() {
        verdict.satisfied = false;
        verdict.why_not = Some(report.conflicts.join("; "));
        return view;
    }
    if !verdict.satisfied {
        // A GPU's ceiling lowered to its legacy section's last branch (requirement_model's
        // lookup): the "no" cites the README that gives that branch, not only the number.
        if let Some(why) = legacy {
            verdict.why_not = Some(why);
        }
        return view;
    }
    let Some(rel) = spec.and_then(DriverSpec::release) else {
        return view;
    };
    let why = toolkit
        .and_then(|(v, row)| cuda_why_not(rel, v, &row.driver))
        .or_else(|| {
            report
                .gpus
                .iter()
                .filter(|g| g.counted)
                .find_map(|g| gpu_why_not(g, rel, module))
        });
    if let Some((why, unknown)) = why {
        // What depends on the release, or what no source read says, is THE verdict's
        // unknown, never a pass and never a "does not fit".
        verdict.set(if unknown {
            Verdict::unknown(why)
        } else {
            Verdict::no(why)
        });
    }
    view
}

/// Each GPU's own verdict, made as fine as the vendor's: the toolkit's floor and ceiling, and
/// the release against the GPU's first listing.
fn gpu_verdicts(
    report: &mut VendorStack,
    spec: Option<&DriverSpec>,
    toolkit: Option<(CudaVersion, &DriverRelease)>,
) {
    let rel = spec.and_then(DriverSpec::release);
    let module = spec.and_then(DriverSpec::kernel_module);
    for gpu in &mut report.gpus {
        if !gpu.driver.as_ref().is_some_and(|d| d.satisfied) {
            continue;
        }
        let ceiling = toolkit.and_then(|(v, min)| {
            let max = fact_u32(&gpu.requirement, "max_branch")?;
            (max < min.branch()).then(|| {
                format!(
                    "supported only up to branch {max}, but CUDA {v} needs driver {min} or newer"
                )
            })
        });
        let why = ceiling.map(|c| (c, false)).or_else(|| {
            let rel = rel?;
            toolkit
                .and_then(|(v, min)| cuda_why_not(rel, v, min))
                .or_else(|| {
                    let who = format!("{}: ", gpu.requirement.who);
                    gpu_why_not(gpu, rel, module).map(|(w, unknown)| {
                        (
                            w.strip_prefix(&who).map_or(w.clone(), str::to_string),
                            unknown,
                        )
                    })
                })
        });
        if let (Some((why, unknown)), Some(d)) = (why, gpu.driver.as_mut()) {
            d.satisfied = false;
            d.fits = if unknown { Fit::Unknown } else { Fit::No };
            d.why_not = Some(why);
        }
    }
}

fn cuda_notes(v: CudaVersion) -> Vec<String> {
    let mut notes = Vec::new();
    if v.major >= 11 {
        notes.push(format!(
            "minor-version compatibility may run a CUDA {}.x application on an older driver of the {} family, without PTX JIT and some features; not counted as a pass",
            v.major, v.major
        ));
    }
    notes.push(
        "the forward-compatibility packages (cuda-compat) run newer CUDA on older drivers on data-center GPUs only; not counted as a pass"
            .to_string(),
    );
    notes
}

/// Why the toolkit refuses release `rel`, and whether only because the release within the
/// branch is not given (unknown).
fn cuda_why_not(
    rel: &DriverRelease,
    v: CudaVersion,
    min: &DriverRelease,
) -> Option<(String, bool)> {
    if rel.is_branch_only() {
        if rel.branch() < min.branch() {
            Some((
                format!(
                    "CUDA {v} needs driver {min} or newer (CUDA release notes, Table 3); branch {} is older",
                    rel.branch()
                ),
                false,
            ))
        } else if rel.branch() == min.branch() && min.as_str().contains('.') {
            Some((
                format!(
                    "depends on the release within branch {}: CUDA {v} needs driver {min} or newer",
                    rel.branch()
                ),
                true,
            ))
        } else {
            None
        }
    } else if rel < min {
        Some((
            format!(
                "CUDA {v} needs driver {min} or newer (CUDA release notes, Table 3); {rel} is older"
            ),
            false,
        ))
    } else {
        None
    }
}

/// Why release `rel` does not list one GPU, for the module the spec names or, when it names
/// none, the modules the GPU can use. `None` when it lists it; an id no source lists gets its
/// generation's bound, which is never a pass ([`crate::release_verdict`]). The flag is true
/// when no module read lacks it, only depends or is not known (the one verdict's unknown).
/// The per-release reason of the first counted GPU whose legacy section ends below `rel`'s
/// branch and below Rex's ceiling (`the README of 470.256.02 lists it only under "The 340.xx driver supports" ...`).
fn legacy_why_not(
    report: &VendorStack,
    rel: &DriverRelease,
    module: Option<KernelModule>,
) -> Option<String> {
    report
        .gpus
        .iter()
        .filter(|g| g.counted)
        .filter(|g| {
            module != Some(KernelModule::Open)
                || kernel_module(&g.requirement) != KernelModule::Proprietary
        })
        .filter(|g| {
            let Some(id) = g
                .requirement
                .device_id
                .as_deref()
                .and_then(|d| u16::from_str_radix(d, 16).ok())
            else {
                return false;
            };
            // Only where the legacy section lowered Rex's ceiling (the reason would otherwise
            // be Rex's own bound, said as Rex says it).
            let rex_max = crate::table::builtin_table()
                .row_for(id)
                .and_then(|(_, row)| row.max_branch());
            crate::release_lists::legacy_ceiling(id).is_some_and(|(_, last, _)| {
                rel.branch() > last && rex_max.is_none_or(|max| last < max)
            })
        })
        .find_map(|g| gpu_why_not(g, rel, module).filter(|(_, unknown)| !unknown))
        .map(|(why, _)| why)
}

fn gpu_why_not(
    gpu: &GpuView,
    rel: &DriverRelease,
    module: Option<KernelModule>,
) -> Option<(String, bool)> {
    let id = gpu
        .requirement
        .device_id
        .as_deref()
        .and_then(|d| u16::from_str_radix(d, 16).ok())?;
    let gpu_module = kernel_module(&gpu.requirement);
    let who = &gpu.requirement.who;
    let check = |m: KernelModule| match m {
        KernelModule::Open => ("open", open_listing(id, rel)),
        _ => ("proprietary", proprietary_listing(id, rel)),
    };
    let modules: Vec<KernelModule> = match (module, gpu_module) {
        (Some(m), _) => vec![m],
        (None, KernelModule::Either) => vec![KernelModule::Open, KernelModule::Proprietary],
        (None, m) => vec![m],
    };
    let listings: Vec<(&str, Listing)> = modules.into_iter().map(check).collect();
    if listings.iter().all(|(_, l)| *l == Listing::Lists) {
        return None;
    }
    if listings.iter().any(|(_, l)| *l == Listing::Lists) {
        let (lists, _) = listings.iter().find(|(_, l)| *l == Listing::Lists)?;
        let (other, why) = listings.iter().find(|(_, l)| *l != Listing::Lists)?;
        return Some((
            format!(
                "{who}: depends on the kernel module: the {lists} one lists it; the {other} one: {}",
                words(why)
            ),
            true,
        ));
    }
    let reasons: Vec<String> = listings
        .iter()
        .map(|(m, l)| format!("{m} module: {}", words(l)))
        .collect();
    let unknown = !listings.iter().any(|(_, l)| matches!(l, Listing::Lacks(_)));
    Some((format!("{who}: {}", reasons.join("; ")), unknown))
}

fn words(l: &Listing) -> String {
    match l {
        Listing::Lists => "lists it".to_string(),
        Listing::Lacks(w) => w.clone(),
        Listing::Depends(w) => format!("depends on {w}"),
        Listing::Unknown(w) => format!("not known: {w}"),
    }
}

/// The `cuda` and `image` sections of NVIDIA's entry, in that order in JSON, and their lines
/// (the image's first) before the combined line.
pub fn sections(report: &mut VendorStack, cuda: Option<&CudaView>, image: Option<&ImageView>) {
    if let Some(c) = cuda {
        let section = Section::default()
            .field("version", c.version.as_str())
            .field("toolkit", c.toolkit.as_str())
            .field("min_driver", c.min_driver.as_str())
            .field("notes", c.notes.clone());
        report.sections.0.push(("cuda", section));
    }
    if let Some(i) = image {
        crate::floor_image::section(report, i);
    }
    if let Some(c) = cuda {
        report.lines.push(format!(
            "CUDA {}: driver {} or newer ({}, CUDA release notes Table 3)",
            c.version, c.min_driver, c.toolkit
        ));
        report
            .lines
            .extend(c.notes.iter().map(|n| format!("  note: {n}")));
    }
}
