//! The CDI reader (`gpuctl_cdi`) over gpuctl's host: [`Host`] as its [`SpecSource`], so specs
//! are read under `--root` with the same link rules as every probe, and its warnings as
//! [`Finding`]s, which word them.

use std::fs::Metadata;
use std::path::Path;

use gpuctl_cdi::{DirEntry, ReadError, ReadProblem, SpecSource, Warning};

use crate::finding::Finding;
use crate::host::{Host, HostError, Problem};

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

fn read_error(e: HostError) -> ReadError {
    let problem = match e.problem {
        Problem::NotFound => ReadProblem::NotFound,
        Problem::DanglingLink => ReadProblem::DanglingLink,
        Problem::Loop => ReadProblem::Loop,
        Problem::NotADirectory => ReadProblem::NotADirectory,
        Problem::NotALink => ReadProblem::NotALink,
        Problem::TooLarge { limit } => ReadProblem::TooLarge { limit },
        Problem::PermissionDenied => ReadProblem::PermissionDenied,
        Problem::Io(s) => ReadProblem::Io(s),
    };
    ReadError {
        path: e.path,
        problem,
    }
}

fn host_error(e: ReadError) -> HostError {
    let problem = match e.problem {
        ReadProblem::NotFound => Problem::NotFound,
        ReadProblem::DanglingLink => Problem::DanglingLink,
        ReadProblem::Loop => Problem::Loop,
        ReadProblem::NotADirectory => Problem::NotADirectory,
        ReadProblem::NotALink => Problem::NotALink,
        ReadProblem::TooLarge { limit } => Problem::TooLarge { limit },
        ReadProblem::PermissionDenied => Problem::PermissionDenied,
        ReadProblem::Io(s) => Problem::Io(s),
    };
    HostError {
        path: e.path,
        problem,
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
