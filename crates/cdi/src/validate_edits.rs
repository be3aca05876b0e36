//! Validation of container edits, as the CDI library does it on load (`pkg/cdi/container-edits.go`,
//! `ContainerEdits.Validate` and the `Validate` of each part, v1.1.0). Annotations are not
//! checked: `Spec.validate` passes the `map[string]string` to `ValidateSpecAnnotations`, whose
//! type switch only inspects a `map[string]interface{}`, so keys and sizes are never looked at.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::model::RawEdits;

/// `validHookNames` in `container-edits.go`.
const HOOK_NAMES: [&str; 6] = [
    "prestart",
    "createRuntime",
    "createContainer",
    "startContainer",
    "poststart",
    "poststop",
];
/// `DeviceNode.Validate`'s `validTypes`.
const NODE_TYPES: [&str; 5] = ["", "b", "c", "u", "p"];

/// What differs between library releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rules {
    /// `closID: "/"` (the root CLOS) is valid since v1.1.0 (`IntelRdt.Validate`).
    pub(crate) root_clos: bool,
}

/// The host paths a spec's edits name: what must exist on the host for podman to start a
/// container with it. Collected while validating, so every reader of a spec sees the same ones.
/// Each list holds a path once, in the order the spec first names it.
#[derive(Debug, Default)]
pub(crate) struct HostPaths<'r> {
    pub(crate) nodes: Unique<'r>,
    pub(crate) mounts: Unique<'r>,
    pub(crate) hooks: Unique<'r>,
}

/// Paths in first-named order, each once. The set beside the list keeps this linear: a spec
/// of 4096 GPUs names some 16,000 nodes, and a search of the list per entry made reading it
/// quadratic (issue 26).
#[derive(Debug, Default)]
pub(crate) struct Unique<'r> {
    list: Vec<String>,
    seen: HashSet<&'r str, BuildHasherDefault<PathHasher>>,
}

/// A hash for the path sets, eight bytes a step. std's SipHash cost more than the whole list
/// search did on a spec of eight GPUs. It is not keyed: the paths come from spec files root
/// installs, and a spec crafted to collide only slows the read of that one file, whose size
/// is bounded ([`crate::SPEC_SIZE_LIMIT`]).
#[derive(Debug, Default)]
pub(crate) struct PathHasher(u64);

/// An odd constant with well-spread bits (rustc-hash's multiplier).
const K: u64 = 0xf135_7aea_2e62_a9c5;

impl Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            h = (h ^ u64::from_le_bytes(b)).wrapping_mul(K);
        }
        let rest = words.remainder();
        let mut b = [0u8; 8];
        b[..rest.len()].copy_from_slice(rest);
        self.0 = (h ^ u64::from_le_bytes(b) ^ bytes.len() as u64).wrapping_mul(K);
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(K);
    }

    fn finish(&self) -> u64 {
        // The product's high bits are the well-mixed ones; the table indexes by the low ones.
        self.0.rotate_left(26)
    }
}

impl<'r> Unique<'r> {
    /// Room for `n` paths, so a large spec's set is allocated once rather than grown and
    /// rehashed a dozen times.
    pub(crate) fn with_capacity(n: usize) -> Unique<'r> {
        Unique {
            list: Vec::with_capacity(n),
            seen: HashSet::with_capacity_and_hasher(n, BuildHasherDefault::default()),
        }
    }

    fn add(&mut self, path: &'r str) {
        if self.seen.insert(path) {
            self.list.push(path.to_string());
        }
    }

    /// The paths, in first-named order.
    pub(crate) fn into_vec(self) -> Vec<String> {
        self.list
    }
}

/// Checks one set of edits, collecting the host paths it names.
pub(crate) fn check_edits<'r>(
    edits: &'r RawEdits<'_>,
    rules: Rules,
    paths: &mut HostPaths<'r>,
) -> Result<(), String> {
    if let Some(env) = &edits.env {
        check_env(env).map_err(|e| format!("invalid container edits: {e}"))?;
    }
    for node in edits.device_nodes.iter().flatten().flatten() {
        if node.path.is_empty() {
            return Err("invalid (empty) device path".to_string());
        }
        if !NODE_TYPES.contains(&&*node.kind) {
            return Err(format!(
                "device {:?}: invalid type {:?}",
                node.path, node.kind
            ));
        }
        // Each character must be r, w or m: "none" is refused too.
        if !node
            .permissions
            .chars()
            .all(|c| matches!(c, 'r' | 'w' | 'm'))
        {
            return Err(format!(
                "device {:?}: invalid permissions {:?}",
                node.path, node.permissions
            ));
        }
        let host = if node.host_path.is_empty() {
            &node.path
        } else {
            &node.host_path
        };
        // Each once: a node shared by several devices (and by `all`) is one host path.
        paths.nodes.add(host);
    }
    for hook in edits.hooks.iter().flatten().flatten() {
        if !HOOK_NAMES.contains(&&*hook.hook_name) {
            return Err(format!("invalid hook name {:?}", hook.hook_name));
        }
        if hook.path.is_empty() {
            return Err(format!("invalid hook {:?} with empty path", hook.hook_name));
        }
        if let Some(env) = &hook.env {
            check_env(env).map_err(|e| format!("invalid hook {:?}: {e}", hook.hook_name))?;
        }
        paths.hooks.add(&hook.path);
    }
    for mount in edits.mounts.iter().flatten().flatten() {
        if mount.host_path.is_empty() {
            return Err("invalid mount, empty host path".to_string());
        }
        if mount.container_path.is_empty() {
            return Err("invalid mount, empty container path".to_string());
        }
        paths.mounts.add(&mount.host_path);
    }
    if let Some(rdt) = &edits.intel_rdt {
        // "ClosID must be a valid Linux filename", under 4096 bytes.
        let c = &*rdt.clos_id;
        let root = c == "/" && rules.root_clos;
        if !root && (c.len() >= 4096 || c == "." || c == ".." || c.contains(['/', '\n'])) {
            return Err("invalid ClosID".to_string());
        }
    }
    check_net_devices(edits)
}

/// `ValidateNetDevices`: both names set, neither repeated.
fn check_net_devices(edits: &RawEdits<'_>) -> Result<(), String> {
    let mut hosts: HashSet<&str> = HashSet::new();
    let mut names: HashSet<&str> = HashSet::new();
    for net in edits.net_devices.iter().flatten().flatten() {
        if net.host_interface_name.is_empty() {
            return Err("invalid linux net device, empty HostInterfaceName".to_string());
        }
        if net.name.is_empty() {
            return Err("invalid linux net device, empty Name".to_string());
        }
        if !hosts.insert(&net.host_interface_name) {
            return Err(format!(
                "invalid linux net device, duplicate HostInterfaceName {:?}",
                net.host_interface_name
            ));
        }
        if !names.insert(&net.name) {
            return Err(format!(
                "invalid linux net device, duplicate Name {:?}",
                net.name
            ));
        }
    }
    Ok(())
}

/// `ValidateEnv`: an `=` after at least one character.
fn check_env(env: &[std::borrow::Cow<'_, str>]) -> Result<(), String> {
    match env.iter().find(|v| v.find('=').is_none_or(|i| i == 0)) {
        Some(v) => Err(format!("invalid environment variable {v:?}")),
        None => Ok(()),
    }
}

/// The first Go nil pointer in a list the library dereferences (`deviceNodes: [null]`): its
/// version and edit checks crash on it instead of returning an error.
pub(crate) fn nil_entry(edits: &RawEdits<'_>) -> Option<&'static str> {
    fn has_nil<T>(v: &Option<Vec<Option<T>>>) -> bool {
        v.iter().flatten().any(Option::is_none)
    }
    if has_nil(&edits.device_nodes) {
        Some("deviceNodes")
    } else if has_nil(&edits.mounts) {
        Some("mounts")
    } else if has_nil(&edits.hooks) {
        Some("hooks")
    } else if has_nil(&edits.net_devices) {
        Some("netDevices")
    } else {
        None
    }
}

/// True when the edits hold nothing (`ContainerEdits.isEmpty`): a device must have some.
pub(crate) fn is_empty(e: &RawEdits<'_>) -> bool {
    fn none<T>(v: &Option<Vec<T>>) -> bool {
        v.as_ref().is_none_or(Vec::is_empty)
    }
    none(&e.env)
        && none(&e.device_nodes)
        && none(&e.hooks)
        && none(&e.mounts)
        && none(&e.additional_gids)
        && e.intel_rdt.is_none()
        && none(&e.net_devices)
}
