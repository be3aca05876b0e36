//! The answer of `gpuctl requirement` as data, one shape for every vendor: each GPU's
//! requirement, one combined requirement per vendor, the conflicts within and across vendors,
//! and the verdict on the `--driver` specs that concern each vendor
//! (docs/requirement.md#json).

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::RequirementInputError;
pub use super::report_verdict::{DriverVerdict, GpuVerdict};
use super::report_verdict::{left_out_verdict, per_gpu_verdict};
use super::vendor::{RequirementModel, RequirementSource, Wording};
use super::{CombineError, Constraint, Requirement, Stack, StackSpec, Verdict};
use crate::detect::FactValue;

/// One GPU to report on.
#[derive(Debug, Clone)]
pub struct GpuInput {
    /// The vendor's selector name (`amd`).
    pub vendor: &'static str,
    /// The bus address, for a GPU found on the host.
    pub pci_address: Option<String>,
    /// Its requirement.
    pub requirement: Requirement,
    /// For a GPU its vendor leaves out of the combined requirement, the warning that says so.
    pub left_out: Option<String>,
    /// The vendor's first-listing lines ([`GpuRequirement::floors`]).
    ///
    /// [`GpuRequirement::floors`]: super::GpuRequirement::floors
    pub floors: Vec<String>,
}

/// The vendor's facts, shown beside the requirement's own keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts(pub Vec<(&'static str, FactValue)>);

/// One section of a vendor's entry: its fields, `(key, value)`, in the order JSON shows them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section(pub Vec<(&'static str, serde_json::Value)>);

impl Section {
    /// The same with one more field.
    #[must_use]
    pub fn field(mut self, key: &'static str, value: impl Into<serde_json::Value>) -> Section {
        self.0.push((key, value.into()));
        self
    }
}

impl Serialize for Section {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A vendor's sections of its entry: `(key, section)`, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sections(pub Vec<(&'static str, Section)>);

impl Serialize for Sections {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for Facts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A requirement as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementView {
    /// The vendor's name in sentences.
    pub vendor: String,
    /// Four lowercase hex digits, or `null`.
    pub device_id: Option<String>,
    /// The GPU's name, or `null`.
    pub name: Option<String>,
    /// The label (a generation, an LLVM target, a platform), or `null`.
    pub label: Option<String>,
    /// The vendor's own facts (NVIDIA: `generation`, `kernel_module`, `min_branch`,
    /// `max_branch`, `compute`).
    #[serde(flatten)]
    pub facts: Facts,
    /// Each constraint as data.
    pub constraints: Vec<Constraint>,
    /// Notes for people.
    pub notes: Vec<String>,
    /// Why the device is unknown (`unknown device: no source lists it`); absent when a source
    /// lists it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
    /// [`Requirement::describe`].
    pub describe: String,
    /// [`Requirement::who`].
    pub who: String,
}

impl From<&Requirement> for RequirementView {
    fn from(r: &Requirement) -> Self {
        RequirementView {
            vendor: r.vendor().to_string(),
            device_id: r.device_id().map(|d| format!("{d:04x}")),
            name: r.name().map(str::to_string),
            label: r.label().map(str::to_string),
            facts: Facts(r.facts().to_vec()),
            constraints: r.constraints().to_vec(),
            notes: r.notes().to_vec(),
            unknown: r.unknown().map(str::to_string),
            describe: r.describe(),
            who: r.who(),
        }
    }
}

/// One GPU's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GpuView {
    /// The requirement.
    #[serde(flatten)]
    pub requirement: RequirementView,
    /// The bus address of a host GPU; `null` for an id given on the command line.
    pub pci_address: Option<String>,
    /// False for a GPU left out of the combined requirement (NVIDIA's Kepler and older).
    pub counted: bool,
    /// The first driver releases that list it, in words; absent when the vendor gives none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<String>,
    /// The verdict of the specs that concern this vendor; `null` when none does.
    pub driver: Option<GpuVerdict>,
}

/// One vendor's part of the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorStack {
    /// The vendor's selector name.
    pub vendor: String,
    /// Its GPUs, in the order given (host GPUs: bus-address order).
    pub gpus: Vec<GpuView>,
    /// The one requirement for the GPUs that count; `null` when none counts or they conflict.
    pub combined: Option<RequirementView>,
    /// Why they need different stacks.
    pub conflicts: Vec<String>,
    /// The verdict of the specs that concern this vendor; `null` when none does.
    pub driver: Option<DriverVerdict>,
    /// The vendor's own sections, each under its key (NVIDIA's `cuda`, `image`), after the
    /// verdict; absent when it gives none.
    #[serde(flatten)]
    pub sections: Sections,
    /// The sections' text lines, printed after the GPUs and before the combined line.
    #[serde(skip)]
    pub lines: Vec<String>,
    /// Lines printed under the combined line (NVIDIA's driver floor for every GPU together).
    #[serde(skip)]
    pub under_combined: Vec<String>,
    /// The verdict against a stack that names nothing, for a vendor no `--driver` spec
    /// concerns (what report asks of a plug-in vendor whose driver it cannot read).
    #[serde(skip)]
    pub unasked: Verdict,
    /// How the text says it.
    #[serde(skip)]
    pub wording: Wording,
    /// The vendor's name in sentences (`AMD`).
    #[serde(skip)]
    pub display: String,
}

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
