//! The catalogue: rows of driver sources, each for one distribution release and one vendor,
//! in the order that distribution prefers them.

use std::path::Path;

use serde::Serialize;

use crate::SourcesError;
use crate::source::{Source, check_rows};

/// Debian's releases, read from its archive with `apt-cache madison` (data/debian-sources.py).
const DEBIAN: &str = include_str!("../data/debian.json");

/// Ubuntu's LTS releases, each row from the packages.ubuntu.com page it names.
const UBUNTU: &str = include_str!("../data/ubuntu.json");

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
