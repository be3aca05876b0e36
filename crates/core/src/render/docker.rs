//! docker: `docker run` arguments. Docker has no `keep-groups`, so the groups that own the
//! granted nodes (read through the host root; on the CDI tier the groups the spec gives the
//! nodes it creates) take its place as numeric `--group-add` values;
//! CDI names are kept as `--device` values, which Docker Engine 25+ reads when its CDI
//! feature is on (opt-in from 25, the default from 28.2). gpuctl cannot see docker's version or
//! daemon.json, and a raw-tier fallback would grant different nodes than the CDI spec names,
//! so it keeps the CDI names and says so on stderr rather than guess; mounts take docker's own
//! spelling.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use gpuctl_cdi::edits::NodeEdit;

use super::Note;
use crate::host::Host;
use crate::plan::Tier;
use crate::plan::{Need, Plan};

/// The arguments, and what differs from podman.
pub fn render(plan: &Plan, host: &Host) -> (Vec<String>, Vec<Note>) {
    let mut notes = Vec::new();
    let NodeGroups {
        groups,
        cdi_unknown,
    } = node_groups(plan, host, &mut notes);
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
    for vendor in cdi_unknown {
        notes.push(Note::DockerCdiGroups(vendor.to_string()));
    }
    if plan.vendors().iter().any(|v| v.tier() == Tier::Cdi) {
        notes.push(Note::DockerCdi);
    }
    for v in plan.vendors().iter().filter(|v| v.tier() == Tier::Hook) {
        notes.push(Note::DockerHook(v.hook_words()));
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

/// What the docker groups come to: the groups to add, and the CDI-tier vendors some of whose
/// nodes' groups gpuctl could not learn (their sentence says to add the group by hand).
struct NodeGroups {
    groups: Vec<(String, u32)>,
    cdi_unknown: Vec<&'static str>,
}

/// The sorting of nodes by verdict, shared by both tiers.
#[derive(Default)]
struct Sorted {
    groups: Vec<(String, u32)>,
    root: Vec<String>,
    closed: Vec<(String, u32)>,
    /// The group words of the vendors whose nodes are in `root` and in `closed`
    /// ([`crate::backend::GpuBackend::node_group`]; empty when a vendor gave none).
    root_words: Vec<&'static str>,
    closed_words: Vec<&'static str>,
}

impl Sorted {
    fn take(&mut self, path: &str, verdict: GroupVerdict, mode: u32, words: Option<&'static str>) {
        let words = words.unwrap_or("");
        match verdict {
            GroupVerdict::Open => {}
            GroupVerdict::Add(gid) => self.groups.push((path.to_string(), gid)),
            GroupVerdict::RootGroup => {
                self.root.push(path.to_string());
                self.root_words.push(words);
            }
            GroupVerdict::NoGroupOpens => {
                self.closed.push((path.to_string(), mode));
                self.closed_words.push(words);
            }
        }
    }
}

/// "their render or video group" (the vendors' words, each once), or, when no vendor said,
/// "the group their driver gives them".
fn group_words(words: &[&str]) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for w in words.iter().filter(|w| !w.is_empty()) {
        if !unique.contains(w) {
            unique.push(w);
        }
    }
    if unique.is_empty() {
        "the group their driver gives them".to_string()
    } else {
        format!("their {} group", unique.join(" or "))
    }
}

/// The group of every device node of a vendor that keeps the user's groups and that gives
/// access the user would not have otherwise, in plan order; the nodes that need no group,
/// cannot be opened through one, or belong to group 0 are notes instead. On a raw tier the
/// nodes are read through the host root; the plan's nodes are vetted (a link among them leads
/// to the vendor's own node), so following links is safe. On the CDI tier the nodes are those
/// the granted devices' spec creates, with the spec's `gid` and `fileMode` where it gives them
/// and the host node's otherwise (docs/output-safety.md, "docker's groups").
fn node_groups(plan: &Plan, host: &Host, notes: &mut Vec<Note>) -> NodeGroups {
    let mut sorted = Sorted::default();
    let mut cdi_unknown = Vec::new();
    // The nodes judged already: a set, as a host of thousands of GPUs has as many nodes.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for v in plan.vendors() {
        if !v.items().iter().any(|i| i.need == Need::KeepGroups) {
            continue;
        }
        for item in v.items() {
            if v.tier() == Tier::Cdi {
                let Some(edits) = &item.cdi_edits else {
                    if matches!(item.need, Need::CdiDevice(_)) && !cdi_unknown.contains(&v.vendor())
                    {
                        cdi_unknown.push(v.vendor());
                    }
                    continue;
                };
                for node in &edits.device_nodes {
                    if !seen.insert(node.path.clone()) {
                        continue;
                    }
                    match cdi_node_verdict(node, host) {
                        Some((verdict, mode)) => {
                            sorted.take(&node.path, verdict, mode, v.node_group());
                        }
                        None if !cdi_unknown.contains(&v.vendor()) => {
                            cdi_unknown.push(v.vendor());
                        }
                        None => {}
                    }
                }
                continue;
            }
            let Need::DeviceNode(path) = &item.need else {
                continue;
            };
            if !seen.insert(path.clone()) {
                continue;
            }
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
            sorted.take(path, group_verdict(mode, gid), mode, v.node_group());
        }
    }
    if !sorted.root.is_empty() {
        notes.push(Note::DockerRootGroup(
            sorted.root,
            group_words(&sorted.root_words),
        ));
    }
    if !sorted.closed.is_empty() {
        notes.push(Note::DockerNoGroupOpens(
            sorted.closed,
            group_words(&sorted.closed_words),
        ));
    }
    NodeGroups {
        groups: sorted.groups,
        cdi_unknown,
    }
}

/// The verdict on one node a CDI spec creates, with the permission bits it was given: the
/// spec's `fileMode` and `gid` where it gives them, the host node's (read under the host root)
/// where it does not. `None` when a fact the verdict needs is in neither (the node is not on
/// the host, or cannot be read).
fn cdi_node_verdict(node: &NodeEdit, host: &Host) -> Option<(GroupVerdict, u32)> {
    let on_host = || match host.metadata(Path::new(node.host_path())) {
        Ok(Some(m)) => Some((m.mode() & 0o7777, m.gid())),
        _ => None,
    };
    // Go's os.FileMode keeps the permission bits in its low nine bits, as unix does.
    let mode = match node.file_mode {
        Some(m) => m & 0o777,
        None => on_host()?.0,
    };
    // The group matters only where it opens the node beyond everyone's access.
    match group_verdict(mode, 1) {
        GroupVerdict::Add(_) => {}
        other => return Some((other, mode)),
    }
    let gid = match node.gid {
        Some(g) => g,
        None => on_host()?.1,
    };
    Some((group_verdict(mode, gid), mode))
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
