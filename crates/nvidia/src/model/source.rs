//! Driver sources and whether one satisfies a requirement
//! (docs/requirement.md#satisfied-by-a-driver-source).

use gpuctl_core::requirement::{Known, Stack, Version};

use super::{DRIVER_BRANCH, KERNEL_MODULE, KernelModule, Requirement};

/// What is known, before installing, about the driver branch a source installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchKnowledge {
    /// Exactly this branch (`nvidia-driver-580-server`, Debian 12's `nvidia-driver` 535).
    Exact(u32),
    /// The newest branch the source's repository carries, known to be at least this one. It
    /// satisfies a lower bound up to that floor and never an upper bound: a newer branch can
    /// appear in the repository at any time and move past it.
    AtLeast(u32),
    /// Nothing: satisfies only a requirement without bounds.
    Unknown,
}

/// A driver source: the kernel module it installs (or `None` when not known) and what is known
/// about its branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverSource {
    kernel_module: Option<KernelModule>,
    branch: BranchKnowledge,
}

impl DriverSource {
    /// A source installing `kernel_module` (`None`: not known) with `branch`.
    pub const fn new(kernel_module: Option<KernelModule>, branch: BranchKnowledge) -> Self {
        DriverSource {
            kernel_module,
            branch,
        }
    }

    /// A source described as the reference's hash is: an exact `branch` wins over
    /// `branch_at_least` when both are given.
    pub const fn from_parts(
        kernel_module: Option<KernelModule>,
        branch: Option<u32>,
        branch_at_least: Option<u32>,
    ) -> Self {
        let branch = match (branch, branch_at_least) {
            (Some(b), _) => BranchKnowledge::Exact(b),
            (None, Some(f)) => BranchKnowledge::AtLeast(f),
            (None, None) => BranchKnowledge::Unknown,
        };
        DriverSource {
            kernel_module,
            branch,
        }
    }

    /// The kernel module the source installs, if known.
    pub const fn kernel_module(&self) -> Option<KernelModule> {
        self.kernel_module
    }

    /// What is known about the branch.
    pub const fn branch(&self) -> BranchKnowledge {
        self.branch
    }
}

impl Requirement {
    /// True when `source` can drive what this requirement is for: the negation of
    /// [`why_not`](Self::why_not).
    pub fn satisfied_by(&self, source: &DriverSource) -> bool {
        self.why_not(source).is_none()
    }

    /// Why `source` does not satisfy this requirement, as a short reason for messages
    /// (`branch 590 is newer than 580`), or `None` when it does.
    pub fn why_not(&self, source: &DriverSource) -> Option<String> {
        self.to_neutral().why_not(&source.to_stack())
    }
}

impl DriverSource {
    /// The source as a neutral driver stack: its module as the [`KERNEL_MODULE`] choice and
    /// its branch knowledge as the [`DRIVER_BRANCH`] version.
    pub fn to_stack(&self) -> Stack {
        let mut stack = Stack::new();
        if let Some(module) = self.kernel_module {
            stack = stack.with_choice(KERNEL_MODULE.key, module.as_str());
        }
        let known = match self.branch {
            BranchKnowledge::Exact(b) => Known::Exact(Version::major(b)),
            BranchKnowledge::AtLeast(b) => Known::AtLeast(Version::major(b)),
            BranchKnowledge::Unknown => Known::Unknown,
        };
        stack.with_version(DRIVER_BRANCH.key, known)
    }
}
