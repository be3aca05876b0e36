//! From podman's stderr to a diagnosis and a remedy.
//!
//! The text is matched against the failure catalogue ([`crate::families`]): case-sensitive
//! substrings (case folding was tried by the Python tool and dropped for its false positives),
//! the lowest priority winning: keep-groups before the NVIDIA hook before CDI, as the reference
//! orders them; within CDI, podman's precise messages (unresolvable device, stale host node)
//! before the bare word `CDI`. A CDI name taken for a path is recognised by its shape.

use crate::backend::Registry;
use crate::families;
use crate::families::catalogue::{KIND_MENTION, NAME_AS_PATH};
pub use crate::families::{
    CDI_HINT, KEEP_GROUPS_HINT, PRIORITY_CDI, PRIORITY_CDI_SPECIFIC, PRIORITY_GROUPS,
    PRIORITY_HOOK, PRIORITY_KEEP_GROUPS,
};
use crate::probe::Probe;
use crate::text::py_strip;
use gpuctl_cdi::grammar::is_qualified_name;
use gpuctl_cdi::version::{min_podman, parse_version};

/// What `explain` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The failure family's code (`cdi-stale-spec`).
    pub family: &'static str,
    /// The `gpuctl doctor` checks that find the cause on the host.
    pub checks: &'static [&'static str],
    /// podman's stderr, stripped.
    pub stderr: String,
    /// What went wrong.
    pub diagnosis: String,
    /// Facts from this host that bear on it (which spec declares what, which is skipped).
    pub details: Vec<String>,
    /// What to do.
    pub hint: String,
}

impl Explanation {
    /// The text `gpuctl explain` prints: the reference's block, with the diagnosis and the
    /// host's facts between podman's words and the hint.
    pub fn render(&self) -> String {
        let mut out = format!(
            "Container launch failed (GPU misconfiguration):\n{}\n\n",
            self.stderr
        );
        out.push_str(&format!(
            "Diagnosis ({}): {}\n",
            self.family, self.diagnosis
        ));
        for d in &self.details {
            out.push_str(&format!("  - {d}\n"));
        }
        if !self.checks.is_empty() {
            out.push_str(&format!(
                "Checked before a start by 'gpuctl doctor': {}\n",
                self.checks.join(", ")
            ));
        }
        out.push('\n');
        out.push_str(&self.hint);
        out.push('\n');
        out
    }
}

/// Explains podman's stderr, or `None` when it shows no GPU misconfiguration. With a probe,
/// the CDI devices podman names are looked up in this host's specs.
pub fn explain(stderr: &str, registry: &Registry, probe: Option<&Probe>) -> Option<Explanation> {
    let mut best = families::classify(stderr, registry);
    if best.is_none()
        && registry
            .backends()
            .iter()
            .any(|b| stderr.contains(b.cdi_kind()))
    {
        best = Some(KIND_MENTION);
    }
    let pre_cdi = pre_cdi_podman(stderr);
    let (family, diagnosis) = match (best, pre_cdi) {
        (Some(f), Some(name)) if f.priority >= PRIORITY_CDI_SPECIFIC => {
            (NAME_AS_PATH, pre_cdi_diagnosis(&name))
        }
        (Some(f), _) => (f, f.diagnosis.to_string()),
        (None, Some(name)) => (NAME_AS_PATH, pre_cdi_diagnosis(&name)),
        (None, None) => return None,
    };
    let details = probe.map(|p| cdi_details(stderr, p)).unwrap_or_default();
    Some(Explanation {
        family: family.code,
        checks: family.checks,
        stderr: py_strip(stderr).to_string(),
        diagnosis,
        details,
        hint: family.remedy.to_string(),
    })
}

/// podman older than CDI support (or with a CDI library that rejects the name) treats a CDI
/// name as a host path: `Error: stat nvidia.com/gpu=0: no such file or directory`; an old
/// docker-compose passes it on the same way: `error gathering device information while adding
/// custom device "nvidia.com/gpu=all": no such file or directory`.
fn pre_cdi_podman(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|line| {
        let name = if let Some(at) = line.find("custom device \"") {
            let rest = &line[at + 15..];
            &rest[..rest.find('"')?]
        } else {
            let rest = &line[line.find("stat ")? + 5..];
            &rest[..rest.find(": ")?]
        };
        name.contains('=').then(|| name.to_string())
    })
}

fn pre_cdi_diagnosis(name: &str) -> String {
    let why = if is_qualified_name(name) {
        "this podman's CDI library does not take it as a CDI device name (podman before 4.1 has no CDI, nor has docker unless CDI is enabled in its daemon.json; podman 4.1-4.2 needs names that start with a letter, e.g. nvidia-ctk's type-index names 'gpu0')"
    } else {
        "it is not a valid CDI device name"
    };
    format!("podman treated '{name}' as a host path: {why}.")
}

/// For each CDI device podman could not resolve: whether this host's specs declare it, and
/// which podman can load the spec that does.
fn cdi_details(stderr: &str, probe: &Probe) -> Vec<String> {
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

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
