//! The answer of `gpuctl requirement` as data, one shape for every vendor: each GPU's
//! requirement, one combined requirement per vendor, the conflicts within and across vendors,
//! and the verdict on the `--driver` specs that concern each vendor
//! (docs/requirement.md#json).

use serde::Serialize;

use super::RequirementInputError;
use super::report_entry::Wording;
pub use super::report_entry::{
    Facts, GpuInput, GpuView, RequirementView, Section, Sections, VendorStack,
};
pub use super::report_verdict::{DriverVerdict, GpuVerdict};
use super::vendor::{RequirementModel, RequirementSource};
use super::{CombineError, Fit, Requirement, Stack, StackSpec, Verdict};

/// Everything `gpuctl requirement` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Report {
    /// One entry per vendor, in canonical vendor order.
    pub vendors: Vec<VendorStack>,
    /// Conflicts between vendors (only shared components, such as the kernel, can conflict).
    pub host_conflicts: Vec<String>,
    /// Warnings (each also printed on stderr).
    pub warnings: Vec<String>,
}

impl Report {
    /// THE verdict for `vendor` (its selector name): of the `--driver` specs that concern it,
    /// or of a stack naming nothing when none does; `None` when the report has no entry for it.
    pub fn verdict(&self, vendor: &str) -> Option<Verdict> {
        let v = self.vendors.iter().find(|v| v.vendor == vendor)?;
        Some(
            v.driver
                .as_ref()
                .map_or_else(|| v.unasked.clone(), DriverVerdict::verdict),
        )
    }

    /// True when there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.vendors.is_empty()
    }

    /// True when the answer is "no": GPUs conflict, or a spec does not drive a GPU.
    pub fn unserved(&self) -> bool {
        // `satisfied` is false for "does not fit" and for "unknown" alike: unknown is no pass.
        !self.host_conflicts.is_empty()
            || self
                .vendors
                .iter()
                .any(|v| !v.conflicts.is_empty() || v.driver.as_ref().is_some_and(|d| !d.satisfied))
    }
}

/// What a vendor's combined requirement says when every constraint of its GPUs is per device.
pub const NO_HOST_WIDE_CONSTRAINT: &str =
    "no host-wide constraint (each GPU's requirement above is its own)";

/// One vendor's GPUs and how to combine them.
pub struct VendorInput<'a> {
    /// The vendor's selector name.
    pub vendor: &'static str,
    /// Its name in sentences.
    pub display: String,
    /// Its GPUs.
    pub gpus: Vec<GpuInput>,
    /// Its requirement model, when it has one of its own (how it combines and words).
    pub model: Option<&'a dyn RequirementModel>,
    /// Its source for this request, which finishes its entry.
    pub source: Option<&'a dyn RequirementSource>,
}

/// The report for `vendors`, checking each against the specs that concern it and letting each
/// vendor's source finish its entry; `warnings` come first in the report's list.
pub fn report(
    vendors: Vec<VendorInput<'_>>,
    specs: &[StackSpec],
    warnings: Vec<String>,
) -> Result<Report, RequirementInputError> {
    let mut combined_all = Vec::new();
    let mut warnings = warnings;
    let mut stacks = Vec::with_capacity(vendors.len());
    for input in vendors {
        let source = input.source;
        let (mut stack, combined) = vendor_stack(input, specs, &mut warnings);
        if let Some(c) = &combined {
            combined_all.push(c.host_part());
        }
        if let Some(source) = source {
            let concern: Vec<&StackSpec> = specs
                .iter()
                .filter(|s| s.vendors.iter().any(|v| *v == stack.vendor))
                .collect();
            source.finish(&mut stack, &concern)?;
        }
        if let Some(d) = stack.driver.as_mut() {
            d.settle();
        }
        stacks.push(stack);
    }
    Ok(Report {
        vendors: stacks,
        host_conflicts: Requirement::conflicts(&combined_all),
        warnings,
    })
}

fn vendor_stack(
    input: VendorInput<'_>,
    specs: &[StackSpec],
    warnings: &mut Vec<String>,
) -> (VendorStack, Option<Requirement>) {
    let vendor = input.vendor;
    let wording = input
        .model
        .map_or(Wording::DEFAULT, RequirementModel::wording);
    let concern: Vec<&StackSpec> = specs
        .iter()
        .filter(|s| s.vendors.contains(&vendor))
        .collect();
    let stack =
        (!concern.is_empty()).then(|| concern.iter().fold(Stack::new(), |st, s| s.apply(st)));
    let spec_text = concern
        .iter()
        .map(|s| s.spec.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let views: Vec<GpuView> = input
        .gpus
        .iter()
        .map(|g| GpuView {
            requirement: RequirementView::from(&g.requirement),
            pci_address: g.pci_address.clone(),
            counted: g.left_out.is_none(),
            floors: g.floors.clone(),
            driver: stack
                .as_ref()
                .map(|st| GpuVerdict::of(g.requirement.verdict(st))),
        })
        .collect();
    for (g, v) in input.gpus.iter().zip(&views) {
        let Some(left_out) = &g.left_out else {
            continue;
        };
        warnings.push(left_out.clone());
        if let Some(why) = v.driver.as_ref().and_then(|d| d.why_not.as_ref()) {
            warnings.push(format!(
                "driver {spec_text} will not drive {}: {why}",
                g.requirement.who()
            ));
        }
    }
    let counted: Vec<&Requirement> = input
        .gpus
        .iter()
        .filter(|g| g.left_out.is_none())
        .map(|g| &g.requirement)
        .collect();
    let (combined, conflicts) = if counted.is_empty() {
        (None, Vec::new())
    } else {
        let combined = match input.model {
            Some(m) => m.combine(&counted),
            None => Requirement::intersect(counted.iter().copied()),
        };
        match combined {
            Ok(r) => (Some(r.host_part()), Vec::new()),
            Err(CombineError::Empty) => (None, Vec::new()),
            Err(CombineError::Conflict { conflicts, .. }) => (None, conflicts),
        }
    };
    let verdict_on = |st: &Stack| {
        // Rex's verdict is one reason: the conflicts, or what the combined requirement
        // refuses. The others name each GPU the stack does not drive.
        let counted = if !wording.combined_verdict {
            per_gpu_verdict(&input.gpus, &views, st)
        } else if !conflicts.is_empty() {
            Verdict::no(conflicts.join("; "))
        } else {
            combined.as_ref().map_or(Verdict::FITS, |c| c.verdict(st))
        };
        // A GPU left out of the combined line still has to be driven: a stack that will not
        // drive it (a Kepler on the open 580 module) does not fit the host.
        counted.and(left_out_verdict(&input.gpus, st))
    };
    let unasked = verdict_on(&Stack::new());
    let driver = stack.as_ref().map(|st| {
        let v = verdict_on(st);
        DriverVerdict {
            spec: spec_text.clone(),
            specs: concern.iter().map(|s| s.spec.clone()).collect(),
            satisfied: v.fits(),
            fits: v.fit,
            why_not: v.why,
        }
    });
    let combined_view = combined.as_ref().map(|c| {
        let mut view = RequirementView::from(c);
        // The combined requirement holds only host-wide constraints (the ROCm release, the
        // kernel); a per-device choice such as Intel's i915 or xe is each GPU's own, so
        // "any driver" here would read as if no GPU needed anything.
        if view.constraints.is_empty()
            && views.iter().any(|g| !g.requirement.constraints.is_empty())
        {
            view.describe = NO_HOST_WIDE_CONSTRAINT.to_string();
        }
        view
    });
    (
        VendorStack {
            vendor: vendor.to_string(),
            gpus: views,
            combined: combined_view,
            conflicts,
            driver,
            sections: Sections::default(),
            lines: Vec::new(),
            under_combined: Vec::new(),
            unasked,
            wording,
            display: input.display,
        },
        combined,
    )
}

/// Each counted GPU's verdict, the worst first: `who: reason` for every GPU that fails (or,
/// when none fails, that cannot be told), said once for GPUs alike.
fn per_gpu_verdict(gpus: &[GpuInput], views: &[GpuView], stack: &Stack) -> Verdict {
    let verdicts: Vec<(Fit, String)> = gpus
        .iter()
        .zip(views)
        .filter(|(g, _)| g.left_out.is_none())
        .filter_map(|(g, _)| {
            let v = g.requirement.verdict(stack);
            let why = v.why?;
            Some((v.fit, format!("{}: {why}", g.requirement.who())))
        })
        .collect();
    // A failure is not diluted by unknowns: the worst word's lines only.
    let worst = if verdicts.iter().any(|(f, _)| *f == Fit::No) {
        Fit::No
    } else if verdicts.is_empty() {
        return Verdict::FITS;
    } else {
        Fit::Unknown
    };
    let mut lines: Vec<String> = Vec::new();
    for (_, line) in verdicts.into_iter().filter(|(f, _)| *f == worst) {
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    Verdict {
        fit: worst,
        why: Some(lines.join("; ")),
    }
}

/// The GPUs left out of the combined requirement that `stack` does not drive, as
/// `who: reason`; fits when there is none.
fn left_out_verdict(gpus: &[GpuInput], stack: &Stack) -> Verdict {
    let mut out = Verdict::FITS;
    for g in gpus.iter().filter(|g| g.left_out.is_some()) {
        let v = g.requirement.verdict(stack);
        if let Some(why) = &v.why {
            let v = Verdict {
                fit: v.fit,
                why: Some(format!("{}: {why}", g.requirement.who())),
            };
            out = out.and(v);
        }
    }
    out
}
