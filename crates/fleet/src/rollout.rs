//! The plan an operator acts on (docs/fleet.md#the-roll-out-plan): per group the release that
//! drives it, the one release that serves several groups where there is one, each host to
//! change with what to change to and why, findings grouped by severity, and the order to act
//! in. Every "does this release drive these GPUs" is THE verdict
//! ([`gpuctl_core::plugin::requirement_answer::verdicts`]), asked once per group and release; nothing
//! here judges a fit on its own.

use std::collections::HashMap;

use gpuctl_core::plugin::requirement::Verdict;

use crate::rollout_group::{findings, order};
use crate::rollout_release::{
    Asker, RELEASE_VENDOR, candidates, covering, drives, modules, range, within,
};
use crate::summary::{HostSummary, VendorSummary};
use crate::vendor_plan::{Drift, Group, VendorPlan};

pub use crate::rollout_plan::{
    Change, Covering, Finding, GroupRelease, Rollout, Severity, Stack, Step, VendorRollout,
};

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
