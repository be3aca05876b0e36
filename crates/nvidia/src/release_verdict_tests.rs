//! Every row of `data/proprietary-lists.tsv` against the verdict, read back independently of
//! [`crate::release_lists`], and the examples of issue 24's findings 1-5 with the facts of the
//! releases' own READMEs and supported-gpus.json.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use rstest::rstest;

use super::proprietary_listing;
use crate::floor_check::{Listing, open_listing};
use crate::release::DriverRelease;

const LISTS: &str = include_str!("../data/proprietary-lists.tsv");

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

/// One row's README sections, json list and kernelopen flag.
type Row = (Vec<String>, String, String);

/// release -> id -> row, straight from the columns.
fn table() -> BTreeMap<String, BTreeMap<u16, Row>> {
    let mut out: BTreeMap<String, BTreeMap<u16, _>> = BTreeMap::new();
    for line in LISTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 7, "{line}");
        let sections = c[2].split(',').map(str::to_string).collect();
        out.entry(c[0].to_string()).or_default().insert(
            u16::from_str_radix(c[1], 16).unwrap(),
            (sections, c[3].to_string(), c[4].to_string()),
        );
    }
    out
}

#[test]
fn every_row_is_judged_by_its_own_release() {
    let table = table();
    assert!(table.len() >= 14, "{}", table.len());
    let every: BTreeSet<u16> = table.values().flat_map(|m| m.keys().copied()).collect();
    let mut checked = 0;
    for (release, ids) in &table {
        let r = rel(release);
        let own = format!("legacy-{}", r.branch());
        for (id, (sections, json, kopen)) in ids {
            let supported = sections
                .iter()
                .any(|s| s == "current" || s == "gsp" || *s == own)
                || json == "current";
            let want = if supported { "lists" } else { "lacks" };
            let got = proprietary_listing(*id, &r);
            assert_eq!(kind(&got), want, "{id:04x} @ {release}: {got:?}");
            if kopen == "yes" {
                assert_eq!(
                    open_listing(*id, &r),
                    Listing::Lists,
                    "{id:04x} @ {release}"
                );
            }
            checked += 1;
        }
        // Ids other releases name and this one does not: not supported by it.
        for id in every.iter().filter(|i| !ids.contains_key(i)).step_by(7) {
            let got = proprietary_listing(*id, &r);
            assert_eq!(kind(&got), "lacks", "{id:04x} @ {release}: {got:?}");
        }
    }
    assert!(checked > 14_000, "{checked}");
}

// Finding 1: 470.256.02's README lists 0191 only under "The 340.xx driver supports", 450.248.02
// lists 06c0 only under "The 390.xx driver supports".
// Finding 2: 390.157 lists no 26b8, 340.108 neither 20b1 nor 1c23.
// Finding 3: 525.147.05's README and json lack 2584 ("GeForce RTX 3050", a name three ids carry).
// Finding 4: 535.261.03 lists T4 (1eb8) in its GSP Firmware chapter, both 550 releases read too;
// 418.226.00 lists 1fb8 (Quadro T2000) though the changelog adds it in 430.09; 470.256.02 lists
// 0fcd in A6 ("The 470.xx driver still supports") while its json leaves it out; 550.54.15 lacks
// 232c, 550.163.01 lists it (H20-3e, subsystem 10de:2063).
#[rstest]
#[case(0x0191, "470.256.02", "lacks", "340.xx is its last branch")]
#[case(0x0191, "450.80.02", "lacks", "340.xx is its last branch")]
#[case(0x0191, "340.108", "lists", "")]
#[case(0x06c0, "450.248.02", "lacks", "390.xx is its last branch")]
#[case(0x06c0, "460", "lacks", "390.xx is its last branch")]
#[case(0x26b8, "390.157", "lacks", "the README of 390.157")]
#[case(0x20b1, "340.108", "lacks", "the README of 340.108")]
#[case(0x1c23, "340.108", "lacks", "the README of 340.108")]
#[case(0x2584, "525.147.05", "lacks", "the README of 525.147.05")]
#[case(0x2584, "530.41.03", "unknown", "a name 3 device ids carry")]
#[case(0x1eb8, "535.261.03", "lists", "")]
#[case(0x1eb8, "550", "lists", "")]
#[case(0x1eb8, "550.100", "lists", "")]
#[case(0x1eb8, "555.58.02", "lacks", "the README of 555.58.02")]
#[case(0x1fb8, "418.226.00", "lists", "")]
#[case(0x0fcd, "470.256.02", "lists", "")]
#[case(0x0fcd, "525.147.05", "lacks", "470.xx is its last branch")]
#[case(0x232c, "550.54.15", "lacks", "the README of 550.54.15")]
#[case(0x232c, "550.163.01", "lists", "")]
#[case(
    0x232c,
    "550",
    "depends",
    "550.163.01 is the first release read that lists it; 550.54.15 does not"
)]
// Between reads: 535.54.03 sits between 525.147.05 and 535.216.03, which both list the RTX 4080.
#[case(0x2704, "535.54.03", "lists", "")]
// 510.47.03 sits between 470.256.02 and 525.147.05, which both list the RTX 3050 OEM (2508),
// but 470 has it as a backport (changelog 470.141.03) and 460.106.00 lacks it: not known.
#[case(
    0x2508,
    "510.47.03",
    "unknown",
    "470.256.02 lists it, but as a release of an older branch"
)]
// T4 is listed by 460.106.00 and 470.256.02 as by 525.147.05: 510.47.03 lists it.
#[case(0x1eb8, "510.47.03", "lists", "")]
#[case(0x1eb8, "510", "lists", "")]
// 520.56.06: 470.256.02 lacks it, 525.147.05 lists it; nothing finer is known.
#[case(0x2704, "520.56.06", "unknown", "470.256.02 does not list it")]
fn findings_1_to_4(#[case] id: u16, #[case] spec: &str, #[case] want: &str, #[case] words: &str) {
    let got = proprietary_listing(id, &rel(spec));
    assert_eq!(kind(&got), want, "{got:?}");
    let text = format!("{got:?}");
    assert!(text.contains(words), "{text}");
}

// Finding 5: no open-gpu-kernel-modules README read lists these ids and no supported-gpus.json
// read flags them kernelopen, so an open release read does not support them.
#[rstest]
#[case(0x1e37, "570.124.06")]
#[case(0x1eb9, "570")]
#[case(0x1f09, "560.35.03")]
#[case(0x20b1, "550.54.15")]
#[case(0x26b8, "580.65.06")]
fn finding_5_open_module(#[case] id: u16, #[case] spec: &str) {
    let got = open_listing(id, &rel(spec));
    assert_eq!(kind(&got), "lacks", "{got:?}");
}

#[test]
fn an_id_no_source_names_gets_the_generation_bound_never_a_pass() {
    // 0x2fff: Blackwell's row, named by no README, changelog or json read.
    let got = proprietary_listing(0x2fff, &rel("570.124.06"));
    assert!(
        matches!(&got, Listing::Unknown(w) if w.contains("only the generation's bound")),
        "{got:?}"
    );
    // 0x28fe: Turing-to-Hopper row; no GPU of it before the row's first changelog floor.
    let got = proprietary_listing(0x28fe, &rel("396.54"));
    assert!(
        matches!(&got, Listing::Lacks(w) if w.contains("the generation's bound")),
        "{got:?}"
    );
}

#[test]
fn the_open_readme_and_the_kernelopen_flag_agree_where_both_were_read() {
    let open: BTreeMap<&str, BTreeSet<u16>> = include_str!("../data/open-releases.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let ids = c[3].split(' ').map(|i| u16::from_str_radix(i, 16).unwrap());
            (c[0], ids.collect())
        })
        .collect();
    let mut both = 0;
    for (release, ids) in table() {
        let Some(readme) = open.get(release.as_str()) else {
            continue;
        };
        both += 1;
        let flagged: BTreeSet<u16> = ids
            .iter()
            .filter(|(_, (_, _, k))| k == "yes")
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(&flagged, readme, "{release}");
        for id in readme {
            let got = proprietary_listing(*id, &rel(&release));
            assert_eq!(got, Listing::Lists, "{id:04x} @ {release}");
        }
    }
    assert_eq!(both, 7);
}
