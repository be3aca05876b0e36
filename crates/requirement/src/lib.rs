//! The vendor-neutral driver-requirement model: what a GPU needs of the driver stack that runs
//! it, as constraints on named components of that stack
//! (docs/requirement.md#the-vendor-neutral-model).
//!
//! A [`Component`] is one part of a stack: a kernel module or kernel driver chosen among values
//! (NVIDIA's `open`/`proprietary`, Intel's `i915`/`xe`), or a versioned piece (NVIDIA's driver
//! branch, the ROCm release, the Linux kernel). A [`Constraint`] restricts one component; a
//! [`Requirement`] is a GPU's constraints with whom they are for. A [`Stack`] is what a host
//! has or would install; [`Requirement::why_not`] says what in it does not fit.
//! [`Requirement::intersect`] combines GPUs into the one requirement a host must meet:
//! components are matched by key, so an AMD GPU (ROCm, kernel) and an NVIDIA GPU (kernel
//! module, branch) meet only on the kernel and never conflict on the rest, while two AMD GPUs
//! whose ROCm ranges do not overlap do. Components a device chooses for itself
//! ([`Scope::Device`], Intel's kernel driver binds per device) are checked per GPU and left out
//! of a combination.
//!
//! Vendors define their components as constants and build requirements from their own tables,
//! so a plug-in vendor adds requirements without touching this crate. The wording is generic
//! over a component's nouns and is the NVIDIA model's word for word when given NVIDIA's nouns
//! (`open kernel module, driver branch 570 or newer`).

mod combine;
mod constraint;
mod fact;
pub mod image_env;
mod input_error;
mod loaded;
mod model;
pub mod report;
mod report_entry;
mod report_verdict;
mod spec;
mod stack;
pub mod text;
mod vendor;
mod verdict;
mod version;

#[cfg(test)]
mod spec_tests;
#[cfg(test)]
mod tests;

pub use combine::CombineError;
pub use constraint::{Alternative, Asks, Component, Constraint, RangeError, Scope};
pub use fact::FactValue;
pub use input_error::{MAX_DEVICE_IDS, RequirementInputError};
pub use loaded::{BoundDriver, GpuOnHost, LoadState, LoadedDriver, LoadedDriverHook};
pub use model::Requirement;
pub use report_entry::Wording;
pub use spec::{
    Setting, SpecError, StackSpec, VendorComponents, parse_spec, registered_components,
};
pub use stack::{Known, Stack};
pub use vendor::{GpuRequirement, RequirementModel, RequirementSource, VendorRequest};
pub use verdict::{Fit, Verdict};
pub use version::{MAX_PARTS, Version, VersionError};

/// The Linux kernel, shared by every vendor whose driver is in the kernel: the one component
/// that GPUs of different vendors on one host both constrain.
pub const LINUX_KERNEL: Component = Component {
    key: "kernel",
    noun: "Linux kernel",
    short: "kernel",
    values: &[],
    scope: Scope::Host,
};

/// The kernel's module parameters a stack sets (`i915.force_probe=56c0`, on the kernel command
/// line or as a module option): the `--driver MODULE.PARAMETER=VALUE` form, taken by a vendor
/// that registers this component, and what an [`Alternative`]'s [`Asks`] is checked against.
/// A stack that names none is a stock kernel, which sets none.
pub const KERNEL_PARAMETERS: Component = Component {
    key: "kernel-parameters",
    noun: "kernel parameters",
    short: "kernel parameter",
    values: &[],
    scope: Scope::Host,
};

/// Re-exports for the [`register_components!`] macro, so vendor crates need no `inventory`
/// dependency of their own.
#[doc(hidden)]
pub mod __private {
    pub use inventory;
}
