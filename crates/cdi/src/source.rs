//! Where spec files are read from. The registry asks a [`SpecSource`] for three things: a
//! directory's entries, a path's metadata (links followed), and a file's bytes under a bound.
//! [`Fs`] reads the machine's own filesystem; a caller that reads a host tree under another root
//! (gpuctl's `--root`) implements the trait over its own path resolution.

use std::ffi::OsString;
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One entry of a directory listing, without following links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The file name.
    pub name: OsString,
    /// True when the entry itself (not a link target) is a directory.
    pub is_dir: bool,
}

impl DirEntry {
    /// The name as UTF-8, when it is.
    pub fn name_str(&self) -> Option<&str> {
        self.name.to_str()
    }
}

/// Why a path could not be looked at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReadProblem {
    /// Nothing exists at the path.
    NotFound,
    /// The path is, or passes through, a symbolic link whose target does not exist.
    DanglingLink,
    /// Symbolic links loop, or chain too far.
    Loop,
    /// A component of the path that must be a directory is not one.
    NotADirectory,
    /// A symbolic link was expected and something else is there.
    NotALink,
    /// The file is longer than the reader is willing to read.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The caller may not read it.
    PermissionDenied,
    /// Any other I/O failure, with the operating system's words.
    Io(String),
}

impl ReadProblem {
    /// A stable name for the problem, for JSON (`permission-denied`).
    pub fn code(&self) -> &'static str {
        match self {
            ReadProblem::NotFound => "not-found",
            ReadProblem::DanglingLink => "dangling-link",
            ReadProblem::Loop => "link-loop",
            ReadProblem::NotADirectory => "not-a-directory",
            ReadProblem::NotALink => "not-a-link",
            ReadProblem::TooLarge { .. } => "too-large",
            ReadProblem::PermissionDenied => "permission-denied",
            ReadProblem::Io(_) => "io-error",
        }
    }
}

impl std::fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadProblem::NotFound => f.write_str("does not exist"),
            ReadProblem::DanglingLink => {
                f.write_str("is a symbolic link whose target does not exist")
            }
            ReadProblem::Loop => f.write_str("is a loop of symbolic links"),
            ReadProblem::NotADirectory => {
                f.write_str("passes through something that is not a directory")
            }
            ReadProblem::NotALink => f.write_str("is not a symbolic link"),
            ReadProblem::TooLarge { limit } => {
                write!(f, "is larger than the {limit}-byte read limit")
            }
            ReadProblem::PermissionDenied => f.write_str("cannot be read (permission denied)"),
            ReadProblem::Io(e) => write!(f, "cannot be read ({e})"),
        }
    }
}

/// A path and what went wrong with it; displays as `<path> <problem>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{} {problem}", path.display())]
pub struct ReadError {
    /// The path as the caller named it.
    pub path: PathBuf,
    /// What went wrong.
    pub problem: ReadProblem,
}

impl ReadError {
    /// True when the path is simply absent (not a loop, a dangling link or a permission
    /// problem): an absent spec directory is no error.
    pub fn is_absent(&self) -> bool {
        matches!(
            self.problem,
            ReadProblem::NotFound | ReadProblem::NotADirectory
        )
    }

    fn from_io(path: &Path, err: &io::Error) -> Self {
        let problem = match err.raw_os_error() {
            Some(2) => ReadProblem::NotFound,       // ENOENT
            Some(20) => ReadProblem::NotADirectory, // ENOTDIR
            Some(40) => ReadProblem::Loop,          // ELOOP
            Some(13) | Some(1) => ReadProblem::PermissionDenied,
            _ => match err.kind() {
                io::ErrorKind::NotFound => ReadProblem::NotFound,
                io::ErrorKind::PermissionDenied => ReadProblem::PermissionDenied,
                _ => ReadProblem::Io(err.to_string()),
            },
        };
        ReadError {
            path: path.to_path_buf(),
            problem,
        }
    }
}

/// What the registry reads spec directories through.
pub trait SpecSource {
    /// The entries of the directory `dir` (a link to it followed), in any order.
    fn list_dir(&self, dir: &Path) -> Result<Vec<DirEntry>, ReadError>;

    /// The metadata of `path`, links followed; `None` when nothing is there.
    fn metadata(&self, path: &Path) -> Result<Option<Metadata>, ReadError>;

    /// At most `limit` bytes of the regular file `path`; a longer file is
    /// [`ReadProblem::TooLarge`].
    fn read_bytes(&self, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError>;
}

/// The machine's own filesystem, paths taken as given.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fs;

impl Fs {
    /// `NotFound` on a path that is a link whose target is missing becomes
    /// [`ReadProblem::DanglingLink`], as podman's error would say.
    fn classify(path: &Path, err: &io::Error) -> ReadError {
        let mut e = ReadError::from_io(path, err);
        if e.problem == ReadProblem::NotFound
            && fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        {
            e.problem = ReadProblem::DanglingLink;
        }
        e
    }
}

impl SpecSource for Fs {
    fn list_dir(&self, dir: &Path) -> Result<Vec<DirEntry>, ReadError> {
        let mut out = Vec::new();
        for item in fs::read_dir(dir).map_err(|e| Fs::classify(dir, &e))? {
            let item = item.map_err(|e| Fs::classify(dir, &e))?;
            let kind = item.file_type().map_err(|e| Fs::classify(dir, &e))?;
            out.push(DirEntry {
                name: item.file_name(),
                is_dir: kind.is_dir(),
            });
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Ok(out)
    }

    fn metadata(&self, path: &Path) -> Result<Option<Metadata>, ReadError> {
        match fs::metadata(path) {
            Ok(m) => Ok(Some(m)),
            Err(e) => {
                let e = Fs::classify(path, &e);
                if e.is_absent() { Ok(None) } else { Err(e) }
            }
        }
    }

    fn read_bytes(&self, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
        let too_large = || ReadError {
            path: path.to_path_buf(),
            problem: ReadProblem::TooLarge { limit },
        };
        // Checked before opening: opening a FIFO would block until a writer comes.
        let meta = fs::metadata(path).map_err(|e| Fs::classify(path, &e))?;
        if !meta.is_file() {
            return Err(ReadError {
                path: path.to_path_buf(),
                problem: ReadProblem::Io("it is not a regular file".into()),
            });
        }
        if meta.len() > limit {
            return Err(too_large());
        }
        let file = File::open(path).map_err(|e| Fs::classify(path, &e))?;
        let mut buf = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut buf)
            .map_err(|e| Fs::classify(path, &e))?;
        if buf.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(buf)
    }
}
