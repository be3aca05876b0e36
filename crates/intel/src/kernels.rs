//! i915's and xe's own pciidlists at each kernel release read from Debian's `linux-source-*`
//! packages (`kernel-releases.tsv`, written by `data/kernel-releases.py`, whose header names each
//! package, version and file): per release, every id each driver binds and whether the info or
//! desc struct it points at has `.require_force_probe` (docs/requirement.md#intel-table).
//!
//! The releases are Debian's point releases (6.12.117, 7.2.13, ...). What they settle for a
//! device and driver (`ReadFacts`): whether the newest read release lists it and asks for
//! `force_probe`, the first read release from which every later one lists it (where the read
//! before it does not), the last read release listing an id a newer read dropped, and the
//! first read release from which it binds unasked. Between two read releases nothing is
//! claimed beyond what both sides agree on.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use gpuctl_core::plugin::requirement::Version;
use gpuctl_core::plugin::text::tsv_rows;

const KERNEL_RELEASES: &str = include_str!("../data/kernel-releases.tsv");

/// One id listed by one driver at one release read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    /// The release read.
    pub release: Version,
    /// The platform macro stem the pciidlist names it under.
    pub macro_name: &'static str,
    /// `force_probe`, `alpha_support` or `none`.
    pub gate: &'static str,
}

/// What the reads settle for one driver and device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadFacts {
    /// The first read release from which every later read lists it, when the read before it
    /// does not (`None`: the driver's oldest read already lists it).
    pub first: Option<Version>,
    /// The last read release listing it, when a newer read no longer does.
    pub last: Option<Version>,
    /// The newest read release listing it still asks for `force_probe`.
    pub gated: bool,
    /// The first read release after the last gated one, when an older read asked for a gate.
    pub unasked_from: Option<Version>,
    /// The newest read release of the driver.
    pub newest: Version,
}

/// The parsed file.
#[derive(Debug, Default)]
pub struct KernelReads {
    /// Per driver, the releases whose tree has its pciidlist, oldest first.
    pub releases: BTreeMap<&'static str, Vec<Version>>,
    /// (driver, device id) to its listings, oldest first.
    pub lists: BTreeMap<(&'static str, u16), Vec<Listing>>,
    /// Lines that did not parse (file name, line); empty for the shipped file.
    pub skipped: Vec<(&'static str, &'static str)>,
}

/// The reads, parsed on first use.
pub fn reads() -> &'static KernelReads {
    static READS: OnceLock<KernelReads> = OnceLock::new();
    READS.get_or_init(parse)
}

fn parse() -> KernelReads {
    let mut k = KernelReads::default();
    for (line, f) in tsv_rows(KERNEL_RELEASES) {
        let release = f.first().and_then(|v| Version::parse(v).ok());
        let id = f
            .get(2)
            .filter(|s| s.len() == 4)
            .and_then(|s| u16::from_str_radix(s, 16).ok());
        match (f.as_slice(), release, id) {
            (
                [
                    _,
                    driver @ ("i915" | "xe"),
                    _,
                    macro_name,
                    gate @ ("force_probe" | "alpha_support" | "none"),
                ],
                Some(release),
                Some(id),
            ) => {
                let seen = k.releases.entry(driver).or_default();
                if !seen.contains(&release) {
                    seen.push(release);
                }
                k.lists.entry((driver, id)).or_default().push(Listing {
                    release,
                    macro_name,
                    gate,
                });
            }
            _ => k.skipped.push(("kernel-releases.tsv", line)),
        }
    }
    for releases in k.releases.values_mut() {
        releases.sort();
    }
    for listings in k.lists.values_mut() {
        listings.sort_by_key(|l| l.release);
    }
    k
}

impl KernelReads {
    /// The platform macro the newest read listing the id names it under, by either driver.
    pub fn macro_of(&self, id: u16) -> Option<&'static str> {
        self.lists
            .iter()
            .filter(|((_, i), _)| *i == id)
            .filter_map(|(_, l)| l.last())
            .max_by_key(|l| l.release)
            .map(|l| l.macro_name)
    }

    /// True when the driver has read releases at all (xe: from 6.12.117).
    pub fn has_driver(&self, driver: &str) -> bool {
        self.releases.contains_key(driver)
    }

    /// The newest read release of `driver`.
    pub fn newest(&self, driver: &str) -> Option<Version> {
        self.releases.get(driver).and_then(|r| r.last()).copied()
    }

    /// The reads that list `id` with `driver` before `floor`: stable updates of an older line.
    pub fn listed_before(&self, driver: &'static str, id: u16, floor: Version) -> Vec<String> {
        self.lists
            .get(&(driver, id))
            .map(|l| {
                l.iter()
                    .filter(|x| x.release < floor)
                    .map(|x| x.release.to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What the reads settle for `driver` and `id`; `None` when no read release lists it.
    pub fn facts(&self, driver: &'static str, id: u16) -> Option<ReadFacts> {
        let listings = self.lists.get(&(driver, id))?;
        let releases = self.releases.get(driver)?;
        let newest = *releases.last()?;
        let listed = |r: &Version| listings.iter().any(|l| l.release == *r);
        let last_listing = listings.last()?;
        // The run of reads that list it, ending at its newest listing.
        let end = releases.iter().position(|r| *r == last_listing.release)?;
        let start = releases[..=end]
            .iter()
            .rposition(|r| !listed(r))
            .map_or(0, |i| i + 1);
        let first = (start > 0).then(|| releases[start]);
        let last = (last_listing.release != newest).then_some(last_listing.release);
        let last_gated = listings.iter().rposition(|l| l.gate != "none");
        let unasked_from = match last_gated {
            Some(i) if i + 1 < listings.len() => Some(listings[i + 1].release),
            _ => None,
        };
        Some(ReadFacts {
            first,
            last,
            gated: last_listing.gate == "force_probe",
            unasked_from,
            newest,
        })
    }
}
