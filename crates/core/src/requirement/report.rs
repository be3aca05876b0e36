//! The answer for GPUs of any vendors: each GPU's requirement, one combined requirement per
//! vendor stack, the conflicts within and across stacks, and whether the specs given describe a
//! stack that drives each GPU. Serializable as the `vendors` part of `gpuctl requirement`'s
//! JSON.

use serde::Serialize;

use super::{CombineError, Constraint, Requirement, Stack, StackSpec};

/// One GPU to report on.
#[derive(Debug, Clone)]
pub struct GpuInput {
    /// The vendor's selector name (`amd`).
    pub vendor: &'static str,
    /// The bus address, for a GPU found on the host.
    pub pci_address: Option<String>,
    /// Its requirement.
    pub requirement: Requirement,
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
    /// The label (an LLVM target, a platform), or `null`.
    pub label: Option<String>,
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
            constraints: r.constraints().to_vec(),
            notes: r.notes().to_vec(),
            unknown: r.unknown().map(str::to_string),
            describe: r.describe(),
            who: r.who(),
        }
    }
}

/// Whether the specs' stack drives one GPU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GpuVerdict {
    /// True when it does.
    pub satisfied: bool,
    /// Why not, when it does not.
    pub why_not: Option<String>,
}

/// One GPU's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GpuView {
    /// The requirement.
    #[serde(flatten)]
    pub requirement: RequirementView,
    /// The bus address of a host GPU; `null` for an id given on the command line.
    pub pci_address: Option<String>,
    /// The verdict of the specs that concern this vendor; `null` when none does.
    pub driver: Option<GpuVerdict>,
}

/// One vendor's stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorStack {
    /// The vendor's selector name.
    pub vendor: String,
    /// Its GPUs, in the order given.
    pub gpus: Vec<GpuView>,
    /// The one requirement for all of them; `null` when they conflict.
    pub combined: Option<RequirementView>,
    /// Why they need different stacks.
    pub conflicts: Vec<String>,
    /// The specs that concern this vendor, as given.
    pub specs: Vec<String>,
    /// Whether every GPU is satisfied by them; `null` when no spec concerns this vendor.
    pub satisfied: Option<bool>,
}

/// Every vendor's stack and what conflicts across them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Report {
    /// One entry per vendor, in the order the vendors first appear.
    pub vendors: Vec<VendorStack>,
    /// Conflicts between stacks (only shared components, such as the kernel, can conflict).
    pub host_conflicts: Vec<String>,
}

impl Report {
    /// True when there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.vendors.is_empty()
    }

    /// True when the answer is "no": GPUs conflict, or a spec does not drive a GPU.
    pub fn unserved(&self) -> bool {
        !self.host_conflicts.is_empty()
            || self
                .vendors
                .iter()
                .any(|v| !v.conflicts.is_empty() || v.satisfied == Some(false))
    }
}

/// What a vendor's combined requirement says when every constraint of its GPUs is per device.
pub const NO_HOST_WIDE_CONSTRAINT: &str =
    "no host-wide constraint (each GPU's requirement above is its own)";

/// The report for `gpus`, checking each against the specs that concern its vendor.
pub fn report(gpus: &[GpuInput], specs: &[StackSpec]) -> Report {
    let mut order: Vec<&'static str> = Vec::new();
    for g in gpus {
        if !order.contains(&g.vendor) {
            order.push(g.vendor);
        }
    }
    let mut combined_all = Vec::new();
    let vendors = order
        .into_iter()
        .map(|vendor| {
            let mine: Vec<&GpuInput> = gpus.iter().filter(|g| g.vendor == vendor).collect();
            let concern: Vec<&StackSpec> = specs
                .iter()
                .filter(|s| s.vendors.contains(&vendor))
                .collect();
            let stack = (!concern.is_empty())
                .then(|| concern.iter().fold(Stack::new(), |st, s| s.apply(st)));
            let views: Vec<GpuView> = mine
                .iter()
                .map(|g| GpuView {
                    requirement: RequirementView::from(&g.requirement),
                    pci_address: g.pci_address.clone(),
                    driver: stack.as_ref().map(|st| {
                        let why_not = g.requirement.why_not(st);
                        GpuVerdict {
                            satisfied: why_not.is_none(),
                            why_not,
                        }
                    }),
                })
                .collect();
            let reqs: Vec<&Requirement> = mine.iter().map(|g| &g.requirement).collect();
            let (combined, conflicts) = match Requirement::intersect(reqs) {
                Ok(r) => (Some(r.host_part()), Vec::new()),
                Err(CombineError::Empty) => (None, Vec::new()),
                Err(CombineError::Conflict { conflicts }) => (None, conflicts),
            };
            if let Some(c) = &combined {
                combined_all.push(c.clone());
            }
            let satisfied = stack.as_ref().map(|_| {
                views
                    .iter()
                    .all(|v| v.driver.as_ref().is_some_and(|d| d.satisfied))
            });
            let combined = combined.as_ref().map(|c| {
                let mut view = RequirementView::from(c);
                // The combined requirement holds only host-wide constraints (the ROCm release,
                // the kernel); a per-device choice such as Intel's i915 or xe is each GPU's own,
                // so "any driver" here would read as if no GPU needed anything.
                if view.constraints.is_empty()
                    && views.iter().any(|g| !g.requirement.constraints.is_empty())
                {
                    view.describe = NO_HOST_WIDE_CONSTRAINT.to_string();
                }
                view
            });
            VendorStack {
                vendor: vendor.to_string(),
                gpus: views,
                combined,
                conflicts,
                specs: concern.iter().map(|s| s.spec.clone()).collect(),
                satisfied,
            }
        })
        .collect();
    Report {
        vendors,
        host_conflicts: Requirement::conflicts(&combined_all),
    }
}
