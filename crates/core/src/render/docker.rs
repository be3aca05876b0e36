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
    if !groups.is_empty() {
        notes.insert(0, Note::DockerGroups(groups));
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

/// What a node's mode and group say about `--group-add` for a container user who is neither
/// its owner nor root (docs/output-safety.md, "docker's groups").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupVerdict {
    /// Everyone may read and write it: no group is needed.
    Open,
    /// Its group may do more than everyone: that group is needed.
    Add(u32),
    /// Its group would help, but it is group 0: gpuctl never hands out the root group.
    RootGroup,
    /// Its group may do no more than everyone, so no group opens it.
    NoGroupOpens,
}

/// The verdict for a node of permission bits `mode` and group `gid`.
pub fn group_verdict(mode: u32, gid: u32) -> GroupVerdict {
    let others = mode & 0o006;
    let group = (mode >> 3) & 0o006;
    if others == 0o006 {
        GroupVerdict::Open
    } else if group & !others == 0 {
        GroupVerdict::NoGroupOpens
    } else if gid == 0 {
        GroupVerdict::RootGroup
    } else {
        GroupVerdict::Add(gid)
    }
}

/// The group of every device node of a vendor that keeps the user's groups on a raw tier that
/// gives access the user would not have otherwise, in plan order; the nodes that need no group,
/// cannot be opened through one, or belong to group 0 are notes instead. The plan's nodes are
/// vetted (a link among them leads to the vendor's own node), so following links is safe.
fn node_groups(plan: &Plan, host: &Host, notes: &mut Vec<Note>) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let (mut root, mut closed) = (Vec::new(), Vec::new());
    let (mut root_groups, mut closed_groups): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut seen: Vec<&str> = Vec::new();
    for v in plan.vendors() {
        if v.tier() == Tier::Cdi || !v.items().iter().any(|i| i.need == Need::KeepGroups) {
            continue;
        }
        for item in v.items() {
            let Need::DeviceNode(path) = &item.need else {
                continue;
            };
            if seen.contains(&path.as_str()) {
                continue;
            }
            seen.push(path);
            let (mode, gid) = match host.metadata(Path::new(path)) {
                Ok(Some(m)) => (m.mode() & 0o7777, m.gid()),
                Ok(None) => {
                    notes.push(Note::DockerGroupUnknown(format!(
                        "{path} does not exist under the host root"
                    )));
                    continue;
                }
                Err(e) => {
                    notes.push(Note::DockerGroupUnknown(e.to_string()));
                    continue;
                }
            };
            match group_verdict(mode, gid) {
                GroupVerdict::Open => {}
                GroupVerdict::Add(gid) => out.push((path.clone(), gid)),
                GroupVerdict::RootGroup => {
                    root.push(path.clone());
                    root_groups.push(v.node_group().unwrap_or(""));
                }
                GroupVerdict::NoGroupOpens => {
                    closed.push((path.clone(), mode));
                    closed_groups.push(v.node_group().unwrap_or(""));
                }
            }
        }
    }
    if !root.is_empty() {
        notes.push(Note::DockerRootGroup(root, group_words(root_groups)));
    }
    if !closed.is_empty() {
        notes.push(Note::DockerNoGroupOpens(closed, group_words(closed_groups)));
    }
    out
}

/// "their render or video group", or the words of several vendors joined, or (no vendor said)
/// "the group their driver gives them".
fn group_words(groups: Vec<&str>) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for g in groups {
        if !unique.contains(&g) {
            unique.push(g);
        }
    }
    match unique.as_slice() {
        [] | [""] => "the group their driver gives them".to_string(),
        named => {
            let named: Vec<&str> = named.iter().copied().filter(|g| !g.is_empty()).collect();
            format!("their {} group", named.join(" or "))
        }
    }
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
