//! `gpuctl cdi check FILE...|DIR...`: each spec file's verdict, the CDI library's (valid, or its
//! reason), with the named podman's version ceiling on top. A directory is read as podman reads
//! a spec directory: its top level, `.json` and `.yaml` only, and two of its specs declaring one
//! device is a conflict that makes both unusable. Paths are this machine's, as given (not under
//! `--root`): a spec is checked before it is installed.

use std::path::{Path, PathBuf};

use gpuctl_cdi::check::{Verdict, check_file};
use gpuctl_cdi::podman::PodmanCeiling;
use gpuctl_cdi::version::{min_podman, parse_version};
use gpuctl_cdi::{CdiRegistry, Fs, SpecReport, Warning};
use serde::Serialize;
use thiserror::Error;

use super::{json, line};
use crate::finding::Finding;
use crate::output::ReportFormat;

/// One file's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckedFile {
    /// The path, as given or as found in a directory given.
    pub path: String,
    /// `valid`, `invalid` (the library refuses it), `unloadable` (the named podman cannot load
    /// it), `crashes-library` or `alias-expansion`.
    pub verdict: &'static str,
    /// `kind`, when valid.
    pub kind: Option<String>,
    /// `cdiVersion`, when valid.
    pub cdi_version: Option<String>,
    /// The oldest podman that loads it (from its `cdiVersion`), when valid.
    pub min_podman: Option<&'static str>,
    /// The device names it declares, in file order, when valid.
    pub devices: Vec<String>,
    /// Why it is not loaded, when not valid.
    pub reason: Option<String>,
}

/// What `gpuctl cdi check` prints.
#[derive(Debug, Clone, Serialize)]
pub struct CdiCheckReport {
    /// The podman version the files were judged for, when one was named.
    pub podman: Option<String>,
    /// Every file, in the order given (a directory's in byte order of their names).
    pub files: Vec<CheckedFile>,
    /// What a directory holds besides its specs (`.yml` files, FIFOs) and devices two of its
    /// specs declare, as findings.
    pub notes: Vec<Finding>,
    /// Files that are not valid plus conflicting devices: the command exits 1 when non-zero.
    pub problems: usize,
}

/// A path given to `gpuctl cdi check` that cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckInputError {
    /// It does not exist or cannot be looked at.
    #[error("cannot read {path}: {reason}; pass CDI spec files or directories that hold them")]
    Unreadable {
        /// The path as given.
        path: String,
        /// The system's words.
        reason: String,
    },
    /// It is a FIFO, a socket or a device node, which the CDI library would try to read.
    #[error(
        "{path} is not a regular file or a directory; pass CDI spec files or directories that hold them"
    )]
    NotAFile {
        /// The path as given.
        path: String,
    },
    /// A directory that cannot be listed.
    #[error("cannot list the directory {path}: {reason}; check its permissions")]
    DirUnreadable {
        /// The path as given.
        path: String,
        /// The system's words.
        reason: String,
    },
}

impl CdiCheckReport {
    /// Checks each of `paths` for `podman` (any current podman when `None`).
    pub fn build(
        paths: &[PathBuf],
        podman: Option<&PodmanCeiling>,
    ) -> Result<CdiCheckReport, CheckInputError> {
        let mut report = CdiCheckReport {
            podman: podman.map(|p| p.podman.clone()),
            files: Vec::new(),
            notes: Vec::new(),
            problems: 0,
        };
        for path in paths {
            report.add(path, podman)?;
        }
        report.problems = report.files.iter().filter(|f| f.verdict != "valid").count()
            + report
                .notes
                .iter()
                .filter(|n| matches!(n, Finding::CdiDeviceConflict { .. }))
                .count();
        Ok(report)
    }

    fn add(&mut self, path: &Path, podman: Option<&PodmanCeiling>) -> Result<(), CheckInputError> {
        let shown = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| CheckInputError::Unreadable {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        if meta.is_file() {
            self.files.push(checked(&check_file(&Fs, path, podman)));
            return Ok(());
        }
        if !meta.is_dir() {
            return Err(CheckInputError::NotAFile { path: shown });
        }
        let reg = CdiRegistry::scan_for(&Fs, &[path.to_path_buf()], podman);
        for w in reg.directory_warnings() {
            if let Warning::DirUnreadable { error } = w {
                return Err(CheckInputError::DirUnreadable {
                    path: shown,
                    reason: error.problem.to_string(),
                });
            }
            self.notes.push(Finding::from(w.clone()));
        }
        self.files.extend(reg.specs().iter().map(checked));
        Ok(())
    }

    /// The report as `gpuctl cdi check --format <format>` prints it, ending in a newline.
    pub fn render(&self, format: ReportFormat) -> Result<String, serde_json::Error> {
        match format {
            ReportFormat::Text => Ok(self.text()),
            ReportFormat::Json => json(self),
        }
    }

    /// For people: one line per file, the notes, then the counts.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for f in &self.files {
            let text = match (&f.kind, &f.reason) {
                (Some(kind), None) => format!(
                    "{}: valid: {kind}, cdiVersion {} (podman {} or later), devices {}",
                    f.path,
                    f.cdi_version.as_deref().unwrap_or(""),
                    f.min_podman.unwrap_or("?"),
                    f.devices.join(", ")
                ),
                (_, reason) => format!(
                    "{}: {}: {}",
                    f.path,
                    f.verdict,
                    reason.as_deref().unwrap_or("")
                ),
            };
            line(&mut s, &text);
        }
        for n in &self.notes {
            line(&mut s, &format!("note: {n}"));
        }
        let valid = self.files.iter().filter(|f| f.verdict == "valid").count();
        let podman = match &self.podman {
            Some(p) => format!(" for podman {p}"),
            None => String::new(),
        };
        line(
            &mut s,
            &format!(
                "{} file(s){podman}: {valid} valid, {} not",
                self.files.len(),
                self.files.len() - valid
            ),
        );
        s
    }
}

fn checked(spec: &SpecReport) -> CheckedFile {
    let verdict = match spec.verdict() {
        Verdict::Valid => "valid",
        Verdict::Invalid => "invalid",
        Verdict::Unloadable => "unloadable",
        Verdict::Crashes => "crashes-library",
        Verdict::AliasExpansion => "alias-expansion",
    };
    CheckedFile {
        path: spec.path.clone(),
        verdict,
        kind: spec.kind.clone(),
        cdi_version: spec.cdi_version.clone(),
        min_podman: spec
            .cdi_version
            .as_deref()
            .and_then(parse_version)
            .map(min_podman),
        devices: spec.devices.clone(),
        reason: spec.error.clone(),
    }
}
