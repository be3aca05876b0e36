//! The xe-only platforms newer than the xe_pci.c first read (Wildcat Lake, Nova Lake-S, Crescent
//! Island, Nova Lake-P): each id's first Linux release and force_probe as drivers.tsv and
//! id-pulls.tsv give them, one test per fact, each naming the source those files cite
//! (docs/requirement.md, "xe-only platforms"). Ids no source read dates keep the "not settled"
//! note and no kernel floor.
#![allow(clippy::unwrap_used)]

use gpuctl_core::requirement::Version;
use gpuctl_intel::requirement::lookup;
use gpuctl_intel::table::{DriverRow, tables};
use rstest::rstest;

fn xe_row(id: u16) -> DriverRow {
    let gpu = lookup(id);
    let drivers: Vec<_> = gpu.drivers.iter().map(|d| d.driver).collect();
    assert_eq!(drivers, ["xe"], "{id:04x}");
    gpu.drivers.into_iter().next().unwrap()
}

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

/// The data rows themselves, as the files read: a platform-wide release where one commit brought
/// every id, per-id rows where later ids came in a release no source read names.
#[test]
fn the_data_rows_are_as_read() {
    let t = tables();
    let row = |m: &str| {
        let r = t.drivers_of(m);
        assert_eq!(r.len(), 1, "{m}");
        (r[0].force_probe, r[0].first_kernel)
    };
    assert_eq!(row("WCL"), (Some(false), Some(v("6.17"))));
    assert_eq!(row("NVLS"), (Some(true), None));
    assert_eq!(row("CRI"), (None, None));
    assert_eq!(row("NVLP"), (Some(true), Some(v("7.1"))));
    let pulls: Vec<_> = t
        .id_pulls
        .iter()
        .filter(|(_, id, _)| matches!(t.macro_of(*id), Some("NVLS" | "CRI")))
        .map(|(d, id, k)| (*d, *id, k.to_string()))
        .collect();
    let want: Vec<_> = [0xd740, 0xd741, 0xd742, 0xd743, 0xd745, 0x674c]
        .into_iter()
        .map(|id| ("xe", id, "6.19".to_string()))
        .collect();
    assert_eq!(pulls, want);
}

/// Wildcat Lake: "[git pull] drm for 6.17-rc1" (2025-07-30, "xe: WildCat Lake support, Enable
/// PanthorLake by default") carries "drm/xe: Add Wildcat Lake device IDs to PTL list"
/// (3c0f211bc8fc, both ids on Panther Lake's desc) and "drm/xe/ptl: Drop force_probe requirement"
/// (94de1dfd4729): from 6.17, with no force_probe.
#[rstest]
#[case(0xfd80)]
#[case(0xfd81)]
fn wildcat_lake_is_xe_from_6_17_unasked(#[case] id: u16) {
    let xe = xe_row(id);
    assert_eq!(xe.first_kernel, Some(v("6.17")));
    assert_eq!(xe.force_probe, Some(false));
    assert_eq!(xe.default_from, None);
    let r = lookup(id).requirement();
    assert_eq!(r.describe(), "xe kernel driver, Linux kernel 6.17 or newer");
    assert!(!r.notes().iter().any(|n| n.contains("not settled")));
}

/// Panther Lake, whose desc Wildcat Lake shares: xe binds it without force_probe from 6.17
/// (force-probe.tsv, 94de1dfd4729), though xe listed it from 6.13.
#[test]
fn panther_lake_needs_force_probe_only_before_6_17() {
    assert_eq!(
        lookup(0xb080).requirement().describe(),
        "xe kernel driver (before Linux 6.17 needs xe.force_probe=b080 and \
         i915.force_probe=!b080), Linux kernel 6.13 or newer"
    );
}

/// Nova Lake-S: "drm/xe/nvl: Define NVL-S platform" (c002b1764e7b) is in "[git pull] drm for
/// 6.19-rc1" (2025-12-03); its patch adds d740-d745 on nvls_desc, .require_force_probe = true.
#[rstest]
#[case(0xd740)]
#[case(0xd741)]
#[case(0xd742)]
#[case(0xd743)]
#[case(0xd745)]
fn nova_lake_s_first_ids_are_xe_from_6_19_behind_force_probe(#[case] id: u16) {
    let xe = xe_row(id);
    assert_eq!(xe.first_kernel, Some(v("6.19")));
    assert_eq!(
        lookup(id).requirement().describe(),
        format!(
            "xe kernel driver (needs xe.force_probe={id:04x} and i915.force_probe=!{id:04x}), \
             Linux kernel 6.19 or newer"
        )
    );
}

/// Crescent Island: "drm/xe/cri: Add CRI platform definition" (5e0de2dfbc1b) went to 6.19
/// ("Initial CRI support" in the 6.19-rc1 pull) with 674c alone; cri_desc's force_probe is in no
/// source read, so the answer says so rather than "unasked".
#[test]
fn crescent_island_674c_is_xe_from_6_19() {
    let xe = xe_row(0x674c);
    assert_eq!(xe.first_kernel, Some(v("6.19")));
    let r = lookup(0x674c).requirement();
    assert_eq!(r.describe(), "xe kernel driver, Linux kernel 6.19 or newer");
    assert!(
        r.notes()
            .iter()
            .any(|n| n == "whether xe needs force_probe for it is not settled by the sources read"),
        "{:?}",
        r.notes()
    );
}

/// Nova Lake-P: "drm/xe/nvlp: Add NVL-P platform definition" (all nine ids, nvlp_desc with
/// .require_force_probe = true) is in the first drm-xe-next pull towards 7.1 (2026-03-02).
#[rstest]
#[case(0xd750)]
#[case(0xd754)]
#[case(0xd75f)]
fn nova_lake_p_is_xe_from_7_1_behind_force_probe(#[case] id: u16) {
    let xe = xe_row(id);
    assert_eq!(xe.first_kernel, Some(v("7.1")));
    assert_eq!(xe.force_probe, Some(true));
    assert_eq!(
        lookup(id).requirement().describe(),
        format!(
            "xe kernel driver (needs xe.force_probe={id:04x} and i915.force_probe=!{id:04x}), \
             Linux kernel 7.1 or newer"
        )
    );
}

/// Ids the first patches did not carry (Nova Lake-S d74a, d74b; Crescent Island 674d-6750): xe
/// lists them today, no source read names the release, so no kernel floor and the note says so
/// with their platform's first release.
#[rstest]
#[case(0xd74a, "6.19")]
#[case(0xd74b, "6.19")]
#[case(0x674d, "6.19")]
#[case(0x6750, "6.19")]
fn later_ids_keep_not_settled(#[case] id: u16, #[case] platform_first: &str) {
    let xe = xe_row(id);
    assert_eq!(xe.first_kernel, None);
    let r = lookup(id).requirement();
    assert!(!r.describe().contains("Linux kernel"), "{}", r.describe());
    let note = format!(
        "xe lists it (pciids.h of 2026); the Linux release that added this id is not settled by \
         the sources read (its platform's first ids came in Linux {platform_first})"
    );
    assert!(r.notes().contains(&note), "{:?}", r.notes());
}
