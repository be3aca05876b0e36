//! One spec file judged on its own, as `gpuctl cdi check` does: the library's verdict, then the
//! named podman's on top; and the oldest `cdiVersion` a spec's content needs, for writers.

use std::path::Path;

use crate::podman::PodmanCeiling;
use crate::read::read_spec;
use crate::spec::{SpecError, SpecFormat, with_full_decode};
use crate::version::{Version, minimum_version};
use crate::{PodmanDoes, SpecReport, SpecSource};

/// What podman does with one spec file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The library loads it.
    Valid,
    /// The library refuses it; podman skips it.
    Invalid,
    /// The library loads it, but the podman named by `--podman-version` cannot (too new a
    /// `cdiVersion`, a digit-leading name before podman 4.3).
    Unloadable,
    /// The library crashes on it instead of refusing it.
    Crashes,
    /// Its YAML aliases expand past gpuctl's bound; the library might load it.
    AliasExpansion,
}

impl SpecReport {
    /// The verdict on this file.
    pub fn verdict(&self) -> Verdict {
        if self.error.is_none() {
            return Verdict::Valid;
        }
        match self.podman {
            PodmanDoes::Crashes => Verdict::Crashes,
            PodmanDoes::MayLoad => Verdict::AliasExpansion,
            PodmanDoes::Skips if self.podman_rejects => Verdict::Unloadable,
            PodmanDoes::Skips => Verdict::Invalid,
        }
    }
}

/// Reads and judges the spec at `path`, whatever its name: the library parses `.json` and
/// `.yaml` alike (`ParseSpec`), so the format only matters to which files a directory scan
/// reads. Unreadable files are judged invalid with the system's words; callers that must tell
/// an unreadable argument from an invalid spec look at the file first.
pub fn check_file(
    source: &dyn SpecSource,
    path: &Path,
    podman: Option<&PodmanCeiling>,
) -> SpecReport {
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => SpecFormat::Json,
        _ => SpecFormat::Yaml,
    };
    read_spec(source, path, format, 0, podman)
}

/// The oldest `cdiVersion` whose fields cover everything the spec in `bytes` uses, as the
/// library's `MinimumRequiredVersion` computes it (`specs-go/version.go`); the spec is read
/// with the full reader, so what it cannot decode is an error in the library's words.
pub fn required_version(bytes: &[u8]) -> Result<Version, SpecError> {
    with_full_decode(bytes, minimum_version)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::env_only("{kind: vendor.com/gpu, devices: [{name: a, containerEdits: {env: [A=1]}}]}", (0, 3, 0))]
    #[case::digit_name("{kind: vendor.com/gpu, devices: [{name: \"0\", containerEdits: {env: [A=1]}}]}", (0, 5, 0))]
    #[case::mount_type("{kind: vendor.com/gpu, devices: [{name: a, containerEdits: {mounts: [{hostPath: /a, containerPath: /a, type: none}]}}]}", (0, 4, 0))]
    #[case::host_path("{kind: vendor.com/gpu, devices: [{name: a, containerEdits: {deviceNodes: [{path: /dev/a, hostPath: /dev/a}]}}]}", (0, 5, 0))]
    #[case::dotted_class("{kind: vendor.com/gpu.x, devices: [{name: a, containerEdits: {env: [A=1]}}]}", (0, 6, 0))]
    fn the_oldest_version_the_content_needs(#[case] spec: &str, #[case] want: Version) {
        assert_eq!(required_version(spec.as_bytes()), Ok(want));
    }
}
