//! From podman's stderr to a diagnosis and a remedy.
//!
//! Patterns are case-sensitive substrings (case folding was tried by the Python tool and
//! dropped for its false positives). The highest-priority match wins: keep-groups before the
//! NVIDIA hook before CDI, as the reference orders them; within CDI, podman's precise messages
//! (unresolvable device, stale host node) before the bare word `CDI`.

use crate::cdi::grammar::is_qualified_name;
use crate::cdi::version::{min_podman, parse_version};
use crate::probe::Probe;
use crate::registry::Registry;
use crate::text::py_strip;

// The patterns are part of the plug-in interface (backends supply them), so they live in
// `pattern`; these names stay here for the vendor crates that import them from `explain`.
pub use crate::pattern::{
    CDI_HINT, ErrorPattern, KEEP_GROUPS_HINT, PRIORITY_CDI, PRIORITY_CDI_SPECIFIC, PRIORITY_GROUPS,
    PRIORITY_HOOK, PRIORITY_KEEP_GROUPS,
};

const CDI_DIAGNOSIS: &str = "podman could not set up a CDI device.";

const CORE_PATTERNS: &[ErrorPattern] = &[
    ErrorPattern {
        all_of: &["keep-groups"],
        priority: PRIORITY_KEEP_GROUPS,
        diagnosis: "podman or its OCI runtime rejected '--group-add keep-groups'.",
        hint: KEEP_GROUPS_HINT,
    },
    ErrorPattern {
        all_of: &["keep_original_groups"],
        priority: PRIORITY_KEEP_GROUPS,
        diagnosis: "the OCI runtime rejected the keep-groups annotation (run.oci.keep_original_groups).",
        hint: KEEP_GROUPS_HINT,
    },
    ErrorPattern {
        all_of: &["unable to find group"],
        priority: PRIORITY_GROUPS,
        diagnosis: "a '--group-add' group name is not in the image's /etc/group.",
        hint: "Hint: name groups by number ('--group-add <gid of /dev/dri/renderD128>'), or use\n'--group-add keep-groups' with crun, which needs no group names in the image.",
    },
    ErrorPattern {
        all_of: &["unresolvable CDI devices"],
        priority: PRIORITY_CDI_SPECIFIC,
        diagnosis: "no CDI spec podman could load declares the requested device: the spec is missing, unreadable, invalid, or newer than this podman's CDI library (podman drops such specs without saying why).",
        hint: CDI_HINT,
    },
    ErrorPattern {
        all_of: &["failed to stat CDI host device"],
        priority: PRIORITY_CDI_SPECIFIC,
        diagnosis: "the CDI spec names a host device node that does not exist: the spec is stale (driver upgrade, GPU change, or a spec from another machine) and must be regenerated.",
        hint: CDI_HINT,
    },
    ErrorPattern {
        all_of: &["could not discover GPU vendor"],
        priority: PRIORITY_CDI_SPECIFIC,
        diagnosis: "podman's --gpus found no nvidia.com or amd.com CDI spec to map the request to.",
        hint: CDI_HINT,
    },
    ErrorPattern {
        all_of: &["cdi.k8s.io"],
        priority: PRIORITY_CDI,
        diagnosis: CDI_DIAGNOSIS,
        hint: CDI_HINT,
    },
    ErrorPattern {
        all_of: &["CDI"],
        priority: PRIORITY_CDI,
        diagnosis: CDI_DIAGNOSIS,
        hint: CDI_HINT,
    },
];

const KIND_PATTERN: ErrorPattern = ErrorPattern {
    all_of: &[],
    priority: PRIORITY_CDI,
    diagnosis: CDI_DIAGNOSIS,
    hint: CDI_HINT,
};

/// What `explain` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
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
        out.push_str(&format!("Diagnosis: {}\n", self.diagnosis));
        for d in &self.details {
            out.push_str(&format!("  - {d}\n"));
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
    let vendor_patterns = registry
        .backends()
        .iter()
        .flat_map(|b| b.error_patterns().iter());
    let mut best: Option<&ErrorPattern> = None;
    for p in CORE_PATTERNS.iter().chain(vendor_patterns) {
        let hit = p.all_of.iter().all(|s| stderr.contains(s));
        if hit && best.is_none_or(|b| p.priority < b.priority) {
            best = Some(p);
        }
    }
    // A registered vendor's CDI kind (nvidia.com/gpu) counts as a mention of CDI.
    if best.is_none()
        && registry
            .backends()
            .iter()
            .any(|b| stderr.contains(b.cdi_kind()))
    {
        best = Some(&KIND_PATTERN);
    }
    let pre_cdi = pre_cdi_podman(stderr);
    let (diagnosis, hint) = match (best, pre_cdi) {
        (Some(p), Some(name)) if p.priority >= PRIORITY_CDI_SPECIFIC => {
            (pre_cdi_diagnosis(&name), CDI_HINT)
        }
        (Some(p), _) => (p.diagnosis.to_string(), p.hint),
        (None, Some(name)) => (pre_cdi_diagnosis(&name), CDI_HINT),
        (None, None) => return None,
    };
    let details = probe.map(|p| cdi_details(stderr, p)).unwrap_or_default();
    Some(Explanation {
        stderr: py_strip(stderr).to_string(),
        diagnosis,
        details,
        hint: hint.to_string(),
    })
}

/// podman older than CDI support (or with a CDI library that rejects the name) treats a CDI
/// name as a host path: `Error: stat nvidia.com/gpu=0: no such file or directory`.
fn pre_cdi_podman(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|line| {
        let rest = &line[line.find("stat ")? + 5..];
        let name = &rest[..rest.find(": ")?];
        name.contains('=').then(|| name.to_string())
    })
}

fn pre_cdi_diagnosis(name: &str) -> String {
    let why = if is_qualified_name(name) {
        "this podman's CDI library does not take it as a CDI device name (podman before 4.1 has no CDI; podman 4.1-4.2 needs names that start with a letter, e.g. nvidia-ctk's type-index names 'gpu0')"
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
