//! A site's own sources file (`--sources FILE`): rows of the catalogue's shape, in JSON or
//! YAML by the file name, put in front of the built-in rows as `--table` puts policy rows.

use std::io::Read;
use std::path::Path;

use crate::SourcesError;
use crate::source::{Source, check_rows};

/// The largest sources file read: a site lists a few packages, and the cap keeps a mistaken
/// file (a disk image, `/dev/zero`) from being loaded at all.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The most rows a sources file may hold.
pub const MAX_ROWS: usize = 10_000;

/// Reads a sources file from this machine (not under `--root`: it is the user's input):
/// `.json` as JSON, `.yaml`/`.yml` as YAML, anything else refused; every row checked.
pub fn load_site_sources(path: &Path) -> Result<Vec<Source>, SourcesError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let yaml = match ext.as_deref() {
        Some("json") => false,
        Some("yaml" | "yml") => true,
        _ => {
            return Err(file_error(
                path,
                "is neither .json nor .yaml/.yml, so its format is not known".into(),
            ));
        }
    };
    let unreadable = |e: std::io::Error| file_error(path, format!("cannot be read ({e})"));
    // A FIFO would block open() forever; only a regular file is opened.
    let file = gpuctl_core::plugin::open_regular(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_error(
            path,
            format!("is larger than {MAX_FILE_BYTES} bytes; a sources file lists a few packages"),
        ));
    }
    let syntax = |message: String| SourcesError::Syntax {
        path: path.to_path_buf(),
        message: gpuctl_core::plugin::shorten_quotes(&message),
    };
    let text = String::from_utf8(bytes).map_err(|_| syntax("the file is not UTF-8 text".into()))?;
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<Source> = if yaml {
        yaml_bounds(&text).map_err(syntax)?;
        yaml_serde::from_str(&text).map_err(|e| syntax(e.to_string()))?
    } else {
        serde_json::from_str(&text).map_err(|e| syntax(e.to_string()))?
    };
    if rows.len() > MAX_ROWS {
        return Err(syntax(format!("more than {MAX_ROWS} rows")));
    }
    check_rows(&rows, path)?;
    Ok(rows)
}

fn file_error(path: &Path, reason: String) -> SourcesError {
    SourcesError::File {
        path: path.to_path_buf(),
        reason,
    }
}

/// Bounds nesting and aliases before `yaml_serde` sees the text, which expands every alias.
fn yaml_bounds(text: &str) -> Result<(), String> {
    use gpuctl_cdi::goyaml::{load, walk};
    let doc = load(text).map_err(|e| e.to_string())?;
    walk::check(&doc, MAX_FILE_BYTES)
        .map(|_| ())
        .map_err(|e| format!("{e}; write the rows out without YAML aliases or deep nesting"))
}
