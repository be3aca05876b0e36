//! The requirement value: its attributes, its construction and its two sentences.

use super::{KernelModule, RequirementError};

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
        let module = match self.kernel_module {
            KernelModule::Either => "any kernel module".to_string(),
            other => format!("{other} kernel module"),
        };
        let branch = match (self.min_branch, self.max_branch) {
            (Some(min), Some(max)) => format!("driver branch {min} to {max}"),
            (Some(min), None) => format!("driver branch {min} or newer"),
            (None, Some(max)) => format!("driver branch {max} or older"),
            (None, None) => "any driver branch".to_string(),
        };
        format!("{module}, {branch}")
    }

    /// Whom the requirement is for: `Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4)`, or every
    /// member's `who` joined with `", "` for an intersection; `NVIDIA GPU` when nothing is known.
    pub fn who(&self) -> String {
        let mut out = String::new();
        self.write_who(&mut out);
        out
    }

    /// Appends `who` to `out`, so an intersection of many GPUs builds one string, not one per
    /// level.
    pub(super) fn write_who(&self, out: &mut String) {
        if !self.members.is_empty() {
            for (i, member) in self.members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                member.write_who(out);
            }
            return;
        }
        // A defined but empty name stays empty: the reference prints ` (Blackwell, 10de:2901)`.
        out.push_str(self.name.as_deref().unwrap_or("NVIDIA GPU"));
        let mut items = Vec::with_capacity(2);
        if let Some(generation) = &self.generation {
            items.push(generation.clone());
        }
        if let Some(id) = &self.device_id {
            items.push(format!("10de:{id}"));
        }
        if !items.is_empty() {
            out.push_str(" (");
            out.push_str(&items.join(", "));
            out.push(')');
        }
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
