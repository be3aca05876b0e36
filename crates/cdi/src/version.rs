//! CDI spec versions: which ones exist, and the oldest one a spec's content needs.

use super::model::{RawEdits, RawSpec};

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

/// Returns the version when `text` names a known one exactly, an optional leading `v` allowed:
/// the library looks `"v" + TrimPrefix(text, "v")` up in its table (`specs-go/version.go`,
/// `requiredVersionMap.isValidVersion`, v1.1.0), so `0.5`, `1` and `0.05.0` are unknown.
pub fn parse_version(text: &str) -> Option<Version> {
    let t = text.strip_prefix('v').unwrap_or(text);
    KNOWN_VERSIONS
        .iter()
        .copied()
        .find(|&v| t == format_version(v))
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

/// The oldest version whose fields cover everything the spec uses (`specs-go/version.go`,
/// `requiresV040` ... `requiresV110`, v1.1.0). Nil entries in the node and mount lists are
/// refused before this is asked.
pub(super) fn minimum_version(spec: &RawSpec<'_>) -> Version {
    let mut min: Version = (0, 3, 0);
    let mut need = |v: Version| min = min.max(v);
    if spec
        .kind
        .split_once('/')
        .is_some_and(|(_, c)| c.contains('.'))
        || spec.annotations.is_some_and(|n| n > 0)
    {
        need((0, 6, 0));
    }
    let devices = spec.devices.as_deref().unwrap_or_default();
    for d in devices {
        if d.name.starts_with(|c: char| c.is_ascii_digit()) {
            need((0, 5, 0));
        }
        if d.annotations.is_some_and(|n| n > 0) {
            need((0, 6, 0));
        }
    }
    let edits =
        std::iter::once(&spec.container_edits).chain(devices.iter().map(|d| &d.container_edits));
    for e in edits {
        need(edits_minimum(e));
    }
    min
}

fn edits_minimum(e: &RawEdits<'_>) -> Version {
    let mut min: Version = (0, 3, 0);
    if e.mounts
        .iter()
        .flatten()
        .flatten()
        .any(|m| !m.kind.is_empty())
    {
        min = min.max((0, 4, 0));
    }
    if e.device_nodes
        .iter()
        .flatten()
        .flatten()
        .any(|n| !n.host_path.is_empty())
    {
        min = min.max((0, 5, 0));
    }
    if e.intel_rdt.is_some() || e.additional_gids.as_ref().is_some_and(|g| !g.is_empty()) {
        min = min.max((0, 7, 0));
    }
    // `Schemata != nil`: an empty list counts.
    let rdt_v110 = e
        .intel_rdt
        .as_ref()
        .is_some_and(|r| r.schemata.is_some() || r.enable_monitoring);
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
    #[case("0.5", None)] // specs-go/version.go isValidVersion: exact strings only
    #[case("0.3", None)]
    #[case("1", None)]
    #[case("0.03.0", None)]
    #[case("v1.0.0", Some((1, 0, 0)))]
    #[case("V1.0.0", None)]
    #[case(" 1.0.0", None)]
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
