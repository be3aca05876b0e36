//! The raw tier of a [`NodeVendor`](super::NodeVendor): which `/dev/<prefix>N` nodes the host
//! has, which of them and of the shared nodes a grant may pass, and the needs it adds to a plan.

use std::path::Path;

use crate::backend::Grant;
use crate::devnode;
use crate::error::GpuError;
use crate::finding::Finding;
use crate::host::Host;
use crate::plan::{Need, VendorPlan};
use crate::text::{escape_controls, is_ascii_digits};
use gpuctl_cdi::ReadProblem;

/// A per-device node the host has: its number in the driver's numbering, its host path, and
/// why it is not granted when it is not the driver's node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberedNode {
    /// `N` of `/dev/<prefix>N`.
    pub number: u32,
    /// The host path.
    pub path: String,
    /// `None` for a node that may be granted; otherwise why not, in a few words.
    pub left_out: Option<String>,
    /// The PCI function sysfs shows the node belongs to, for a layout with a sysfs class.
    pub address: Option<String>,
    /// The device's companion nodes that are granted with it (`/dev/accel/accel_controlD1`).
    pub companions: Vec<String>,
    /// The device's companion nodes that are not, each `path (why)`.
    pub companions_left_out: Vec<String>,
}

/// The directory and the name stem of a per-device node pattern (`/dev/davinci` → `/dev`,
/// `davinci`).
pub(super) fn split_prefix(prefix: &str) -> (&str, &str) {
    match prefix.rsplit_once('/') {
        Some(("", stem)) => ("/", stem),
        Some((dir, stem)) => (dir, stem),
        None => ("/dev", prefix),
    }
}

/// The number of a name `<stem>N` (`N` decimal, no leading zero but `0` itself), or `None`.
fn number_of(name: &str, stem: &str) -> Option<u32> {
    let n = name.strip_prefix(stem)?;
    (is_ascii_digits(n) && (n == "0" || !n.starts_with('0')))
        .then(|| n.parse().ok())
        .flatten()
}

/// The `<prefix>N` entries of the host, by number. A directory, or a symbolic link that does not
/// lead to another of the vendor's numbered nodes, is listed with why it is left out; entries
/// that only start like the prefix (`davinci_manager`) are not the vendor's devices.
pub fn numbered_nodes(host: &Host, prefix: &str) -> Result<Vec<NumberedNode>, GpuError> {
    let (dir, stem) = split_prefix(prefix);
    let entries = match host.list_dir(Path::new(dir)) {
        Ok(e) => e,
        Err(e) if e.is_absent() => return Ok(Vec::new()),
        Err(e) => return Err(GpuError::host(e, format!("check the host's {dir}"))),
    };
    let own = |t: &Path| devnode::is_node_in(t, dir, |n| number_of(n, stem).is_some());
    let mut out = Vec::new();
    for entry in &entries {
        let Some((name, number)) = entry
            .name_str()
            .and_then(|n| number_of(n, stem).map(|v| (n, v)))
        else {
            continue;
        };
        let path = if dir == "/" {
            format!("/{name}")
        } else {
            format!("{dir}/{name}")
        };
        let left_out = if entry.is_dir {
            Some("a directory, not a device node".to_string())
        } else if entry.is_symlink {
            devnode::vet_link(host, Path::new(&path), own)
                .err()
                .map(|w| w.0)
        } else {
            None
        };
        out.push(NumberedNode {
            number,
            path,
            left_out,
            address: None,
            companions: Vec::new(),
            companions_left_out: Vec::new(),
        });
    }
    out.sort_by_key(|n| n.number);
    Ok(out)
}

/// Why a shared node is not granted: absent, a directory, or a symbolic link (podman would pass
/// what it leads to, so a shared node is passed only as the node itself).
pub fn vet_shared(host: &Host, node: &str) -> Option<String> {
    let path = Path::new(node);
    if let Err(why) = devnode::vet_node(host, path, |t| t == path) {
        return Some(why.0);
    }
    match host.metadata(path) {
        Ok(None) => Some("missing".to_string()),
        Ok(Some(m)) if m.is_dir() => Some("a directory, not a device node".to_string()),
        Ok(Some(_)) => None,
        Err(e) => Some(e.problem.to_string()),
    }
}

/// What a raw grant passes: the shared nodes, the selected per-device nodes, the driver files.
pub(super) struct Selected<'a> {
    pub shared: Vec<&'a str>,
    pub devices: Vec<&'a NumberedNode>,
    pub binds: Vec<&'a str>,
    pub left_out: Vec<String>,
}

/// Why a driver file or directory is not bound: absent, or a symbolic link (the bind would
/// carry whatever it leads to).
pub fn vet_bind(host: &Host, path: &str) -> Option<String> {
    match host.read_link(Path::new(path)) {
        Ok(_) => return Some("a symbolic link".to_string()),
        Err(e) if !matches!(e.problem, ReadProblem::NotALink | ReadProblem::NotFound) => {
            return Some(e.problem.to_string());
        }
        Err(_) => {}
    }
    match host.metadata(Path::new(path)) {
        Ok(None) => Some("missing".to_string()),
        Ok(Some(_)) => None,
        Err(e) => Some(e.problem.to_string()),
    }
}

/// The nodes a grant selects. An index is the driver's own number (`vendor:2` is
/// `/dev/<prefix>2`); one the host has no node for is [`GpuError::IndexOutOfRange`] listing the
/// nodes there are. Entries that are not the driver's nodes are left out, with why.
pub(super) fn select<'a>(
    host: &Host,
    vendor: &str,
    (shared, binds): (&'a [&'a str], &'a [&'a str]),
    nodes: &'a [NumberedNode],
    grant: &Grant,
) -> Result<Selected<'a>, GpuError> {
    let chosen: Vec<&NumberedNode> = match &grant.indexes {
        None => nodes.iter().collect(),
        Some(asked) => {
            let bad: Vec<u32> = asked
                .iter()
                .copied()
                .filter(|i| !nodes.iter().any(|n| n.number == *i))
                .collect();
            if !bad.is_empty() {
                return Err(GpuError::index_out_of_range(
                    vendor,
                    bad,
                    nodes.iter().map(|n| (n.number, n.path.clone())),
                ));
            }
            nodes.iter().filter(|n| asked.contains(&n.number)).collect()
        }
    };
    let shown = |p: &str, why: &str| format!("{} ({why})", escape_controls(p));
    let mut left_out = Vec::new();
    let mut kept_shared = Vec::new();
    for node in shared {
        match vet_shared(host, node) {
            None => kept_shared.push(*node),
            Some(why) => left_out.push(shown(node, &why)),
        }
    }
    let mut devices = Vec::new();
    for node in chosen {
        match &node.left_out {
            None => {
                left_out.extend(node.companions_left_out.iter().cloned());
                devices.push(node);
            }
            Some(why) => left_out.push(shown(&node.path, why)),
        }
    }
    let mut kept_binds = Vec::new();
    for path in binds {
        match vet_bind(host, path) {
            None => kept_binds.push(*path),
            Some(why) => left_out.push(shown(path, &why)),
        }
    }
    Ok(Selected {
        shared: kept_shared,
        devices,
        binds: kept_binds,
        left_out,
    })
}

/// The raw recipe's needs, added to `plan`: the shared nodes, each device's node, the driver's
/// files read-only, the visible-devices variable listing the granted numbers, and the user's
/// groups kept.
pub(super) fn add_needs(plan: &mut VendorPlan, selected: &Selected<'_>, visible: Option<&str>) {
    if !selected.left_out.is_empty() {
        plan.notice(Finding::DeviceNodesNotGranted {
            vendor: plan.vendor().to_string(),
            entries: selected.left_out.join(", "),
        });
    }
    for node in &selected.shared {
        plan.add(Need::DeviceNode(node.to_string()), None);
    }
    for node in &selected.devices {
        plan.add(Need::DeviceNode(node.path.clone()), Some(&node.path));
        for companion in &node.companions {
            plan.add(Need::DeviceNode(companion.clone()), Some(&node.path));
        }
    }
    for path in &selected.binds {
        plan.add(Need::BindReadOnly(path.to_string()), None);
    }
    if let Some(name) = visible {
        let numbers: Vec<String> = selected
            .devices
            .iter()
            .map(|n| n.number.to_string())
            .collect();
        plan.add(
            Need::Env {
                name: name.to_string(),
                value: numbers.join(","),
            },
            None,
        );
    }
    plan.add(Need::KeepGroups, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuctl_testkit::Tree;
    use rstest::rstest;

    #[rstest]
    #[case("davinci0", Some(0))]
    #[case("davinci12", Some(12))]
    #[case("davinci012", None)]
    #[case("davinci_manager", None)]
    #[case("davinci", None)]
    #[case("davinci-1", None)]
    #[case("davinci99999999999", None)]
    fn numbers_are_the_driver_s(#[case] name: &str, #[case] number: Option<u32>) {
        assert_eq!(number_of(name, "davinci"), number);
    }

    #[test]
    fn a_prefix_splits_into_dir_and_stem() {
        assert_eq!(split_prefix("/dev/davinci"), ("/dev", "davinci"));
        assert_eq!(split_prefix("/dev/accel/accel"), ("/dev/accel", "accel"));
    }

    #[test]
    fn nodes_are_listed_by_number_with_what_is_not_the_driver_s() {
        let t = Tree::new();
        t.dev(&["davinci10", "davinci2", "davinci_manager", "sda"]);
        t.dir("/dev/davinci3");
        t.link("/dev/davinci4", "sda")
            .link("/dev/davinci5", "davinci2");
        let host = Host::at(t.root()).expect("root");
        let nodes = numbered_nodes(&host, "/dev/davinci").expect("scan");
        let seen: Vec<(u32, Option<&str>)> = nodes
            .iter()
            .map(|n| (n.number, n.left_out.as_deref()))
            .collect();
        assert_eq!(
            seen,
            [
                (2, None),
                (3, Some("a directory, not a device node")),
                (4, Some("a link to /dev/sda, not one of the driver's nodes")),
                (5, None),
                (10, None),
            ]
        );
    }

    #[test]
    fn shared_nodes_must_be_the_nodes_themselves() {
        let t = Tree::new();
        t.dev(&["davinci_manager", "sda"]);
        t.dir("/dev/hisi_hdc");
        t.link("/dev/devmm_svm", "sda");
        let host = Host::at(t.root()).expect("root");
        assert_eq!(vet_shared(&host, "/dev/davinci_manager"), None);
        assert_eq!(
            vet_shared(&host, "/dev/hisi_hdc").as_deref(),
            Some("a directory, not a device node")
        );
        assert_eq!(
            vet_shared(&host, "/dev/devmm_svm").as_deref(),
            Some("a link to /dev/sda, not one of the driver's nodes")
        );
        assert_eq!(vet_shared(&host, "/dev/absent").as_deref(), Some("missing"));
    }
}
