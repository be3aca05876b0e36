//! The CDI hints in the vendors' words. Core's CDI families carry the reference's hint, which
//! names NVIDIA's, AMD's and Intel's toolkits; here it is built from the registered vendors'
//! own ([`crate::backend::CdiTooling::cdi_tool`],
//! [`crate::backend::CdiTooling::cdi_generator`]), so a plug-in's CDI failure
//! names the plug-in's generator, and a vendor with none is told so instead of being sent to
//! another vendor's. With NVIDIA, AMD and Intel registered the texts are the reference's.

use crate::backend::{GpuBackend, Registry};
use crate::families::{CDI_HINT, Family, STALE_CDI_HINT};
use crate::probe::Probe;

const CDI_HINT_HEAD: &str = "Hint: GPU CDI configuration appears to be missing or broken.\n";
const CDI_HINT_SEE: &str = "See: https://podman-desktop.io/docs/podman/gpu";
const STALE_TAIL: &str = "then run 'gpuctl doctor' to confirm every node and file it names exists.";

/// The family's remedy, with the vendors' words where it is one of core's CDI hints.
pub(super) fn remedy(
    family: &Family,
    text: &str,
    registry: &Registry,
    probe: Option<&Probe>,
) -> String {
    if family.remedy == CDI_HINT {
        cdi(text, registry)
    } else if family.remedy == STALE_CDI_HINT {
        stale(text, registry, probe)
    } else {
        family.remedy.to_string()
    }
}

/// The vendors whose CDI kind the text names.
fn named<'r>(text: &str, registry: &'r Registry) -> Vec<&'r dyn GpuBackend> {
    registry
        .backends()
        .iter()
        .filter(|b| b.cdi_kinds().iter().any(|k| text.contains(k)))
        .map(|b| &**b)
        .collect()
}

/// `Ascend NPUs`: a vendor's devices in a sentence.
fn devices(b: &dyn GpuBackend) -> String {
    format!("{} {}s", b.display_name(), b.device_noun())
}

/// Every vendor's toolkit, as the reference lists them; a vendor the failure names that has
/// none gets a sentence of its own.
fn cdi(text: &str, registry: &Registry) -> String {
    let unknown: Vec<&dyn GpuBackend> = named(text, registry)
        .into_iter()
        .filter(|b| b.cdi_tooling().cdi_tool().is_none())
        .collect();
    let mut out = CDI_HINT_HEAD.to_string();
    for b in &unknown {
        out.push_str(&format!(
            "gpuctl knows no CDI generator for {}: a spec declaring\n{} comes from the vendor's tools or is written by hand;\nwithout a valid one, 'podman run $(gpuctl args {}) ...' passes the raw device nodes instead.\n",
            devices(*b),
            b.cdi_kinds().join(" or "),
            b.vendor()
        ));
    }
    let tools: Vec<&str> = registry
        .backends()
        .iter()
        .filter_map(|b| b.cdi_tooling().cdi_tool())
        .collect();
    if unknown.is_empty() {
        out.push_str(
            "Ensure the vendor's container toolkit is installed and a CDI spec is\ngenerated",
        );
        if !tools.is_empty() {
            out.push_str(&format!(" ({})", tools.join(" / ")));
        }
        out.push_str(".\n");
    }
    out.push_str(CDI_HINT_SEE);
    out
}

/// The host path a failure says is missing: podman's CDI injection, crun's two wordings, runc's
/// mount.
pub(super) fn missing_path(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        for (open, close) in [
            ("CDI host device \"", &['"'][..]),
            ("cannot stat `", &['`'][..]),
            ("error mounting \"", &['"'][..]),
            ("error stat'ing file `", &['`'][..]),
            ("error stat'ing file '", &['\''][..]),
            ("error stat'ing file ", &[':'][..]),
        ] {
            if let Some(at) = line.find(open) {
                let rest = &line[at + open.len()..];
                return rest.find(close).map(|end| &rest[..end]);
            }
        }
        None
    })
}

/// The valid spec on this host that names `path` as a node or mount: the one podman took it
/// from.
pub(super) fn spec_naming<'p>(probe: &'p Probe, path: &str) -> Option<&'p gpuctl_cdi::SpecReport> {
    probe
        .cdi()
        .specs()
        .iter()
        .filter(|s| s.error.is_none())
        .find(|s| s.host_nodes.iter().chain(&s.host_mounts).any(|n| n == path))
}

/// The stale-spec hint: the reference's examples, unless the spec (or node) is a vendor's whose
/// generator they do not name; then that vendor's command for the very file where this host
/// has it, its tool, or a sentence that none is known.
fn stale(text: &str, registry: &Registry, probe: Option<&Probe>) -> String {
    let path = missing_path(text);
    let spec = path.zip(probe).and_then(|(p, probe)| spec_naming(probe, p));
    let of_kind = |kind: &str| {
        registry
            .backends()
            .iter()
            .copied()
            .find(|b| b.cdi_kinds().contains(&kind))
    };
    let by_node = |p: &str| {
        registry.backends().iter().copied().find(|b| {
            b.diagnostics()
                .gpu_words()
                .iter()
                .any(|w| w.starts_with("/dev/") && p.starts_with(w))
        })
    };
    let vendor = spec
        .and_then(|s| s.kind.as_deref())
        .and_then(of_kind)
        .or_else(|| path.and_then(by_node))
        .or_else(|| named(text, registry).first().copied());
    let Some(b) = vendor else {
        return STALE_CDI_HINT.to_string();
    };
    if b.cdi_tooling()
        .cdi_generator()
        .is_some_and(|g| STALE_CDI_HINT.contains(g))
    {
        return STALE_CDI_HINT.to_string();
    }
    let how = match (spec, probe) {
        (Some(s), Some(p)) => b.cdi_tooling().cdi_regenerate(p, &s.path),
        _ => None,
    };
    let file = spec.map_or("the spec", |s| s.path.as_str());
    let head = match spec.zip(path) {
        Some((s, p)) => format!(
            "Hint: the CDI spec {} is stale: it names {p}, which this host lacks.\n",
            s.path
        ),
        None => "Hint: the CDI spec is stale.\n".to_string(),
    };
    let what = match (
        how,
        b.cdi_tooling().cdi_generator(),
        b.cdi_tooling().cdi_tool(),
    ) {
        (Some(how), _, _) => format!("Regenerate it after every driver upgrade: {how};"),
        (None, Some(_), _) => format!(
            "Regenerate it after every driver upgrade: '{}';",
            crate::backend::cdi_generate_command(b, file).unwrap_or_default()
        ),
        (None, None, Some(tool)) => {
            format!("Regenerate it with {tool} after every driver upgrade;")
        }
        (None, None, None) => format!(
            "gpuctl knows no CDI generator for {}: rewrite it after every driver upgrade\nwith the tool that wrote it;",
            devices(b)
        ),
    };
    format!("{head}{what}\n{STALE_TAIL}")
}
