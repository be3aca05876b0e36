//! The requirement value: its attributes, its construction and its two sentences.

use gpuctl_core::requirement::{self as neutral, Alternative, Constraint, Version};

use super::{DRIVER_BRANCH, KERNEL_MODULE, KernelModule, RequirementError};
use crate::requirement::NVIDIA_VENDOR_ID;

/// Which NVIDIA driver a GPU (or a set of GPUs) can work with: a kernel module and an inclusive
/// range of driver branches, plus what the messages say about whom it is for.
///
/// Immutable: every attribute is read through a method, and the only ways to make one are
/// [`Requirement::builder`], [`Default`] (any module, any branch), a generation table lookup and
/// [`Requirement::intersect`]. Construction checks what the reference checks, so `min_branch`
/// above `max_branch` or a device id that is not four lowercase hex digits is an error value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Requirement {
    pub(super) generation: Option<String>,
    pub(super) kernel_module: KernelModule,
    pub(super) min_branch: Option<u32>,
    pub(super) max_branch: Option<u32>,
    pub(super) device_id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) members: Vec<Requirement>,
    pub(super) compute: Option<bool>,
}

impl Requirement {
    /// Starts a requirement: any kernel module, no bounds, nothing known about the GPU.
    pub fn builder() -> RequirementBuilder {
        RequirementBuilder::default()
    }

    /// The generation label (`Blackwell`, `Maxwell/Pascal/Volta`, ...); `None` for an id the
    /// table does not cover and for an intersection.
    pub fn generation(&self) -> Option<&str> {
        self.generation.as_deref()
    }

    /// The kernel module the GPU binds with.
    pub fn kernel_module(&self) -> KernelModule {
        self.kernel_module
    }

    /// The oldest driver branch that supports the GPU, if there is a lower bound.
    pub fn min_branch(&self) -> Option<u32> {
        self.min_branch
    }

    /// The newest driver branch that still supports the GPU, if there is an upper bound.
    pub fn max_branch(&self) -> Option<u32> {
        self.max_branch
    }

    /// The PCI device id (four lowercase hex digits) the requirement was looked up for.
    pub fn device_id(&self) -> Option<&str> {
        self.device_id.as_deref()
    }

    /// The GPU's name, for messages only; never used to decide anything.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// For an intersection, the per-GPU requirements it combines; empty otherwise.
    pub fn members(&self) -> &[Requirement] {
        &self.members
    }

    /// Whether the generation is one to install a driver for: `Some(true)` for Maxwell through
    /// Blackwell Ultra, `Some(false)` for Kepler and older, `None` when the table has no opinion
    /// (no row, a row without the flag, or an intersection).
    pub fn compute(&self) -> Option<bool> {
        self.compute
    }

    /// The same requirement carrying a GPU name for messages (what `from_gpu` adds in the
    /// reference). A name is never used to decide anything, so this cannot fail.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Requirement {
        self.name = Some(name.into());
        self
    }

    /// The constraint in words: `open kernel module, driver branch 570 or newer`.
    pub fn describe(&self) -> String {
        self.to_neutral().describe()
    }

    /// Whom the requirement is for: `Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4)`, or every
    /// member's `who` joined with `", "` for an intersection; `NVIDIA GPU` when nothing is known.
    pub fn who(&self) -> String {
        self.to_neutral().who()
    }

    /// The requirement in core's vendor-neutral terms: a choice of [`KERNEL_MODULE`] (none
    /// for `either`) and a range of [`DRIVER_BRANCH`], labelled with the generation, members
    /// converted in turn. Generation and compute flag are NVIDIA's own and stay here.
    pub fn to_neutral(&self) -> neutral::Requirement {
        let allowed = match self.kernel_module {
            KernelModule::Either => Vec::new(),
            module => vec![Alternative::plain(module.as_str())],
        };
        let branches = Constraint::Range {
            component: DRIVER_BRANCH,
            min: self.min_branch.map(Version::major),
            max: self.max_branch.map(Version::major),
        };
        let mut r = neutral::Requirement::new("NVIDIA", NVIDIA_VENDOR_ID)
            .with_constraint(Constraint::choice(KERNEL_MODULE, allowed))
            .with_constraint(branches);
        if let Some(id) = self
            .device_id
            .as_deref()
            .and_then(|d| u16::from_str_radix(d, 16).ok())
        {
            r = r.with_device_id(id);
        }
        if let Some(name) = &self.name {
            r = r.with_name(name.clone());
        }
        if let Some(generation) = &self.generation {
            r = r.with_label(generation.clone());
        }
        r.with_members(self.members.iter().map(Requirement::to_neutral).collect())
    }
}

/// Collects a requirement's attributes; [`RequirementBuilder::build`] checks them together.
#[derive(Debug, Clone, Default)]
pub struct RequirementBuilder {
    inner: Requirement,
}

impl RequirementBuilder {
    /// The generation label.
    #[must_use]
    pub fn generation(mut self, generation: impl Into<String>) -> Self {
        self.inner.generation = Some(generation.into());
        self
    }

    /// The kernel module (default: either).
    #[must_use]
    pub fn kernel_module(mut self, kernel_module: KernelModule) -> Self {
        self.inner.kernel_module = kernel_module;
        self
    }

    /// The oldest supported driver branch.
    #[must_use]
    pub fn min_branch(mut self, branch: u32) -> Self {
        self.inner.min_branch = Some(branch);
        self
    }

    /// The newest supported driver branch.
    #[must_use]
    pub fn max_branch(mut self, branch: u32) -> Self {
        self.inner.max_branch = Some(branch);
        self
    }

    /// The PCI device id; [`build`](Self::build) refuses anything but four lowercase hex digits.
    #[must_use]
    pub fn device_id(mut self, device_id: impl Into<String>) -> Self {
        self.inner.device_id = Some(device_id.into());
        self
    }

    /// The GPU's name, for messages.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.inner.name = Some(name.into());
        self
    }

    /// The requirements this one combines (normally made by `intersect`).
    #[must_use]
    pub fn members(mut self, members: Vec<Requirement>) -> Self {
        self.inner.members = members;
        self
    }

    /// The compute flag.
    #[must_use]
    pub fn compute(mut self, compute: bool) -> Self {
        self.inner.compute = Some(compute);
        self
    }

    /// The requirement, or why it cannot exist. Attribute checks come first, in the
    /// reference's order (device_id before the bounds), then `min_branch` against `max_branch`.
    pub fn build(self) -> Result<Requirement, RequirementError> {
        if let Some(id) = &self.inner.device_id
            && !is_lower_hex4(id)
        {
            return Err(RequirementError::InvalidDeviceId { value: id.clone() });
        }
        if let (Some(min), Some(max)) = (self.inner.min_branch, self.inner.max_branch)
            && min > max
        {
            return Err(RequirementError::MinAboveMax { min, max });
        }
        Ok(self.inner)
    }
}

/// Exactly four characters from `0-9a-f` (the stored form of a device id).
pub(super) fn is_lower_hex4(s: &str) -> bool {
    s.len() == 4 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}
