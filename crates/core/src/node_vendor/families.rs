//! The failure families every [`NodeVendor`] has without writing them, in the vendor's words:
//! a device node the container is given that the host lacks (`<vendor>-node-missing`), and one
//! the container's user may not open (`<vendor>-node-denied`, naming the vendor's group). A
//! plug-in's own [`NodeVendor::families`] come first; these follow.
//!
//! The texts are the engines' and runtimes' own, with the vendor's node in them (docs/explain.md
//! lists the threads): podman `Error: stat /dev/davinci3: no such file or directory`, docker
//! `error gathering device information while adding custom device "/dev/davinci3": no such file
//! or directory`, crun `error stat'ing file /dev/...` (older) and ``cannot stat `/dev/...` ``
//! (newer). podman's own stat is of a `--device` path, never of a CDI spec's node (CDI says
//! `failed to stat CDI host device`, core's `cdi-stale-spec`); crun's may be either, so
//! `explain` tells them apart by the host's specs.

use std::sync::Mutex;

use super::NodeVendor;
use crate::check::{CheckCode, codes};
use crate::families::{Family, FamilyCode, PRIORITY_GROUPS, PRIORITY_PRECISE};

/// Families built so far, by the vendor data they were built from: a vendor's families live as
/// long as the program, as a written vendor's `'static` families do, and are built once.
static BUILT: Mutex<Vec<Built>> = Mutex::new(Vec::new());

struct Built {
    key: String,
    families: &'static [Family],
    missing: FamilyCode,
}

/// The vendor's own families, then its node-missing and node-denied families.
pub(super) fn of(v: &NodeVendor) -> &'static [Family] {
    if v.device_node.is_empty() || v.is_render() {
        return v.facts.families;
    }
    let key = format!(
        "{}\0{}\0{}\0{:?}\0{:p}",
        v.facts.vendor,
        v.device_node,
        v.shared_nodes.join("\0"),
        v.facts.node_group,
        v.facts.families
    );
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(b) = built.iter().find(|b| b.key == key) {
        return b.families;
    }
    let missing = node_missing(v);
    let mut all = v.facts.families.to_vec();
    all.push(missing);
    all.push(node_denied(v));
    let families: &'static [Family] = Box::leak(all.into_boxed_slice());
    built.push(Built {
        key,
        families,
        missing: missing.code,
    });
    families
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The node prefixes: the per-device node, then each shared node it does not already cover.
fn prefixes(v: &NodeVendor) -> Vec<&'static str> {
    let mut out = vec![v.device_node];
    out.extend(
        v.shared_nodes
            .iter()
            .copied()
            .filter(|s| !s.starts_with(v.device_node)),
    );
    out
}

/// `/dev/davinciN, /dev/davinci_manager, ...`: the nodes in a sentence.
fn nodes_text(v: &NodeVendor) -> String {
    std::iter::once(format!("{}N", v.device_node))
        .chain(v.shared_nodes.iter().map(|s| s.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn checks(v: &NodeVendor, core: &[CheckCode]) -> &'static [CheckCode] {
    let mut out = core.to_vec();
    out.extend(v.facts.check_codes.iter().copied());
    Box::leak(out.into_boxed_slice())
}

fn node_missing(v: &NodeVendor) -> Family {
    let mut signs: Vec<&'static [&'static str]> = Vec::new();
    for p in prefixes(v) {
        for (sign, errno) in [
            // podman's --device, docker's --device, crun's older and newer wording.
            (format!("stat {p}"), "no such file or directory"),
            (format!("custom device \"{p}"), "no such file or directory"),
            (
                format!("error stat'ing file {p}"),
                "No such file or directory",
            ),
            (format!("cannot stat `{p}"), "No such file or directory"),
        ] {
            signs.push(Box::leak(vec![leak(sign), errno].into_boxed_slice()));
        }
    }
    let (name, noun) = (v.facts.name(), v.facts.device_noun);
    Family {
        code: FamilyCode::new(leak(format!("{}-node-missing", v.facts.vendor))),
        signs: Box::leak(signs.into_boxed_slice()),
        priority: PRIORITY_PRECISE,
        diagnosis: leak(format!(
            "one of the {name} device nodes the container is given ({}) does not exist on this host: the {name} driver did not create it (not loaded, or no {noun} there), or the {noun} has another number here.",
            nodes_text(v)
        )),
        remedy: leak(format!(
            "Hint: list the host's nodes ('ls -l {}*') and pass those that exist, as 'gpuctl args {}' prints them for\nthis host ('podman run $(gpuctl args {}) ...'); with none, load the {name} driver first.",
            v.device_node, v.facts.vendor, v.facts.vendor
        )),
        checks: checks(v, &[codes::TIER, codes::CDI_STALE]),
    }
}

fn node_denied(v: &NodeVendor) -> Family {
    let signs: Vec<&'static [&'static str]> = prefixes(v)
        .into_iter()
        .map(|p| -> &'static [&'static str] {
            Box::leak(vec![p, "Permission denied"].into_boxed_slice())
        })
        .collect();
    let name = v.facts.name();
    let group = match v.facts.node_group {
        Some(g) => format!("the nodes' group ({g}): 'sudo usermod -aG {g} $USER'"),
        None => format!(
            "the group the {name} driver gives the nodes: 'sudo usermod -aG $(stat -c %G {}) $USER'",
            v.shared_nodes.first().copied().unwrap_or(v.device_node)
        ),
    };
    Family {
        code: FamilyCode::new(leak(format!("{}-node-denied", v.facts.vendor))),
        signs: Box::leak(signs.into_boxed_slice()),
        priority: PRIORITY_GROUPS + 1,
        diagnosis: leak(format!(
            "the container's process may not open one of the {name} device nodes: the invoking user is not in the group that owns it, or that group did not reach the container (no '--group-add keep-groups', or a runtime other than crun)."
        )),
        remedy: leak(format!(
            "Hint: add yourself to {group},\nlog in again, and run podman with '--group-add keep-groups' under crun."
        )),
        checks: checks(v, &[codes::RENDER_GROUPS, codes::OCI_RUNTIME]),
    }
}

/// Whether `code` is a node-missing family built here.
pub(crate) fn is_node_missing(code: FamilyCode) -> bool {
    let built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    built.iter().any(|b| b.missing == code)
}
