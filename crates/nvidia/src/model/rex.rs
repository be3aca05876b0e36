//! Rex's requirement in core's model: how a generation row's attributes become constraints and
//! facts, how they are read back, Rex's combination, and a driver source as a stack
//! (docs/requirement.md#the-model).

use gpuctl_core::plugin::FactValue;
use gpuctl_core::plugin::requirement::{
    Alternative, CombineError, Constraint, Known, Requirement, Stack, Version,
};

use super::{DRIVER_BRANCH, KERNEL_MODULE, KernelModule, RequirementError};
use crate::vendor_id::NVIDIA_VENDOR_ID;

/// An NVIDIA requirement: a choice of [`KERNEL_MODULE`] (none for `either`) and a range of
/// [`DRIVER_BRANCH`], labelled with the generation, with Rex's facts beside them as JSON has
/// always shown them (`generation`, `kernel_module`, `min_branch`, `max_branch`, `compute`).
/// Bounds that leave no branch are an error, as the reference's constructor has it. Add the
/// device id and the GPU's name with core's `with_device_id` and `with_name`.
pub fn requirement(
    generation: Option<&str>,
    kernel_module: KernelModule,
    bounds: (Option<u32>, Option<u32>),
    compute: Option<bool>,
) -> Result<Requirement, RequirementError> {
    if let (Some(min), Some(max)) = bounds
        && min > max
    {
        return Err(RequirementError::MinAboveMax { min, max });
    }
    Ok(checked(generation, kernel_module, bounds, compute))
}

/// Any kernel module, any driver branch, nothing known: what an id no row covers gets (the
/// reference's `new` without arguments).
pub fn unconstrained() -> Requirement {
    checked(None, KernelModule::Either, (None, None), None)
}

/// [`requirement`] for bounds already checked (a table row's).
pub(super) fn checked(
    generation: Option<&str>,
    kernel_module: KernelModule,
    (min, max): (Option<u32>, Option<u32>),
    compute: Option<bool>,
) -> Requirement {
    let allowed = match kernel_module {
        KernelModule::Either => Vec::new(),
        module => vec![Alternative::plain(module.as_str())],
    };
    let mut r = Requirement::new("NVIDIA", NVIDIA_VENDOR_ID)
        .with_constraint(Constraint::choice(KERNEL_MODULE, allowed))
        .with_constraint(Constraint::Range {
            component: DRIVER_BRANCH,
            min: min.map(Version::major),
            max: max.map(Version::major),
        });
    if let Some(generation) = generation {
        r = r.with_label(generation);
    }
    with_facts(r, generation, kernel_module, (min, max), compute)
}

fn with_facts(
    r: Requirement,
    generation: Option<&str>,
    kernel_module: KernelModule,
    (min, max): (Option<u32>, Option<u32>),
    compute: Option<bool>,
) -> Requirement {
    let opt = |v: Option<u32>| v.map_or(FactValue::Unknown, Into::into);
    r.with_fact(
        "generation",
        generation.map_or(FactValue::Unknown, Into::into),
    )
    .with_fact("kernel_module", kernel_module.as_str())
    .with_fact("min_branch", opt(min))
    .with_fact("max_branch", opt(max))
    .with_fact("compute", compute.map_or(FactValue::Unknown, Into::into))
}

/// Rex's attributes of an NVIDIA requirement, read from core's requirement: the module and
/// bounds from its constraints, the generation from its label, the compute flag from its fact.
pub trait RexFacts {
    /// The generation label (`Blackwell`); `None` for an id no row covers and for a
    /// combination.
    fn generation(&self) -> Option<&str>;
    /// The kernel module the GPU binds with (`either` when none is required).
    fn kernel_module(&self) -> KernelModule;
    /// The oldest driver branch that supports the GPU, if there is a lower bound.
    fn min_branch(&self) -> Option<u32>;
    /// The newest driver branch that still supports the GPU, if there is an upper bound.
    fn max_branch(&self) -> Option<u32>;
    /// Whether the generation is one to install a driver for: `Some(true)` for Maxwell through
    /// Blackwell Ultra, `Some(false)` for Kepler and older, `None` when the table has no
    /// opinion (no row, a row without the flag, or a combination).
    fn compute(&self) -> Option<bool>;
}

impl RexFacts for Requirement {
    fn generation(&self) -> Option<&str> {
        self.label()
    }

    fn kernel_module(&self) -> KernelModule {
        match self.constraint(KERNEL_MODULE.key) {
            Some(Constraint::Choice { allowed, .. }) if allowed.len() == 1 => {
                KernelModule::parse(&allowed[0].value).unwrap_or_default()
            }
            _ => KernelModule::Either,
        }
    }

    fn min_branch(&self) -> Option<u32> {
        branches(self).0
    }

    fn max_branch(&self) -> Option<u32> {
        branches(self).1
    }

    fn compute(&self) -> Option<bool> {
        self.facts().iter().find_map(|(k, v)| match v {
            FactValue::Flag(b) if *k == "compute" => Some(*b),
            _ => None,
        })
    }
}

fn branches(r: &Requirement) -> (Option<u32>, Option<u32>) {
    let major = |v: &Option<Version>| v.as_ref().and_then(|v| v.parts().first().copied());
    match r.constraint(DRIVER_BRANCH.key) {
        Some(Constraint::Range { min, max, .. }) => (major(min), major(max)),
        _ => (None, None),
    }
}

/// Rex's `intersect` (docs/requirement.md#intersect-and-conflicts): core's combination, whose
/// merge is Rex's (the module a member insists on, the highest lower and lowest upper bound),
/// with Rex's facts of a combination: no generation, no compute flag. One requirement comes
/// back unchanged.
pub fn intersect(reqs: &[&Requirement]) -> Result<Requirement, CombineError> {
    let r = Requirement::intersect(reqs.iter().copied())?;
    if reqs.len() < 2 {
        return Ok(r);
    }
    let (module, bounds) = (r.kernel_module(), branches(&r));
    Ok(with_facts(r, None, module, bounds, None))
}

/// A driver source as the reference's hash describes one, as core's stack: the kernel module it
/// installs (`None`: not known) and its branch, exactly (`branch`, which wins when both are
/// given) or the newest its repository carries, at least `branch_at_least`.
pub fn source_stack(
    kernel_module: Option<KernelModule>,
    branch: Option<u32>,
    branch_at_least: Option<u32>,
) -> Stack {
    let known = match (branch, branch_at_least) {
        (Some(b), _) => Known::Exact(Version::major(b)),
        (None, Some(f)) => Known::AtLeast(Version::major(f)),
        (None, None) => Known::Unknown,
    };
    stack(kernel_module.map(KernelModule::as_str), known)
}

/// A stack naming `kernel_module` (any word, as the reference echoes it) and `branch`.
pub(crate) fn stack(kernel_module: Option<&str>, branch: Known) -> Stack {
    let mut stack = Stack::new();
    if let Some(module) = kernel_module {
        stack = stack.with_choice(KERNEL_MODULE.key, module);
    }
    stack.with_version(DRIVER_BRANCH.key, branch)
}
