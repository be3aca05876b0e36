//! Core's and NVIDIA's requirement types as the report's data: constraints keep their
//! component key, noun and words, so `fleet` can combine and explain them without knowing any
//! vendor.

use gpuctl_core::requirement::report::{GpuView, RequirementView, VendorStack};
use gpuctl_core::requirement::{Alternative, Constraint, Scope, Version};
use gpuctl_nvidia::model::{DRIVER_BRANCH, KERNEL_MODULE, KernelModule};
use gpuctl_nvidia::requirement as nv;

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

/// A vendor's answer from core's neutral report.
pub fn neutral(stack: &VendorStack) -> VendorRequirement {
    VendorRequirement {
        gpus: stack.gpus.iter().map(neutral_gpu).collect(),
        combined: stack.combined.as_ref().map(need),
        conflicts: stack.conflicts.clone(),
    }
}

fn neutral_gpu(g: &GpuView) -> GpuNeed {
    GpuNeed {
        pci_address: g.pci_address.clone(),
        who: g.requirement.who.clone(),
        need: need(&g.requirement),
        counted: true,
    }
}

/// NVIDIA's answer: its kernel module and branch range as the neutral components they are
/// (`gpuctl_nvidia::model::KERNEL_MODULE`, `DRIVER_BRANCH`), worded by core.
pub fn nvidia(report: &nv::Report) -> VendorRequirement {
    VendorRequirement {
        gpus: report
            .gpus
            .iter()
            .map(|g| GpuNeed {
                pci_address: g.pci_address.clone(),
                who: g.requirement.who.clone(),
                need: nvidia_need(&g.requirement),
                counted: g.counted,
            })
            .collect(),
        combined: report.combined.as_ref().map(nvidia_need),
        conflicts: report.conflicts.clone(),
    }
}

fn nvidia_need(view: &nv::RequirementView) -> Need {
    let allowed = match view.kernel_module {
        KernelModule::Either => Vec::new(),
        m => vec![Alternative::plain(m.as_str())],
    };
    let mut constraints = vec![constraint(&Constraint::choice(KERNEL_MODULE, allowed))];
    let branch = |b: Option<u32>| b.and_then(|b| Version::parse(&b.to_string()).ok());
    // The table never holds a floor above its ceiling; were one there, the branch is left out
    // rather than worded as a range no driver has.
    if let Ok(c) = Constraint::range(
        DRIVER_BRANCH,
        branch(view.min_branch),
        branch(view.max_branch),
    ) {
        constraints.push(constraint(&c));
    }
    Need {
        describe: view.describe.clone(),
        constraints,
    }
}
