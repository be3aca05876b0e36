//! One CDI spec file, read and validated as the CDI library's `ReadSpec` does (`pkg/cdi/spec.go`,
//! v1.1.0): `ParseSpec` (yaml.v2, then `encoding/json` into `specs-go`'s types, unknown fields
//! refused), then `Spec.validate` with its container edits' own checks. A spec gpuctl accepts is one podman can load (given a podman
//! new enough for its `cdiVersion`); one it refuses is one podman drops silently, or one past
//! gpuctl's bounds on YAML.

use std::collections::HashSet;

use thiserror::Error;

use super::decode::De;
use super::edits::Edits;
use super::fast;
use super::grammar::{check_device_name, parse_kind};
use super::model::{RawSpec, decode_spec};
use super::validate_edits::{HostPaths, Rules, Unique, check_edits, is_empty, nil_entry};
use super::version::{minimum_version, parse_version};
use crate::goyaml::{self, YamlError};

/// The two formats a spec file can have, chosen by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecFormat {
    /// `.json`
    Json,
    /// `.yaml`
    Yaml,
}

/// Why a spec is not loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The library refuses it, in the library's words where it has them.
    #[error("{0}")]
    Invalid(String),
    /// Aliases expand it past gpuctl's bound; the library might still load it, building
    /// gigabytes of JSON on the way.
    #[error("{0}")]
    Expansion(String),
    /// The library crashes on it instead of refusing it.
    #[error("{0}")]
    Crash(String),
}

impl SpecError {
    /// The reason, as one clause.
    pub fn reason(&self) -> &str {
        match self {
            SpecError::Invalid(s) | SpecError::Expansion(s) | SpecError::Crash(s) => s,
        }
    }
}

/// What gpuctl needs from a valid spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedSpec {
    /// `cdiVersion` as written.
    pub cdi_version: String,
    /// `kind`, e.g. `nvidia.com/gpu`.
    pub kind: String,
    /// The device names, in file order.
    pub device_names: Vec<String>,
    /// Host device nodes the spec injects (`hostPath`, or `path` when absent), each once, in
    /// file order, for staleness checks.
    pub host_nodes: Vec<String>,
    /// The host paths its mounts bind (`hostPath`), each once, in file order, for staleness
    /// checks.
    pub host_mounts: Vec<String>,
    /// The programs its hooks run (`path`), each once, in file order, for staleness checks.
    pub hook_paths: Vec<String>,
    /// Whether it names the root Intel RDT CLOS (`closID: "/"`), valid only since library
    /// v1.1.0.
    pub root_clos: bool,
    /// The spec's own container edits (environment and device nodes), which every device of
    /// the spec brings.
    pub edits: Edits,
    /// Each device's own edits, in the order of `device_names`.
    pub device_edits: Vec<Edits>,
}

/// Parses and validates one spec as the current CDI library (v1.1.0) does.
pub fn parse_spec(bytes: &[u8], format: SpecFormat) -> Result<ParsedSpec, SpecError> {
    parse_spec_with(bytes, format, Rules { root_clos: true })
}

/// Parses and validates one spec under one library release's rules. JSON and YAML take the same
/// path, as in the library's `ParseSpec` (`sigs.k8s.io/yaml.UnmarshalStrict`): the format only
/// names the file. The shapes generators write are decoded by the fast path (`fast.rs`); it
/// declines everything else, and any spec it cannot vouch for is read again in full, so every
/// refusal is worded by the full reader.
pub(super) fn parse_spec_with(
    bytes: &[u8],
    _format: SpecFormat,
    rules: Rules,
) -> Result<ParsedSpec, SpecError> {
    // Every spec a unit test reads (the library's verdict cases among them) holds the fast path
    // to the full reader.
    #[cfg(test)]
    {
        let agrees = fast_path_agrees(bytes);
        assert!(agrees.is_ok(), "{agrees:?}");
    }
    if let Some(Ok(spec)) = fast::decode(bytes).map(|raw| validate(&raw, rules)) {
        return Ok(spec);
    }
    with_full_decode(bytes, |raw| validate(raw, rules))?.map_err(|e| match e {
        Invalid::Crash(field) => SpecError::Crash(format!(
            "a null entry in {field}, on which podman's CDI library crashes instead of refusing the spec"
        )),
        Invalid::Reason(r) => SpecError::Invalid(r),
    })
}

/// The full reader: yaml.v2's reading into a tree, its alias rule, then `encoding/json`'s
/// decoding of the tree into `specs-go`'s types; `then` sees the decoded spec.
pub(crate) fn with_full_decode<T>(
    bytes: &[u8],
    then: impl FnOnce(&RawSpec<'_>) -> T,
) -> Result<T, SpecError> {
    // Too deep a nesting and excessive aliasing are refused by the library too (a value of the
    // wrong type; yaml.v2's alias rule); only a large expansion is gpuctl's own bound.
    let yaml = |e: YamlError| match e {
        YamlError::AliasesTooLarge { .. } => SpecError::Expansion(e.to_string()),
        e => SpecError::Invalid(format!("failed to parse CDI Spec: {e}")),
    };
    let text = goyaml::decode_text(bytes).map_err(yaml)?;
    let doc = goyaml::load(&text).map_err(yaml)?;
    goyaml::walk::check(&doc, ALIAS_BYTES_LIMIT).map_err(yaml)?;
    let raw = decode_spec(&De::new(&doc))
        .map_err(|e| SpecError::Invalid(format!("failed to parse CDI Spec: {e}")))?
        .ok_or_else(|| SpecError::Invalid("failed to parse CDI Spec, no Spec data".to_string()))?;
    Ok(then(&raw))
}

/// The differential check of the fast path against the full reader, for the tests and the
/// `cdi_fast` fuzz target: `Ok(false)` when the fast path declines `bytes`, `Ok(true)` when both
/// decode them to the same spec, and `Err` saying how they differ otherwise.
#[doc(hidden)]
pub fn fast_path_agrees(bytes: &[u8]) -> Result<bool, String> {
    let Some(fast) = fast::decode(bytes) else {
        return Ok(false);
    };
    match with_full_decode(bytes, |full| {
        (*full != fast).then(|| format!("fast path read {fast:?}, full reader {full:?}"))
    }) {
        Ok(None) => Ok(true),
        Ok(Some(diff)) => Err(diff),
        Err(e) => Err(format!(
            "fast path read {fast:?}, the full reader refused: {e}"
        )),
    }
}

/// Aliases may add at most this many bytes: a spec may not expand past the size a spec file may
/// have. yaml.v2 bounds only the share of aliased decode operations, so a few aliases of a large
/// string would make the library build gigabytes of JSON.
const ALIAS_BYTES_LIMIT: u64 = super::SPEC_SIZE_LIMIT;

enum Invalid {
    Reason(String),
    Crash(&'static str),
}

impl From<String> for Invalid {
    fn from(s: String) -> Self {
        Invalid::Reason(s)
    }
}

/// `Spec.validate` and `Device.validate` (`pkg/cdi/spec.go`, `pkg/cdi/device.go`, v1.1.0).
fn validate(raw: &RawSpec<'_>, rules: Rules) -> Result<ParsedSpec, Invalid> {
    // The library prefixes "invalid CDI Spec: "; gpuctl's sentence says that already.
    let invalid = Invalid::Reason;
    if parse_version(&raw.cdi_version).is_none() {
        return Err(invalid(format!("invalid version {:?}", raw.cdi_version)));
    }
    let devices = raw.devices.as_deref().unwrap_or_default();
    let all_edits =
        std::iter::once(&raw.container_edits).chain(devices.iter().map(|d| &d.container_edits));
    if let Some(field) = all_edits.clone().find_map(nil_entry) {
        return Err(Invalid::Crash(field));
    }
    let minimum = minimum_version(raw);
    if parse_version(&raw.cdi_version).is_some_and(|v| v < minimum) {
        return Err(invalid(format!(
            "the spec version must be at least v{}.{}.{}",
            minimum.0, minimum.1, minimum.2
        )));
    }
    parse_kind(&raw.kind).map_err(|e| invalid(e.to_string()))?;
    // Room for every node and mount entry: most are distinct (the nodes shared by `all` and
    // the spec's own edits aside), and one allocation beats growing the sets.
    let entries =
        |f: fn(&super::model::RawEdits<'_>) -> usize| all_edits.clone().map(f).sum::<usize>();
    let mut paths = HostPaths {
        nodes: Unique::with_capacity(entries(|e| e.device_nodes.as_ref().map_or(0, Vec::len))),
        mounts: Unique::with_capacity(entries(|e| e.mounts.as_ref().map_or(0, Vec::len))),
        hooks: Unique::default(),
    };
    check_edits(&raw.container_edits, rules, &mut paths).map_err(invalid)?;
    let mut names: Vec<String> = Vec::with_capacity(devices.len());
    let mut seen: HashSet<&str> = HashSet::with_capacity(devices.len());
    for device in devices {
        let fail = |e: String| invalid(format!("failed add device {:?}: {e}", device.name));
        check_device_name(&device.name).map_err(|e| fail(e.to_string()))?;
        if is_empty(&device.container_edits) {
            return Err(fail("invalid device, empty device edits".to_string()));
        }
        check_edits(&device.container_edits, rules, &mut paths)
            .map_err(|e| fail(format!("invalid device {:?}: {e}", device.name)))?;
        if !seen.insert(&device.name) {
            return Err(invalid(format!(
                "invalid spec, multiple device {:?}",
                device.name
            )));
        }
        names.push(device.name.to_string());
    }
    if names.is_empty() {
        return Err(invalid("invalid spec, no devices".to_string()));
    }
    Ok(ParsedSpec {
        cdi_version: raw.cdi_version.to_string(),
        kind: raw.kind.to_string(),
        device_names: names,
        host_nodes: paths.nodes.into_vec(),
        host_mounts: paths.mounts.into_vec(),
        hook_paths: paths.hooks.into_vec(),
        root_clos: all_edits
            .clone()
            .any(|e| e.intel_rdt.as_ref().is_some_and(|r| r.clos_id == "/")),
        edits: Edits::from(&raw.container_edits),
        device_edits: devices
            .iter()
            .map(|d| Edits::from(&d.container_edits))
            .collect(),
    })
}

// Container edits.
#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "fast_tests.rs"]
mod fast_tests;

#[cfg(test)]
#[path = "library_verdicts_tests.rs"]
mod library_verdicts;
