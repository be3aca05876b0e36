//! Which source of a release drives every GPU: each source's stack judged by THE verdict, as
//! `requirement --driver` judges the same specs; the first that fits, per vendor.

use serde::Serialize;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::report::Report;
use gpuctl_core::plugin::requirement::{Fit, Verdict};
use gpuctl_core::plugin::requirement_answer::{Request, answer};

use crate::{Catalogue, Release, Source, SourcesError};

/// One source and its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceVerdict {
    /// The source, every field of its row.
    #[serde(flatten)]
    pub source: Source,
    /// The one verdict's word: `yes`, `no` or `unknown`.
    pub fits: Fit,
    /// Why not, or what is missing to tell, when it does not fit.
    pub why_not: Option<String>,
}

/// A vendor's answer in one release: its sources in preference order, the first that fits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorChoice {
    /// The vendor, by its selector name.
    pub vendor: String,
    /// The vendor's name in sentences (`NVIDIA`).
    pub display: String,
    /// The release's sources for this vendor, each with its verdict.
    pub sources: Vec<SourceVerdict>,
    /// The package of the first source that fits, when one does.
    pub chosen: Option<String>,
    /// Its install command.
    pub install: Option<String>,
    /// When none fits: why, and which other release carries one (the last before this one,
    /// and any newer).
    pub none: Option<String>,
}

/// `requirement --distro`'s answer: the requirement report and, per vendor, the release's
/// sources judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DistroReport {
    /// The release asked about.
    pub release: Release,
    /// One entry per vendor with GPUs in the report, in its order.
    pub vendors: Vec<VendorChoice>,
}

impl DistroReport {
    /// True when a vendor has no source that fits: nothing to install drives its GPUs.
    pub fn unserved(&self) -> bool {
        self.vendors.iter().any(|v| v.chosen.is_none())
    }
}

/// The report for `request` (its `specs` are ignored: each source is its own), and each
/// vendor's sources of `release` judged against it.
pub fn choose(
    host: &Host,
    registry: &Registry,
    request: Request<'_>,
    catalogue: &Catalogue,
    release: &Release,
) -> Result<(Report, DistroReport), SourcesError> {
    let bare = Request {
        specs: &[],
        ..request
    };
    let report = answer(host, registry, bare).map_err(|error| SourcesError::Requirement {
        context: String::new(),
        error,
    })?;
    let mut vendors = Vec::new();
    for v in report.vendors.iter().filter(|v| !v.gpus.is_empty()) {
        let judge = |s: &Source| -> Result<Verdict, SourcesError> {
            let asked = Request {
                specs: &s.stack,
                ..bare
            };
            let r = answer(host, registry, asked).map_err(|error| SourcesError::Requirement {
                context: format!("source {} ({}): ", s.package, s.label),
                error,
            })?;
            Ok(r.verdict(&v.vendor).unwrap_or_else(|| {
                Verdict::unknown(format!(
                    "the answer for {} has no {} entry",
                    s.package, v.display
                ))
            }))
        };
        let mut sources = Vec::new();
        for s in catalogue.of(release, &v.vendor) {
            let verdict = judge(s)?;
            sources.push(SourceVerdict {
                source: s.clone(),
                fits: verdict.fit,
                why_not: verdict.why,
            });
        }
        let first = sources.iter().find(|s| s.fits == Fit::Yes);
        let chosen = first.map(|s| s.source.package.clone());
        let install = first.map(|s| s.source.install.clone());
        let none = if first.is_some() {
            None
        } else {
            Some(elsewhere(
                catalogue,
                release,
                (&v.vendor, &v.display),
                sources.is_empty(),
                |s| judge(s).map(|v| v.fits()),
            )?)
        };
        vendors.push(VendorChoice {
            vendor: v.vendor.clone(),
            display: v.display.clone(),
            sources,
            chosen,
            install,
            none,
        });
    }
    Ok((
        report,
        DistroReport {
            release: release.clone(),
            vendors,
        },
    ))
}

/// The sentence for a release none of whose sources fits: the last release before it (in the
/// catalogue's order) that carries one, and any later release that does.
fn elsewhere(
    catalogue: &Catalogue,
    release: &Release,
    (vendor, display): (&str, &str),
    listed_none: bool,
    mut fits: impl FnMut(&Source) -> Result<bool, SourcesError>,
) -> Result<String, SourcesError> {
    let mut out = if listed_none {
        format!(
            "the catalogue lists no {display} source for {}",
            release.label
        )
    } else {
        format!(
            "{} carries no package that drives every {display} GPU here",
            release.label
        )
    };
    let releases: Vec<Release> = catalogue
        .releases()
        .into_iter()
        .filter(|r| r.distro == release.distro)
        .collect();
    let at = releases.iter().position(|r| r == release).unwrap_or(0);
    let mut before: Option<String> = None;
    let mut after: Vec<String> = Vec::new();
    for (i, r) in releases.iter().enumerate().filter(|(i, _)| *i != at) {
        let mut found = None;
        for s in catalogue.of(r, vendor) {
            if fits(s)? {
                found = Some(format!("{}, {}", r.label, s.named()));
                break;
            }
        }
        match found {
            Some(f) if i < at => before = Some(f),
            Some(f) => after.push(f),
            None => {}
        }
    }
    match &before {
        Some(f) => out.push_str(&format!("; the last release that did: {f}")),
        None if after.is_empty() => out.push_str(&format!(
            "; no release of {} in the catalogue carries one",
            release.distro
        )),
        None => out.push_str("; no earlier release in the catalogue carries one"),
    }
    for f in &after {
        out.push_str(&format!("; a later one does: {f}"));
    }
    Ok(out)
}
