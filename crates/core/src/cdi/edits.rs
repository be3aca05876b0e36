//! Validation of container edits and annotations, as the CDI library does it on load.

use std::collections::BTreeMap;

use super::schema::RawEdits;

const HOOK_NAMES: [&str; 6] = [
    "prestart",
    "createRuntime",
    "createContainer",
    "startContainer",
    "poststart",
    "poststop",
];
const NODE_TYPES: [&str; 5] = ["", "b", "c", "u", "p"];
/// The library caps the total size of one annotation map.
const ANNOTATIONS_LIMIT: usize = 256 * 1024;

/// Checks one set of edits, collecting the host device nodes it injects.
pub(super) fn check_edits(edits: &RawEdits, host_nodes: &mut Vec<String>) -> Result<(), String> {
    for env in edits.env.iter().flatten() {
        check_env(env)?;
    }
    for node in edits.device_nodes.iter().flatten() {
        if node.path.is_empty() {
            return Err("invalid (empty) device path".to_string());
        }
        let kind = node.kind.as_deref().unwrap_or("");
        if !NODE_TYPES.contains(&kind) {
            return Err(format!("device {:?}: invalid type {kind:?}", node.path));
        }
        if let Some(perms) = node.permissions.as_deref()
            && perms != "none"
            && !perms.chars().all(|c| matches!(c, 'r' | 'w' | 'm'))
        {
            return Err(format!(
                "device {:?}: invalid permissions {perms:?}",
                node.path
            ));
        }
        let host = node
            .host_path
            .as_deref()
            .filter(|h| !h.is_empty())
            .unwrap_or(&node.path);
        host_nodes.push(host.to_string());
    }
    for hook in edits.hooks.iter().flatten() {
        if !HOOK_NAMES.contains(&hook.hook_name.as_str()) {
            return Err(format!("invalid hook name {:?}", hook.hook_name));
        }
        if hook.path.is_empty() {
            return Err(format!("invalid hook {:?} with empty path", hook.hook_name));
        }
        for env in hook.env.iter().flatten() {
            check_env(env)?;
        }
    }
    for mount in edits.mounts.iter().flatten() {
        if mount.host_path.is_empty() {
            return Err("invalid mount, empty host path".to_string());
        }
        if mount.container_path.is_empty() {
            return Err("invalid mount, empty container path".to_string());
        }
    }
    if let Some(rdt) = &edits.intel_rdt
        && let Some(id) = rdt.clos_id.as_deref()
        && (id.contains('/') || id == "." || id == ".." || id.len() > 4096)
    {
        return Err(format!("invalid intel RDT closID {id:?}"));
    }
    let mut names: Vec<&str> = Vec::new();
    for net in edits.net_devices.iter().flatten() {
        if net.host_interface_name.is_empty() || net.name.is_empty() {
            return Err("invalid net device, empty interface name".to_string());
        }
        if names.contains(&net.name.as_str()) {
            return Err(format!(
                "invalid net devices, duplicate name {:?}",
                net.name
            ));
        }
        names.push(&net.name);
    }
    Ok(())
}

fn check_env(env: &str) -> Result<(), String> {
    match env.find('=') {
        Some(i) if i > 0 => Ok(()),
        _ => Err(format!("invalid environment variable {env:?}")),
    }
}

/// Annotation keys must be Kubernetes qualified names; the whole map is size-capped.
pub(super) fn check_annotations(annotations: &BTreeMap<String, String>) -> Result<(), String> {
    let mut total = 0usize;
    for (key, value) in annotations {
        check_annotation_key(key)?;
        total += key.len() + value.len();
    }
    if total > ANNOTATIONS_LIMIT {
        return Err(format!(
            "annotations size {total} is larger than the {ANNOTATIONS_LIMIT}-byte limit"
        ));
    }
    Ok(())
}

fn check_annotation_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && label.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && label
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            })
    });
    if name_ok && prefix_ok {
        Ok(())
    } else {
        Err(format!(
            "invalid annotation key {key:?}: not a Kubernetes qualified name"
        ))
    }
}
