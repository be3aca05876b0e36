//! The plan an operator acts on (docs/fleet.md#the-roll-out-plan): per group the release that
//! drives it, the one release that serves several groups where there is one, each host to
//! change with what to change to and why, findings grouped by severity, and the order to act
//! in. Every "does this release drive these GPUs" is THE verdict
//! ([`gpuctl_core::requirement_answer::verdicts`]), asked once per group and release; nothing
//! here judges a fit on its own.

use std::collections::HashMap;

use gpuctl_core::requirement::Verdict;
use serde::Serialize;

use crate::plan::{Drift, Group, VendorPlan};
use crate::rollout_group::{findings, order};
use crate::rollout_release::{
    Asker, RELEASE_VENDOR, candidates, covering, drives, modules, range, within,
};
use crate::summary::{HostSummary, VendorSummary};

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

/// The plan for `hosts` (sorted by name) and the vendors' groups.
pub fn build(hosts: &[HostSummary], vendors: &[VendorPlan], drift: &[Drift]) -> Rollout {
    let mut asker = Asker {
        asked: HashMap::new(),
    };
    let vendors: Vec<VendorRollout> = vendors
        .iter()
        .map(|p| vendor_rollout(&mut asker, hosts, p))
        .collect();
    let findings = findings(hosts, &vendors, drift);
    let order = order(&findings);
    let from_labels: Vec<String> = hosts
        .iter()
        .filter(|h| h.from_labels)
        .map(|h| h.name.clone())
        .collect();
    let labels_cannot_tell = if from_labels.is_empty() {
        Vec::new()
    } else {
        crate::nodelist::LABELS_CANNOT_TELL
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    Rollout {
        vendors,
        findings,
        order,
        from_labels,
        labels_cannot_tell,
    }
}

fn vendor_rollout(asker: &mut Asker, hosts: &[HostSummary], p: &VendorPlan) -> VendorRollout {
    let mine: Vec<(&HostSummary, &VendorSummary)> = hosts
        .iter()
        .filter_map(|h| {
            h.vendors
                .iter()
                .find(|v| v.vendor == p.vendor)
                .map(|v| (h, v))
        })
        .collect();
    let runs: Vec<&VendorSummary> = mine.iter().map(|(_, v)| *v).collect();
    let branches = candidates(p, &runs);
    // By name, so a group's members are found in the group's size, not the fleet's.
    let by_name: HashMap<&str, &VendorSummary> =
        mine.iter().map(|(h, v)| (h.name.as_str(), *v)).collect();
    let of_group = |g: &Group| -> Vec<&VendorSummary> {
        g.hosts
            .iter()
            .filter_map(|h| by_name.get(h.as_str()).copied())
            .collect()
    };
    let mut stacks: Vec<Stack> = Vec::new();
    for (i, g) in p.groups.iter().enumerate() {
        let (lo, hi) = range(g);
        let mut s = Stack {
            group: i,
            describe: g.describe.clone(),
            hosts: g.hosts.len(),
            modules: modules(g),
            min: lo.map(|b| b.to_string()),
            max: hi.map(|b| b.to_string()),
            release: None,
            why: None,
        };
        if p.vendor != RELEASE_VENDOR {
            s.why = Some(format!(
                "the stack is the plan (gpuctl names releases for {RELEASE_VENDOR} only)"
            ));
        } else if g.ids.is_empty() {
            s.why = Some("no GPU id is known for the group (labels carry none), so no release can be judged for it".into());
        } else {
            let members = of_group(g);
            let mut why = None;
            for b in branches.iter().copied().filter(|b| within(*b, (lo, hi))) {
                match drives(asker, g, &members, b) {
                    Ok(spec) => {
                        s.release = Some(spec);
                        break;
                    }
                    Err(w) => why = why.or(Some(w)),
                }
            }
            if s.release.is_none() {
                s.why = Some(why.unwrap_or_else(|| "no release line is in its range".into()));
            }
        }
        stacks.push(s);
    }
    let (covering, no_covering) = covering(asker, p, &branches, &stacks, &of_group);
    // A covering release is every group's release: one roll-out for all.
    if let Some(c) = &covering {
        for gr in &c.groups {
            if let Some(s) = stacks.get_mut(gr.group) {
                s.release = Some(gr.spec.clone());
                s.why = None;
            }
        }
    }
    let changes = crate::rollout_group::changes(asker_fn(asker), hosts, p, &stacks);
    VendorRollout {
        vendor: p.vendor.clone(),
        stacks,
        covering,
        no_covering,
        changes,
    }
}

/// THE verdict as `changes` asks it: group ids and the host's own spec.
fn asker_fn(asker: &mut Asker) -> impl FnMut(&[String], &str) -> Verdict + '_ {
    move |ids, spec| asker.ask(ids, spec)
}
