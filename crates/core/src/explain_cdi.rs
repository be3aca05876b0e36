//! What this host's CDI specs say about the devices podman could not resolve.

use crate::probe::Probe;
use gpuctl_cdi::grammar::is_qualified_name;
use gpuctl_cdi::version::{min_podman, parse_version};

/// For each CDI device podman could not resolve: whether this host's specs declare it, and
/// which podman can load the spec that does.
pub(super) fn cdi_details(stderr: &str, probe: &Probe) -> Vec<String> {
    let mut out = Vec::new();
    let Some(list) = stderr.split("unresolvable CDI devices ").nth(1) else {
        return out;
    };
    let list = list.lines().next().unwrap_or("");
    for name in list
        .split(", ")
        .map(str::trim)
        .filter(|n| is_qualified_name(n))
    {
        let Some((kind, device)) = name.split_once('=') else {
            continue;
        };
        if probe.cdi().has_device(kind, device) {
            for spec in probe.cdi().specs_for(kind) {
                let version = spec.cdi_version.as_deref().unwrap_or("?");
                let needs = parse_version(version)
                    .map(min_podman)
                    .unwrap_or("a newer podman");
                out.push(format!(
                    "{name} is declared by {} (cdiVersion {version}, which needs podman {needs} or newer): check 'podman --version', and that the file is readable by the user running podman",
                    spec.path
                ));
            }
        } else {
            let declared = probe.cdi().device_names(kind);
            out.push(if declared.is_empty() {
                format!("no valid CDI spec on this host declares the kind {kind}")
            } else {
                format!(
                    "{name} is not declared; the valid specs declare {kind}={}",
                    declared.join(", ")
                )
            });
        }
    }
    for spec in probe.cdi().specs().iter().filter(|s| s.error.is_some()) {
        out.push(format!(
            "{} is skipped: {}",
            spec.path,
            spec.error.as_deref().unwrap_or("")
        ));
    }
    out
}
