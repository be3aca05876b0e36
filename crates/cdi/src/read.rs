//! One spec file read into a [`SpecReport`]: its bytes within the size limit, parsed and
//! validated, and what podman does with it when it is not valid.

use std::path::Path;

use crate::edits::Edits;
use crate::podman::PodmanCeiling;
use crate::spec::{self, SpecError, SpecFormat};
use crate::validate_edits::Rules;
use crate::{PodmanDoes, ReadProblem, SPEC_SIZE_LIMIT, SpecReport, SpecSource, version};

/// Reads the spec at `path`; what cannot be read or parsed is the report's error, never a
/// panic.
pub(crate) fn read_spec(
    source: &dyn SpecSource,
    path: &Path,
    format: SpecFormat,
    priority: usize,
    podman: Option<&PodmanCeiling>,
) -> SpecReport {
    let mut report = SpecReport {
        path: path.display().to_string(),
        kind: None,
        cdi_version: None,
        devices: Vec::new(),
        error: None,
        host_nodes: Vec::new(),
        host_mounts: Vec::new(),
        hook_paths: Vec::new(),
        edits: Edits::default(),
        device_edits: Vec::new(),
        podman_rejects: false,
        podman: PodmanDoes::Skips,
        priority,
    };
    let bytes = match source.read_bytes(path, SPEC_SIZE_LIMIT) {
        Ok(b) => b,
        Err(e) => {
            report.error = Some(match e.problem {
                ReadProblem::TooLarge { limit } => format!("the file is larger than {limit} bytes"),
                other => format!("the file {other}"),
            });
            return report;
        }
    };
    let rules = Rules {
        root_clos: podman.is_none_or(PodmanCeiling::root_clos),
    };
    let parsed = spec::parse_spec_with(&bytes, format, rules).and_then(|spec| {
        let version = version::parse_version(&spec.cdi_version).unwrap_or((0, 0, 0));
        match podman.and_then(|p| p.rejects(version, &spec.device_names)) {
            Some(why) => {
                report.podman_rejects = true;
                Err(SpecError::Invalid(why))
            }
            None => Ok(spec),
        }
    });
    match parsed {
        Ok(spec) => {
            tracing::debug!(
                "CDI spec {}: kind {}, {} devices",
                report.path,
                spec.kind,
                spec.device_names.len()
            );
            report.kind = Some(spec.kind);
            report.cdi_version = Some(spec.cdi_version);
            report.devices = spec.device_names;
            report.host_nodes = spec.host_nodes;
            report.host_mounts = spec.host_mounts;
            report.hook_paths = spec.hook_paths;
            report.edits = spec.edits;
            report.device_edits = spec.device_edits;
        }
        Err(e) => {
            report.podman = match e {
                SpecError::Invalid(_) => PodmanDoes::Skips,
                SpecError::Crash(_) => PodmanDoes::Crashes,
                SpecError::Expansion(_) => PodmanDoes::MayLoad,
            };
            report.error = Some(e.reason().to_string());
        }
    }
    report
}
