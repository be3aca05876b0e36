//! docker: `docker run` arguments. Docker has no `keep-groups`, so the groups that own the
//! granted nodes (read through the host root) take its place as numeric `--group-add` values;
//! CDI names are kept as `--device` values, which Docker Engine 25+ reads when its CDI
//! feature is on (opt-in from 25, the default from 28.2). gpuctl cannot see docker's version or
//! daemon.json, and a raw-tier fallback would grant different nodes than the CDI spec names,
//! so it keeps the CDI names and says so on stderr rather than guess; mounts take docker's own
//! spelling.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::Note;
use crate::host::Host;
use crate::plan::Tier;
use crate::plan::{Need, Plan};

/// The arguments, and what differs from podman.
pub fn render(plan: &Plan, host: &Host) -> (Vec<String>, Vec<Note>) {
    let mut notes = Vec::new();
    let groups = node_groups(plan, host, &mut notes);
    let mut args: Vec<String> = Vec::new();
    let mut groups_placed = false;
    for item in plan.items() {
        match &item.need {
            Need::CdiDevice(name) | Need::DeviceNode(name) => {
                args.extend(["--device".to_string(), name.clone()]);
            }
            Need::Env { name, value } => args.extend(["-e".to_string(), format!("{name}={value}")]),
            Need::BindReadOnly(path) => args.extend([
                "--mount".to_string(),
                format!("type=bind,source={path},target={path},readonly"),
            ]),
            // Where podman keeps the user's groups, docker gets the nodes' groups, once.
            Need::KeepGroups if !groups_placed => {
                groups_placed = true;
                for (_, gid) in unique_gids(&groups) {
                    args.extend(["--group-add".to_string(), gid.to_string()]);
                }
            }
            Need::KeepGroups => {}
        }
    }
    let root: Vec<String> = groups
        .iter()
        .filter(|(_, g)| *g == 0)
        .map(|(p, _)| p.clone())
        .collect();
    if !groups.is_empty() {
        notes.insert(0, Note::DockerGroups(groups));
    }
    if !root.is_empty() {
        notes.insert(1, Note::DockerRootGroup(root));
    }
    for v in plan.vendors() {
        let needs_groups = v.items().iter().any(|i| i.need == Need::KeepGroups);
        if v.tier() == Tier::Cdi && needs_groups {
            notes.push(Note::DockerCdiGroups(v.vendor().to_string()));
        }
    }
    if plan.vendors().iter().any(|v| v.tier() == Tier::Cdi) {
        notes.push(Note::DockerCdi);
    }
    if plan.vendors().iter().any(|v| v.tier() == Tier::Hook) {
        notes.push(Note::DockerHook);
    }
    (args, notes)
}

/// The group of every device node of a vendor that keeps the user's groups on a raw tier, in
/// plan order; a node whose group cannot be read is a note instead.
fn node_groups(plan: &Plan, host: &Host, notes: &mut Vec<Note>) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for v in plan.vendors() {
        if v.tier() == Tier::Cdi || !v.items().iter().any(|i| i.need == Need::KeepGroups) {
            continue;
        }
        for item in v.items() {
            let Need::DeviceNode(path) = &item.need else {
                continue;
            };
            if out.iter().any(|(p, _)| p == path) {
                continue;
            }
            match host.metadata(Path::new(path)) {
                Ok(Some(m)) => out.push((path.clone(), m.gid())),
                Ok(None) => notes.push(Note::DockerGroupUnknown(format!(
                    "{path} does not exist under the host root"
                ))),
                Err(e) => notes.push(Note::DockerGroupUnknown(e.to_string())),
            }
        }
    }
    out
}

fn unique_gids(groups: &[(String, u32)]) -> Vec<(&str, u32)> {
    let mut out: Vec<(&str, u32)> = Vec::new();
    for (p, g) in groups {
        if !out.iter().any(|(_, seen)| seen == g) {
            out.push((p, *g));
        }
    }
    out
}
