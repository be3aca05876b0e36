//! Each proprietary driver release's own supported-GPU list (docs/requirement.md, "Per-release
//! lists"): `data/proprietary-lists.tsv`, every device id that a release's README (Appendix A
//! with its legacy sections, the GSP Firmware chapter's table) and its `supported-gpus.json`
//! name, for the releases Debian's archive carries (340.108 to 555.58.02). A release read is
//! judged by its own list; the legacy sections give each id a sourced last branch.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::release::DriverRelease;

const LISTS: &str = include_str!("../data/proprietary-lists.tsv");

/// Where one release's README and json put one device id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    /// README sections naming it, comma-separated as the table gives them (`current`, `gsp`,
    /// `legacy-340`: the legacy branch); empty when none does. Kept as the table's text, not
    /// split into owned strings: the table's 14,000 rows are read at every start that asks the
    /// model, and their allocations were half that reading (docs/performance.md).
    readme: &'static str,
    /// `supported-gpus.json`: `current`, `legacy-NNN`, or `None` when the json lacks the id or
    /// the release ships none (see [`ReadRelease::has_json`]).
    pub json: Option<&'static str>,
    /// The json's `kernelopen` feature flag (`None` without a json).
    pub kernelopen: Option<bool>,
    /// Every row naming it gives a subsystem (the id is listed for those boards only).
    pub subsystem_only: bool,
    /// The product name of its first row.
    pub name: &'static str,
}

impl ListEntry {
    /// The README sections naming it: `current`, `gsp`, `legacy-340`.
    pub fn readme(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.readme.split(',').filter(|s| !s.is_empty())
    }
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
    ids: HashMap<u16, ListEntry, BuildHasherDefault<IdHasher>>,
}

/// Hashes a device id by one multiplication: the keys are our own table's ids, not input an
/// attacker picks, and SipHash on 14,000 inserts and every lookup was a third of the table's
/// reading (issue 26).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u16(&mut self, n: u16) {
        // Fibonacci hashing: the high bits (hashbrown's tag) and the low bits (its bucket) both
        // vary with every bit of the id.
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Rows a release has at most today (1,122): read with room, so its map is not regrown.
const IDS_PER_RELEASE: usize = 1_200;

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
        if e.readme().any(|s| s == "current") || e.json == Some("current") {
            return Membership::Listed("Appendix A".to_string());
        }
        if let Some(s) = e.readme().find(|s| own(s)) {
            return Membership::Listed(format!(
                "Appendix A, \"The {}.xx driver still supports\"",
                legacy_label(s)
            ));
        }
        if e.readme().any(|s| s == "gsp") {
            return Membership::Listed("its GSP Firmware chapter".to_string());
        }
        match e.readme().chain(e.json).find(|s| s.starts_with("legacy-")) {
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
/// back). The table (850 KB, 14,000 rows) is read once per process by every command that asks
/// the model, so rows are cut by one pass over their bytes and a row's release is parsed only
/// when it differs from the row before's (rows come grouped by release): issue 26's budgets.
pub fn parse(text: &'static str) -> Vec<ReadRelease> {
    let mut out: Vec<ReadRelease> = Vec::new();
    // The previous row's release text and the index in `out` it named.
    let mut last: Option<(&str, Option<usize>)> = None;
    for line in table_lines(text) {
        if let Some(head) = line.strip_prefix("# release ") {
            let cols: Vec<&str> = head.split('\t').collect();
            if let (Some(r), Some(pkg), Some(files)) = (cols.first(), cols.get(1), cols.get(2))
                && let Ok(release) = DriverRelease::parse(r)
            {
                out.push(ReadRelease {
                    release,
                    package: pkg.to_string(),
                    has_json: files.contains("supported-gpus.json"),
                    ids: HashMap::with_capacity_and_hasher(
                        IDS_PER_RELEASE,
                        BuildHasherDefault::default(),
                    ),
                });
            }
            last = None;
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let Some([rel, dev, readme, json, kopen, subsys, name]) = tab_fields(line) else {
            continue;
        };
        let index = match last {
            Some((text, index)) if text == rel => index,
            _ => {
                let index = DriverRelease::parse(rel)
                    .ok()
                    .and_then(|rel| out.iter().position(|r| r.release == rel));
                last = Some((rel, index));
                index
            }
        };
        let (Some(index), Ok(dev)) = (index, u16::from_str_radix(dev, 16)) else {
            continue;
        };
        let entry = ListEntry {
            readme: if readme == "-" { "" } else { readme },
            json: (json != "-" && json != "n/a").then_some(json),
            kernelopen: match kopen {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            },
            subsystem_only: subsys == "yes",
            name,
        };
        out[index].ids.insert(dev, entry);
    }
    out.sort_by(|a, b| a.release.cmp(&b.release));
    out
}

/// The lines of `text` as [`str::lines`] gives them (a trailing `\r` dropped), each found by
/// one `memchr`.
fn table_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        let line = rest.get(..end)?;
        rest = rest.get(end + 1..).unwrap_or("");
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// `line` cut at its tabs into exactly `N` fields; `None` for any other count.
fn tab_fields<const N: usize>(line: &str) -> Option<[&str; N]> {
    let mut out = [""; N];
    let mut rest = line;
    for (n, field) in out.iter_mut().enumerate() {
        match memchr::memchr(b'\t', rest.as_bytes()) {
            Some(tab) if n + 1 < N => {
                *field = rest.get(..tab)?;
                rest = rest.get(tab + 1..)?;
            }
            Some(_) => return None,
            None if n + 1 == N => *field = rest,
            None => return None,
        }
    }
    Some(out)
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
    // One bit per device id, set when any release names it: `requirement` asks this of every
    // id it is given (65,536 for the bench), and 15 hash lookups an id were 13% of that run.
    static ANY: OnceLock<Vec<u64>> = OnceLock::new();
    let word = |id: u16| (usize::from(id >> 6), 1u64 << (id & 63));
    let bits = ANY.get_or_init(|| {
        let mut bits = vec![0u64; 1 << 10];
        for id in releases().iter().flat_map(|r| r.ids.keys()) {
            let (i, bit) = word(*id);
            if let Some(w) = bits.get_mut(i) {
                *w |= bit;
            }
        }
        bits
    });
    let (i, bit) = word(device_id);
    bits.get(i).is_some_and(|w| w & bit != 0)
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
#[path = "release_lists_tests.rs"]
mod tests;
