//! Why the catalogue or a site's sources file cannot answer.

use std::path::PathBuf;

use gpuctl_core::plugin::requirement::RequirementInputError;
use thiserror::Error;

/// Why `requirement --distro` cannot answer. Each variant names the input and the remedy.
#[derive(Debug, Error)]
pub enum SourcesError {
    /// The distribution (or its release) is not in the catalogue.
    #[error(
        "--distro {given}: the catalogue has no {what}; it knows {known}; add a site's own sources with --sources FILE"
    )]
    UnknownDistro {
        /// The `--distro` value as given.
        given: String,
        /// `distribution 'foo'` or `release 'xx' of debian`.
        what: String,
        /// The known `NAME:RELEASE` values, joined with `, `.
        known: String,
    },
    /// A sources file cannot be used as a file: unreadable, of an unknown format, too large.
    #[error("{} {reason}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it, and the remedy where there is one.
        reason: String,
    },
    /// A sources file is not a list of source rows.
    #[error("{}: {message}; write a list of rows with distro, release, vendor, package, stack, install and source", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's words.
        message: String,
    },
    /// A row of a sources file lacks what a source must say.
    #[error("{} row {row}: {reason}", path.display())]
    BadRow {
        /// The file (the built-in catalogue is named `built-in catalogue`).
        path: PathBuf,
        /// The row, from 1.
        row: usize,
        /// What is wrong, and what to write.
        reason: String,
    },
    /// A source's specs, or the device ids, were refused by the requirement model.
    #[error("{context}{error}")]
    Requirement {
        /// `source PACKAGE (RELEASE): ` when a source's specs were refused; empty otherwise.
        context: String,
        /// The model's words.
        error: RequirementInputError,
    },
}
