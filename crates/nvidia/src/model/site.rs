//! Site-policy rows: generation rows read from a YAML or JSON file and put in front of a
//! built-in table, the analogue of the reference's subclass that prepends to
//! `SUPER::generations`.
//!
//! The file is a list of rows. The format follows the file name: `.json` is JSON, `.yaml` and
//! `.yml` are YAML; anything else is refused rather than guessed. A row:
//!
//! ```yaml
//! - generation: Hopper (site policy)   # optional label
//!   first: "2330"                      # device ids as on the command line:
//!   last: 0x2330                       #   XXXX, 0xXXXX or 10de:XXXX, any case
//!   kernel_module: open                # open, proprietary or either (default either)
//!   min_branch: 575                    # optional; integer or digit string
//!   max_branch: 580                    # optional
//!   compute: true                      # optional: true, false
//! ```
//!
//! Device ids are text, not numbers: YAML would read an unquoted `2330` as the decimal number
//! 2330 (0x091a), so the parser takes the scalar's text instead, and JSON has no hex literals.
//! Every row is checked when the file is read (the reference checks a row only when a lookup
//! reaches it), so a bad row is reported before anything is looked up.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use thiserror::Error;

use super::table::GenerationRow;
use super::{KernelModule, parse_branch};

/// The largest site-policy file read. A site table adds a handful of rows; the cap keeps a
/// hostile or mistaken file (a disk image, `/dev/zero`) from being loaded at all.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The most rows a site-policy file may hold.
pub const MAX_ROWS: usize = 10_000;

/// Why a site-policy file could not be used. Each variant names the file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SiteError {
    /// The file could not be opened or read.
    #[error("{} cannot be read ({reason})", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The operating system's words.
        reason: String,
    },
    /// The name ends in neither `.json`, `.yaml` nor `.yml`.
    #[error("{} is neither .json nor .yaml/.yml, so its format is not known", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{} is larger than {limit} bytes, more than a site table can need", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{} is not UTF-8 text", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// The file holds more than [`MAX_ROWS`] rows.
    #[error("{} has more than {limit} rows, more than a site table can need", path.display())]
    TooManyRows {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: usize,
    },
    /// The text is not a list of rows (syntax, a wrong type, an unknown key).
    #[error("{} is not a list of generation rows: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's words, with the line and column.
        message: String,
    },
    /// A row parsed but cannot be a row.
    #[error("{} row {row}: {reason}", path.display())]
    BadRow {
        /// The file.
        path: PathBuf,
        /// The row's position in the file, from 1.
        row: usize,
        /// Why.
        reason: String,
    },
}

/// The two formats a site file can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON, through `serde_json`.
    Json,
    /// YAML, through `yaml_serde`.
    Yaml,
}

impl Format {
    /// The format a file name says, by its extension (any case).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }
}

/// Reads a site-policy file: at most [`MAX_FILE_BYTES`], at most [`MAX_ROWS`] rows, every row
/// checked. The file is read from this machine's file system as given (it is the user's input,
/// not part of the host being looked at).
pub fn load_site_rows(path: &Path) -> Result<Vec<GenerationRow>, SiteError> {
    let format = Format::of_path(path).ok_or_else(|| SiteError::UnknownFormat {
        path: path.to_path_buf(),
    })?;
    let unreadable = |e: std::io::Error| SiteError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let too_large = || SiteError::TooLarge {
        path: path.to_path_buf(),
        limit: MAX_FILE_BYTES,
    };
    // A FIFO would block open() forever; only a regular file is opened.
    let file = gpuctl_core::plugin::open_regular(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    // procfs and sysfs files report a length of 0 or 4096: the take() is the real bound.
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|_| SiteError::NotText {
        path: path.to_path_buf(),
    })?;
    let rows = parse_site_rows(&text, format, path)?;
    tracing::debug!("site table {}: {} rows", path.display(), rows.len());
    Ok(rows)
}

/// Parses site-policy text in `format`; `path` only names the file in errors.
pub fn parse_site_rows(
    text: &str,
    format: Format,
    path: &Path,
) -> Result<Vec<GenerationRow>, SiteError> {
    // An empty file is an empty policy, in either format.
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let overflow = Cell::new(false);
    let seed = RowsSeed {
        overflow: &overflow,
    };
    let parsed = match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_str(text);
            seed.deserialize(&mut de)
                .and_then(|rows| de.end().map(|()| rows))
                .map_err(|e| e.to_string())
        }
        Format::Yaml => yaml_bounds(text).and_then(|()| {
            seed.deserialize(yaml_serde::Deserializer::from_str(text))
                .map_err(|e| e.to_string())
        }),
    };
    let raw = match parsed {
        Ok(raw) => raw,
        Err(_) if overflow.get() => {
            return Err(SiteError::TooManyRows {
                path: path.to_path_buf(),
                limit: MAX_ROWS,
            });
        }
        Err(message) => {
            return Err(SiteError::Syntax {
                path: path.to_path_buf(),
                message: gpuctl_core::plugin::shorten_quotes(&message),
            });
        }
    };
    raw.into_iter()
        .enumerate()
        .map(|(i, row)| {
            row.check().map_err(|reason| SiteError::BadRow {
                path: path.to_path_buf(),
                row: i + 1,
                reason: gpuctl_core::plugin::shorten_quotes(&reason),
            })
        })
        .collect()
}

/// Bounds nesting and aliases before `yaml_serde` sees the text, which expands every alias and
/// whose stack grows with nesting: aliases may add no more than a site table may hold.
fn yaml_bounds(text: &str) -> Result<(), String> {
    use gpuctl_cdi::goyaml::{YamlError, load, walk};
    let said = |e: YamlError| match e {
        YamlError::Syntax(_) | YamlError::Decode(_) => e.to_string(),
        _ => format!("{e}; write the rows out without YAML aliases or deep nesting"),
    };
    let doc = load(text).map_err(said)?;
    walk::check(&doc, MAX_FILE_BYTES).map(|_| ()).map_err(said)
}

/// A row as written, before its values are checked against each other.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a generation row, a mapping with first and last"
)]
struct RawRow {
    generation: Option<String>,
    first: Option<String>,
    last: Option<String>,
    kernel_module: Option<String>,
    min_branch: Option<RawBranch>,
    max_branch: Option<RawBranch>,
    compute: Option<bool>,
}

impl RawRow {
    fn check(self) -> Result<GenerationRow, String> {
        let (Some(first), Some(last)) = (&self.first, &self.last) else {
            return Err("every row needs first and last".to_string());
        };
        let first = parse_row_id("first", first)?;
        let last = parse_row_id("last", last)?;
        let kernel_module = match &self.kernel_module {
            None => KernelModule::Either,
            Some(word) => KernelModule::parse(word).map_err(|e| e.to_string())?,
        };
        let branch = |name: &str, raw: Option<RawBranch>| match raw {
            None => Ok(None),
            Some(RawBranch(text)) => parse_branch(&text)
                .map(Some)
                .map_err(|e| format!("{name}: {e}")),
        };
        // The reference checks max_branch before min_branch (alphabetical attribute order).
        let max = branch("max_branch", self.max_branch)?;
        let min = branch("min_branch", self.min_branch)?;
        GenerationRow::new(
            (first, last),
            self.generation.map(Cow::Owned),
            kernel_module,
            (min, max),
            self.compute,
        )
        .map_err(|e| e.to_string())
    }
}

/// A site row's device id: `XXXX`, `0xXXXX` or `10de:XXXX`, any case, as on the command line.
fn parse_row_id(key: &str, text: &str) -> Result<u16, String> {
    let lower = text.to_ascii_lowercase();
    let digits = lower
        .strip_prefix("0x")
        .or_else(|| lower.strip_prefix("10de:"))
        .unwrap_or(&lower);
    if digits.len() == 4
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
        && let Ok(id) = u16::from_str_radix(digits, 16)
    {
        return Ok(id);
    }
    Err(format!(
        "{key} '{}' is not a PCI device id; write four hex digits, e.g. 2330, 0x2330 or 10de:2330",
        text.escape_debug()
    ))
}

/// A branch as written: a number or a string, kept as text until [`parse_branch`] judges it, so
/// `580.95` and `"0580"` get the same treatment in both formats.
#[derive(Debug)]
struct RawBranch(String);

impl<'de> Deserialize<'de> for RawBranch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RawBranch;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a driver branch, an integer like 580")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawBranch, E> {
                Ok(RawBranch(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawBranch, E> {
                Ok(RawBranch(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawBranch, E> {
                Ok(RawBranch(v.to_string()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawBranch, E> {
                Ok(RawBranch(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads the top-level list one row at a time and stops past [`MAX_ROWS`], so a huge list is
/// refused without being collected.
struct RowsSeed<'a> {
    overflow: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for RowsSeed<'_> {
    type Value = Vec<RawRow>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(RowsVisitor {
            overflow: self.overflow,
        })
    }
}

struct RowsVisitor<'a> {
    overflow: &'a Cell<bool>,
}

impl<'de> Visitor<'de> for RowsVisitor<'_> {
    type Value = Vec<RawRow>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of generation rows")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut rows = Vec::new();
        while let Some(row) = seq.next_element::<RawRow>()? {
            if rows.len() == MAX_ROWS {
                self.overflow.set(true);
                return Err(de::Error::custom(format!("more than {MAX_ROWS} rows")));
            }
            rows.push(row);
        }
        Ok(rows)
    }
}
