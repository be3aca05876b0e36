//! The host's own distribution: `/etc/os-release` under the root (os-release(5)), and the
//! first source of that release that drives the host's GPUs, as a doctor check.

use std::path::Path;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::VendorRequest;
use gpuctl_core::plugin::requirement_answer::Request;
use gpuctl_core::plugin::{Check, Status, codes};

use crate::{Catalogue, Release, choose};

/// os-release(5): `/etc/os-release`, else `/usr/lib/os-release`.
const OS_RELEASE: [&str; 2] = ["/etc/os-release", "/usr/lib/os-release"];

/// The most of an os-release file read: it is a few hundred bytes.
const MAX_OS_RELEASE: u64 = 64 * 1024;

/// What the host's os-release names: `ID`, `VERSION_ID`, `VERSION_CODENAME`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OsRelease {
    /// `ID` (`debian`).
    pub id: String,
    /// `VERSION_ID` (`12`), when there is one (Debian unstable has none).
    pub version_id: Option<String>,
    /// `VERSION_CODENAME` (`bookworm`).
    pub codename: Option<String>,
}

impl OsRelease {
    /// Reads the host's os-release; `None` when neither file is there or names no `ID`.
    pub fn of_host(host: &Host) -> Option<OsRelease> {
        OS_RELEASE
            .iter()
            .find_map(|p| host.read_to_string(Path::new(p), MAX_OS_RELEASE).ok())
            .and_then(|text| OsRelease::parse(&text))
    }

    /// Parses os-release text: `KEY=VALUE` lines, the value bare or in single or double
    /// quotes; `#` lines and anything else are passed over.
    pub fn parse(text: &str) -> Option<OsRelease> {
        let mut out = OsRelease::default();
        for line in text.lines() {
            let Some((key, value)) = line.trim().split_once('=') else {
                continue;
            };
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(value)
                .to_string();
            match key.trim() {
                "ID" => out.id = value,
                "VERSION_ID" => out.version_id = Some(value),
                "VERSION_CODENAME" => out.codename = Some(value),
                _ => {}
            }
        }
        (!out.id.is_empty()).then_some(out)
    }

    /// The catalogue's release for it: by `VERSION_ID`, else by `VERSION_CODENAME`.
    pub fn release(&self, catalogue: &Catalogue) -> Option<Release> {
        [&self.version_id, &self.codename]
            .into_iter()
            .flatten()
            .find_map(|rel| catalogue.resolve(&format!("{}:{rel}", self.id)).ok())
    }

    /// `debian 12 (bookworm)`: how the host names itself.
    fn named(&self) -> String {
        let mut s = self.id.clone();
        for part in [&self.version_id, &self.codename].into_iter().flatten() {
            s.push(' ');
            s.push_str(part);
        }
        s
    }
}

/// Doctor's `driver-package` check: for the host's GPUs, the first package of the host's own
/// release that drives them, per vendor. `None` when the host has no os-release or no GPU.
/// Ok when every vendor the catalogue has sources for has one; a warning when one of them has
/// none (the driver loaded now may still be fine: the check says what the distribution
/// carries); skipped when the catalogue does not list the release.
pub fn driver_package_check(host: &Host, registry: &Registry) -> Option<Check> {
    let os = OsRelease::of_host(host)?;
    let catalogue = Catalogue::builtin().ok()?;
    let Some(release) = os.release(&catalogue) else {
        return Some(
            Check::new(codes::DRIVER_PACKAGE, os.named(), Status::Skipped).fact(format!(
                "the driver-source catalogue does not list {} (/etc/os-release)",
                os.named()
            )),
        );
    };
    let request = Request {
        ids: &[],
        specs: &[],
        vendor: VendorRequest::default(),
    };
    let (_, answer) = choose(host, registry, request, &catalogue, &release).ok()?;
    if answer.vendors.is_empty() {
        return None;
    }
    // A vendor the catalogue lists no source for in this release is a gap of the catalogue,
    // not of the host: said as a fact, never a warning (unknown is not "none fits").
    let unserved = answer
        .vendors
        .iter()
        .any(|v| v.chosen.is_none() && !v.sources.is_empty());
    let status = if unserved {
        Status::Warning
    } else {
        Status::Ok
    };
    let mut check = Check::new(codes::DRIVER_PACKAGE, release.label.clone(), status);
    for v in &answer.vendors {
        check = check.fact(match (&v.chosen, &v.install, &v.none) {
            (Some(pkg), Some(install), _) => {
                format!("{}: {pkg} drives every GPU ({install})", v.display)
            }
            (_, _, Some(none)) if v.sources.is_empty() => {
                format!("{}: not known — {none}", v.display)
            }
            (_, _, Some(none)) => format!("{}: none — {none}", v.display),
            _ => format!("{}: no answer", v.display),
        });
    }
    if unserved {
        check = check.remedy(format!(
            "gpuctl requirement --distro {}:{} says why each package does not fit; a site's own package goes in with --sources FILE",
            release.distro, release.release
        ));
    }
    Some(check)
}
