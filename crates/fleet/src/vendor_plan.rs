//! One vendor's part of the fleet plan as data (docs/fleet.md#planning): the groups of hosts
//! that can share a stack, and the drift between what hosts run and what they need. The plan
//! builds them and the roll-out reads them, so they sit below both.

use serde::Serialize;

use crate::model::ConstraintEntry;

/// A stack and the hosts it serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The stack in words.
    pub describe: String,
    /// Its constraints.
    pub constraints: Vec<ConstraintEntry>,
    /// The hosts, in name order.
    pub hosts: Vec<String>,
    /// What the vendor says under the combined requirement of the group's GPUs together, as
    /// `gpuctl requirement IDS` prints it (NVIDIA's release floor, `driver floor (...): open
    /// kernel module 570.124.04 or newer`): the releases each host's verdict compares, where
    /// `describe` says branches. Text only, so the JSON keys stay as they were.
    #[serde(skip)]
    pub floor: Vec<String>,
    /// The distinct GPU ids of its hosts: what THE verdict is asked about for the group.
    #[serde(skip)]
    pub ids: Vec<String>,
}

/// One vendor across the fleet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorPlan {
    /// `nvidia`.
    pub vendor: String,
    /// Hosts with this vendor's GPUs.
    pub hosts: usize,
    /// True when one stack fits every host.
    pub fits_all: bool,
    /// One group when a stack fits all; else one per stack a set of hosts can share.
    pub groups: Vec<Group>,
    /// What divides the groups, naming hosts.
    pub divides: Vec<String>,
    /// Hosts whose own GPUs need conflicting stacks: no stack serves them whole.
    pub conflicted: Vec<String>,
    /// Hosts with a GPU no source lists, as `host: who: why`: no stack is known to drive
    /// them, so none is planned for them and `fits_all` is false (unknown is not "any").
    pub unknown: Vec<String>,
}

/// A host running something other than what it or its peers say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Drift {
    /// `driver-does-not-fit`, `same-gpus-different-driver` or `cdi-spec-for-another-driver`.
    pub kind: &'static str,
    /// The hosts concerned.
    pub hosts: Vec<String>,
    /// One sentence.
    pub message: String,
}
