//! Changes to the real host — device nodes, links, directories and CDI spec files — made so
//! that each can be undone exactly, and only if it is still what this task made.
//!
//! Every change is written to a manifest in /run *before* it is made, and removed again in
//! reverse order by [`HostChanges::cleanup`], which every exit path calls and `Drop` calls as a
//! last resort. A run that was killed (Ctrl-C, a CI timeout) leaves its manifest behind; the
//! next run undoes that run's changes first ([`recover`]). /run and devtmpfs are both emptied by
//! a reboot, so the manifest never outlives the nodes it describes.

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::podman::run_with_timeout;

/// Where the changes of the run in progress are listed.
pub const MANIFEST: &str = "/run/gpuctl-xtask-integration.json";

/// One change to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Made {
    /// A directory that did not exist.
    Dir(PathBuf),
    /// A character device node.
    Node {
        /// Where.
        path: PathBuf,
        /// Its major.
        major: u32,
        /// Its minor.
        minor: u32,
    },
    /// A symbolic link.
    Link {
        /// Where.
        path: PathBuf,
        /// What it points to, as written.
        target: String,
    },
    /// A regular file.
    File {
        /// Where.
        path: PathBuf,
        /// What it holds.
        content: String,
    },
}

impl Made {
    fn path(&self) -> &Path {
        match self {
            Made::Dir(p) => p,
            Made::Node { path, .. } | Made::Link { path, .. } | Made::File { path, .. } => path,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Made::Dir(p) => json!({"kind": "dir", "path": p}),
            Made::Node { path, major, minor } => {
                json!({"kind": "node", "path": path, "major": major, "minor": minor})
            }
            Made::Link { path, target } => json!({"kind": "link", "path": path, "target": target}),
            Made::File { path, content } => {
                json!({"kind": "file", "path": path, "content": content})
            }
        }
    }

    fn from_json(v: &Value) -> Option<Made> {
        let path = PathBuf::from(v.get("path")?.as_str()?);
        let num = |k: &str| v.get(k)?.as_u64().and_then(|n| u32::try_from(n).ok());
        let text = |k: &str| v.get(k)?.as_str().map(str::to_string);
        Some(match v.get("kind")?.as_str()? {
            "dir" => Made::Dir(path),
            "node" => Made::Node {
                path,
                major: num("major")?,
                minor: num("minor")?,
            },
            "link" => Made::Link {
                path,
                target: text("target")?,
            },
            "file" => Made::File {
                path,
                content: text("content")?,
            },
            _ => return None,
        })
    }

    /// Removes the change if the path still holds what was made; says why not otherwise.
    fn undo(&self) -> Result<(), String> {
        let path = self.path();
        let meta = match fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("cannot look at {}: {e}", path.display())),
        };
        let ours = match self {
            Made::Dir(_) => meta.is_dir(),
            Made::Node { major, minor, .. } => {
                meta.file_type().is_char_device() && dev_numbers(meta.rdev()) == (*major, *minor)
            }
            Made::Link { target, .. } => {
                fs::read_link(path).is_ok_and(|t| t.as_os_str() == target.as_str())
            }
            Made::File { content, .. } => {
                meta.is_file() && fs::read_to_string(path).is_ok_and(|c| c == *content)
            }
        };
        if !ours {
            return Err(format!(
                "{} was changed by someone else since this task made it; left in place",
                path.display()
            ));
        }
        let removed = match self {
            // Only when empty: something else put there is not ours to delete.
            Made::Dir(_) => fs::remove_dir(path),
            _ => fs::remove_file(path),
        };
        removed.map_err(|e| {
            if e.kind() == std::io::ErrorKind::DirectoryNotEmpty {
                format!(
                    "{} holds files this task did not make; left in place",
                    path.display()
                )
            } else {
                format!("cannot remove {}: {e}", path.display())
            }
        })
    }
}

/// The (major, minor) of a `st_rdev`, decoded as glibc's `gnu_dev_major`/`gnu_dev_minor` do.
pub fn dev_numbers(rdev: u64) -> (u32, u32) {
    let major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & !0xfff);
    let minor = (rdev & 0xff) | ((rdev >> 12) & !0xff);
    (major as u32, minor as u32)
}

/// The changes this run made, undone by [`HostChanges::cleanup`] or on drop.
#[derive(Debug)]
pub struct HostChanges {
    made: Vec<Made>,
    manifest: PathBuf,
}

impl HostChanges {
    /// Starts an empty list, recorded in `manifest`.
    pub fn new(manifest: &Path) -> Result<Self, String> {
        let changes = HostChanges {
            made: Vec::new(),
            manifest: manifest.to_path_buf(),
        };
        changes.save()?;
        Ok(changes)
    }

    fn save(&self) -> Result<(), String> {
        let doc = json!({
            "pid": std::process::id(),
            "made": self.made.iter().map(Made::to_json).collect::<Vec<_>>(),
        });
        fs::write(&self.manifest, format!("{doc:#}\n")).map_err(|e| {
            format!(
                "cannot write the list of host changes to {}: {e}",
                self.manifest.display()
            )
        })
    }

    /// Records a change before making it, so that a crash in between loses nothing.
    fn intend(&mut self, made: Made) -> Result<(), String> {
        self.made.push(made);
        self.save()
    }

    /// Creates `path` and every missing parent directory.
    pub fn dir_all(&mut self, path: &Path) -> Result<(), String> {
        let mut missing = Vec::new();
        let mut p = Some(path);
        while let Some(dir) = p {
            if fs::symlink_metadata(dir).is_ok() {
                break;
            }
            missing.push(dir.to_path_buf());
            p = dir.parent();
        }
        for dir in missing.into_iter().rev() {
            self.intend(Made::Dir(dir.clone()))?;
            fs::create_dir(&dir)
                .map_err(|e| format!("cannot create the directory {}: {e}", dir.display()))?;
        }
        Ok(())
    }

    /// Creates a character device node with `mknod` (mode 0666, as the NVIDIA driver's).
    pub fn node(&mut self, path: &Path, major: u32, minor: u32) -> Result<(), String> {
        refuse_existing(path)?;
        self.intend(Made::Node {
            path: path.to_path_buf(),
            major,
            minor,
        })?;
        let out = run_with_timeout(
            Command::new("mknod").args(["-m", "0666"]).arg(path).args([
                "c",
                &major.to_string(),
                &minor.to_string(),
            ]),
            Duration::from_secs(10),
        )?;
        if !out.ok() {
            return Err(format!(
                "mknod {} c {major} {minor} failed: {}",
                path.display(),
                out.stderr.trim()
            ));
        }
        Ok(())
    }

    /// Creates a symbolic link.
    pub fn link(&mut self, path: &Path, target: &str) -> Result<(), String> {
        refuse_existing(path)?;
        self.intend(Made::Link {
            path: path.to_path_buf(),
            target: target.to_string(),
        })?;
        std::os::unix::fs::symlink(target, path)
            .map_err(|e| format!("cannot create the link {}: {e}", path.display()))
    }

    /// Writes a new file.
    pub fn file(&mut self, path: &Path, content: &str) -> Result<(), String> {
        refuse_existing(path)?;
        self.intend(Made::File {
            path: path.to_path_buf(),
            content: content.to_string(),
        })?;
        fs::write(path, content).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Undoes the change made at `path` now (a scenario's CDI spec, when the scenario ends).
    pub fn undo(&mut self, path: &Path) -> Result<(), String> {
        let Some(i) = self.made.iter().rposition(|m| m.path() == path) else {
            return Err(format!("{} was not made by this run", path.display()));
        };
        let made = self.made.remove(i);
        let result = made.undo();
        self.save()?;
        result
    }

    /// Undoes every change, newest first; returns the sentences for what could not be undone.
    pub fn cleanup(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        while let Some(made) = self.made.pop() {
            if let Err(e) = made.undo() {
                problems.push(e);
            }
        }
        if problems.is_empty() {
            if let Err(e) = fs::remove_file(&self.manifest)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                problems.push(format!("cannot remove {}: {e}", self.manifest.display()));
            }
        } else if let Err(e) = self.save() {
            problems.push(e);
        }
        problems
    }
}

impl Drop for HostChanges {
    fn drop(&mut self) {
        // Normally a no-op: every exit path has already called `cleanup`.
        for p in self.cleanup() {
            eprintln!("cleanup: {p}");
        }
    }
}

/// Refuses a path that exists: it is not this run's to replace (or, later, to delete).
pub fn refuse_existing(path: &Path) -> Result<(), String> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Ok(_) => Err(format!(
            "{} already exists and was not made by this run; fake mode will not replace or delete it (remove it yourself if it is a leftover)",
            path.display()
        )),
        Err(e) => Err(format!("cannot look at {}: {e}", path.display())),
    }
}

/// Undoes what an interrupted earlier run left, as its manifest lists it. Refuses while the run
/// that wrote the manifest is still alive. Returns what was done, one sentence each.
pub fn recover(manifest: &Path) -> Result<Vec<String>, String> {
    let text = match fs::read_to_string(manifest) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", manifest.display())),
    };
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a manifest this task wrote ({e}); look at it and remove it",
            manifest.display()
        )
    })?;
    if let Some(pid) = doc.get("pid").and_then(Value::as_u64)
        && pid != u64::from(std::process::id())
        && xtask_alive(pid)
    {
        return Err(format!(
            "another integration run (pid {pid}) is using the fake devices (see {}); wait for it to end",
            manifest.display()
        ));
    }
    let made: Vec<Made> = doc
        .get("made")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Made::from_json).collect())
        .unwrap_or_default();
    let mut changes = HostChanges {
        made,
        manifest: manifest.to_path_buf(),
    };
    let count = changes.made.len();
    let problems = changes.cleanup();
    if problems.is_empty() {
        Ok(vec![format!(
            "an earlier run was interrupted; undid its {count} host change(s) listed in {}",
            manifest.display()
        )])
    } else {
        Err(format!(
            "an earlier run was interrupted and its changes could not all be undone: {}",
            problems.join("; ")
        ))
    }
}

/// Whether `pid` is a live (not zombie) xtask process: a killed run can linger a moment as a
/// zombie, and its pid can be reused by anything later.
fn xtask_alive(pid: u64) -> bool {
    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    let field = |k: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(k))
            .map(str::trim)
            .unwrap_or("")
            .to_string()
    };
    field("Name:") == "xtask" && !field("State:").starts_with('Z')
}

#[cfg(test)]
#[path = "nodes_tests.rs"]
mod tests;
