//! CDI spec versions: which ones exist, and the oldest one a spec's content needs.

use super::schema::{RawEdits, RawSpec};

/// A version as (major, minor, patch).
pub type Version = (u32, u32, u32);

/// Every `cdiVersion` the CDI library knows, newest first.
pub const KNOWN_VERSIONS: [Version; 10] = [
    (1, 1, 0),
    (1, 0, 0),
    (0, 8, 0),
    (0, 7, 0),
    (0, 6, 0),
    (0, 5, 0),
    (0, 4, 0),
    (0, 3, 0),
    (0, 2, 0),
    (0, 1, 0),
];

/// Parses a `cdiVersion` the way the library canonicalizes it (`v0.6.0`, `0.6.0` and `0.6`
/// are the same) and returns it when it is a known version.
pub fn parse_version(text: &str) -> Option<Version> {
    let t = text.strip_prefix('v').unwrap_or(text);
    let mut parts = t.split('.');
    let mut next = || -> Option<Option<u32>> {
        match parts.next() {
            None => Some(None),
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.len() < 10 => {
                p.parse().ok().map(Some)
            }
            Some(_) => None,
        }
    };
    let major = next()??;
    let minor = next()?.unwrap_or(0);
    let patch = next()?.unwrap_or(0);
    if parts.next().is_some() {
        return None;
    }
    let v = (major, minor, patch);
    KNOWN_VERSIONS.contains(&v).then_some(v)
}

/// Formats a version as `0.5.0`.
pub fn format_version(v: Version) -> String {
    format!("{}.{}.{}", v.0, v.1, v.2)
}

/// The oldest podman release whose vendored CDI library loads a spec of version `v`
/// (docs/cdi.md#podman-ceilings).
pub fn min_podman(v: Version) -> &'static str {
    match v {
        (0, 0..=4, _) => "4.1",
        (0, 5, _) => "4.3",
        (0, 6, _) => "4.7",
        (0, 7, _) => "5.1",
        (0, 8, _) => "5.2",
        (1, 0, _) => "5.5",
        _ => "6.0",
    }
}

/// The oldest version whose fields cover everything the spec uses (the library's
/// `MinimumRequiredVersion`).
pub(super) fn minimum_version(spec: &RawSpec) -> Version {
    let mut min: Version = (0, 3, 0);
    let mut need = |v: Version| min = min.max(v);
    let class_has_dot = spec
        .kind
        .split_once('/')
        .is_some_and(|(_, c)| c.contains('.'));
    if class_has_dot || spec.annotations.as_ref().is_some_and(|a| !a.is_empty()) {
        need((0, 6, 0));
    }
    let devices = spec.devices.as_deref().unwrap_or_default();
    for d in devices {
        if d.name.starts_with(|c: char| c.is_ascii_digit()) {
            need((0, 5, 0));
        }
        if d.annotations.as_ref().is_some_and(|a| !a.is_empty()) {
            need((0, 6, 0));
        }
    }
    let edits = spec
        .container_edits
        .iter()
        .chain(devices.iter().filter_map(|d| d.container_edits.as_ref()));
    for e in edits {
        need(edits_minimum(e));
    }
    min
}

fn edits_minimum(e: &RawEdits) -> Version {
    let mut min: Version = (0, 3, 0);
    if e.mounts
        .iter()
        .flatten()
        .any(|m| m.kind.as_deref().is_some_and(|t| !t.is_empty()))
    {
        min = min.max((0, 4, 0));
    }
    if e.device_nodes
        .iter()
        .flatten()
        .any(|n| n.host_path.as_deref().is_some_and(|h| !h.is_empty()))
    {
        min = min.max((0, 5, 0));
    }
    if e.intel_rdt.is_some() || e.additional_gids.as_ref().is_some_and(|g| !g.is_empty()) {
        min = min.max((0, 7, 0));
    }
    let rdt_v110 = e.intel_rdt.as_ref().is_some_and(|r| {
        r.schemata.as_ref().is_some_and(|s| !s.is_empty()) || r.enable_monitoring == Some(true)
    });
    if rdt_v110 || e.net_devices.as_ref().is_some_and(|n| !n.is_empty()) {
        min = min.max((1, 1, 0));
    }
    min
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("0.5.0", Some((0, 5, 0)))]
    #[case("v0.6.0", Some((0, 6, 0)))]
    #[case("1.1.0", Some((1, 1, 0)))]
    #[case("0.5", Some((0, 5, 0)))]
    #[case("0.9.9", None)]
    #[case("1.2.0", None)]
    #[case("", None)]
    #[case("0.5.0.0", None)]
    #[case("0.5.x", None)]
    #[case("vv0.5.0", None)]
    #[case("0.5.0-rc1", None)]
    fn versions(#[case] text: &str, #[case] want: Option<Version>) {
        assert_eq!(parse_version(text), want);
    }
}
