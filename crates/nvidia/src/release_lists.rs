//! Each proprietary driver release's own supported-GPU list (docs/requirement.md, "Per-release
//! lists"): `data/proprietary-lists.tsv`, every device id that a release's README (Appendix A
//! with its legacy sections, the GSP Firmware chapter's table) and its `supported-gpus.json`
//! name, for the releases Debian's archive carries (340.108 to 555.58.02). A release read is
//! judged by its own list; the legacy sections give each id a sourced last branch.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::release::DriverRelease;

const LISTS: &str = include_str!("../data/proprietary-lists.tsv");

/// Where one release's README and json put one device id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    /// README sections naming it: `current`, `gsp`, `legacy-340` (the legacy branch).
    pub readme: Vec<String>,
    /// `supported-gpus.json`: `current`, `legacy-NNN`, or `None` when the json lacks the id or
    /// the release ships none (see [`ReadRelease::has_json`]).
    pub json: Option<String>,
    /// The json's `kernelopen` feature flag (`None` without a json).
    pub kernelopen: Option<bool>,
    /// Every row naming it gives a subsystem (the id is listed for those boards only).
    pub subsystem_only: bool,
    /// The product name of its first row.
    pub name: String,
}

/// What one release read says of one id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Membership {
    /// The release supports it; where it says so (`Appendix A`, `its GSP Firmware chapter`,
    /// `"The 470.xx driver still supports"`).
    Listed(String),
    /// It names it only in a legacy section of an older branch: that branch (`340.xx`) is the
    /// id's last.
    LegacyOnly(String),
    /// It does not name it.
    NotListed,
}

/// A release whose lists were read.
#[derive(Debug, Clone)]
pub struct ReadRelease {
    /// The driver release.
    pub release: DriverRelease,
    /// The Debian package and version it was read from.
    pub package: String,
    /// Whether it ships a `supported-gpus.json` (450 and newer).
    pub has_json: bool,
    ids: HashMap<u16, ListEntry>,
}

impl ReadRelease {
    /// The entry of a device id, when the release names it anywhere.
    pub fn entry(&self, device_id: u16) -> Option<&ListEntry> {
        self.ids.get(&device_id)
    }

    /// What this release says of a device id.
    pub fn membership(&self, device_id: u16) -> Membership {
        let Some(e) = self.entry(device_id) else {
            return Membership::NotListed;
        };
        let branch = self.release.branch();
        // A legacy section of this release's own branch ("A6. The 470.xx driver still
        // supports", 470 only) is part of what it supports.
        let own = |s: &str| legacy_branch(s).is_some_and(|b| b == branch);
        if e.readme.iter().any(|s| s == "current") || e.json.as_deref() == Some("current") {
            return Membership::Listed("Appendix A".to_string());
        }
        if let Some(s) = e.readme.iter().find(|s| own(s)) {
            return Membership::Listed(format!(
                "Appendix A, \"The {}.xx driver still supports\"",
                legacy_label(s)
            ));
        }
        if e.readme.iter().any(|s| s == "gsp") {
            return Membership::Listed("its GSP Firmware chapter".to_string());
        }
        match e
            .readme
            .iter()
            .chain(e.json.iter())
            .find(|s| s.starts_with("legacy-"))
        {
            Some(s) => Membership::LegacyOnly(format!("{}.xx", legacy_label(s))),
            None => Membership::NotListed,
        }
    }

    /// Whether it supports the id.
    pub fn lists(&self, device_id: u16) -> bool {
        matches!(self.membership(device_id), Membership::Listed(_))
    }
}

/// `legacy-340` → `340`; `legacy-173.14` → `173.14`.
fn legacy_label(section: &str) -> &str {
    section.strip_prefix("legacy-").unwrap_or(section)
}

/// The branch of a legacy section (`legacy-173.14` → 173).
fn legacy_branch(section: &str) -> Option<u32> {
    section
        .strip_prefix("legacy-")?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// Reads `proprietary-lists.tsv`; a row that does not read is skipped (a test reads every row
/// back).
pub fn parse(text: &str) -> Vec<ReadRelease> {
    let mut out: Vec<ReadRelease> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("# release ") {
            let cols: Vec<&str> = head.split('\t').collect();
            if let (Some(r), Some(pkg), Some(files)) = (cols.first(), cols.get(1), cols.get(2))
                && let Ok(release) = DriverRelease::parse(r)
            {
                out.push(ReadRelease {
                    release,
                    package: pkg.to_string(),
                    has_json: files.contains("supported-gpus.json"),
                    ids: HashMap::new(),
                });
            }
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        let [rel, dev, readme, json, kopen, subsys, name] = c[..] else {
            continue;
        };
        let (Ok(rel), Ok(dev)) = (DriverRelease::parse(rel), u16::from_str_radix(dev, 16)) else {
            continue;
        };
        let Some(r) = out.iter_mut().find(|r| r.release == rel) else {
            continue;
        };
        let entry = ListEntry {
            readme: if readme == "-" {
                Vec::new()
            } else {
                readme.split(',').map(str::to_string).collect()
            },
            json: (json != "-" && json != "n/a").then(|| json.to_string()),
            kernelopen: match kopen {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            },
            subsystem_only: subsys == "yes",
            name: name.to_string(),
        };
        r.ids.insert(dev, entry);
    }
    out.sort_by(|a, b| a.release.cmp(&b.release));
    out
}

/// Every release read, oldest (by number) first.
pub fn releases() -> &'static [ReadRelease] {
    static T: OnceLock<Vec<ReadRelease>> = OnceLock::new();
    T.get_or_init(|| parse(LISTS))
}

/// The release read with exactly this number.
pub fn read_release(release: &DriverRelease) -> Option<&'static ReadRelease> {
    if release.is_branch_only() {
        return None;
    }
    releases().iter().find(|r| r.release == *release)
}

/// The releases read of one branch.
pub fn of_branch(branch: u32) -> Vec<&'static ReadRelease> {
    releases()
        .iter()
        .filter(|r| r.release.branch() == branch)
        .collect()
}

/// The read releases either side of `spec` by number: for a full release the newest below and
/// the oldest above it; for a branch, those of the nearest branches below and above.
pub fn neighbours(
    spec: &DriverRelease,
) -> (Option<&'static ReadRelease>, Option<&'static ReadRelease>) {
    let all = releases();
    let below = |r: &&ReadRelease| {
        if spec.is_branch_only() {
            r.release.branch() < spec.branch()
        } else {
            r.release < *spec
        }
    };
    let above = |r: &&ReadRelease| {
        if spec.is_branch_only() {
            r.release.branch() > spec.branch()
        } else {
            r.release > *spec
        }
    };
    (all.iter().rfind(below), all.iter().find(above))
}

/// An id's last branch, from the legacy sections of the newest release read that names it in
/// one: (`340.xx`, 340, that release).
pub fn legacy_ceiling(device_id: u16) -> Option<(String, u32, &'static ReadRelease)> {
    releases().iter().rev().find_map(|r| {
        let Membership::LegacyOnly(label) = r.membership(device_id) else {
            return None;
        };
        let branch = label.split('.').next()?.parse().ok()?;
        Some((label, branch, r))
    })
}

/// Whether any release read names the id anywhere (current, legacy or GSP list).
pub fn any_lists(device_id: u16) -> bool {
    releases().iter().any(|r| r.entry(device_id).is_some())
}

/// The first release read (by number) that supports the id, if any.
pub fn first_listing(device_id: u16) -> Option<&'static ReadRelease> {
    releases().iter().find(|r| r.lists(device_id))
}

/// Every device id some release read names.
pub fn all_ids() -> Vec<u16> {
    let mut ids: Vec<u16> = releases()
        .iter()
        .flat_map(|r| r.ids.keys().copied())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(s: &str) -> DriverRelease {
        DriverRelease::parse(s).unwrap()
    }

    #[test]
    fn every_row_reads_and_every_release_has_rows() {
        let rows = LISTS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        let read: usize = releases().iter().map(|r| r.ids.len()).sum();
        assert_eq!(read, rows);
        assert!(releases().len() >= 13, "{}", releases().len());
        assert!(releases().iter().all(|r| r.ids.len() > 500));
    }

    #[test]
    fn the_470_readme_still_supports_kepler_notebooks_its_json_leaves_out() {
        let r = read_release(&rel("470.256.02")).unwrap();
        assert_eq!(r.entry(0x0fcd).unwrap().json, None);
        assert!(r.lists(0x0fcd));
        assert_eq!(
            r.membership(0x0191),
            Membership::LegacyOnly("340.xx".to_string())
        );
    }

    #[test]
    fn neighbours_compare_by_number() {
        let (lo, hi) = neighbours(&rel("510.47.03"));
        assert_eq!(lo.unwrap().release, rel("470.256.02"));
        assert_eq!(hi.unwrap().release, rel("525.147.05"));
        let (lo, hi) = neighbours(&rel("535"));
        assert_eq!(lo.unwrap().release, rel("525.147.05"));
        assert_eq!(hi.unwrap().release, rel("550.54.15"));
    }
}
