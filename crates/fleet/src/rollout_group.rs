//! The roll-out plan's hosts to change, their findings grouped (one finding for the hosts that
//! share a severity, a kind, a reason and a target, not one line per host) and the order to act
//! in (docs/fleet.md#the-roll-out-plan).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use gpuctl_core::plugin::requirement::{Fit, Verdict};

use crate::rollout_plan::{Change, Finding, Severity, Stack, Step, VendorRollout};
use crate::summary::{HostSummary, VendorSummary};
use crate::vendor_plan::{Drift, VendorPlan};

/// The vendor whose doctor check finds a CDI spec written for another driver.
const STALE_SPEC_VENDOR: &str = "nvidia";
/// Drift's kind for hosts with the same GPUs on different releases.
const SAME_GPUS: &str = "same-gpus-different-driver";

fn major(s: &str) -> Option<&str> {
    s.split('.').next()
}

/// The hosts of `p` that must change, in host order, each with THE verdict's reason.
pub fn changes(
    mut ask: impl FnMut(&[String], &str) -> Verdict,
    hosts: &[HostSummary],
    p: &VendorPlan,
    stacks: &[Stack],
) -> Vec<Change> {
    let group_of: HashMap<&str, usize> = p
        .groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.hosts.iter().map(move |h| (h.as_str(), i)))
        .collect();
    let mut out = Vec::new();
    for h in hosts {
        let Some(v) = h.vendors.iter().find(|v| v.vendor == p.vendor) else {
            continue;
        };
        let group = group_of.get(h.name.as_str()).copied();
        let to = group
            .and_then(|g| stacks.get(g))
            .and_then(|s| s.release.clone());
        let from = v
            .specs
            .first()
            .cloned()
            .or_else(|| v.driver_version.clone());
        let change = |severity, kind, reason: String| Change {
            host: h.name.clone(),
            vendor: p.vendor.clone(),
            severity,
            kind,
            from: from.clone(),
            to: to.clone(),
            reason,
        };
        let found = if !v.usable {
            Some(change(
                Severity::Unusable,
                "not-usable",
                format!("its GPUs are unusable: {}", v.reason),
            ))
        } else if v.fits == Fit::No {
            Some(change(
                Severity::Unusable,
                "driver-does-not-fit",
                format!(
                    "its driver does not drive its GPUs: {}",
                    v.why.as_deref().unwrap_or("see its report")
                ),
            ))
        } else if p.vendor == STALE_SPEC_VENDOR && !h.stale_specs.is_empty() {
            Some(change(
                Severity::Unusable,
                "cdi-spec-for-another-driver",
                format!(
                    "a CDI spec was written for another driver ({}): write it again for the loaded one",
                    h.stale_specs.join("; ")
                ),
            ))
        } else if v.stack.is_none() {
            Some(change(
                Severity::Unusable,
                "gpus-conflict",
                format!("no stack drives all its GPUs: {}", v.conflicts.join("; ")),
            ))
        } else if !v.unknown.is_empty() {
            Some(change(
                Severity::BelowStack,
                "gpus-unknown",
                "no source lists its GPUs, so no stack is known to drive them".into(),
            ))
        } else if v.fits == Fit::Unknown {
            Some(change(
                Severity::Unchecked,
                "verdict-unknown",
                format!(
                    "its driver is not known to fit: {}",
                    v.why.as_deref().unwrap_or("see its report")
                ),
            ))
        } else {
            group.and_then(|g| against_group(&mut ask, p, g, v, to.as_deref(), &change))
        };
        out.extend(found);
    }
    out
}

/// A working host against its group's stack: off it (THE verdict on the group's GPUs with the
/// host's own spec is not `yes`), or on it at another release than the plan's.
fn against_group(
    ask: &mut impl FnMut(&[String], &str) -> Verdict,
    p: &VendorPlan,
    g: usize,
    v: &VendorSummary,
    to: Option<&str>,
    change: &impl Fn(Severity, &'static str, String) -> Change,
) -> Option<Change> {
    let group = p.groups.get(g)?;
    let to = to?;
    let spec = v.specs.first()?;
    let verdict = ask(&group.ids, spec);
    if verdict.fit != Fit::Yes {
        return Some(change(
            Severity::BelowStack,
            "off-stack",
            format!(
                "its group's GPUs need {}: {}",
                group.describe,
                verdict.why.unwrap_or_default()
            ),
        ));
    }
    let (m, r) = spec.split_once(':')?;
    let (tm, tb) = to.split_once(':')?;
    (m != tm || major(r) != Some(tb)).then(|| {
        change(
            Severity::Cosmetic,
            "other-release",
            "it runs its group's stack at another release than the plan's".into(),
        )
    })
}

/// Every change and doctor finding, grouped, most urgent first.
pub fn findings(hosts: &[HostSummary], vendors: &[VendorRollout], drift: &[Drift]) -> Vec<Finding> {
    // (severity, vendor, kind, reason, to) -> hosts
    type Key = (Severity, Option<String>, String, String, Option<String>);
    let mut by: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for v in vendors {
        for c in &v.changes {
            by.entry((
                c.severity,
                Some(c.vendor.clone()),
                c.kind.to_string(),
                c.reason.clone(),
                c.to.clone(),
            ))
            .or_default()
            .push(c.host.clone());
        }
    }
    for h in hosts {
        for d in &h.doctor {
            let severity = if d.status == "problem" {
                Severity::Problem
            } else {
                Severity::Warning
            };
            by.entry((severity, None, d.code.clone(), d.fact.clone(), None))
                .or_default()
                .push(h.name.clone());
        }
    }
    // Hosts with the same GPUs on different releases: said once, as drift says it.
    let mut out: Vec<Finding> = drift
        .iter()
        .filter(|d| d.kind == SAME_GPUS)
        .map(|d| Finding {
            severity: Severity::Cosmetic,
            kind: SAME_GPUS.into(),
            vendor: None,
            hosts: {
                let mut h = d.hosts.clone();
                h.sort();
                h
            },
            message: d.message.clone(),
            to: None,
        })
        .collect();
    out.extend(
        by.into_iter()
            .map(|((severity, vendor, kind, reason, to), hosts)| Finding {
                severity,
                message: match (&vendor, &to) {
                    (Some(v), Some(to)) => format!("{v}: {reason}; change to {to}"),
                    (Some(v), None) => format!("{v}: {reason}"),
                    (None, _) => format!("{kind}: {reason}"),
                },
                kind,
                vendor,
                hosts,
                to,
            }),
    );
    out.sort_by_key(|f| f.severity);
    out
}

/// One step per severity with hosts to act on, most urgent first (hosts with the same GPUs on
/// different releases are a fact about the fleet; which of them change is in the changes).
pub fn order(findings: &[Finding]) -> Vec<Step> {
    let mut by: BTreeMap<Severity, BTreeSet<&str>> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.kind != SAME_GPUS) {
        by.entry(f.severity)
            .or_default()
            .extend(f.hosts.iter().map(String::as_str));
    }
    by.into_iter()
        .enumerate()
        .map(|(i, (severity, hosts))| Step {
            step: i + 1,
            severity,
            hosts: hosts.into_iter().map(str::to_string).collect(),
        })
        .collect()
}
