//! The CDI checks: each spec's `cdiVersion` against podman's ceiling, specs that no longer fit
//! the host (nodes, mounted files or hook programs missing), and specs the invoking user cannot
//! read (rootless podman then sees no spec and says only "unresolvable CDI devices").

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::Registry;
use crate::check::codes;
use crate::check::evidence::{self, Found};
use crate::check::podman::PodmanFacts;
use crate::check::user::Identity;
use crate::check::{Check, Status};
use crate::finding::Finding;
use crate::probe::Probe;
use gpuctl_cdi::SpecReport;
use gpuctl_cdi::podman::PodmanCeiling;
use gpuctl_cdi::version::{min_podman, parse_version};

/// One check per spec: valid, and loadable by the installed podman.
pub fn versions(probe: &Probe, registry: &Registry, podman: &PodmanFacts) -> Vec<Check> {
    let ceiling = podman
        .version
        .as_deref()
        .and_then(|v| PodmanCeiling::parse(v).ok());
    let mut out = Vec::new();
    for spec in probe.cdi().specs() {
        let mut c = Check::new(codes::CDI_VERSION, spec.path.clone(), Status::Ok);
        if let Some(err) = &spec.error {
            c.status = Status::Problem;
            out.push(
                c.fact(format!("podman skips this spec: {err}"))
                    .remedy(rewrite_broken(probe, registry, spec)),
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
            Check::new(codes::CDI_VERSION, "CDI specs", Status::Skipped)
                .fact("no CDI spec in the spec directories"),
        );
    }
    out
}

/// One check per valid spec: every host node, mounted file and hook program it names is there
/// and of the right kind. The paths are the CDI reader's, so doctor judges the spec podman reads.
pub fn stale(probe: &Probe, registry: &Registry) -> Vec<Check> {
    let host = probe.host();
    let mut out = Vec::new();
    for spec in probe.cdi().specs().iter().filter(|s| s.error.is_none()) {
        let mut broken = Vec::new();
        let mut unknown = Vec::new();
        let mut look = |what: &str, want: &str, path: &str, found: Found| match found {
            Found::Present => {}
            Found::Unknown(_) => unknown.push(format!("{what} {path} {}", found.describe(want))),
            _ => broken.push(format!("{what} {path} {}", found.describe(want))),
        };
        for n in &spec.host_nodes {
            look(
                "device node",
                "a device node",
                n,
                evidence::device_node(host, Path::new(n)),
            );
        }
        for m in &spec.host_mounts {
            look(
                "mounted file",
                "there",
                m,
                evidence::any_file(host, Path::new(m)),
            );
        }
        for h in &spec.hook_paths {
            look(
                "hook program",
                "a program",
                h,
                evidence::program(host, Path::new(h)),
            );
        }
        let mut c = Check::new(codes::CDI_STALE, spec.path.clone(), Status::Ok);
        if broken.is_empty() && unknown.is_empty() {
            c = c.fact(format!(
                "all {} nodes, {} mounts and {} hooks it names exist",
                spec.host_nodes.len(),
                spec.host_mounts.len(),
                spec.hook_paths.len()
            ));
            out.push(c);
            continue;
        }
        c.status = if broken.is_empty() {
            Status::Warning
        } else {
            Status::Problem
        };
        let shown = broken.len().min(5);
        for b in &broken[..shown] {
            c = c.fact(format!("on the host, {b}"));
        }
        if broken.len() > shown {
            c = c.fact(format!(
                "and {} more missing or wrong",
                broken.len() - shown
            ));
        }
        for u in unknown.iter().take(3) {
            c = c.fact(u.clone());
        }
        c = if broken.is_empty() {
            c.remedy("make the paths readable to gpuctl (run it as the user podman runs as, or with sudo) to check them")
        } else {
            c.remedy(regenerate(probe, registry, spec))
        };
        out.push(c);
    }
    out
}

/// How to rewrite a spec podman skips: its vendor's command when its kind names a vendor that
/// says one, otherwise every linked vendor's generator (a spec that does not parse names no
/// kind), in the vendors' own words.
fn rewrite_broken(probe: &Probe, registry: &Registry, spec: &SpecReport) -> String {
    let vendor = spec.kind.as_deref().and_then(|k| {
        registry
            .backends()
            .iter()
            .find(|b| b.cdi_kinds().contains(&k))
    });
    if let Some(how) = vendor.and_then(|v| v.cdi_tooling().cdi_regenerate(probe, &spec.path)) {
        return format!("regenerate the spec: {how}");
    }
    let generators: Vec<String> = registry
        .backends()
        .iter()
        .filter_map(|b| crate::backend::cdi_generate_command(*b, &spec.path))
        .map(|c| format!("'{c}'"))
        .collect();
    if generators.is_empty() {
        format!(
            "regenerate {} with the CDI generator of the vendor whose devices it declares",
            spec.path
        )
    } else {
        format!(
            "regenerate {} with the CDI generator of the vendor whose devices it declares ({})",
            spec.path,
            generators.join(", ")
        )
    }
}

/// How to rewrite a stale spec in place: the vendor's own command for this file when the
/// vendor says one, a neutral sentence otherwise. The stale file is the one to rewrite: a new
/// spec in another directory would not replace it (`/var/run/cdi` wins over `/etc/cdi`).
fn regenerate(probe: &Probe, registry: &Registry, spec: &SpecReport) -> String {
    let vendor = spec.kind.as_deref().and_then(|k| {
        registry
            .backends()
            .iter()
            .find(|b| b.cdi_kinds().contains(&k))
    });
    // The spec's vendor's noun; every linked vendor's when no vendor declares its kind.
    let noun = match vendor {
        Some(v) => v.device_noun().to_string(),
        None => crate::backend::devices_noun(registry.backends().iter().copied()),
    };
    match vendor.and_then(|v| v.cdi_tooling().cdi_regenerate(probe, &spec.path)) {
        Some(how) => format!("the spec is stale (driver upgrade or {noun} change): {how}"),
        None => format!(
            "the spec is stale (driver upgrade or {noun} change): regenerate {} with the vendor's CDI generator",
            spec.path
        ),
    }
}

/// One check per spec file: readable by the invoking user. Who that is may be unknown (the
/// host's `/proc/self/status` unreadable): then each check says it cannot tell.
pub fn readable(probe: &Probe, who: Option<&Identity>) -> Vec<Check> {
    let host = probe.host();
    let mut out = Vec::new();
    for spec in probe.cdi().specs() {
        let meta = match host.metadata(Path::new(&spec.path)) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
            Err(e) => {
                out.push(
                    Check::new(codes::CDI_READABLE, spec.path.clone(), Status::Warning)
                        .fact(format!("cannot tell who may read it: {e}")),
                );
                continue;
            }
        };
        let mode = meta.mode();
        let owner = format!(
            "mode {:04o}, owner {}:{}",
            mode & 0o7777,
            meta.uid(),
            meta.gid()
        );
        let Some(who) = who else {
            let c = Check::new(codes::CDI_READABLE, spec.path.clone(), Status::Warning).fact(format!(
                "{owner}; the invoking user is unknown (/proc/self/status cannot be read), so gpuctl cannot tell whether podman can read it"
            ));
            out.push(if mode & 0o004 != 0 {
                Check {
                    status: Status::Ok,
                    ..c
                }
            } else {
                c.remedy(format!(
                    "run gpuctl as the user who runs podman, or 'sudo chmod a+r {}'",
                    spec.path
                ))
            });
            continue;
        };
        let can_read = who.uid == 0
            || mode & 0o004 != 0
            || (meta.uid() == who.uid && mode & 0o400 != 0)
            || (who.in_group(meta.gid()) && mode & 0o040 != 0);
        let c = Check::new(
            codes::CDI_READABLE,
            spec.path.clone(),
            if can_read {
                Status::Ok
            } else {
                Status::Problem
            },
        )
        .fact(format!("{owner}; the invoking user is uid {}", who.uid));
        out.push(if can_read {
            c
        } else {
            c.fact("rootless podman cannot read it, so it sees no spec and reports only 'unresolvable CDI devices'")
                .remedy(format!("sudo chmod a+r {}", spec.path))
        });
    }
    out
}

/// One check per spec-directory entry the CDI scan could not take (a link to nothing, a link
/// loop, a FIFO, an unreadable directory, two specs declaring one device): what `detect` warns
/// about, as doctor findings. A `.yml` file is only a warning: it may not be meant as a spec.
pub fn spec_dirs(probe: &Probe) -> Vec<Check> {
    probe
        .cdi()
        .directory_warnings()
        .iter()
        .map(|w| {
            let f = Finding::from(w.clone());
            let (subject, status) = match &f {
                Finding::CdiSpecWrongExtension { path } => (path.clone(), Status::Warning),
                Finding::CdiSpecNotRegular { path, .. } => (path.clone(), Status::Problem),
                Finding::CdiDirUnreadable { error } | Finding::CdiSpecUnreadable { error } => {
                    (error.path.display().to_string(), Status::Problem)
                }
                Finding::CdiDirTooManySpecs { dir, .. } => (dir.clone(), Status::Problem),
                Finding::CdiDeviceConflict { device, .. } => (device.clone(), Status::Problem),
                other => (other.code().to_string(), Status::Problem),
            };
            Check::new(codes::CDI_SPEC_DIR, subject, status).fact(f.to_string())
        })
        .collect()
}
