//! The CDI checks: each spec's `cdiVersion` against podman's ceiling, specs that no longer fit
//! the host (nodes, mounted files or hook programs missing), and specs the invoking user cannot
//! read (rootless podman then sees no spec and says only "unresolvable CDI devices").

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::Probe;
use crate::check::podman::PodmanFacts;
use crate::check::user::Identity;
use crate::check::{Check, Status};
use crate::host::Host;
use gpuctl_cdi::SPEC_SIZE_LIMIT;
use gpuctl_cdi::podman::PodmanCeiling;
use gpuctl_cdi::version::{min_podman, parse_version};

/// One check per spec: valid, and loadable by the installed podman.
pub fn versions(probe: &Probe, podman: &PodmanFacts) -> Vec<Check> {
    let ceiling = podman
        .version
        .as_deref()
        .and_then(|v| PodmanCeiling::parse(v).ok());
    let mut out = Vec::new();
    for spec in probe.cdi().specs() {
        let mut c = Check::new("cdi-version", spec.path.clone(), Status::Ok);
        if let Some(err) = &spec.error {
            c.status = Status::Problem;
            out.push(
                c.fact(format!("podman skips this spec: {err}"))
                    .remedy("regenerate the spec with the vendor's toolkit (nvidia-ctk / amd-ctk / intel-cdi-specs-generator)"),
            );
            continue;
        }
        let written = spec.cdi_version.as_deref().unwrap_or("?");
        let Some(version) = parse_version(written) else {
            continue;
        };
        c = c.fact(format!(
            "cdiVersion {written} (podman {} or newer loads it)",
            min_podman(version)
        ));
        match &ceiling {
            None => {
                c.status = Status::Skipped;
                c = c.fact("podman's version is unknown: not compared");
            }
            Some(ceil) => match ceil.rejects(version, &spec.devices) {
                None => c = c.fact(format!("podman {} loads it", ceil.podman)),
                Some(why) => {
                    c.status = Status::Problem;
                    c = c.fact(why).remedy(format!(
                        "upgrade podman to {} or newer, or regenerate the spec for podman {}",
                        min_podman(version),
                        ceil.podman
                    ));
                }
            },
        }
        out.push(c);
    }
    if out.is_empty() {
        out.push(
            Check::new("cdi-version", "CDI specs", Status::Skipped)
                .fact("no CDI spec in the spec directories"),
        );
    }
    out
}

/// One check per valid spec: every host node, mounted file and hook program it names exists.
pub fn stale(probe: &Probe) -> Vec<Check> {
    let host = probe.host();
    let mut out = Vec::new();
    for spec in probe.cdi().specs().iter().filter(|s| s.error.is_none()) {
        let mut missing: Vec<String> = spec
            .host_nodes
            .iter()
            .filter(|n| !exists(host, n))
            .map(|n| format!("device node {n}"))
            .collect();
        let (mounts, hooks) = mounts_and_hooks(host, &spec.path);
        missing.extend(
            mounts
                .iter()
                .filter(|m| !exists(host, m))
                .map(|m| format!("mounted file {m}")),
        );
        missing.extend(
            hooks
                .iter()
                .filter(|h| !exists(host, h))
                .map(|h| format!("hook program {h}")),
        );
        let mut c = Check::new("cdi-stale", spec.path.clone(), Status::Ok);
        if missing.is_empty() {
            c = c.fact(format!(
                "all {} nodes, {} mounts and {} hooks it names exist",
                spec.host_nodes.len(),
                mounts.len(),
                hooks.len()
            ));
        } else {
            c.status = Status::Problem;
            let shown = missing.len().min(5);
            for m in &missing[..shown] {
                c = c.fact(format!("missing on the host: {m}"));
            }
            if missing.len() > shown {
                c = c.fact(format!("and {} more missing", missing.len() - shown));
            }
            c = c.remedy("the spec is stale (driver upgrade or GPU change): regenerate it, e.g. 'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml'");
        }
        out.push(c);
    }
    out
}

fn exists(host: &Host, p: &str) -> bool {
    host.exists(Path::new(p)).unwrap_or(false)
}

/// The mounts' host paths and the hooks' programs of a spec file, read again as plain data:
/// the CDI check keeps only what the tiers need.
pub fn mounts_and_hooks(host: &Host, path: &str) -> (Vec<String>, Vec<String>) {
    let Ok(bytes) = host.read_bytes(Path::new(path), SPEC_SIZE_LIMIT) else {
        return (Vec::new(), Vec::new());
    };
    let value: Option<serde_json::Value> = if path.ends_with(".json") {
        serde_json::from_slice(&bytes).ok()
    } else {
        yaml_serde::from_slice(&bytes).ok()
    };
    let Some(value) = value else {
        return (Vec::new(), Vec::new());
    };
    let mut edits = vec![&value["containerEdits"]];
    if let Some(devices) = value["devices"].as_array() {
        edits.extend(devices.iter().map(|d| &d["containerEdits"]));
    }
    let mut mounts = Vec::new();
    let mut hooks = Vec::new();
    for e in edits {
        for m in e["mounts"].as_array().into_iter().flatten() {
            if let Some(h) = m["hostPath"].as_str() {
                mounts.push(h.to_string());
            }
        }
        for h in e["hooks"].as_array().into_iter().flatten() {
            if let Some(p) = h["path"].as_str()
                && !hooks.iter().any(|x| x == p)
            {
                hooks.push(p.to_string());
            }
        }
    }
    (mounts, hooks)
}

/// One check per spec file: readable by the invoking user.
pub fn readable(probe: &Probe, who: &Identity) -> Vec<Check> {
    let host = probe.host();
    let mut out = Vec::new();
    for spec in probe.cdi().specs() {
        let Ok(Some(meta)) = host.metadata(Path::new(&spec.path)) else {
            continue;
        };
        let mode = meta.mode();
        let can_read = who.uid == 0
            || mode & 0o004 != 0
            || (meta.uid() == who.uid && mode & 0o400 != 0)
            || (who.in_group(meta.gid()) && mode & 0o040 != 0);
        let c = Check::new(
            "cdi-readable",
            spec.path.clone(),
            if can_read {
                Status::Ok
            } else {
                Status::Problem
            },
        )
        .fact(format!(
            "mode {:04o}, owner {}:{}; the invoking user is uid {}",
            mode & 0o7777,
            meta.uid(),
            meta.gid(),
            who.uid
        ));
        out.push(if can_read {
            c
        } else {
            c.fact("rootless podman cannot read it, so it sees no spec and reports only 'unresolvable CDI devices'")
                .remedy(format!("sudo chmod a+r {}", spec.path))
        });
    }
    out
}
