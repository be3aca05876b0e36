//! The xe-only platforms newer than the xe_pci.c first read (Wildcat Lake, Nova Lake-S, Crescent
//! Island, Nova Lake-P): each id's first Linux release and force_probe as drivers.tsv and
//! id-pulls.tsv give them, one test per fact, each naming the source those files cite
//! (docs/requirement.md, "xe-only platforms"), and as the kernel releases read from Debian
//! (kernel-releases.tsv: 6.12.117, 7.2.13, 7.3.4) settle what those leave open: force_probe
//! per release, and the first read release for ids no pull dates.
#![allow(clippy::unwrap_used)]

use gpuctl_core::plugin::requirement::Version;
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
        .filter(|(_, id, _)| matches!(lookup(*id).macro_name, Some("NVLS" | "CRI")))
        .map(|(d, id, k)| (*d, *id, k.to_string()))
        .collect();
    let want: Vec<_> = [0xd740, 0xd741, 0xd742, 0xd743, 0xd744, 0xd745, 0x674c]
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
/// Debian's 7.2.13 still has .require_force_probe on nvls_desc, 7.3.4 no longer does
/// (kernel-releases.tsv): unasked from 7.3.4, the first read release without it.
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
            "xe kernel driver (before Linux 7.3.4 needs xe.force_probe={id:04x} and \
             i915.force_probe=!{id:04x}), Linux kernel 6.19 or newer"
        )
    );
}

/// d744 came with the other five (6.19) and is gone from pciids.h: Debian's 7.2.13 lists it
/// (nvls_desc, force_probe), 7.3.4 does not, so it is known, up to 7.2.13.
#[test]
fn nova_lake_s_d744_is_known_up_to_the_last_release_listing_it() {
    let xe = xe_row(0xd744);
    assert_eq!(xe.last_kernel, Some(v("7.2.13")));
    assert_eq!(
        lookup(0xd744).requirement().describe(),
        "xe kernel driver (Linux kernel 7.2.13 or older; needs xe.force_probe=d744 and \
         i915.force_probe=!d744), Linux kernel 6.19 or newer"
    );
}

/// Crescent Island: "drm/xe/cri: Add CRI platform definition" (5e0de2dfbc1b) went to 6.19
/// ("Initial CRI support" in the 6.19-rc1 pull) with 674c alone; cri_desc has
/// .require_force_probe = true in Debian's 7.2.13 and 7.3.4 (kernel-releases.tsv), so the
/// force_probe is settled.
#[test]
fn crescent_island_674c_is_xe_from_6_19() {
    let xe = xe_row(0x674c);
    assert_eq!(xe.first_kernel, Some(v("6.19")));
    assert_eq!(xe.force_probe, Some(true));
    let r = lookup(0x674c).requirement();
    assert_eq!(
        r.describe(),
        "xe kernel driver (needs xe.force_probe=674c and i915.force_probe=!674c), Linux kernel \
         6.19 or newer"
    );
    assert!(
        !r.notes().iter().any(|n| n.contains("not settled")),
        "{:?}",
        r.notes()
    );
}

/// Nova Lake-P: "drm/xe/nvlp: Add NVL-P platform definition" (all nine ids, nvlp_desc with
/// .require_force_probe = true) is in the first drm-xe-next pull towards 7.1 (2026-03-02);
/// Debian's 7.2.13 and 7.3.4 list all nine (7.3.4 writes d754-d757 as 0XD754), still gated.
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

/// Ids the first patches did not carry (Nova Lake-S d74a, d74b; Crescent Island 674d-6750): no
/// pull dates them, so the reads do: the first read release listing them, where the read
/// before does not (d74a: 7.3.4, not 7.2.13, and unasked there; 674d: 7.2.13, not 6.12.117).
#[rstest]
#[case(0xd74a, "7.3.4", "xe kernel driver, Linux kernel 7.3.4 or newer")]
#[case(0xd74b, "7.3.4", "xe kernel driver, Linux kernel 7.3.4 or newer")]
#[case(
    0x674d,
    "7.2.13",
    "xe kernel driver (needs xe.force_probe=674d and i915.force_probe=!674d), Linux kernel 7.2.13 or newer"
)]
#[case(
    0x6750,
    "7.2.13",
    "xe kernel driver (needs xe.force_probe=6750 and i915.force_probe=!6750), Linux kernel 7.2.13 or newer"
)]
fn later_ids_take_the_first_read_release_listing_them(
    #[case] id: u16,
    #[case] first: &str,
    #[case] describe: &str,
) {
    let xe = xe_row(id);
    assert_eq!(xe.first_kernel, Some(v(first)));
    assert_eq!(lookup(id).requirement().describe(), describe);
}
