//! `render-groups`: for rootless podman, whether the invoking user can open every device node
//! the selection passes (raw `--device` nodes and the nodes the selected CDI specs inject).
//! Nodes that fail for the same cause are one finding with one fix: one group to join, or a
//! node only root may open. Group 0 is never advised: joining root's group would give the user
//! far more than a GPU, and the fault is the node's (udev should give a GPU node its render or
//! video group), not the user's. A vendor whose nodes are not render nodes names its own groups
//! ([`GpuBackend::node_groups`]), or says its nodes need none and they are left out.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::GpuBackend;
use crate::check::codes;
use crate::check::user::group_name;
use crate::check::{Check, DoctorContext, NodeGroups, Status};
use crate::plan::{Need, Plan};
use crate::probe::Probe;

/// Why a node cannot be opened (or cannot be told), shared by every node it holds for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// The user is not in the node's group, and joining it would open the node.
    NotInGroup(u32),
    /// Only its owner may open it: its group is root's, or the group has no read and write.
    RootOnly,
    /// The invoking user is unknown; the node needs group `gid` (or root).
    UnknownUser(Option<u32>),
}

/// The nodes one cause holds for, in path order.
struct Finding {
    cause: Cause,
    nodes: Vec<String>,
    facts: Vec<String>,
    group: String,
    /// The fix for a node only root may open, in the words of the node's vendor.
    root_only: String,
}

/// The `render-groups` checks: one per node that opens, or that cannot be looked at; one per
/// cause for the nodes that do not open. When who runs podman is unknown, the nodes only root
/// could open are "cannot tell", never passed.
pub fn render_groups(
    probe: &Probe,
    ctx: &DoctorContext,
    plan: Option<&Plan>,
    vendors: &[&dyn GpuBackend],
) -> Vec<Check> {
    if ctx.rootless() == Some(false) {
        return vec![
            Check::new(codes::RENDER_GROUPS, "device nodes", Status::Skipped)
                .fact("podman runs as root: group membership does not limit it"),
        ];
    }
    // Each node with the vendor whose grant or spec holds it (`None`: no selected vendor's).
    let mut nodes: Vec<(String, Option<&dyn GpuBackend>)> = Vec::new();
    if let Some(plan) = plan {
        nodes.extend(plan.items().iter().filter_map(|i| match &i.need {
            Need::DeviceNode(path) => Some((
                path.clone(),
                vendors.iter().find(|v| v.vendor() == i.vendor).copied(),
            )),
            _ => None,
        }));
    }
    for v in vendors {
        for kind in v.cdi_kinds() {
            for spec in probe.cdi().specs_for(kind) {
                nodes.extend(spec.host_nodes.iter().map(|n| (n.clone(), Some(*v))));
            }
        }
    }
    nodes.sort_by(|a, b| a.0.cmp(&b.0));
    nodes.dedup_by(|a, b| a.0 == b.0);
    let host = probe.host();
    // Checks in node order; a finding stands where its first node is (`Err(index)`).
    let mut out: Vec<Result<Check, usize>> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    for (node, vendor) in nodes {
        let groups = vendor.map_or(NodeGroups::Render, |v| v.node_groups());
        if groups == NodeGroups::None {
            continue;
        }
        let root_only = vendor.map_or(ROOT_ONLY.to_string(), |v| root_only(v, groups));
        let meta = match host.metadata(Path::new(&node)) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
            Err(e) => {
                out.push(Ok(Check::new(codes::RENDER_GROUPS, node, Status::Warning)
                    .fact(format!("cannot tell who may open it: {e}"))));
                continue;
            }
        };
        let mode = meta.mode();
        let by_other = mode & 0o006 == 0o006;
        let group_opens = meta.gid() != 0 && mode & 0o060 == 0o060;
        let group = group_name(host, meta.gid());
        let shown = format!(
            "{node}: mode {:04o}, group {group} ({})",
            mode & 0o7777,
            meta.gid()
        );
        let (cause, fact) = match &ctx.identity {
            None if by_other => {
                out.push(Ok(Check::new(codes::RENDER_GROUPS, node, Status::Ok)
                    .fact(format!("{shown}; open to every user"))));
                continue;
            }
            None => (Cause::UnknownUser(group_opens.then_some(meta.gid())), shown),
            Some(who) => {
                let by_owner = meta.uid() == who.uid && mode & 0o600 == 0o600;
                let by_group = who.in_group(meta.gid()) && mode & 0o060 == 0o060;
                let fact = format!(
                    "{shown}; uid {} is {}in it",
                    who.uid,
                    if who.in_group(meta.gid()) { "" } else { "not " }
                );
                if by_other || by_owner || by_group {
                    out.push(Ok(
                        Check::new(codes::RENDER_GROUPS, node, Status::Ok).fact(fact)
                    ));
                    continue;
                }
                let cause = if group_opens {
                    Cause::NotInGroup(meta.gid())
                } else {
                    Cause::RootOnly
                };
                (cause, fact)
            }
        };
        // Nodes only root may open are one finding per fix: vendors' fixes differ.
        let same = |f: &Finding| {
            f.cause == cause
                && (!matches!(cause, Cause::RootOnly | Cause::UnknownUser(None))
                    || f.root_only == root_only)
        };
        match findings.iter_mut().find(|f| same(f)) {
            Some(f) => {
                f.nodes.push(node);
                f.facts.push(fact);
            }
            None => {
                out.push(Err(findings.len()));
                findings.push(Finding {
                    cause,
                    nodes: vec![node],
                    facts: vec![fact],
                    group,
                    root_only,
                });
            }
        }
    }
    let mut findings: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    out.into_iter()
        .filter_map(|c| match c {
            Ok(c) => Some(c),
            Err(i) => findings.get_mut(i).and_then(Option::take).map(finding),
        })
        .collect()
}

/// The one check for every node a cause holds for.
fn finding(f: Finding) -> Check {
    let (status, remedy) = match f.cause {
        Cause::NotInGroup(_) => (
            Status::Problem,
            format!(
                "sudo usermod -aG {} $USER, log in again, and keep the group with '--group-add keep-groups' under crun",
                f.group
            ),
        ),
        Cause::RootOnly => (Status::Problem, f.root_only.clone()),
        Cause::UnknownUser(Some(_)) => (
            Status::Warning,
            format!(
                "run gpuctl as the user who runs podman; that user needs group {} ('sudo usermod -aG {} $USER')",
                f.group, f.group
            ),
        ),
        Cause::UnknownUser(None) => (
            Status::Warning,
            format!("run gpuctl as the user who runs podman; {}", f.root_only),
        ),
    };
    let mut c = Check::new(codes::RENDER_GROUPS, f.nodes.join(", "), status);
    if matches!(f.cause, Cause::UnknownUser(_)) {
        c = c.fact(
            "the invoking user is unknown (/proc/self/status cannot be read), so gpuctl cannot tell whether rootless podman may open these nodes",
        );
    }
    if matches!(f.cause, Cause::RootOnly | Cause::UnknownUser(None)) {
        let (it, its) = if f.nodes.len() == 1 {
            ("it", "its")
        } else {
            ("them", "their")
        };
        c = c.fact(format!(
            "no group opens {it}: {its} group is root's, or has no read and write, so only {its} owner (and root) may; joining a group cannot help"
        ));
    }
    for fact in f.facts {
        c = c.fact(fact);
    }
    c.remedy(remedy)
}

/// The fix for a node only root may open: the node's group, not the user's (never group 0).
const ROOT_ONLY: &str = "each such node should belong to its render or video group with mode 0660, which udev sets (the driver's udev rules, or one such as KERNEL==\"renderD*\", GROUP=\"render\", MODE=\"0660\" in /etc/udev/rules.d), then 'sudo udevadm trigger'; or run podman as root";

/// The fix for a node of `vendor`'s only root may open: render nodes' words, or the groups the
/// vendor names (`the HwHiAiUser group`), or its `node_group` words, or its driver's group.
fn root_only(vendor: &dyn GpuBackend, groups: NodeGroups) -> String {
    let NodeGroups::Named(names) = groups else {
        return ROOT_ONLY.to_string();
    };
    let display = vendor.display_name();
    let target = match (names, vendor.node_group()) {
        ([], Some(words)) => format!("its {words} group"),
        ([], None) => format!("the group the {display} driver gives it"),
        (names, _) => format!("the {} group", names.join(" or ")),
    };
    format!(
        "each such node should belong to {target} with mode 0660, which the {display} driver or its udev rules set, then 'sudo udevadm trigger'; or run podman as root"
    )
}
