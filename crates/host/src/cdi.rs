//! The CDI reader (`gpuctl_cdi`) over gpuctl's host: [`Host`] as its [`SpecSource`], so specs
//! are read under `--root` with the same link rules as every probe, and its warnings as
//! [`Finding`]s, which word them.

use std::fs::Metadata;
use std::path::Path;

use gpuctl_cdi::{DirEntry, ReadError, SpecSource, Warning};

use crate::finding::Finding;
use crate::{Host, HostError};

impl SpecSource for Host {
    fn list_dir(&self, dir: &Path) -> Result<Vec<DirEntry>, ReadError> {
        let entries = Host::list_dir(self, dir).map_err(read_error)?;
        Ok(entries
            .into_iter()
            .map(|e| DirEntry {
                name: e.name,
                is_dir: e.is_dir,
            })
            .collect())
    }

    fn metadata(&self, path: &Path) -> Result<Option<Metadata>, ReadError> {
        Host::metadata(self, path).map_err(read_error)
    }

    fn read_bytes(&self, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
        Host::read_bytes(self, path, limit).map_err(read_error)
    }
}

// HostError and ReadError carry the same ReadProblem: the host's reasons are the CDI reader's.
fn read_error(e: HostError) -> ReadError {
    ReadError {
        path: e.path,
        problem: e.problem,
    }
}

fn host_error(e: ReadError) -> HostError {
    HostError {
        path: e.path,
        problem: e.problem,
    }
}

impl From<Warning> for Finding {
    fn from(w: Warning) -> Finding {
        match w {
            Warning::SpecInvalid { path, reason } => Finding::CdiSpecInvalid { path, reason },
            Warning::SpecUnloadable { path, reason } => Finding::CdiSpecUnloadable { path, reason },
            Warning::SpecCrashesLibrary { path, reason } => {
                Finding::CdiSpecCrashesLibrary { path, reason }
            }
            Warning::SpecAliasExpansion { path, reason } => {
                Finding::CdiSpecAliasExpansion { path, reason }
            }
            Warning::DirUnreadable { error } => Finding::CdiDirUnreadable {
                error: host_error(error),
            },
            Warning::SpecWrongExtension { path } => Finding::CdiSpecWrongExtension { path },
            Warning::SpecNotRegular { path, kind, fifo } => {
                Finding::CdiSpecNotRegular { path, kind, fifo }
            }
            Warning::SpecUnreadable { error } => Finding::CdiSpecUnreadable {
                error: host_error(error),
            },
            Warning::DirTooManySpecs { dir, limit } => Finding::CdiDirTooManySpecs { dir, limit },
            Warning::DeviceConflict { device, paths } => {
                Finding::CdiDeviceConflict { device, paths }
            }
        }
    }
}
