//! The parts of `gpuctl requirement`'s answer as data ([`super::report`] builds them): each
//! GPU's input and entry, a requirement as data, a vendor's entry and how it is worded. They sit
//! below the report and the vendor's model, which both name them.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::report_verdict::{DriverVerdict, GpuVerdict};
use super::{Constraint, Requirement, Verdict};
use crate::FactValue;

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

/// How the vendor's part of the answer is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Wording {
    /// The combined line reads `combined: ...` with no vendor name (Rex's wording, kept for
    /// NVIDIA); otherwise `AMD combined: ...`.
    pub bare_combined: bool,
    /// What the text says when the host has none of the vendor's GPUs; `None`: the vendor is
    /// left out of the answer then.
    pub none_found: Option<&'static str>,
    /// The verdict on `--driver` gives one reason, from the combined requirement (Rex's
    /// `why_not`), rather than one per GPU.
    pub combined_verdict: bool,
    /// The forms of the vendor's own `--driver` specs, for messages.
    pub spec_forms: &'static str,
    /// A device id to suggest when a spec of the vendor has no GPU in the request.
    pub example_id: &'static str,
}

impl Wording {
    /// The wording of a vendor with no requirement model of its own.
    pub const DEFAULT: Wording = Wording {
        bare_combined: false,
        none_found: None,
        combined_verdict: false,
        spec_forms: "",
        example_id: "VVVV:DDDD",
    };
}
