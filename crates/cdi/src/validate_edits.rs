//! Validation of container edits, as the CDI library does it on load (`pkg/cdi/container-edits.go`,
//! `ContainerEdits.Validate` and the `Validate` of each part, v1.1.0). Annotations are not
//! checked: `Spec.validate` passes the `map[string]string` to `ValidateSpecAnnotations`, whose
//! type switch only inspects a `map[string]interface{}`, so keys and sizes are never looked at.

use std::collections::HashSet;

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
#[derive(Debug, Default)]
pub(crate) struct HostPaths {
    pub(crate) nodes: Vec<String>,
    pub(crate) mounts: Vec<String>,
    pub(crate) hooks: Vec<String>,
}

/// Checks one set of edits, collecting the host paths it names.
pub(crate) fn check_edits(
    edits: &RawEdits<'_>,
    rules: Rules,
    paths: &mut HostPaths,
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
        if !paths.nodes.iter().any(|n| n == &**host) {
            paths.nodes.push(host.to_string());
        }
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
        if !paths.hooks.iter().any(|h| *h == hook.path) {
            paths.hooks.push(hook.path.to_string());
        }
    }
    for mount in edits.mounts.iter().flatten().flatten() {
        if mount.host_path.is_empty() {
            return Err("invalid mount, empty host path".to_string());
        }
        if mount.container_path.is_empty() {
            return Err("invalid mount, empty container path".to_string());
        }
        if !paths.mounts.iter().any(|m| *m == mount.host_path) {
            paths.mounts.push(mount.host_path.to_string());
        }
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
