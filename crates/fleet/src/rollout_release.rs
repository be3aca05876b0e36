//! Which release drives a group, and the one branch that serves several: THE verdict
//! ([`gpuctl_core::plugin::requirement_answer::verdicts`]) asked of the branches worth asking, once per
//! group and spec (docs/fleet.md#the-roll-out-plan). Nothing here judges a fit on its own.

use std::collections::HashMap;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{Fit, VendorRequest, Verdict};
use gpuctl_core::plugin::requirement_answer::{Request, verdicts};

use crate::model::Kind;
use crate::rollout_plan::{Covering, GroupRelease, Stack};
use crate::summary::VendorSummary;
use crate::vendor_plan::{Group, VendorPlan};

/// The vendor whose releases the plan names: its driver specs are `MODULE:BRANCH`
/// (`open:580`), the form `gpuctl requirement --driver` takes.
pub(crate) const RELEASE_VENDOR: &str = "nvidia";
/// Its choice component (the kernel module) and its versioned one (the driver branch).
pub(crate) const MODULE: &str = "nvidia-kernel-module";
pub(crate) const BRANCH: &str = "nvidia-driver-branch";
/// Modules tried where a group allows any, in the order a tie is broken.
pub(crate) const MODULES: [&str; 2] = ["open", "proprietary"];

/// THE verdict on `specs` for `ids`, asked once per pair.
pub(crate) struct Asker {
    /// By ids, then spec: a hit allocates nothing (asked once per host).
    pub(crate) asked: HashMap<Vec<String>, HashMap<String, Verdict>>,
}

impl Asker {
    pub(crate) fn ask(&mut self, ids: &[String], spec: &str) -> Verdict {
        if let Some(v) = self.asked.get(ids).and_then(|m| m.get(spec)) {
            return v.clone();
        }
        let specs = [spec.to_string()];
        let request = Request {
            ids,
            specs: &specs,
            vendor: VendorRequest::default(),
        };
        let v = match verdicts(&Host::system(), None, Registry::discovered(), request) {
            Ok(v) => v
                .into_iter()
                .find(|(vendor, _)| vendor == RELEASE_VENDOR)
                .map_or_else(|| Verdict::unknown("no GPU of the vendor"), |(_, v)| v),
            Err(e) => Verdict::unknown(format!("gpuctl requirement refuses it: {e}")),
        };
        self.asked
            .entry(ids.to_vec())
            .or_default()
            .insert(spec.to_string(), v.clone());
        v
    }
}

/// The first number of a release or branch (`570.172.08` is 570).
pub(crate) fn major(s: &str) -> Option<u32> {
    s.split('.').next().and_then(|m| m.parse().ok())
}

pub(crate) fn range(g: &Group) -> (Option<u32>, Option<u32>) {
    g.constraints
        .iter()
        .find(|c| c.component == BRANCH && c.kind == Kind::Range)
        .map_or((None, None), |c| {
            (
                c.min.as_deref().and_then(major),
                c.max.as_deref().and_then(major),
            )
        })
}

pub(crate) fn modules(g: &Group) -> Vec<String> {
    g.constraints
        .iter()
        .find(|c| c.component == MODULE && c.kind == Kind::Choice)
        .map(|c| c.allowed.clone())
        .unwrap_or_default()
}

pub(crate) fn within(b: u32, (lo, hi): (Option<u32>, Option<u32>)) -> bool {
    lo.is_none_or(|lo| b >= lo) && hi.is_none_or(|hi| b <= hi)
}

/// The spec of `branch` that drives group `g` (its hosts' most common module first), or the
/// verdict that says why none does.
pub(crate) fn drives(
    asker: &mut Asker,
    g: &Group,
    run: &[&VendorSummary],
    branch: u32,
) -> Result<String, String> {
    let allowed = modules(g);
    let mut tried: Vec<&str> = if allowed.is_empty() {
        MODULES.to_vec()
    } else {
        allowed.iter().map(String::as_str).collect()
    };
    let count = |m: &str| run.iter().filter(|v| running(v).0 == Some(m)).count();
    tried.sort_by_key(|m| std::cmp::Reverse(count(m)));
    let mut why = String::new();
    for m in tried {
        let spec = format!("{m}:{branch}");
        let v = asker.ask(&g.ids, &spec);
        if v.fit == Fit::Yes {
            return Ok(spec);
        }
        if why.is_empty() {
            why = format!("{spec}: {}", v.why.unwrap_or_default());
        }
    }
    Err(why)
}

/// What a host runs: its module and release, from its `--driver` spec.
pub(crate) fn running(v: &VendorSummary) -> (Option<&str>, Option<&str>) {
    match v.specs.first().and_then(|s| s.split_once(':')) {
        Some((m, r)) => (Some(m), Some(r)),
        None => (None, v.driver_version.as_deref()),
    }
}

/// Branches worth asking: the bounds of the groups' ranges and what the hosts run, newest first.
pub(crate) fn candidates(plan: &VendorPlan, hosts: &[&VendorSummary]) -> Vec<u32> {
    let mut out: Vec<u32> = plan
        .groups
        .iter()
        .flat_map(|g| {
            let (lo, hi) = range(g);
            [lo, hi]
        })
        .flatten()
        .chain(
            hosts
                .iter()
                .filter_map(|v| v.driver_version.as_deref().and_then(major)),
        )
        .collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.dedup();
    out
}

pub(crate) type Members<'a> = dyn Fn(&Group) -> Vec<&'a VendorSummary> + 'a;

/// The newest branch that drives every group (each with a module of its own), or why none does.
pub(crate) fn covering<'a>(
    asker: &mut Asker,
    p: &VendorPlan,
    branches: &[u32],
    stacks: &[Stack],
    of_group: &Members<'a>,
) -> (Option<Covering>, Option<String>) {
    if p.groups.len() < 2 || p.vendor != RELEASE_VENDOR {
        return (None, None);
    }
    if p.groups.iter().any(|g| g.ids.is_empty()) {
        return (None, Some("no GPU id is known for a group (labels carry none), so no release can be judged to serve several".into()));
    }
    let ranges: Vec<_> = p.groups.iter().map(range).collect();
    let shared: Vec<u32> = branches
        .iter()
        .copied()
        .filter(|b| ranges.iter().all(|r| within(*b, *r)))
        .collect();
    if shared.is_empty() {
        let each: Vec<String> = stacks
            .iter()
            .map(|s| format!("group {} allows {}", s.group + 1, span(s)))
            .collect();
        return (
            None,
            Some(format!(
                "no single branch serves every group: no branch is in every group's range ({})",
                each.join("; ")
            )),
        );
    }
    let mut first_why = None;
    for b in shared {
        let mut groups = Vec::new();
        for (i, g) in p.groups.iter().enumerate() {
            match drives(asker, g, &of_group(g), b) {
                Ok(spec) => groups.push(GroupRelease { group: i, spec }),
                Err(why) => {
                    first_why = first_why.or(Some(format!("group {}: {why}", i + 1)));
                    break;
                }
            }
        }
        if groups.len() == p.groups.len() {
            return (
                Some(Covering {
                    branch: b.to_string(),
                    groups,
                }),
                None,
            );
        }
    }
    (
        None,
        Some(format!(
            "no single branch serves every group: {}",
            first_why.unwrap_or_default()
        )),
    )
}

/// A stack's branch range in words (`570 or newer`).
fn span(s: &Stack) -> String {
    match (&s.min, &s.max) {
        (Some(lo), Some(hi)) => format!("branch {lo} to {hi}"),
        (Some(lo), None) => format!("branch {lo} or newer"),
        (None, Some(hi)) => format!("branch {hi} or older"),
        (None, None) => "any branch".into(),
    }
}
