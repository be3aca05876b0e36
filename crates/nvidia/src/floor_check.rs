//! Whether a driver release lists a GPU, per kernel module, from the floor data
//! ([`crate::floors`], docs/requirement.md "NVIDIA driver floors"): the release-precision check
//! `gpuctl requirement --driver` adds to Rex-GPU's generation verdict, and the lines that name
//! each GPU's floors.

use std::sync::OnceLock;

use crate::floors::{self, ProprietaryBound};
use crate::model::KernelModule;
use crate::release::DriverRelease;
use crate::release_lists as lists;

const OPEN_RELEASES: &str = include_str!("../data/open-releases.tsv");

/// What the sources say of one release (or branch) and one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// The release lists the GPU.
    Lists,
    /// It does not; why, in words.
    Lacks(String),
    /// It depends on what the spec leaves open (the release within a branch); on what, in words.
    Depends(String),
    /// No source says; why, in words.
    Unknown(String),
}

/// A release the open README was read at, and the ids it lists.
struct OpenRelease {
    release: DriverRelease,
    /// The table's id column as it stands: sorted 4-digit lower-case hex ids one space apart (a
    /// test checks every row). It is searched where it lies rather than parsed into numbers:
    /// parsing 192 rows of 200 ids was a fifth of `explain` on one line (docs/performance.md).
    ids: &'static str,
}

impl OpenRelease {
    /// Whether the release lists `device_id`: a binary search over the column's fixed-width ids.
    fn lists(&self, device_id: u16) -> bool {
        let key = format!("{device_id:04x}");
        let bytes = self.ids.as_bytes();
        let count = bytes.len().div_ceil(5);
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(id) = bytes.get(mid * 5..mid * 5 + 4) else {
                return false;
            };
            match id.cmp(key.as_bytes()) {
                std::cmp::Ordering::Equal => return true,
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        false
    }
}

fn open_releases() -> &'static [OpenRelease] {
    static T: OnceLock<Vec<OpenRelease>> = OnceLock::new();
    T.get_or_init(|| {
        OPEN_RELEASES
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut cols = l.split('\t');
                let release = DriverRelease::parse(cols.next()?).ok()?;
                let ids = cols.nth(2)?;
                Some(OpenRelease { release, ids })
            })
            .collect()
    })
}

fn first_words(device_id: u16) -> String {
    match floors::open_floor(device_id) {
        Some(f) => format!(
            "the open module's README first lists 10de:{device_id:04x} in {} ({})",
            f.first, f.date
        ),
        None => format!("no open module README read lists 10de:{device_id:04x}"),
    }
}

/// Whether open-module release (or branch) `spec` lists `device_id`.
pub fn open_listing(device_id: u16, spec: &DriverRelease) -> Listing {
    let releases = open_releases();
    // supported-gpus.json's `kernelopen` flag of the proprietary release of the same number is
    // a minimum of what the open module of that release supports (issue 24, finding 5).
    if crate::release_lists::read_release(spec)
        .and_then(|r| r.entry(device_id))
        .and_then(|e| e.kernelopen)
        == Some(true)
    {
        return Listing::Lists;
    }
    let Some(floor) = floors::open_floor(device_id) else {
        // No README read lists it: a release (or branch) whose README was read lacks it.
        let read = releases.iter().any(|r| {
            if spec.is_branch_only() {
                r.release.branch() == spec.branch()
            } else {
                r.release == *spec
            }
        });
        return if read {
            Listing::Lacks(format!(
                "{}, and no supported-gpus.json read flags it kernelopen",
                first_words(device_id)
            ))
        } else {
            Listing::Unknown(first_words(device_id))
        };
    };
    let lists = |r: &OpenRelease| r.lists(device_id);
    if let Some(r) = releases
        .iter()
        .find(|r| r.release == *spec && !spec.is_branch_only())
    {
        return if lists(r) {
            Listing::Lists
        } else {
            Listing::Lacks(format!(
                "open module {spec}'s README does not list it; {}",
                first_words(device_id)
            ))
        };
    }
    let mut branch: Vec<&OpenRelease> = releases
        .iter()
        .filter(|r| r.release.branch() == spec.branch())
        .collect();
    branch.sort_by(|a, b| a.release.cmp(&b.release));
    // The lowest release of the branch from which every release read (by version) lists it:
    // versions of one branch are not release order (525.47.x came after 525.78.01), so the
    // first listing release by version is not a threshold.
    let threshold = (0..branch.len())
        .find(|&i| branch[i..].iter().all(|r| lists(r)))
        .map(|i| &branch[i].release);
    let newest = releases
        .iter()
        .map(|r| r.release.branch())
        .max()
        .unwrap_or(0);
    let any = branch.iter().any(|r| lists(r));
    if branch.is_empty() {
        return if spec.branch() > newest {
            if floor.newest.branch() == newest {
                Listing::Lists
            } else {
                Listing::Unknown(format!(
                    "branch {} is newer than the READMEs read, and the newest release read lacks it",
                    spec.branch()
                ))
            }
        } else if spec.branch() < floor.first.branch() {
            Listing::Lacks(first_words(device_id))
        } else {
            Listing::Unknown(format!(
                "no README of branch {} was read; {}",
                spec.branch(),
                first_words(device_id)
            ))
        };
    }
    if !any {
        return Listing::Lacks(format!(
            "no open module release of branch {} lists it; {}",
            spec.branch(),
            first_words(device_id)
        ));
    }
    if spec.is_branch_only() {
        return if branch.iter().all(|r| lists(r)) {
            Listing::Lists
        } else {
            let listing = branch.iter().filter(|r| lists(r)).count();
            Listing::Depends(format!(
                "the release within branch {}: {listing} of its {} releases read list it{}",
                spec.branch(),
                branch.len(),
                threshold.map_or(String::new(), |t| format!(", every one from {t} on"))
            ))
        };
    }
    match threshold {
        Some(t) if spec >= t => Listing::Lists,
        _ if branch.iter().any(|r| lists(r) && r.release > *spec) => Listing::Unknown(format!(
            "open module {spec} was not read, and releases of branch {} around it differ; {}",
            spec.branch(),
            first_words(device_id)
        )),
        _ => Listing::Lacks(format!(
            "no open module release of branch {} up to {spec} lists it; {}",
            spec.branch(),
            first_words(device_id)
        )),
    }
}

/// The floor lines for one GPU, as `gpuctl requirement` prints them under its requirement,
/// for the kernel modules Rex-GPU's table lets it use (`module`).
pub fn floor_lines(device_id: u16, module: KernelModule) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(f) = floors::open_floor(device_id)
        && module != KernelModule::Proprietary
    {
        out.push(format!(
            "first listed: open kernel module {} ({}, open-gpu-kernel-modules README)",
            f.first, f.date
        ));
    }
    let bound = floors::proprietary_bound(device_id);
    let read_lists = lists::any_lists(device_id);
    if out.is_empty() && matches!(bound, ProprietaryBound::Unknown) && !read_lists {
        out.push(format!(
            "no source lists 10de:{device_id:04x}: the requirement is Rex-GPU's generation guess"
        ));
        return out;
    }
    if module == KernelModule::Open {
        return out;
    }
    match &bound {
        ProprietaryBound::Listed(f) => out.push(format!(
            "first listed: proprietary kernel module {} ({}, NVIDIA changelog: \"{}\")",
            f.first, f.date, f.product
        )),
        ProprietaryBound::SharedName(f, n) => out.push(format!(
            "NVIDIA changelog: \"{}\" added in {} ({}), a name {n} device ids carry: no floor for 10de:{device_id:04x}",
            f.product, f.first, f.date
        )),
        ProprietaryBound::AtMost(open) => out.push(format!(
            "proprietary kernel module: {open} at the latest (the open module's first release listing it; no source gives an earlier one)"
        )),
        ProprietaryBound::Unknown => {
            if let Some(r) = lists::first_listing(device_id) {
                let all = lists::releases();
                let span = match (all.first(), all.last()) {
                    (Some(a), Some(b)) => format!("{} to {}", a.release, b.release),
                    _ => String::new(),
                };
                out.push(format!(
                    "first listed by the proprietary releases read ({span}): {}, its README",
                    r.release
                ));
            }
        }
    }
    // Said where it is stricter than the generation's ceiling (a GeForce 8800 on 340, not 470).
    let rex_max = crate::model::RexFacts::max_branch(&crate::table::builtin_requirement(device_id));
    if let Some((label, branch, r)) = lists::legacy_ceiling(device_id)
        && rex_max.is_none_or(|m| branch < m)
    {
        out.push(format!(
            "last branch: {label} (the README of {} lists it only under \"The {label} driver supports\")",
            r.release
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release_verdict::proprietary_listing;
    use rstest::rstest;

    fn rel(s: &str) -> DriverRelease {
        DriverRelease::parse(s).unwrap()
    }

    fn kind(l: &Listing) -> &'static str {
        match l {
            Listing::Lists => "lists",
            Listing::Lacks(_) => "lacks",
            Listing::Depends(_) => "depends",
            Listing::Unknown(_) => "unknown",
        }
    }

    /// `OpenRelease::lists` searches the id column where it lies: every row must hold sorted,
    /// distinct 4-digit lower-case hex ids one space apart, as many as its count column says,
    /// and the search must agree with reading the column id by id.
    #[test]
    fn every_open_release_row_is_searchable_as_it_lies() {
        let rows: Vec<&str> = OPEN_RELEASES
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        assert_eq!(rows.len(), open_releases().len(), "a row did not read");
        for (row, r) in rows.iter().zip(open_releases()) {
            let cols: Vec<&str> = row.split('\t').collect();
            let ids: Vec<&str> = r.ids.split(' ').collect();
            assert_eq!(
                cols[2].parse::<usize>().ok(),
                Some(ids.len()),
                "{}",
                cols[0]
            );
            assert!(
                ids.windows(2).all(|w| w[0] < w[1]),
                "{} is not sorted",
                cols[0]
            );
            for id in &ids {
                assert!(
                    id.len() == 4
                        && id
                            .bytes()
                            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                    "{}: {id:?}",
                    cols[0]
                );
            }
            let listed: std::collections::BTreeSet<u16> = ids
                .iter()
                .map(|i| u16::from_str_radix(i, 16).unwrap())
                .collect();
            for probe in (0..=0xffffu16).step_by(7).chain(listed.iter().copied()) {
                assert_eq!(
                    r.lists(probe),
                    listed.contains(&probe),
                    "{} {probe:04x}",
                    cols[0]
                );
            }
        }
    }

    #[rstest]
    #[case(0x2704, "525.78.01", "lists")]
    #[case(0x2704, "525.60.11", "lacks")]
    #[case(0x2704, "515.105.01", "lacks")]
    #[case(0x2704, "470", "lacks")]
    #[case(0x2704, "525", "depends")]
    #[case(0x2704, "570.124.06", "lists")]
    #[case(0x2704, "570", "lists")]
    #[case(0x2704, "700.1.2", "lists")]
    // V100 is proprietary only: no open README read lists it, no json flags it kernelopen.
    #[case(0x1db4, "570", "lacks")]
    fn open_module_releases(#[case] id: u16, #[case] spec: &str, #[case] want: &str) {
        assert_eq!(
            kind(&open_listing(id, &rel(spec))),
            want,
            "{:?}",
            open_listing(id, &rel(spec))
        );
    }

    #[rstest]
    #[case(0x2704, "470", "lacks")]
    #[case(0x2704, "470.256.02", "lacks")]
    #[case(0x2704, "535.54.03", "lists")]
    #[case(0x2704, "525", "depends")]
    #[case(0x2704, "520.56.06", "unknown")]
    // 450.248.02 was read, and lacks H100.
    #[case(0x2330, "450", "lacks")]
    #[case(0x2330, "470", "lacks")]
    #[case(0x2330, "560", "lists")]
    // "GeForce RTX 3050" names 2507, 2582 and 2584: no per-id floor, and neither 470.129.06
    // nor 470.103.01 was read (460.106.00 lacks it, 470.256.02 lists it).
    #[case(0x2507, "470.129.06", "unknown")]
    #[case(0x2507, "470.103.01", "unknown")]
    #[case(0x2507, "470", "depends")]
    #[case(0x2507, "470.256.02", "lists")]
    // "GeForce RTX 2080 Ti" names 1e04 and 1e07; 418.226.00's README lists it.
    #[case(0x1e04, "410.57", "unknown")]
    #[case(0x1e04, "418.226.00", "lists")]
    // V100: the changelog adds "Tesla V100-PCIE-16GB" (one id) in 384.98; 390.157 lists it.
    #[case(0x1db4, "384.98", "lists")]
    #[case(0x1db4, "384.90", "lacks")]
    #[case(0x1db4, "384", "depends")]
    fn proprietary_module_releases(#[case] id: u16, #[case] spec: &str, #[case] want: &str) {
        let got = proprietary_listing(id, &rel(spec));
        assert_eq!(kind(&got), want, "{got:?}");
    }
}
