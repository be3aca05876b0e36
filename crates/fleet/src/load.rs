//! Reading report files for `gpuctl fleet`: files named on the command line and the files in
//! directories named (not recursing, dot-files ignored, in name order). A file that is not a
//! `gpuctl.report/1` report is named and skipped, never fatal for the others. Each report is
//! reduced to what planning needs as soon as it is read, so memory grows with the summaries,
//! not with the files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::model::SCHEMA;
use crate::summary::{HostSummary, LeanReport, summarize};

/// A report file larger than this is skipped: a real one is tens of KiB.
pub const MAX_REPORT_BYTES: u64 = 4 * 1024 * 1024;

/// A file that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file.
    pub file: String,
    /// Why, one sentence.
    pub why: String,
}

/// The files to read: each file argument, and each directory argument's regular files.
pub fn files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<Skipped>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for p in paths {
        if p.is_dir() {
            match std::fs::read_dir(p) {
                Ok(entries) => {
                    let mut names: Vec<PathBuf> = entries
                        .filter_map(Result::ok)
                        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                        .map(|e| e.path())
                        .collect();
                    names.sort();
                    out.extend(names);
                }
                Err(e) => skipped.push(Skipped {
                    file: p.display().to_string(),
                    why: format!("cannot list the directory: {e}"),
                }),
            }
        } else {
            out.push(p.clone());
        }
    }
    (out, skipped)
}

#[derive(Deserialize)]
struct Head {
    schema: Option<serde_json::Value>,
}

/// One file read and summarized, or why not.
pub fn read(path: &Path) -> Result<HostSummary, Skipped> {
    let skip = |why: String| Skipped {
        file: path.display().to_string(),
        why,
    };
    let meta = std::fs::metadata(path).map_err(|e| skip(format!("cannot read it: {e}")))?;
    if meta.len() > MAX_REPORT_BYTES {
        return Err(skip(format!(
            "{} bytes, larger than any report ({MAX_REPORT_BYTES} at most)",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| skip(format!("cannot read it: {e}")))?;
    match serde_json::from_slice::<LeanReport<'_>>(&bytes) {
        Ok(r) if r.schema == SCHEMA => Ok(summarize(&r, path)),
        Ok(r) => Err(skip(other_schema(&r.schema))),
        // A report of another version may not parse as this one: its schema says which.
        Err(e) => match serde_json::from_slice::<Head>(&bytes) {
            Ok(Head {
                schema: Some(serde_json::Value::String(s)),
            }) if s != SCHEMA => Err(skip(other_schema(&s))),
            _ => Err(skip(format!(
                "not a {SCHEMA} report ({e}); write it with 'gpuctl report'"
            ))),
        },
    }
}

fn other_schema(s: &str) -> String {
    format!(
        "its schema is {s:?}, and this gpuctl reads {SCHEMA}; write it again with this gpuctl's 'gpuctl report'"
    )
}

/// Every file read, on `threads` threads, summaries in file order.
pub fn read_all(files: &[PathBuf], threads: usize) -> (Vec<HostSummary>, Vec<Skipped>) {
    let threads = threads.clamp(1, 64).min(files.len().max(1));
    let chunk = files.len().div_ceil(threads).max(1);
    let results: Vec<Vec<Result<HostSummary, Skipped>>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|f| read(f)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    vec![Err(Skipped {
                        file: String::new(),
                        why: "a reader thread failed".into(),
                    })]
                })
            })
            .collect()
    });
    let mut hosts = Vec::with_capacity(files.len());
    let mut skipped = Vec::new();
    for r in results.into_iter().flatten() {
        match r {
            Ok(h) => hosts.push(h),
            Err(s) => skipped.push(s),
        }
    }
    (hosts, skipped)
}
