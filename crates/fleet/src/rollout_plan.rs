//! The roll-out plan as data (docs/fleet.md#the-roll-out-plan): the release per group, the
//! hosts to change, the findings by severity and the steps. The roll-out builds it from its
//! group and release parts, which all name these types, so they sit below them.

use serde::Serialize;

/// How urgent a finding is, most urgent first: the order the plan acts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// The GPUs cannot be used: detect says so, THE verdict is `no` for the running driver, no
    /// driver is loaded, a CDI spec was written for another driver, no stack drives them all.
    Unusable,
    /// A doctor problem other than drift (a CDI spec podman skips, a missing file).
    Problem,
    /// The host works, but its running stack is not its group's (another module, below the
    /// group's release floor): it must change for the roll-out.
    BelowStack,
    /// It runs its group's stack at another release than the plan's: a release difference only.
    Cosmetic,
    /// THE verdict on what it runs is unknown (AMD's ROCm lives in the container image): not a
    /// fault, and never counted as a fit.
    Unchecked,
    /// A doctor warning.
    Warning,
}

impl Severity {
    /// In words, as the text heads each finding.
    pub fn words(self) -> &'static str {
        match self {
            Severity::Unusable => "GPUs unusable",
            Severity::Problem => "doctor problems",
            Severity::BelowStack => "below the group's stack",
            Severity::Cosmetic => "cosmetic (release differences)",
            Severity::Unchecked => "not known to fit (the driver verdict is unknown)",
            Severity::Warning => "doctor warnings",
        }
    }
}

/// One group's stack and the release the plan gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stack {
    /// The group's index in its vendor's `groups` (0-based).
    pub group: usize,
    /// The stack in words (the group's `describe`).
    pub describe: String,
    /// Its hosts.
    pub hosts: usize,
    /// The kernel modules the stack allows (empty: any, or a vendor without one).
    pub modules: Vec<String>,
    /// The oldest and newest release line (NVIDIA's branch) it allows.
    pub min: Option<String>,
    /// See `min`.
    pub max: Option<String>,
    /// The release to run, as a `--driver` spec (`open:580`); `null` when none is known.
    pub release: Option<String>,
    /// Why no release is named, when none is.
    pub why: Option<String>,
}

/// One release that serves several groups, each with its module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Covering {
    /// The branch (`580`).
    pub branch: String,
    /// Per group, the spec that drives it (`open:580`).
    pub groups: Vec<GroupRelease>,
}

/// A group and the spec of the covering release that drives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupRelease {
    /// The group's index.
    pub group: usize,
    /// `MODULE:BRANCH`.
    pub spec: String,
}

/// A host to change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The host.
    pub host: String,
    /// The vendor.
    pub vendor: String,
    /// How urgent.
    pub severity: Severity,
    /// What is wrong, by kind (`driver-does-not-fit`, `not-usable`, `cdi-spec-for-another-driver`,
    /// `gpus-conflict`, `gpus-unknown`, `off-stack`, `verdict-unknown`, `other-release`).
    pub kind: &'static str,
    /// What it runs, as specs (`proprietary:570.172.08`); `null` when nothing is loaded.
    pub from: Option<String>,
    /// What to run instead: the group's release; `null` when none is known.
    pub to: Option<String>,
    /// Why, one sentence, without the host's name.
    pub reason: String,
}

/// Hosts sharing one finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// How urgent.
    pub severity: Severity,
    /// The change kind, or the doctor check's code.
    pub kind: String,
    /// The vendor, or `null` for a host-wide doctor finding.
    pub vendor: Option<String>,
    /// The hosts, in name order.
    pub hosts: Vec<String>,
    /// One sentence for all of them.
    pub message: String,
    /// What to run instead, when the finding names it.
    pub to: Option<String>,
}

/// One step of the order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based.
    pub step: usize,
    /// The severity it deals with.
    pub severity: Severity,
    /// The hosts.
    pub hosts: Vec<String>,
}

/// One vendor's part of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorRollout {
    /// `nvidia`.
    pub vendor: String,
    /// One per group, in `groups` order.
    pub stacks: Vec<Stack>,
    /// The one release serving every group, where there are several groups and one does.
    pub covering: Option<Covering>,
    /// Why no one release serves every group, when there are several.
    pub no_covering: Option<String>,
    /// The hosts to change, in host order.
    pub changes: Vec<Change>,
}

/// The roll-out plan: `rollout` in `gpuctl fleet --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rollout {
    /// Per vendor, as `vendors`.
    pub vendors: Vec<VendorRollout>,
    /// Every change and doctor finding, grouped, most urgent first.
    pub findings: Vec<Finding>,
    /// What to do first: one step per severity that has hosts.
    pub order: Vec<Step>,
    /// The hosts planned from node labels rather than reports.
    pub from_labels: Vec<String>,
    /// What their labels cannot tell that a report could, one sentence each; empty when every
    /// host came from a report.
    pub labels_cannot_tell: Vec<String>,
}
