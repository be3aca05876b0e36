//! Reading report files for `gpuctl fleet`: files named on the command line and the entries of
//! directories named (not recursing, dot-files ignored, in name order; links followed to
//! regular files, as NFD follows them). Every entry that is not read is named with the reason,
//! never dropped in silence: a file that is not a `gpuctl.report/1` report, a link to nothing or
//! a loop, a FIFO or device (never opened in a way that blocks, never read past the size limit),
//! the same file reached twice, the same host reported twice. Each report is reduced to what
//! planning needs as soon as it is read, so memory grows with the summaries, not with the
//! files.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use gpuctl_core::plugin::evidence::kind_of;
use serde::{Deserialize, Serialize};

use crate::model::SCHEMA;
use crate::nodelist::{self, NodeListError};
use crate::summary::{HostSummary, LeanReport, Notes, summarize};

/// A report file larger than this is skipped: a real one is tens of KiB.
pub const MAX_REPORT_BYTES: u64 = 4 * 1024 * 1024;
/// A NodeList may be larger (a few KiB per node): this is read of one at most.
pub const MAX_NODE_LIST_BYTES: u64 = 256 * 1024 * 1024;
/// The path that names standard input.
pub const STDIN: &str = "-";

/// A file that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file.
    pub file: String,
    /// Why, one sentence.
    pub why: String,
}

fn skipped(path: &Path, why: String) -> Skipped {
    Skipped {
        file: path.display().to_string(),
        why,
    }
}

/// The files to read: each file argument, and each directory argument's entries that lead to
/// regular files. A file reached twice (named twice, or a link to a file also listed) is read
/// once and its second name is said.
pub fn files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<Skipped>) {
    let mut out = Vec::new();
    let mut skip = Vec::new();
    // (device, inode) of each file taken, and the name it was taken under.
    let mut seen: HashMap<(u64, u64), PathBuf> = HashMap::new();
    let mut take = |p: PathBuf, meta: Option<std::fs::Metadata>, skip: &mut Vec<Skipped>| {
        if let Some(m) = meta {
            if let Some(first) = seen.get(&(m.dev(), m.ino())) {
                let why = format!("the same file as {}; read once", first.display());
                skip.push(skipped(&p, why));
                return;
            }
            seen.insert((m.dev(), m.ino()), p.clone());
        }
        out.push(p);
    };
    for p in paths {
        if !p.is_dir() {
            // Whatever it is, read() names why it cannot be read.
            let meta = std::fs::metadata(p).ok().filter(std::fs::Metadata::is_file);
            take(p.clone(), meta, &mut skip);
            continue;
        }
        let entries = match std::fs::read_dir(p) {
            Ok(e) => e,
            Err(e) => {
                skip.push(skipped(p, format!("cannot list the directory: {e}")));
                continue;
            }
        };
        let mut names: Vec<PathBuf> = Vec::new();
        for e in entries {
            match e {
                Ok(e) if e.file_name().as_encoded_bytes().starts_with(b".") => {}
                Ok(e) => names.push(e.path()),
                Err(e) => skip.push(skipped(p, format!("cannot list an entry: {e}"))),
            }
        }
        names.sort();
        for n in names {
            // metadata() follows links: a link to a report is read, as NFD reads it.
            match std::fs::metadata(&n) {
                Ok(m) if m.is_file() => take(n, Some(m), &mut skip),
                Ok(m) if m.is_dir() => skip.push(skipped(
                    &n,
                    "a directory; fleet reads the files of the directories it is given, not of their subdirectories (name it too)".into(),
                )),
                Ok(m) => skip.push(skipped(&n, not_regular(&m))),
                Err(e) => skip.push(skipped(&n, unreadable(&n, &e))),
            }
        }
    }
    (out, skip)
}

fn not_regular(m: &std::fs::Metadata) -> String {
    format!(
        "it is {}, not a regular file; a report is a file 'gpuctl report' wrote",
        kind_of(m)
    )
}

/// An entry metadata() cannot follow: a link to nothing or a loop is said as such.
fn unreadable(path: &Path, e: &std::io::Error) -> String {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link && e.kind() == std::io::ErrorKind::NotFound {
        "a symbolic link to nothing".into()
    } else if is_link && e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        "a loop of symbolic links".into()
    } else {
        format!("cannot read it: {e}")
    }
}

#[derive(Deserialize)]
struct Head {
    schema: Option<serde_json::Value>,
    /// A Kubernetes object's kind (`NodeList`, `List`): not a report.
    #[serde(default)]
    kind: Option<serde_json::Value>,
}

/// Why a file gave no host: skipped (the others are still planned), or a NodeList that cannot
/// be planned (the whole plan is refused, exit 2: its nodes would be missing in silence).
#[derive(Debug)]
pub enum Unread {
    /// Named and skipped.
    Skipped(Skipped),
    /// Refused.
    Refused(NodeListError),
}

/// True when the first bytes look like a Kubernetes object rather than a report (`kubectl`
/// prints `apiVersion` first and `kind` last, keys in order), so a file over the report limit is
/// read on to the NodeList limit.
fn looks_like_kubernetes(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    let has = |w: &[u8]| head.windows(w.len()).any(|x| x == w);
    has(b"\"apiVersion\"") && !has(b"\"schema\"")
}

/// Opens `path` for reading only when it leads to a regular file. The type is looked at before
/// the open, since opening a device can act (a watchdog starts, a tape rewinds); `O_NONBLOCK`
/// keeps the open from waiting on a FIFO put there since, and the opened file's own type
/// decides.
fn open_report(path: &Path) -> Result<File, String> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(not_regular(&m)),
        Ok(_) => {}
        Err(e) => return Err(unreadable(path, &e)),
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| unreadable(path, &e))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?;
    if meta.is_file() {
        Ok(file)
    } else {
        Err(not_regular(&meta))
    }
}

/// One file read and summarized (a report: one host; a NodeList: its labelled nodes, and a
/// skipped entry per node without gpuctl labels), or why not. At most [`MAX_REPORT_BYTES`] + 1
/// bytes are read, whatever the file's metadata says, or [`MAX_NODE_LIST_BYTES`] + 1 of what
/// begins as a Kubernetes object. `-` is standard input, where what is not JSON is refused.
pub fn read(path: &Path, notes: &Notes) -> Result<(Vec<HostSummary>, Vec<Skipped>), Unread> {
    let skip = |why: String| Unread::Skipped(skipped(path, why));
    let stdin = path.as_os_str() == STDIN;
    let mut source: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(open_report(path).map_err(skip)?)
    };
    let mut bytes = Vec::new();
    let mut limit = MAX_REPORT_BYTES;
    (&mut source)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| skip(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > limit && looks_like_kubernetes(&bytes) {
        limit = MAX_NODE_LIST_BYTES;
        source
            .take(limit + 1 - bytes.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| skip(format!("cannot read it: {e}")))?;
    }
    if bytes.len() as u64 > limit {
        return Err(skip(format!("over {limit} bytes, larger than any report")));
    }
    let file = path.display().to_string();
    match serde_json::from_slice::<LeanReport<'_>>(&bytes) {
        Ok(r) if r.schema == SCHEMA => Ok((vec![summarize(&r, path, notes)], Vec::new())),
        Ok(r) => Err(skip(other_schema(&r.schema))),
        // A report of another version may not parse as this one: its schema says which.
        Err(e) => match serde_json::from_slice::<Head>(&bytes) {
            Ok(Head {
                kind: Some(serde_json::Value::String(kind)),
                schema: None,
            }) => {
                let (hosts, bare) =
                    nodelist::hosts(&bytes, &file, &kind).map_err(Unread::Refused)?;
                let bare = bare
                    .into_iter()
                    .map(|n| skipped(path, format!("node {n:?} has no gpuctl.io label: the DaemonSet (deploy/kubernetes) does not run there, or NFD has not published its labels yet")))
                    .collect();
                Ok((hosts, bare))
            }
            Ok(Head {
                schema: Some(serde_json::Value::String(s)),
                ..
            }) if s != SCHEMA => Err(skip(other_schema(&s))),
            // On stdin, or begun as a Kubernetes object, it was meant as a NodeList.
            Err(j) if stdin || looks_like_kubernetes(&bytes) => {
                Err(Unread::Refused(NodeListError::NotJson {
                    file,
                    reason: j.to_string(),
                }))
            }
            _ => Err(skip(format!(
                "not a {SCHEMA} report ({e}); write it with 'gpuctl report'"
            ))),
        },
    }
}

/// Why a second report with an earlier one's host name is not planned.
fn twice(h: &HostSummary, earlier: &Path, earlier_id: Option<&str>) -> String {
    match (earlier_id, h.machine_id.as_deref()) {
        (Some(a), Some(b)) if a != b => format!(
            "another machine with the host name {:?} of {} (their machine ids differ); fleet names hosts by name, so give one of them another hostname",
            h.name,
            earlier.display()
        ),
        _ => format!(
            "the same host as {} (host name {:?}); counted once",
            earlier.display(),
            h.name
        ),
    }
}

fn other_schema(s: &str) -> String {
    format!(
        "its schema is {s:?}, and this gpuctl reads {SCHEMA}; write it again with this gpuctl's 'gpuctl report'"
    )
}

/// Every file read, on `threads` threads, summaries in file order. A host whose report names
/// it as an earlier file's does (the same `host.name`) is counted once: the later file is
/// named, not planned twice. When both reports carry machine ids and they differ, these are two
/// hosts with one name, which a plan that names hosts cannot tell apart: the later is refused
/// with that sentence.
pub fn read_all(
    files: &[PathBuf],
    threads: usize,
) -> Result<(Vec<HostSummary>, Vec<Skipped>), NodeListError> {
    let threads = threads.clamp(1, 64).min(files.len().max(1));
    let chunk = files.len().div_ceil(threads).max(1);
    type Read = Result<(Vec<HostSummary>, Vec<Skipped>), Unread>;
    let notes = Notes::default();
    let results: Vec<Vec<Read>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                let notes = &notes;
                let h = s.spawn(move || part.iter().map(|f| read(f, notes)).collect::<Vec<_>>());
                (part, h)
            })
            .collect();
        handles
            .into_iter()
            .map(|(part, h)| {
                // One result per file even then, so each stays paired with its name.
                h.join().unwrap_or_else(|_| {
                    part.iter()
                        .map(|f| Err(Unread::Skipped(skipped(f, "a reader thread failed".into()))))
                        .collect()
                })
            })
            .collect()
    });
    let mut hosts = Vec::with_capacity(files.len());
    let mut skip = Vec::new();
    // Each reported name, the file it came from and its machine id.
    let mut first: HashMap<String, (&Path, Option<String>)> = HashMap::new();
    for (r, file) in results.into_iter().flatten().zip(files) {
        let (read, bare) = match r {
            Ok(r) => r,
            Err(Unread::Skipped(s)) => {
                skip.push(s);
                continue;
            }
            Err(Unread::Refused(e)) => return Err(e),
        };
        skip.extend(bare);
        for h in read {
            match h.reported_name.then(|| first.get(&h.name)).flatten() {
                Some((earlier, id)) => skip.push(skipped(file, twice(&h, earlier, id.as_deref()))),
                None => {
                    if h.reported_name {
                        first.insert(h.name.clone(), (file, h.machine_id.clone()));
                    }
                    hosts.push(h);
                }
            }
        }
    }
    Ok((hosts, skip))
}
