//! One CDI spec file: parsed straight into typed structs (no document tree) and validated the
//! way the CDI library validates it on load, so a spec gpuctl accepts is one podman can load
//! (given a podman new enough for its `cdiVersion`) and a spec gpuctl rejects is one podman
//! drops silently.
//!
//! Like the library's strict unmarshal, unknown fields are errors: a field unknown to CDI 1.1.0
//! could only be used by a spec whose `cdiVersion` gpuctl (and podman) would reject anyway.

use std::collections::HashSet;

use thiserror::Error;

use super::grammar::{check_device_name, parse_kind};
use super::schema::RawSpec;
use super::version::{minimum_version, parse_version};

/// The two formats a spec file can have, chosen by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecFormat {
    /// `.json`
    Json,
    /// `.yaml`
    Yaml,
}

/// Why a spec is not valid, in the CDI library's words where it has them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// What gpuctl needs from a valid spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedSpec {
    /// `cdiVersion` as written.
    pub cdi_version: String,
    /// `kind`, e.g. `nvidia.com/gpu`.
    pub kind: String,
    /// The device names, in file order.
    pub device_names: Vec<String>,
    /// Host device nodes the spec injects (`hostPath`, or `path` when absent), for staleness
    /// checks.
    pub host_nodes: Vec<String>,
}

/// Parses and validates one spec. JSON goes through `serde_json`, YAML through `yaml_serde`;
/// both deserialize straight into the typed model.
pub fn parse_spec(bytes: &[u8], format: SpecFormat) -> Result<ParsedSpec, SpecError> {
    if format == SpecFormat::Yaml && flow_depth(bytes) > MAX_FLOW_DEPTH {
        return Err(SpecError(format!(
            "failed to parse CDI Spec: brackets nest deeper than {MAX_FLOW_DEPTH} levels"
        )));
    }
    let raw: RawSpec = match format {
        SpecFormat::Json => serde_json::from_slice(bytes).map_err(|e| parse_error(&e.to_string())),
        SpecFormat::Yaml => yaml_serde::from_slice(bytes).map_err(|e| parse_error(&e.to_string())),
    }?;
    validate(&raw)
}

/// A CDI spec nests a few levels; the YAML parser's time grows with the square of the depth
/// (100,000 nested brackets take 40 s), so deeper text is refused before parsing.
const MAX_FLOW_DEPTH: usize = 64;

/// The deepest nesting of brackets, counted on the raw text: quotes and comments are not
/// skipped, so nothing written can hide brackets from the count (a real spec never holds 64
/// unclosed brackets inside a string).
fn flow_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for &b in bytes {
        match b {
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Serde lists every expected field after an unknown one; the field name is what matters.
fn parse_error(message: &str) -> SpecError {
    let mut text = message.to_string();
    if let Some(start) = text.find(", expected one of") {
        let end = text[start..]
            .find(" at line")
            .map_or(text.len(), |i| start + i);
        text.replace_range(start..end, "");
    }
    SpecError(format!("failed to parse CDI Spec: {text}"))
}

fn validate(raw: &RawSpec) -> Result<ParsedSpec, SpecError> {
    let declared = parse_version(&raw.cdi_version)
        .ok_or_else(|| SpecError(format!("invalid version \"{}\"", raw.cdi_version)))?;
    let minimum = minimum_version(raw);
    if declared < minimum {
        return Err(SpecError(format!(
            "the spec version must be at least v{}.{}.{}",
            minimum.0, minimum.1, minimum.2
        )));
    }
    parse_kind(&raw.kind).map_err(|e| SpecError(e.to_string()))?;
    if let Some(annotations) = &raw.annotations {
        super::edits::check_annotations(annotations).map_err(SpecError)?;
    }
    let mut host_nodes = Vec::new();
    if let Some(edits) = &raw.container_edits {
        super::edits::check_edits(edits, &mut host_nodes).map_err(SpecError)?;
    }
    let devices = raw.devices.as_deref().unwrap_or_default();
    let mut names: Vec<String> = Vec::with_capacity(devices.len());
    let mut seen: HashSet<&str> = HashSet::with_capacity(devices.len());
    for device in devices {
        let fail = |e: String| {
            SpecError(format!(
                "failed to add device \"{}\": invalid device \"{}\": {e}",
                device.name, device.name
            ))
        };
        check_device_name(&device.name).map_err(|e| fail(e.to_string()))?;
        if let Some(annotations) = &device.annotations {
            super::edits::check_annotations(annotations).map_err(fail)?;
        }
        match &device.container_edits {
            Some(edits) if !edits.is_empty() => {
                super::edits::check_edits(edits, &mut host_nodes).map_err(fail)?;
            }
            _ => return Err(fail("invalid device, empty device edits".to_string())),
        }
        if !seen.insert(device.name.as_str()) {
            return Err(SpecError(format!(
                "invalid spec, multiple device \"{}\"",
                device.name
            )));
        }
        names.push(device.name.clone());
    }
    if names.is_empty() {
        return Err(SpecError("invalid spec, no devices".to_string()));
    }
    Ok(ParsedSpec {
        cdi_version: raw.cdi_version.clone(),
        kind: raw.kind.clone(),
        device_names: names,
        host_nodes,
    })
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
