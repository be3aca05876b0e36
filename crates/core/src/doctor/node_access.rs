//! `render-groups`: for rootless podman, whether the invoking user can open every device node
//! the selection passes (raw `--device` nodes and the nodes the selected CDI specs inject).
//! Nodes that fail for the same cause are one finding with one fix: one group to join, or a
//! node only root may open. Group 0 is never advised: joining root's group would give the user
//! far more than a GPU, and the fault is the node's (udev should give a GPU node its render or
//! video group), not the user's.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::GpuBackend;
use crate::check::codes;
use crate::check::user::group_name;
use crate::check::{Check, DoctorContext, Status};
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
    let mut nodes: Vec<String> = Vec::new();
    if let Some(plan) = plan {
        nodes.extend(plan.items().iter().filter_map(|i| match &i.need {
            Need::DeviceNode(path) => Some(path.clone()),
            _ => None,
        }));
    }
    for v in vendors {
        for kind in v.cdi_kinds() {
            for spec in probe.cdi().specs_for(kind) {
                nodes.extend(spec.host_nodes.iter().cloned());
            }
        }
    }
    nodes.sort();
    nodes.dedup();
    let host = probe.host();
    // Checks in node order; a finding stands where its first node is (`Err(index)`).
    let mut out: Vec<Result<Check, usize>> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    for node in nodes {
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
        match findings.iter_mut().find(|f| f.cause == cause) {
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
        Cause::RootOnly => (Status::Problem, ROOT_ONLY.to_string()),
        Cause::UnknownUser(Some(_)) => (
            Status::Warning,
            format!(
                "run gpuctl as the user who runs podman; that user needs group {} ('sudo usermod -aG {} $USER')",
                f.group, f.group
            ),
        ),
        Cause::UnknownUser(None) => (
            Status::Warning,
            format!("run gpuctl as the user who runs podman; {ROOT_ONLY}"),
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
