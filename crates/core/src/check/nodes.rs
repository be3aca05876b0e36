//! The checks over device nodes a driver check leads to: the render nodes of the GPUs a driver
//! has bound, and any other node list (AMD's `/dev/kfd`): each exists, and who owns it
//! (docs/explain.md#driver-checks).

use std::collections::{BTreeMap, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::driver::{DriverFinding, DriverState, hint};
use crate::check::user::group_name;
use crate::check::{Check, CheckCode, Status};
use crate::host::Host;
use crate::probe::Probe;

/// The check over the render nodes of the vendor's GPUs that a driver has bound (`findings` are
/// the vendor's driver check's); `None` when there is no such node, since the driver check
/// already says why. Nodes of unbound GPUs are left to that check too.
pub fn bound_render_nodes_check(
    probe: &Probe,
    vendor_id: u16,
    findings: &[DriverFinding],
    code: CheckCode,
    subject: &str,
    missing_hint: &str,
) -> Option<Check> {
    // A set: each render node is looked up in it, and a host may have thousands of both.
    let bound: HashSet<&str> = findings
        .iter()
        .filter(|f| matches!(&f.state, DriverState::Bound { .. }))
        .map(|f| f.gpu.address.as_str())
        .collect();
    let renders: Vec<String> = probe
        .drm()
        .map(|d| {
            d.of_vendor(&format!("0x{vendor_id:04x}"))
                .iter()
                .filter(|n| bound.contains(&n.address.as_str()))
                .map(|n| n.dev_path())
                .collect()
        })
        .unwrap_or_default();
    (!renders.is_empty()).then(|| nodes_check(code, subject, probe.host(), &renders, missing_hint))
}

/// One check over device nodes: each exists, and the groups that own them, nodes with the same
/// owner and mode in one fact. A missing node is a problem, with `missing_hint` (a sentence,
/// without `Hint: `) as its remedy.
pub fn nodes_check(
    code: CheckCode,
    subject: &str,
    host: &Host,
    nodes: &[String],
    missing_hint: &str,
) -> Check {
    let mut c = Check::new(code, subject, Status::Ok);
    let mut owners: BTreeMap<(String, u32, u32), Vec<&str>> = BTreeMap::new();
    let mut missing = Vec::new();
    for node in nodes {
        match host.metadata(Path::new(node)) {
            Ok(Some(m)) => owners
                .entry((group_name(host, m.gid()), m.gid(), m.mode() & 0o7777))
                .or_default()
                .push(node),
            Ok(None) => missing.push(node.as_str()),
            Err(e) => {
                c.status = c.status.max(Status::Warning);
                c = c.fact(format!("cannot be checked: {e}"));
            }
        }
    }
    for ((group, gid, mode), paths) in owners {
        // With no /etc/group entry the name is the number: say it once.
        let group = if group == gid.to_string() {
            group
        } else {
            format!("{group} ({gid})")
        };
        c = c.fact(format!(
            "{}: group {group}, mode {mode:04o}",
            paths.join(", ")
        ));
    }
    if !missing.is_empty() {
        c.status = Status::Problem;
        c = c
            .fact(format!("missing: {}", missing.join(", ")))
            .remedy(hint(missing_hint));
    }
    c
}
