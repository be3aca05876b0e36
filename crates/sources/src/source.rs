//! One row of driver sources and the check every row passes, wherever it was read: the
//! built-in catalogue and a site's own file both hold these rows, so the row sits below both.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::SourcesError;

/// One driver source: a package (or repository stream) of one distribution release that
/// installs a vendor's driver stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The distribution, as `/etc/os-release`'s `ID` says it (`debian`).
    pub distro: String,
    /// The release, as `VERSION_ID` says it (`12`), or its name where it has no number (`sid`).
    pub release: String,
    /// Other names of the release (`bookworm`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The release in words (`Debian 12 (bookworm)`).
    pub label: String,
    /// The suite or repository the package comes from (`bookworm-backports`).
    #[serde(default)]
    pub suite: Option<String>,
    /// The vendor, by its selector name (`nvidia`, `amd`, `intel`).
    pub vendor: String,
    /// The package or stream (`nvidia-tesla-470-driver`).
    pub package: String,
    /// The package's version as read (`470.256.02-1~deb12u1`).
    #[serde(default)]
    pub version: Option<String>,
    /// The driver stack it installs, as `--driver` specs (`proprietary:470.256.02`; `open:580+`
    /// for "the newest branch its repository carries, at least 580").
    pub stack: Vec<String>,
    /// The command that installs it.
    pub install: String,
    /// Where the row was read (a URL, or the archive line `apt-cache madison` printed).
    pub source: String,
    /// When it was read (YYYY-MM-DD).
    #[serde(default)]
    pub read: Option<String>,
    /// Anything else a person should know (where the kernel of an AMD row comes from).
    #[serde(default)]
    pub note: Option<String>,
}

impl Source {
    /// The package and its version: `nvidia-driver 535.261.03-1`.
    pub fn named(&self) -> String {
        match &self.version {
            Some(v) => format!("{} {v}", self.package),
            None => self.package.clone(),
        }
    }
}

/// The check of `Catalogue::check`, for rows read from `path`.
pub(crate) fn check_rows(rows: &[Source], path: &Path) -> Result<(), SourcesError> {
    for (i, s) in rows.iter().enumerate() {
        let empty = [
            ("distro", s.distro.is_empty()),
            ("release", s.release.is_empty()),
            ("label", s.label.is_empty()),
            ("vendor", s.vendor.is_empty()),
            ("package", s.package.is_empty()),
            (
                "stack",
                s.stack.is_empty() || s.stack.iter().any(String::is_empty),
            ),
            ("install", s.install.is_empty()),
            ("source", s.source.is_empty()),
        ];
        if let Some((field, _)) = empty.iter().find(|(_, e)| *e) {
            return Err(SourcesError::BadRow {
                path: path.to_path_buf(),
                row: i + 1,
                reason: format!(
                    "{field} is empty; a source says what it is, what it installs (stack: --driver specs) and where that was read"
                ),
            });
        }
        if s.release.contains(':') || s.distro.contains(':') {
            return Err(SourcesError::BadRow {
                path: path.to_path_buf(),
                row: i + 1,
                reason:
                    "distro and release may not contain ':' (--distro NAME:RELEASE splits there)"
                        .into(),
            });
        }
    }
    Ok(())
}
