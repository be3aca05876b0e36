//! `gpuctl fleet`: many hosts' reports planned together (docs/fleet.md#planning). Per vendor,
//! the driver stack that fits every host, or else the groups of hosts that can share one and
//! what divides them; drift between what hosts run and what they need; with a CUDA version,
//! which hosts can run such an image. Cost is linear in the hosts (times the groups, which
//! stay few: one per distinct stack).

use std::collections::{BTreeMap, HashMap};

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{Fit, VendorRequest, Verdict, Version};
use gpuctl_core::plugin::requirement_answer::{Request, answer, verdicts};
use serde::Serialize;

use crate::load::Skipped;
use crate::rollout::Rollout;
use crate::stack::{describe_all, intersect, split_sentence};
use crate::summary::HostSummary;

pub use crate::vendor_plan::{Drift, Group, VendorPlan};

/// Which hosts can run an image needing a CUDA version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CudaPlan {
    /// The version asked about.
    pub cuda: String,
    /// Hosts whose NVIDIA driver runs it.
    pub can: Vec<String>,
    /// Hosts whose driver is too old, or that have no NVIDIA GPU.
    pub cannot: Vec<String>,
    /// Hosts for which THE verdict is unknown.
    pub unknown: Vec<String>,
    /// Why each host in `cannot` or `unknown` is there, in host order.
    pub reasons: Vec<HostReason>,
}

/// Why one host cannot run it, or why that is not known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostReason {
    /// The host.
    pub host: String,
    /// One sentence.
    pub why: String,
}

/// The whole plan: `gpuctl fleet --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FleetPlan {
    /// Reports read.
    pub hosts: usize,
    /// Per vendor with GPUs somewhere, in order of first appearance.
    pub vendors: Vec<VendorPlan>,
    /// Drift, in host order.
    pub drift: Vec<Drift>,
    /// With `--cuda`.
    pub cuda: Option<CudaPlan>,
    /// Files not read, and why.
    pub skipped: Vec<Skipped>,
    /// What to roll out: releases, hosts to change, findings by severity, the order.
    pub rollout: Rollout,
}

impl FleetPlan {
    /// True when some vendor has no stack that fits all its hosts.
    pub fn divided(&self) -> bool {
        self.vendors.iter().any(|v| !v.fits_all)
    }
}

/// Plans `hosts` (sorted here by name, so the answer does not depend on file order).
pub fn plan(
    mut hosts: Vec<HostSummary>,
    cuda: Option<&Version>,
    skipped: Vec<Skipped>,
) -> FleetPlan {
    hosts.sort_by(|a, b| a.name.cmp(&b.name));
    let mut order: Vec<String> = Vec::new();
    for h in &hosts {
        for v in &h.vendors {
            if !order.contains(&v.vendor) {
                order.push(v.vendor.clone());
            }
        }
    }
    let vendors: Vec<VendorPlan> = order.iter().map(|v| vendor_plan(&hosts, v)).collect();
    let drift = drift(&hosts);
    FleetPlan {
        hosts: hosts.len(),
        rollout: crate::rollout::build(&hosts, &vendors, &drift),
        vendors,
        drift,
        cuda: cuda.map(|c| cuda_plan(&hosts, c)),
        skipped,
    }
}

fn vendor_plan(hosts: &[HostSummary], vendor: &str) -> VendorPlan {
    let mut groups: Vec<Group> = Vec::new();
    // Each group's GPU ids, apart from the group so that a host joining costs no search.
    let mut group_ids: Vec<Vec<String>> = Vec::new();
    let mut conflicted = Vec::new();
    let mut unknown = Vec::new();
    let mut count = 0;
    for h in hosts {
        let Some(v) = h.vendors.iter().find(|v| v.vendor == vendor) else {
            continue;
        };
        count += 1;
        // A GPU nothing is known of joins no known GPU's stack.
        if !v.unknown.is_empty() {
            unknown.push(format!("{}: {}", h.name, v.unknown.join("; ")));
            continue;
        }
        let Some(stack) = &v.stack else {
            conflicted.push(h.name.clone());
            continue;
        };
        let joined = groups
            .iter_mut()
            .zip(group_ids.iter_mut())
            .find_map(|(g, ids)| intersect(&g.constraints, stack).ok().map(|c| (g, ids, c)));
        let add = |ids: &mut Vec<String>| {
            for id in &v.ids {
                if !ids.contains(id) {
                    ids.push(id.clone());
                }
            }
        };
        match joined {
            Some((g, ids, c)) => {
                g.constraints = c;
                g.hosts.push(h.name.clone());
                add(ids);
            }
            None => {
                groups.push(Group {
                    describe: String::new(),
                    constraints: stack.clone(),
                    hosts: vec![h.name.clone()],
                    floor: Vec::new(),
                    ids: Vec::new(),
                });
                let mut ids = Vec::new();
                add(&mut ids);
                group_ids.push(ids);
            }
        }
    }
    for (g, ids) in groups.iter_mut().zip(&group_ids) {
        g.describe = describe_all(&g.constraints);
        g.floor = release_floor(vendor, ids);
        g.ids.clone_from(ids);
    }
    let divides = divides(&groups);
    VendorPlan {
        vendor: vendor.to_string(),
        hosts: count,
        fits_all: groups.len() <= 1 && conflicted.is_empty() && unknown.is_empty(),
        groups,
        divides,
        conflicted,
        unknown,
    }
}

/// The vendor's lines under the combined requirement of `ids` together, as `gpuctl
/// requirement IDS` prints them ([`Group::floor`]); none where the vendor has none, or the
/// ids are not ones requirement takes (a report edited by hand).
fn release_floor(vendor: &str, ids: &[String]) -> Vec<String> {
    if ids.is_empty() {
        return Vec::new();
    }
    let request = Request {
        ids,
        specs: &[],
        vendor: VendorRequest::default(),
    };
    match answer(&Host::system(), Registry::discovered(), request) {
        Ok(r) => r
            .vendors
            .into_iter()
            .find(|v| v.vendor == vendor)
            .map(|v| v.under_combined)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// A group's hosts in a sentence: `node-a`, or `node-a (and 3 more)`.
fn who(g: &Group) -> String {
    match g.hosts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

/// What parts each pair of groups, one sentence per component (the first 20 pairs).
fn divides(groups: &[Group]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in groups.iter().enumerate() {
        for b in &groups[i + 1..] {
            if out.len() >= 20 {
                return out;
            }
            if let Err(splits) = intersect(&a.constraints, &b.constraints) {
                out.extend(splits.iter().map(|s| split_sentence(s, &who(a), &who(b))));
            }
        }
    }
    out
}

fn drift(hosts: &[HostSummary]) -> Vec<Drift> {
    let mut out = Vec::new();
    // (vendor, GPUs) -> driver release -> hosts
    let mut same: BTreeMap<(&str, &str), BTreeMap<&str, Vec<&str>>> = BTreeMap::new();
    for h in hosts {
        for v in &h.vendors {
            if v.fits == Fit::No {
                out.push(Drift {
                    kind: "driver-does-not-fit",
                    hosts: vec![h.name.clone()],
                    message: format!(
                        "{}: its {} driver does not fit its GPUs: {}",
                        h.name,
                        v.vendor,
                        v.why.as_deref().unwrap_or("see its report")
                    ),
                });
            }
            if let Some(release) = &v.driver_version {
                same.entry((&v.vendor, &v.gpus))
                    .or_default()
                    .entry(release)
                    .or_default()
                    .push(&h.name);
            }
        }
        for s in &h.stale_specs {
            out.push(Drift {
                kind: "cdi-spec-for-another-driver",
                hosts: vec![h.name.clone()],
                message: format!("{}: a CDI spec was written for another driver: {s}", h.name),
            });
        }
    }
    for ((vendor, gpus), releases) in same {
        if releases.len() < 2 {
            continue;
        }
        let all: Vec<String> = releases.values().flatten().map(|h| h.to_string()).collect();
        let parts: Vec<String> = releases
            .iter()
            .map(|(r, hs)| {
                let names = if hs.len() > 3 {
                    format!("{} and {} more", hs[..3].join(", "), hs.len() - 3)
                } else {
                    hs.join(", ")
                };
                format!("{r} on {names}")
            })
            .collect();
        out.push(Drift {
            kind: "same-gpus-different-driver",
            hosts: all,
            message: format!(
                "hosts with the same {vendor} GPUs ({gpus}) run different drivers: {}",
                parts.join("; ")
            ),
        });
    }
    out
}

/// The vendor whose GPUs run CUDA: `--cuda` is its toolkit's version.
const CUDA_VENDOR: &str = "nvidia";

/// Per host, THE verdict of its loaded NVIDIA stack with toolkit `cuda` on its NVIDIA GPUs:
/// `gpuctl requirement --cuda X.Y --driver SPEC IDS`, asked once per distinct (ids, specs).
/// A host with no NVIDIA GPU, unusable ones, a CDI spec for another driver or no driver
/// loaded cannot run it, and says why.
fn cuda_plan(hosts: &[HostSummary], cuda: &Version) -> CudaPlan {
    let mut p = CudaPlan {
        cuda: cuda.to_string(),
        can: Vec::new(),
        cannot: Vec::new(),
        unknown: Vec::new(),
        reasons: Vec::new(),
    };
    let toolkit = cuda.to_string();
    let mut asked: HashMap<(Vec<String>, Vec<String>), Verdict> = HashMap::new();
    for h in hosts {
        let verdict = match h.vendors.iter().find(|v| v.vendor == CUDA_VENDOR) {
            None => Verdict::no("no NVIDIA GPU"),
            Some(v) if !v.usable => {
                Verdict::no(format!("its NVIDIA GPUs are unusable: {}", v.reason))
            }
            Some(_) if !h.stale_specs.is_empty() => Verdict::no(format!(
                "its NVIDIA GPUs are unusable: a CDI spec was written for another driver: {}",
                h.stale_specs.join("; ")
            )),
            Some(v) if v.specs.is_empty() => Verdict::no(match v.driver_version {
                None => "no NVIDIA driver is loaded".to_string(),
                Some(_) => "the loaded driver is not one gpuctl can name".to_string(),
            }),
            Some(v) if v.ids.is_empty() => Verdict::unknown("the report lists no GPU id"),
            Some(v) => asked
                .entry((v.ids.clone(), v.specs.clone()))
                .or_insert_with(|| ask(&v.ids, &v.specs, &toolkit))
                .clone(),
        };
        let list = match verdict.fit {
            Fit::Yes => &mut p.can,
            Fit::No => &mut p.cannot,
            // A fit core adds later is no yes: unknown until fleet words it.
            _ => &mut p.unknown,
        };
        list.push(h.name.clone());
        if let Some(why) = verdict.why {
            p.reasons.push(HostReason {
                host: h.name.clone(),
                why,
            });
        }
    }
    p
}

/// THE verdict, as `gpuctl requirement --cuda TOOLKIT --driver SPECS IDS` gives it.
fn ask(ids: &[String], specs: &[String], toolkit: &str) -> Verdict {
    let request = Request {
        ids,
        specs,
        vendor: VendorRequest {
            toolkit: Some(toolkit),
            ..VendorRequest::default()
        },
    };
    match verdicts(&Host::system(), None, Registry::discovered(), request) {
        Ok(v) => v
            .into_iter()
            .find(|(vendor, _)| vendor == CUDA_VENDOR)
            .map_or_else(
                || Verdict::unknown("no NVIDIA GPU in the request"),
                |(_, v)| v,
            ),
        Err(e) => Verdict::unknown(format!("gpuctl requirement refuses it: {e}")),
    }
}
