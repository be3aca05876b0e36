//! `gpuctl cdi list`: every fully qualified device name the spec directories declare, as the
//! podman named by `--podman-version` resolves them. The names come in the order
//! `nvidia-ctk cdi list` prints them (the library's `Cache.ListDevices`: sorted as strings,
//! docs/cdi.md#gpuctl-cdi); each with the file that wins it, then the declarations a later
//! directory shadows and the specs skipped, each skipped one with its finding.

use std::path::PathBuf;

use serde::Serialize;

use super::{json, line};
use crate::finding::Finding;
use crate::output::ReportFormat;
use crate::probe::Probe;

/// One resolved device name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedName {
    /// `kind=name`, as `podman run --device` takes it.
    pub name: String,
    /// The spec file that wins it.
    pub spec: String,
    /// That file's `cdiVersion`.
    pub cdi_version: String,
}

/// A declaration that a later directory overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShadowedName {
    /// `kind=name`.
    pub name: String,
    /// The file whose declaration loses.
    pub spec: String,
    /// The file that wins.
    pub shadowed_by: String,
}

/// What `gpuctl cdi list` prints.
#[derive(Debug, Clone, Serialize)]
pub struct CdiListReport {
    /// The spec directories read, lowest priority first.
    pub spec_dirs: Vec<String>,
    /// The podman version the specs were judged for, when one was named.
    pub podman: Option<String>,
    /// Every resolved name, in the library's order.
    pub devices: Vec<ListedName>,
    /// Declarations a later directory overrides, by name.
    pub shadowed: Vec<ShadowedName>,
    /// Specs and entries that declare nothing, and names two specs of one directory declare:
    /// each a finding with its code (`cdi-spec-invalid`, `cdi-spec-unloadable`,
    /// `cdi-device-conflict`, ...).
    pub skipped: Vec<Finding>,
}

impl CdiListReport {
    /// Lists what `probe`'s registry resolves (it was scanned from `dirs` for `podman`).
    pub fn build(probe: &Probe, dirs: &[PathBuf], podman: Option<&str>) -> CdiListReport {
        let reg = probe.cdi();
        CdiListReport {
            spec_dirs: dirs.iter().map(|d| d.display().to_string()).collect(),
            podman: podman.map(str::to_string),
            devices: reg
                .listed_devices()
                .into_iter()
                .map(|d| ListedName {
                    name: d.name,
                    spec: d.path,
                    cdi_version: d.cdi_version,
                })
                .collect(),
            shadowed: reg
                .shadowed_devices()
                .into_iter()
                .map(|s| ShadowedName {
                    name: s.name,
                    spec: s.path,
                    shadowed_by: s.by,
                })
                .collect(),
            skipped: probe.cdi_findings(),
        }
    }

    /// The report as `gpuctl cdi list --format <format>` prints it, ending in a newline.
    pub fn render(&self, format: ReportFormat) -> Result<String, serde_json::Error> {
        match format {
            ReportFormat::Text => Ok(self.text()),
            ReportFormat::Json => json(self),
        }
    }

    /// For people: one resolved name a line with the file that wins it (the names first, as
    /// `nvidia-ctk cdi list` prints them), then what is shadowed and what is skipped.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let width = self.devices.iter().map(|d| d.name.len()).max().unwrap_or(0);
        for d in &self.devices {
            line(&mut s, &format!("{:width$}  {}", d.name, d.spec));
        }
        if self.devices.is_empty() {
            let dirs = self.spec_dirs.join(", ");
            line(&mut s, &format!("no CDI device resolves (read: {dirs})"));
        }
        for sh in &self.shadowed {
            line(
                &mut s,
                &format!(
                    "shadowed: {} in {} (a later directory wins: {})",
                    sh.name, sh.spec, sh.shadowed_by
                ),
            );
        }
        for f in &self.skipped {
            line(&mut s, &format!("skipped: {f}"));
        }
        s
    }
}
