//! The catalogue: rows of driver sources, each for one distribution release and one vendor,
//! in the order that distribution prefers them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::SourcesError;

/// Debian's releases, read from its archive with `apt-cache madison` (data/debian-sources.py).
const DEBIAN: &str = include_str!("../data/debian.json");

/// Ubuntu's LTS releases, each row from the packages.ubuntu.com page it names.
const UBUNTU: &str = include_str!("../data/ubuntu.json");

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

/// One distribution release the catalogue lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Release {
    /// The distribution (`debian`).
    pub distro: String,
    /// The release (`12`).
    pub release: String,
    /// The release in words.
    pub label: String,
}

/// The rows, site rows first, then the built-in ones.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    sources: Vec<Source>,
}

impl Catalogue {
    /// The built-in catalogue.
    pub fn builtin() -> Result<Catalogue, SourcesError> {
        let mut sources: Vec<Source> = Vec::new();
        for (name, text) in [("debian.json", DEBIAN), ("ubuntu.json", UBUNTU)] {
            let rows: Vec<Source> =
                serde_json::from_str(text).map_err(|e| SourcesError::Syntax {
                    path: format!("built-in catalogue {name}").into(),
                    message: e.to_string(),
                })?;
            sources.extend(rows);
        }
        let catalogue = Catalogue { sources };
        catalogue.check(Path::new("built-in catalogue"))?;
        Ok(catalogue)
    }

    /// The built-in catalogue with a site's rows in front (`--sources FILE`), so a site's
    /// package for a release is preferred to the distribution's own.
    pub fn with_site(path: &Path) -> Result<Catalogue, SourcesError> {
        let mut site = crate::load_site_sources(path)?;
        site.extend(Catalogue::builtin()?.sources);
        Ok(Catalogue { sources: site })
    }

    /// Every row, in order.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The releases, in the order their first row appears.
    pub fn releases(&self) -> Vec<Release> {
        let mut out: Vec<Release> = Vec::new();
        for s in &self.sources {
            if !out
                .iter()
                .any(|r| r.distro == s.distro && r.release == s.release)
            {
                out.push(Release {
                    distro: s.distro.clone(),
                    release: s.release.clone(),
                    label: s.label.clone(),
                });
            }
        }
        out
    }

    /// The rows of `release` for `vendor`, in preference order.
    pub fn of<'a>(
        &'a self,
        release: &'a Release,
        vendor: &'a str,
    ) -> impl Iterator<Item = &'a Source> {
        self.sources.iter().filter(move |s| {
            s.distro == release.distro && s.release == release.release && s.vendor == vendor
        })
    }

    /// The release `NAME[:RELEASE]` names (`debian:12`, `debian:bookworm`, any case). Without a
    /// release, the distribution's highest numbered one (Debian's current stable, Ubuntu's
    /// newest LTS), numbers compared part by part (`24.04` after `22.04`).
    pub fn resolve(&self, given: &str) -> Result<Release, SourcesError> {
        let (name, rel) = match given.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r.trim())),
            None => (given.trim(), None),
        };
        let releases = self.releases();
        let of_distro: Vec<&Release> = releases
            .iter()
            .filter(|r| r.distro.eq_ignore_ascii_case(name))
            .collect();
        let unknown = |what: String| SourcesError::UnknownDistro {
            given: given.to_string(),
            what,
            known: releases
                .iter()
                .map(|r| self.known_name(r))
                .collect::<Vec<_>>()
                .join(", "),
        };
        if of_distro.is_empty() {
            return Err(unknown(format!("distribution '{name}'")));
        }
        let found = match rel {
            Some(rel) => of_distro.into_iter().find(|r| {
                r.release.eq_ignore_ascii_case(rel)
                    || self.sources.iter().any(|s| {
                        s.distro == r.distro
                            && s.release == r.release
                            && s.aliases.iter().any(|a| a.eq_ignore_ascii_case(rel))
                    })
            }),
            None => of_distro
                .into_iter()
                .filter_map(|r| release_number(&r.release).map(|n| (n, r)))
                .max_by(|(a, _), (b, _)| a.cmp(b))
                .map(|(_, r)| r),
        };
        found
            .cloned()
            .ok_or_else(|| unknown(format!("release '{}' of {name}", rel.unwrap_or(""))))
    }

    /// `debian:12 (bookworm)`: the release as `--distro` takes it, and its other names.
    fn known_name(&self, r: &Release) -> String {
        let aliases = self
            .sources
            .iter()
            .find(|s| s.distro == r.distro && s.release == r.release)
            .map(|s| {
                s.aliases
                    .iter()
                    .filter(|a| **a != r.release)
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        if aliases.is_empty() {
            format!("{}:{}", r.distro, r.release)
        } else {
            format!("{}:{} ({})", r.distro, r.release, aliases.join(", "))
        }
    }

    /// Every row says what a source must: a distribution, a release, a vendor, a package, a
    /// stack, an install command and where it was read.
    pub(crate) fn check(&self, path: &Path) -> Result<(), SourcesError> {
        check_rows(&self.sources, path)
    }
}

/// A release's number as its dot-separated parts (`24.04` is [24, 4]); `None` for a name.
fn release_number(release: &str) -> Option<Vec<u64>> {
    release.split('.').map(|p| p.parse::<u64>().ok()).collect()
}

/// The check of [`Catalogue::check`], for rows read from `path`.
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
