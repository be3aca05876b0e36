//! Per-device driver floors: the first driver release that lists a GPU, per kernel module
//! (docs/requirement.md, "NVIDIA driver floors").
//!
//! - Open module: the first release (by date) whose open-gpu-kernel-modules README lists the
//!   device id (`data/open-floors.tsv`, from every tag from 515.48.07 on).
//! - Proprietary module: the first release whose changelog says it added support for a
//!   product of the id (`data/proprietary-floors.tsv`, NVIDIA's changelog through the 470
//!   releases). Where the changelog is silent but the open README lists the id, the open
//!   floor is an upper bound for the proprietary module: both ship in one release, and the
//!   proprietary one may have supported the GPU earlier.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::release::DriverRelease;

const OPEN_FLOORS: &str = include_str!("../data/open-floors.tsv");
const PROPRIETARY_FLOORS: &str = include_str!("../data/proprietary-floors.tsv");

/// The open module's first release listing a device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenFloor {
    /// The first release (by date) whose README lists the id.
    pub first: DriverRelease,
    /// That release's date (`2023-01-05`).
    pub date: String,
    /// How many releases dated after it do not list the id (older branches' later releases).
    pub lacking_after: u32,
    /// The first of those, if any.
    pub first_lacking: Option<DriverRelease>,
    /// The newest release read that lists it.
    pub newest: DriverRelease,
    /// The product name of its first README row.
    pub name: String,
}

/// The proprietary module's first release naming a product of a device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProprietaryFloor {
    /// The release whose changelog entry adds the product.
    pub first: DriverRelease,
    /// Its date.
    pub date: String,
    /// The product as the changelog names it.
    pub product: String,
}

/// What the sources say of the proprietary module's floor for one device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProprietaryBound {
    /// The changelog names the release that added it.
    Listed(ProprietaryFloor),
    /// Only the open README lists it: the proprietary module supports it from this release
    /// at the latest (it may have earlier).
    AtMost(DriverRelease),
    /// The changelog names a product of the id, but the README gives that name to several ids
    /// (`GeForce RTX 3050`: 2507, 2584, ...): the release added *a* GPU of that name, which is
    /// no floor for this id (issue 24, finding 3). The count is how many ids carry the name.
    SharedName(ProprietaryFloor, usize),
    /// No source gives a release.
    Unknown,
}

fn open_table() -> &'static HashMap<u16, OpenFloor> {
    static T: OnceLock<HashMap<u16, OpenFloor>> = OnceLock::new();
    T.get_or_init(|| parse_open(OPEN_FLOORS))
}

fn proprietary_table() -> &'static HashMap<u16, ProprietaryFloor> {
    static T: OnceLock<HashMap<u16, ProprietaryFloor>> = OnceLock::new();
    T.get_or_init(|| parse_proprietary(PROPRIETARY_FLOORS))
}

/// How many device ids each changelog product name was matched to.
fn name_counts() -> &'static HashMap<String, usize> {
    static T: OnceLock<HashMap<String, usize>> = OnceLock::new();
    T.get_or_init(|| {
        let mut counts = HashMap::new();
        for f in proprietary_table().values() {
            *counts.entry(f.product.clone()).or_insert(0) += 1;
        }
        counts
    })
}

fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

fn id(text: &str) -> Option<u16> {
    (text.len() == 4)
        .then(|| u16::from_str_radix(text, 16).ok())
        .flatten()
}

/// Reads `open-floors.tsv`; a row that does not read is skipped (a test reads every row).
pub fn parse_open(text: &str) -> HashMap<u16, OpenFloor> {
    rows(text)
        .filter_map(|c| {
            let [dev, first, date, lacking, first_lacking, newest, name] = c[..] else {
                return None;
            };
            Some((
                id(dev)?,
                OpenFloor {
                    first: DriverRelease::parse(first).ok()?,
                    date: date.to_string(),
                    lacking_after: lacking.parse().ok()?,
                    first_lacking: DriverRelease::parse(first_lacking).ok(),
                    newest: DriverRelease::parse(newest).ok()?,
                    name: name.to_string(),
                },
            ))
        })
        .collect()
}

/// Reads `proprietary-floors.tsv`; a row that does not read is skipped.
pub fn parse_proprietary(text: &str) -> HashMap<u16, ProprietaryFloor> {
    rows(text)
        .filter_map(|c| {
            let [dev, first, date, product, _matched] = c[..] else {
                return None;
            };
            Some((
                id(dev)?,
                ProprietaryFloor {
                    first: DriverRelease::parse(first).ok()?,
                    date: date.to_string(),
                    product: product.to_string(),
                },
            ))
        })
        .collect()
}

/// The open module's floor for a device id, when its README ever listed it.
pub fn open_floor(device_id: u16) -> Option<&'static OpenFloor> {
    open_table().get(&device_id)
}

/// What the sources say of the proprietary module's floor for a device id.
pub fn proprietary_bound(device_id: u16) -> ProprietaryBound {
    if let Some(f) = proprietary_table().get(&device_id) {
        let sharing = name_counts().get(&f.product).copied().unwrap_or(1);
        if sharing > 1 {
            return ProprietaryBound::SharedName(f.clone(), sharing);
        }
        return ProprietaryBound::Listed(f.clone());
    }
    match open_floor(device_id) {
        Some(open) => ProprietaryBound::AtMost(open.first.clone()),
        None => ProprietaryBound::Unknown,
    }
}

/// How many device ids have a floor of each kind: (open README, proprietary changelog, both,
/// either).
pub fn counts() -> (usize, usize, usize, usize) {
    let open = open_table();
    let prop = proprietary_table();
    let both = open.keys().filter(|k| prop.contains_key(k)).count();
    (open.len(), prop.len(), both, open.len() + prop.len() - both)
}

/// The earliest proprietary changelog floor among the ids `first..=last` (a generation row):
/// no GPU of the row was supported before it, so it is a lower bound for an id the changelog
/// does not name.
pub fn generation_floor(first: u16, last: u16) -> Option<&'static ProprietaryFloor> {
    proprietary_table()
        .iter()
        .filter(|(k, _)| (first..=last).contains(*k))
        .map(|(_, f)| f)
        .min_by(|a, b| (&a.date, &a.first).cmp(&(&b.date, &b.first)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(s: &str) -> DriverRelease {
        DriverRelease::parse(s).unwrap()
    }

    #[test]
    fn every_row_reads() {
        let n = |t: &str| rows(t).count();
        assert_eq!(open_table().len(), n(OPEN_FLOORS));
        assert_eq!(proprietary_table().len(), n(PROPRIETARY_FLOORS));
    }

    #[test]
    fn an_rtx_4080_is_first_in_525_78_01_not_525_60_11() {
        let f = open_floor(0x2704).unwrap();
        assert_eq!(
            (f.first.as_str(), f.date.as_str()),
            ("525.78.01", "2023-01-05")
        );
    }

    #[test]
    fn a_changelog_floor_beats_the_open_upper_bound() {
        // RTX 2080 Ti: changelog 410.57, but 1e04 and 1e07 carry the name: no per-id floor.
        assert!(
            matches!(proprietary_bound(0x1e04), ProprietaryBound::SharedName(f, 2) if f.first == rel("410.57"))
        );
        // Tesla V100-PCIE-16GB, one id: changelog 384.98.
        assert!(
            matches!(proprietary_bound(0x1db4), ProprietaryBound::Listed(f) if f.first == rel("384.98"))
        );
        // RTX 4080: the changelog stops at 470, so only the open floor bounds it.
        assert_eq!(
            proprietary_bound(0x2704),
            ProprietaryBound::AtMost(rel("525.78.01"))
        );
        assert_eq!(proprietary_bound(0x3000), ProprietaryBound::Unknown);
    }

    #[test]
    fn the_turing_to_hopper_row_starts_with_turing() {
        let f = generation_floor(0x1df7, 0x28ff).unwrap();
        assert_eq!(f.first, rel("410.57"));
    }
}
