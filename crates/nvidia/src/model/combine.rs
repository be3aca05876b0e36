//! One driver for several GPUs: `intersect` and `conflicts`
//! (docs/requirement.md#intersect-and-conflicts).

use thiserror::Error;

use gpuctl_core::requirement::{self as neutral, Combinable};

use super::{KernelModule, Requirement};

/// Why requirements cannot be combined into one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CombineError {
    /// Nothing was given to combine.
    #[error("intersect needs at least one requirement")]
    Empty,
    /// No single driver fits every member; one sentence per conflict, as
    /// [`Requirement::conflicts`] gives them.
    #[error("no single NVIDIA driver supports all GPUs on this host: {}", conflicts.join("; "))]
    Conflict {
        /// The conflicts, module conflict first.
        conflicts: Vec<String>,
    },
}

impl From<neutral::CombineError> for CombineError {
    fn from(e: neutral::CombineError) -> Self {
        match e {
            neutral::CombineError::Empty => CombineError::Empty,
            neutral::CombineError::Conflict { conflicts } => CombineError::Conflict { conflicts },
        }
    }
}

/// The neutral model's combination steps, with NVIDIA's merge: the conflicts are the neutral
/// model's over [`Requirement::to_neutral`], so their sentences are the same word for word.
impl Combinable for Requirement {
    fn members(&self) -> &[Requirement] {
        &self.members
    }

    fn conflicts_among(members: &[Requirement]) -> Vec<String> {
        let converted: Vec<neutral::Requirement> =
            members.iter().map(Requirement::to_neutral).collect();
        neutral::Requirement::conflicts(&converted)
    }

    /// The module any member insists on (`either` only if all say either), the highest lower
    /// bound and the lowest upper bound; no generation, device id, name or compute flag.
    fn merge(_first: &Requirement, members: Vec<Requirement>) -> Requirement {
        let has = |m: KernelModule| members.iter().any(|r| r.kernel_module == m);
        let kernel_module = if has(KernelModule::Open) {
            KernelModule::Open
        } else if has(KernelModule::Proprietary) {
            KernelModule::Proprietary
        } else {
            KernelModule::Either
        };
        // No conflict means the highest minimum is at most the lowest maximum.
        Requirement {
            kernel_module,
            min_branch: members.iter().filter_map(|r| r.min_branch).max(),
            max_branch: members.iter().filter_map(|r| r.max_branch).min(),
            members,
            ..Requirement::default()
        }
    }
}

impl Requirement {
    /// The one requirement that satisfies all of `reqs` ([`Combinable::merge`]).
    ///
    /// A single requirement comes back unchanged. Several give a new requirement whose members
    /// are the inputs, with an input's own members taking its place (one level of flattening,
    /// order and duplicates kept) and whose generation, device id, name and compute flag are
    /// unset. Members that need different modules, or bounds that leave no branch, are a
    /// [`CombineError::Conflict`] naming the GPUs on each side.
    pub fn intersect<'a, I>(reqs: I) -> Result<Requirement, CombineError>
    where
        I: IntoIterator<Item = &'a Requirement>,
    {
        neutral::intersect(reqs).map_err(CombineError::from)
    }

    /// This requirement combined with `other`, this one first (the reference's
    /// `$b200->intersect($b300)`).
    pub fn intersect_with(&self, other: &Requirement) -> Result<Requirement, CombineError> {
        Requirement::intersect([self, other])
    }

    /// What [`intersect`](Self::intersect) would refuse, one sentence per conflict: the module
    /// conflict first, then the branch conflict. Empty when the requirements combine (and for an
    /// empty list, which has nothing to conflict).
    pub fn conflicts<'a, I>(reqs: I) -> Vec<String>
    where
        I: IntoIterator<Item = &'a Requirement>,
    {
        neutral::conflicts(reqs)
    }
}
