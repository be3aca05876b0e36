//! Writing a file the way a watcher must see it: whole or not at all (docs/fleet.md#output).
//! The text goes to a dot-file in the target's directory (NFD ignores dot-files, and the
//! rename stays on one filesystem), created exclusively and never through a link, synced, then
//! renamed over the target. A target that is a link is replaced, not followed; a failed write
//! leaves the old file as it was. rename(2) replaces any entry that is not a directory, so a
//! target that is a device node, a FIFO or a socket (`--output /dev/null` as root) is refused
//! before anything is written.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// How many names a writer tries for its temporary file before it gives up.
const TEMP_TRIES: u32 = 16;

/// Why the file was not written; the old one, if any, is untouched.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The path has no file name (`/`, `dir/..`).
    #[error("{path}: names no file")]
    NoFileName {
        /// The path given.
        path: PathBuf,
    },
    /// The temporary file could not be created, written or synced.
    #[error("{path}: cannot write the temporary file {temp}: {reason}")]
    Temp {
        /// The target.
        path: PathBuf,
        /// The temporary file.
        temp: PathBuf,
        /// The operating system's words.
        reason: String,
    },
    /// The target is there and is neither a regular file nor a link: the rename would replace
    /// a device node, a FIFO or a socket with a regular file.
    #[error(
        "{path}: it is {kind}, not a regular file, and is left as it was: a report is written as a file of its own; name a file path (such as /etc/kubernetes/node-feature-discovery/features.d/gpuctl), or leave out --output to print it"
    )]
    NotAFile {
        /// The target.
        path: PathBuf,
        /// What it is, in words (`a character device`, `a link to a FIFO`).
        kind: String,
    },
    /// The rename over the target failed (a directory there, another filesystem).
    #[error("{path}: cannot replace it: {reason}")]
    Rename {
        /// The target.
        path: PathBuf,
        /// The operating system's words.
        reason: String,
    },
}

/// Writes `text` to `path` atomically, mode 0644 (NFD and Ansible read it as other users).
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<(), OutputError> {
    let Some(name) = path.file_name() else {
        return Err(OutputError::NoFileName { path: path.into() });
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    refuse_special(path)?;
    let (temp, mut file) = create_temp(path, &dir, &name.to_string_lossy())?;
    let written = file
        .write_all(text)
        .and_then(|()| file.set_permissions(std::fs::Permissions::from_mode(0o644)))
        .and_then(|()| file.sync_all());
    drop(file);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(OutputError::Temp {
            path: path.into(),
            temp,
            reason: e.to_string(),
        });
    }
    // rename(2) replaces the directory entry: a link at `path` is replaced, never followed.
    if let Err(e) = std::fs::rename(&temp, path) {
        let _ = std::fs::remove_file(&temp);
        return Err(OutputError::Rename {
            path: path.into(),
            reason: e.to_string(),
        });
    }
    // The rename is durable once the directory is; a directory that cannot be opened or synced
    // (some filesystems) does not undo a write that happened.
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Refuses a target that the rename would replace though it is no file: `lstat`, so a link is
/// judged as a link (replaced by design, never written through). A link that leads to a device,
/// a FIFO or a socket is refused too: `--output /dev/stdout` would otherwise replace the
/// system's `/dev/stdout` link with a file. A directory is left to the rename, which refuses
/// it with the system's words.
fn refuse_special(path: &Path) -> Result<(), OutputError> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        // Absent (the usual first write), or not reachable: create_temp says what fails.
        return Ok(());
    };
    let (meta, through) = if meta.file_type().is_symlink() {
        match std::fs::metadata(path) {
            Ok(target) => (target, "a link to "),
            // A link to nothing (or a loop) is replaced like any link.
            Err(_) => return Ok(()),
        }
    } else {
        (meta, "")
    };
    if meta.is_file() || meta.is_dir() {
        return Ok(());
    }
    Err(OutputError::NotAFile {
        path: path.into(),
        kind: format!("{through}{}", gpuctl_core::plugin::evidence::kind_of(&meta)),
    })
}

/// Creates `.NAME.gpuctl-PID-N.tmp` in `dir` with O_CREAT|O_EXCL|O_NOFOLLOW: an existing file
/// or link of that name (planted or left over) makes the next name be tried, never opened.
fn create_temp(path: &Path, dir: &Path, name: &str) -> Result<(PathBuf, File), OutputError> {
    let pid = std::process::id();
    let mut last = String::new();
    for n in 0..TEMP_TRIES {
        let temp = dir.join(format!(".{name}.gpuctl-{pid}-{n}.tmp"));
        let opened = OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .mode(0o600)
            .open(&temp);
        match opened {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => last = e.to_string(),
            Err(e) => {
                return Err(OutputError::Temp {
                    path: path.into(),
                    temp,
                    reason: e.to_string(),
                });
            }
        }
    }
    Err(OutputError::Temp {
        path: path.into(),
        temp: dir.join(format!(".{name}.gpuctl-{pid}-*.tmp")),
        reason: format!("{TEMP_TRIES} names taken ({last})"),
    })
}
