//! The host gpuctl looks at: a root directory under which every probe reads.
//!
//! Probes name *host* paths (`/sys/class/drm`, `/dev/kfd`); [`Host`] maps them under its root and
//! resolves symbolic links as if the root were `/`, so a link that points outside the root (an
//! absolute target, or `..` past the top) lands back inside it, the way `chroot` or
//! `openat2(RESOLVE_IN_ROOT)` would. Reads are bounded: a probe states how much it is willing to
//! load, and a longer file is an error, not an allocation.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use gpuctl_cdi::ReadProblem;
use thiserror::Error;

/// The longest chain of symbolic links one lookup follows, as Linux's `MAXSYMLINKS`.
const MAX_LINK_HOPS: u32 = 40;

/// A host path and what went wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
#[error("{} {problem}", path.display())]
pub struct HostError {
    /// The path as the host names it (not prefixed with the root).
    pub path: PathBuf,
    /// What went wrong.
    pub problem: ReadProblem,
}

impl HostError {
    fn new(path: &Path, problem: ReadProblem) -> Self {
        HostError {
            path: path.to_path_buf(),
            problem,
        }
    }

    fn from_io(path: &Path, err: &io::Error) -> Self {
        let problem = match err.raw_os_error() {
            Some(2) => ReadProblem::NotFound,       // ENOENT
            Some(20) => ReadProblem::NotADirectory, // ENOTDIR
            Some(40) => ReadProblem::Loop,          // ELOOP
            Some(13) | Some(1) => ReadProblem::PermissionDenied,
            Some(22) => ReadProblem::NotALink, // EINVAL from readlink
            _ => match err.kind() {
                io::ErrorKind::NotFound => ReadProblem::NotFound,
                io::ErrorKind::PermissionDenied => ReadProblem::PermissionDenied,
                _ => ReadProblem::Io(err.to_string()),
            },
        };
        HostError::new(path, problem)
    }

    /// True when the path is simply absent (not a loop, a dangling link or a permission problem).
    pub fn is_absent(&self) -> bool {
        matches!(
            self.problem,
            ReadProblem::NotFound | ReadProblem::NotADirectory
        )
    }
}

/// One entry of a directory listing: its name and what it is, without following links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file name.
    pub name: OsString,
    /// True when the entry itself is a symbolic link.
    pub is_symlink: bool,
    /// True when the entry itself (not a link target) is a directory.
    pub is_dir: bool,
}

impl Entry {
    /// The name as UTF-8, when it is.
    pub fn name_str(&self) -> Option<&str> {
        self.name.to_str()
    }
}

/// A root directory standing for `/` on the host gpuctl reasons about.
#[derive(Debug, Clone)]
pub struct Host {
    root: PathBuf,
    /// The root is the real `/`: the kernel's own lookup already keeps every path inside it.
    direct: bool,
}

impl Host {
    /// The machine gpuctl runs on.
    pub fn system() -> Self {
        Host {
            root: PathBuf::from("/"),
            direct: true,
        }
    }

    /// A host tree rooted at `root` (a captured host, a fixture, a fake tree for tests).
    pub fn at(root: impl AsRef<Path>) -> Result<Self, HostError> {
        let root = root.as_ref();
        let canonical = fs::canonicalize(root).map_err(|e| HostError::from_io(root, &e))?;
        if !canonical.is_dir() {
            return Err(HostError::new(root, ReadProblem::NotADirectory));
        }
        let direct = canonical == Path::new("/");
        Ok(Host {
            root: canonical,
            direct,
        })
    }

    /// The root directory, as given to [`Host::at`] and canonicalized.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `host_path` really is on this machine, following symbolic links inside the root.
    /// With `follow_last` false the last component is not followed (for `readlink`, `lstat`).
    pub fn resolve(&self, host_path: &Path, follow_last: bool) -> Result<PathBuf, HostError> {
        if self.direct {
            return Ok(host_path.to_path_buf());
        }
        // Each pending component remembers whether it came from a link's target: a missing one
        // of those makes the link dangling; a missing one of the caller's path is just absent.
        let mut pending: VecDeque<(OsString, bool)> =
            components(host_path).map(|c| (c, false)).collect();
        // The path so far, under the root, grown and shrunk a component at a time (rebuilding it
        // from the root for each component made every read cost its depth squared), and how
        // many components it holds above the root, so `..` never leaves the root.
        let mut here = self.root.clone();
        let mut depth = 0usize;
        let mut hops = 0u32;
        while let Some((part, from_link)) = pending.pop_front() {
            if part == ".." {
                if depth > 0 {
                    here.pop();
                    depth -= 1;
                }
                continue;
            }
            here.push(&part);
            if pending.is_empty() && !follow_last {
                break;
            }
            match fs::symlink_metadata(&here) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(HostError::new(host_path, ReadProblem::Loop));
                    }
                    let target =
                        fs::read_link(&here).map_err(|e| HostError::from_io(host_path, &e))?;
                    here.pop();
                    if target.is_absolute() {
                        here.clone_from(&self.root);
                        depth = 0;
                    }
                    for c in components(&target).rev() {
                        pending.push_front((c, true));
                    }
                }
                Ok(meta) => {
                    if !pending.is_empty() && !meta.is_dir() {
                        return Err(HostError::new(host_path, ReadProblem::NotADirectory));
                    }
                    depth += 1;
                }
                Err(e) => {
                    let mut err = HostError::from_io(host_path, &e);
                    if from_link && err.problem == ReadProblem::NotFound {
                        err.problem = ReadProblem::DanglingLink;
                    }
                    return Err(err);
                }
            }
        }
        Ok(here)
    }

    /// The host path `host_path` leads to once every symbolic link in it is followed inside
    /// the root (`/dev/nvidia-bmc` → `/dev/dri/renderD130`): what podman would hand a container
    /// for it. Its target must exist.
    pub fn canonical(&self, host_path: &Path) -> Result<PathBuf, HostError> {
        if self.direct {
            return fs::canonicalize(host_path).map_err(|e| self.classify(host_path, &e));
        }
        let real = self.resolve(host_path, true)?;
        // resolve() builds every path from the root, so the prefix is always there.
        let inside = real.strip_prefix(&self.root).unwrap_or(Path::new(""));
        Ok(Path::new("/").join(inside))
    }

    /// Turns an I/O error on `host_path` into a [`HostError`], telling a dangling link from an
    /// absent file (the kernel reports both as ENOENT).
    fn classify(&self, host_path: &Path, err: &io::Error) -> HostError {
        let mut e = HostError::from_io(host_path, err);
        if e.problem == ReadProblem::NotFound && self.direct {
            // Only the error path pays for this walk.
            for anc in host_path.ancestors() {
                if let Ok(m) = fs::symlink_metadata(anc) {
                    if m.file_type().is_symlink() && fs::metadata(anc).is_err() {
                        e.problem = ReadProblem::DanglingLink;
                    }
                    break;
                }
            }
        }
        e
    }

    /// Metadata of `host_path`, following links. `Ok(None)` when nothing is there; a loop, a
    /// dangling link or a permission problem is an error the caller can report.
    pub fn metadata(&self, host_path: &Path) -> Result<Option<Metadata>, HostError> {
        let real = match self.resolve(host_path, true) {
            Ok(p) => p,
            Err(e) if e.is_absent() => return Ok(None),
            Err(e) => return Err(e),
        };
        match fs::metadata(&real) {
            Ok(m) => Ok(Some(m)),
            Err(e) => {
                let e = self.classify(host_path, &e);
                if e.is_absent() { Ok(None) } else { Err(e) }
            }
        }
    }

    /// True when the root has none of `sys/`, `dev/` and `proc/`, nor any of `spec_dirs`:
    /// nothing gpuctl reads is there, so the root is most likely the wrong directory
    /// (`--root tests/hosts` for `--root tests/hosts/workstation`). A tree of CDI specs alone
    /// is a host gpuctl can answer for, so it does not count as bare.
    pub fn looks_bare(&self, spec_dirs: &[PathBuf]) -> bool {
        let there = |p: &Path| self.is_dir(p).unwrap_or(true);
        !["/sys", "/dev", "/proc"]
            .iter()
            .any(|d| there(Path::new(d)))
            && !spec_dirs.iter().any(|d| there(d))
    }

    /// True when something exists at `host_path` (links followed); errors other than absence
    /// are reported.
    pub fn exists(&self, host_path: &Path) -> Result<bool, HostError> {
        Ok(self.metadata(host_path)?.is_some())
    }

    /// True when `host_path` is a regular file (links followed).
    pub fn is_file(&self, host_path: &Path) -> Result<bool, HostError> {
        Ok(self.metadata(host_path)?.is_some_and(|m| m.is_file()))
    }

    /// True when `host_path` is a directory (links followed).
    pub fn is_dir(&self, host_path: &Path) -> Result<bool, HostError> {
        Ok(self.metadata(host_path)?.is_some_and(|m| m.is_dir()))
    }

    /// Reads at most `limit` bytes of `host_path` as text (invalid UTF-8 becomes U+FFFD).
    /// A longer file is [`ReadProblem::TooLarge`].
    pub fn read_to_string(&self, host_path: &Path, limit: u64) -> Result<String, HostError> {
        let bytes = self.read_bytes(host_path, limit)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    /// Reads at most `limit` bytes of `host_path`. A longer file is [`ReadProblem::TooLarge`].
    pub fn read_bytes(&self, host_path: &Path, limit: u64) -> Result<Vec<u8>, HostError> {
        let real = self.resolve(host_path, true)?;
        // Checked before opening: opening a FIFO would block until a writer comes.
        let meta = fs::metadata(&real).map_err(|e| self.classify(host_path, &e))?;
        if !meta.is_file() {
            return Err(HostError::new(
                host_path,
                ReadProblem::Io("it is not a regular file".into()),
            ));
        }
        if meta.len() > limit {
            return Err(HostError::new(host_path, ReadProblem::TooLarge { limit }));
        }
        let file = File::open(&real).map_err(|e| self.classify(host_path, &e))?;
        let mut buf = Vec::new();
        // sysfs and procfs report a size of 4096 or 0 whatever they hold: the take() is the bound.
        file.take(limit + 1)
            .read_to_end(&mut buf)
            .map_err(|e| self.classify(host_path, &e))?;
        if buf.len() as u64 > limit {
            return Err(HostError::new(host_path, ReadProblem::TooLarge { limit }));
        }
        Ok(buf)
    }

    /// The raw target of the symbolic link at `host_path` (not resolved).
    pub fn read_link(&self, host_path: &Path) -> Result<PathBuf, HostError> {
        let real = self.resolve(host_path, false)?;
        fs::read_link(&real).map_err(|e| self.classify(host_path, &e))
    }

    /// The entries of the directory `host_path` (links to it followed), sorted by name in byte
    /// order, which is Python's code-point order for UTF-8 names.
    pub fn list_dir(&self, host_path: &Path) -> Result<Vec<Entry>, HostError> {
        let real = self.resolve(host_path, true)?;
        let rd = fs::read_dir(&real).map_err(|e| self.classify(host_path, &e))?;
        let mut out = Vec::new();
        for item in rd {
            let item = item.map_err(|e| self.classify(host_path, &e))?;
            let ft = item.file_type().map_err(|e| self.classify(host_path, &e))?;
            out.push(Entry {
                name: item.file_name(),
                is_symlink: ft.is_symlink(),
                is_dir: ft.is_dir(),
            });
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Ok(out)
    }
}

/// The normal components of a path, with `.` dropped and `..` kept for the caller to apply.
fn components(p: &Path) -> impl DoubleEndedIterator<Item = OsString> + '_ {
    p.components().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_os_string()),
        Component::ParentDir => Some(OsStr::new("..").to_os_string()),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

#[cfg(test)]
mod tests;
