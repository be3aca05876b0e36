//! What a check finds at a host path, told apart so that a check never reads "cannot look" as
//! "fine": a device node is a character or block device (a fixture tree's plain file stands for
//! one), never a directory, a FIFO or a link to nothing; a path that cannot be looked at is
//! "cannot tell", never present and never missing.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use crate::host::{Host, HostError};
use gpuctl_cdi::ReadProblem;

/// What is at a host path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Found {
    /// What the check wants is there.
    Present,
    /// Nothing is there.
    Missing,
    /// Something is there, but not what the check wants (`a directory`, `a FIFO`, `a symbolic
    /// link whose target does not exist`).
    Wrong(String),
    /// The path cannot be looked at: the check cannot tell.
    Unknown(HostError),
}

impl Found {
    /// True when a container would fail on it: missing, or the wrong kind of file.
    pub fn is_broken(&self) -> bool {
        matches!(self, Found::Missing | Found::Wrong(_))
    }

    /// The words after the path in a fact: `is missing`, `is a directory, not a device node`.
    pub fn describe(&self, want: &str) -> String {
        match self {
            Found::Present => format!("is {want}"),
            Found::Missing => "is missing".to_string(),
            Found::Wrong(what) => format!("is {what}, not {want}"),
            Found::Unknown(e) => format!("cannot be checked: it {}", e.problem),
        }
    }
}

/// A device node at `path`: a character or block device, or a regular file (fixture trees hold
/// nodes as plain files). Links are followed inside the root; one to nothing is
/// [`Found::Wrong`], since podman would fail to stat it.
pub fn device_node(host: &Host, path: &Path) -> Found {
    match host.metadata(path) {
        Ok(None) => Found::Missing,
        Ok(Some(m)) => {
            let t = m.file_type();
            if t.is_char_device() || t.is_block_device() || t.is_file() {
                Found::Present
            } else {
                Found::Wrong(kind_of(&m).to_string())
            }
        }
        Err(e) => broken_link(e),
    }
}

/// Anything at `path` (a mounted file or directory). Links are followed inside the root.
pub fn any_file(host: &Host, path: &Path) -> Found {
    match host.metadata(path) {
        Ok(None) => Found::Missing,
        Ok(Some(_)) => Found::Present,
        Err(e) => broken_link(e),
    }
}

/// A program at `path`: a regular file (a hook podman's runtime executes).
pub fn program(host: &Host, path: &Path) -> Found {
    match host.metadata(path) {
        Ok(None) => Found::Missing,
        Ok(Some(m)) if m.is_file() => Found::Present,
        Ok(Some(m)) => Found::Wrong(kind_of(&m).to_string()),
        Err(e) => broken_link(e),
    }
}

/// A link to nothing or a loop is a broken path podman would fail on too; any other error
/// (permission, I/O) leaves the check unable to tell.
fn broken_link(e: HostError) -> Found {
    match e.problem {
        ReadProblem::DanglingLink => Found::Wrong("a symbolic link to nothing".to_string()),
        ReadProblem::Loop => Found::Wrong("a loop of symbolic links".to_string()),
        _ => Found::Unknown(e),
    }
}

/// What a file that is not what a check wanted is, in a few words.
pub fn kind_of(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}
