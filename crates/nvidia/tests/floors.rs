//! Every floor row against the file it was extracted from (crates/nvidia/data; the scripts
//! beside them say how each was read), and the facts the issue names.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap};

use gpuctl_nvidia::cuda::{self, CudaVersion};
use gpuctl_nvidia::floors::{self, ProprietaryBound};
use gpuctl_nvidia::release::DriverRelease;

const OPEN_RELEASES: &str = include_str!("../data/open-releases.tsv");
const OPEN_FLOORS: &str = include_str!("../data/open-floors.tsv");
const OPEN_595: &str = include_str!("../data/open-supported-595.45.04.tsv");
const PROP_FLOORS: &str = include_str!("../data/proprietary-floors.tsv");
const PROP_ADDED: &str = include_str!("../data/proprietary-added.txt");
const PROP_GPUS: &str = include_str!("../data/proprietary-supported-gpus.tsv");
const CUDA_DRIVERS: &str = include_str!("../data/cuda-drivers.tsv");

fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

fn rel(s: &str) -> DriverRelease {
    DriverRelease::parse(s).unwrap()
}

fn hex(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap()
}

/// (date, release, ids) per README tag, sorted by date then version: release order.
fn open_releases() -> Vec<(String, DriverRelease, Vec<String>)> {
    let mut out: Vec<_> = rows(OPEN_RELEASES)
        .into_iter()
        .map(|c| {
            let ids: Vec<String> = c[3].split(' ').map(str::to_string).collect();
            assert_eq!(ids.len(), c[2].parse::<usize>().unwrap(), "{}", c[0]);
            (c[1].to_string(), rel(c[0]), ids)
        })
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out
}

#[test]
fn every_open_floor_is_the_first_release_by_date_that_lists_the_id() {
    let releases = open_releases();
    let floor_rows = rows(OPEN_FLOORS);
    assert!(floor_rows.len() > 280, "{}", floor_rows.len());
    for c in &floor_rows {
        let dev = c[0];
        let listing: Vec<_> = releases
            .iter()
            .filter(|r| r.2.iter().any(|i| i == dev))
            .collect();
        let first = listing.first().unwrap();
        assert_eq!((first.1.as_str(), first.0.as_str()), (c[1], c[2]), "{dev}");
        let lacking: Vec<_> = releases
            .iter()
            .filter(|r| (&r.0, &r.1) > (&first.0, &first.1) && !r.2.iter().any(|i| i == dev))
            .collect();
        assert_eq!(lacking.len().to_string(), c[3], "{dev}");
        assert_eq!(lacking.first().map_or("-", |r| r.1.as_str()), c[4], "{dev}");
        assert_eq!(listing.last().unwrap().1.as_str(), c[5], "{dev}");
        // and the crate answers the same
        let f = floors::open_floor(hex(dev)).unwrap();
        assert_eq!((f.first.as_str(), f.date.as_str()), (c[1], c[2]));
    }
    // every id any README lists has a row
    let all: std::collections::BTreeSet<_> = releases.iter().flat_map(|r| r.2.iter()).collect();
    assert_eq!(all.len(), floor_rows.len());
}

#[test]
fn the_copied_595_45_04_list_is_that_tags_readme() {
    let from_copy: std::collections::BTreeSet<_> =
        rows(OPEN_595).iter().map(|c| c[0].to_string()).collect();
    let tag = open_releases()
        .into_iter()
        .find(|r| r.1.as_str() == "595.45.04")
        .unwrap();
    let from_tag: std::collections::BTreeSet<_> = tag.2.into_iter().collect();
    assert_eq!(from_copy, from_tag);
    assert_eq!(from_copy.len(), 289);
}

#[test]
fn tag_order_is_not_release_order() {
    let releases = open_releases();
    let pos = |t: &str| releases.iter().position(|r| r.1.as_str() == t).unwrap();
    // 525.47.x came after 530.30.02; 525.60.11 before 525.78.01
    assert!(pos("525.47.35") > pos("530.30.02"));
    assert!(pos("525.60.11") < pos("525.78.01"));
    let lists = |t: &str, d: &str| releases[pos(t)].2.iter().any(|i| i == d);
    // RTX 4080: not in 525.60.11 (2022-11-28), first in 525.78.01 (2023-01-05)
    assert!(!lists("525.60.11", "2704") && lists("525.78.01", "2704"));
    let f = floors::open_floor(0x2704).unwrap();
    assert_eq!(
        (f.first.as_str(), f.date.as_str()),
        ("525.78.01", "2023-01-05")
    );
    // a later release of an older branch lacks it: 515.105.01 (2023-03-30)
    assert_eq!(
        f.first_lacking.as_ref().map(DriverRelease::as_str),
        Some("515.105.01")
    );
    assert!(!lists("515.105.01", "2704"));
    // GH200 2342: by version 535.43.19 would look first, by date 535.129.03 is
    assert_eq!(
        floors::open_floor(0x2342).unwrap().first.as_str(),
        "535.129.03"
    );
    assert!(pos("535.129.03") < pos("535.43.19"));
}

/// The changelog excerpt: release -> (date, products of its Added-support blocks).
fn changelog() -> HashMap<String, (String, Vec<String>)> {
    let mut out: HashMap<String, (String, Vec<String>)> = HashMap::new();
    let mut cur: Option<String> = None;
    for line in PROP_ADDED.lines().filter(|l| !l.starts_with('#')) {
        if let Some((date, rest)) = line.split_once(" version ")
            && date.len() == 10
            && !line.starts_with(' ')
        {
            cur = Some(rest.trim().to_string());
            out.entry(rest.trim().to_string())
                .or_insert((date.to_string(), vec![]));
            continue;
        }
        let item = line.trim().trim_start_matches("* ").trim();
        if line.starts_with("        ") && !item.is_empty() {
            let r = cur.clone().unwrap();
            out.get_mut(&r).unwrap().1.push(item.to_string());
        }
    }
    out
}

fn norm(s: &str) -> String {
    let s = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    s.strip_prefix("nvidia ").map(str::to_string).unwrap_or(s)
}

#[test]
fn every_proprietary_floor_is_the_first_changelog_entry_naming_a_product_of_the_id() {
    let log = changelog();
    let mut names: HashMap<String, Vec<String>> = HashMap::new();
    for c in rows(PROP_GPUS) {
        names.entry(norm(c[4])).or_default().push(c[0].to_string());
    }
    let floor_rows = rows(PROP_FLOORS);
    assert!(floor_rows.len() > 600, "{}", floor_rows.len());
    for c in &floor_rows {
        let (dev, release, date, product, matched) = (c[0], c[1], c[2], c[3], c[4]);
        let (d, items) = log
            .get(release)
            .unwrap_or_else(|| panic!("{release} not in the changelog"));
        assert_eq!(d, date, "{dev}");
        assert!(
            items.iter().any(|i| i == product),
            "{dev}: {product} not added in {release}"
        );
        if matched == "supported-gpus.json" {
            assert!(
                names
                    .get(&norm(product))
                    .is_some_and(|ids| ids.iter().any(|i| i == dev)),
                "{dev} {product}"
            );
        } else {
            let line = matched.strip_prefix("pci.ids: ").unwrap();
            assert!(norm(line).contains(&norm(product)), "{dev}: {line}");
            assert!(
                !names.contains_key(&norm(product)),
                "{dev}: README names it"
            );
        }
        // no entry dated earlier names a product of the same name
        for (r, (d, items)) in &log {
            if d.as_str() < date {
                assert!(
                    !items.iter().any(|i| norm(i) == norm(product)),
                    "{dev}: {product} in {r} ({d})"
                );
            }
        }
        // A name several rows carry is no per-id floor (issue 24, finding 3).
        let sharing = floor_rows.iter().filter(|c| c[3] == product).count();
        match floors::proprietary_bound(hex(dev)) {
            ProprietaryBound::Listed(f) => {
                assert_eq!((f.first.as_str(), sharing), (release, 1), "{dev}")
            }
            ProprietaryBound::SharedName(f, n) => {
                assert_eq!((f.first.as_str(), n), (release, sharing), "{dev}");
                assert!(n > 1, "{dev}");
            }
            other => panic!("{dev}: {other:?}"),
        }
    }
}

#[test]
fn the_changelog_names_gpus_only_up_to_the_470_releases() {
    let log = changelog();
    let newest = log
        .iter()
        .filter(|(_, (_, items))| !items.is_empty())
        .map(|(r, _)| rel(r))
        .max()
        .unwrap();
    assert_eq!(newest.branch(), 470);
    // its first entries: GeForce 8 and 9 in 2008-2009; 135 Added-support blocks (35 "GPU:", 94 "GPUs:", 2 "GPU(s):", 4 "new GPUs:") in all
    assert_eq!(
        PROP_ADDED
            .matches("    * Added support for the following")
            .count(),
        135
    );
}

#[test]
fn known_proprietary_floors() {
    let listed = |id: u16| match floors::proprietary_bound(id) {
        ProprietaryBound::Listed(f) => f.first.as_str().to_string(),
        other => panic!("{id:04x}: {other:?}"),
    };
    // RTX 2080 Ti: 1e04 and 1e07 carry the name, so 410.57 is no floor of either.
    assert!(matches!(
        floors::proprietary_bound(0x1e04),
        ProprietaryBound::SharedName(f, 2) if f.first.as_str() == "410.57"
    ));
    assert_eq!(listed(0x1db4), "384.98"); // V100 PCIe 16GB
    // GTX 1080 names 1b80, 1ba0 and 1be0: no per-id floor.
    assert!(
        matches!(floors::proprietary_bound(0x1b80), ProprietaryBound::SharedName(f, _) if f.first.as_str() == "367.27")
    );
    // H100 PCIe and RTX 4080: no changelog entry, the open README bounds them
    assert_eq!(
        floors::proprietary_bound(0x2331),
        ProprietaryBound::AtMost(rel("520.56.06"))
    );
    assert_eq!(
        floors::proprietary_bound(0x2704),
        ProprietaryBound::AtMost(rel("525.78.01"))
    );
}

#[test]
fn every_cuda_row_reads_and_floors_rise_with_the_toolkit() {
    let table = rows(CUDA_DRIVERS);
    assert_eq!(cuda::toolkit_floors().len(), table.len());
    let mut by_version = BTreeMap::new();
    for (c, row) in table.iter().zip(cuda::toolkit_floors()) {
        assert_eq!((row.label.as_str(), row.driver.as_str()), (c[0], c[2]));
        assert_eq!(row.version, CudaVersion::parse(c[1]).unwrap());
        assert!(
            c[0].contains(&format!("{}.{}", row.version.major, row.version.minor)),
            "{}",
            c[0]
        );
        by_version.insert(row.version, row.driver.clone());
    }
    let drivers: Vec<_> = by_version.values().collect();
    assert!(drivers.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn how_many_ids_have_a_floor_as_docs_requirement_md_says() {
    // (open README, proprietary changelog, both, either)
    assert_eq!(floors::counts(), (293, 642, 160, 775));
}
