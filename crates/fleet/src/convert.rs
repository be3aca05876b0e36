//! `gpuctl requirement`'s answer as the report's data: constraints keep their component key,
//! noun and words, so `fleet` can combine and explain them without knowing any vendor.

use gpuctl_core::plugin::requirement::report::{GpuView, RequirementView, VendorStack};
use gpuctl_core::plugin::requirement::{Constraint, Scope};

use crate::model::{ConstraintEntry, GpuNeed, Kind, Need, VendorRequirement};

/// One core constraint as data.
pub fn constraint(c: &Constraint) -> ConstraintEntry {
    let component = c.component();
    let scope = match component.scope {
        Scope::Host => "host",
        Scope::Device => "device",
    };
    let (kind, allowed, min, max) = match c {
        Constraint::Choice { allowed, .. } => (
            Kind::Choice,
            allowed.iter().map(|a| a.value.to_string()).collect(),
            None,
            None,
        ),
        Constraint::Range { min, max, .. } => (
            Kind::Range,
            Vec::new(),
            min.map(|v| v.to_string()),
            max.map(|v| v.to_string()),
        ),
    };
    ConstraintEntry {
        component: component.key.to_string(),
        noun: component.noun.to_string(),
        kind,
        scope: scope.to_string(),
        allowed,
        min,
        max,
        describe: c.describe(),
    }
}

fn need(view: &RequirementView) -> Need {
    Need {
        describe: view.describe.clone(),
        constraints: view.constraints.iter().map(constraint).collect(),
    }
}

/// A vendor's part of `gpuctl requirement`'s answer.
pub fn requirement(stack: &VendorStack) -> VendorRequirement {
    VendorRequirement {
        gpus: stack.gpus.iter().map(gpu).collect(),
        combined: stack.combined.as_ref().map(need),
        conflicts: stack.conflicts.clone(),
    }
}

fn gpu(g: &GpuView) -> GpuNeed {
    GpuNeed {
        pci_address: g.pci_address.clone(),
        who: g.requirement.who.clone(),
        need: need(&g.requirement),
        counted: g.counted,
        unknown: g.requirement.unknown.clone(),
    }
}
