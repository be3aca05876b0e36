//! The Intel GPUs before Comet Lake (crates/intel/data/i915-legacy.tsv, written by
//! i915-legacy.py from i915_pci.c and the id header at Linux 4.12 to 6.11): every row is
//! answered with i915 and the release the file gives; the xe-only platforms name xe; an id no
//! source lists is unknown.
#![allow(clippy::unwrap_used)]

use gpuctl_core::plugin::requirement::Version;
use gpuctl_intel::requirement::lookup;
use gpuctl_intel::table::tables;
use rstest::rstest;

const LEGACY: &str = include_str!("../data/i915-legacy.tsv");

fn rows() -> Vec<Vec<&'static str>> {
    LEGACY
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

#[test]
fn every_legacy_row_is_answered_with_i915_and_its_release() {
    let rows = rows();
    assert_eq!(rows.len(), 212);
    for c in rows {
        let id = u16::from_str_radix(c[1], 16).unwrap();
        let gpu = lookup(id);
        assert_eq!(gpu.macro_name, Some(c[0]), "{id:04x}");
        assert!(gpu.platform.is_some(), "{id:04x}");
        let drivers: Vec<_> = gpu.drivers.iter().map(|d| d.driver).collect();
        assert_eq!(drivers, ["i915"], "{id:04x}");
        let i915 = &gpu.drivers[0];
        let text = gpu.requirement().describe();
        if c[2] == "<4.12" {
            assert_eq!(i915.first_kernel, None, "{id:04x}");
            assert!(tables().i915_before_oldest.contains(&id));
            assert!(!text.contains("Linux kernel"), "{id:04x}: {text}");
        } else {
            let first = Version::parse(c[2]).unwrap();
            assert_eq!(i915.first_kernel, Some(first), "{id:04x}");
            assert!(
                text.contains(&format!("Linux kernel {} or newer", c[2])),
                "{id:04x}: {text}"
            );
        }
        if c[4] == "-" {
            assert!(!text.contains("needs"), "{id:04x}: {text}");
        }
    }
}

#[rstest]
#[case::skylake(0x1906, "Skylake", "i915 kernel driver")]
#[case::kaby_lake(0x5906, "Kaby Lake", "i915 kernel driver")]
#[case::coffee_lake(
    0x3e92,
    "Coffee Lake",
    "i915 kernel driver, Linux kernel 4.13 or newer"
)]
#[case::whiskey_lake(
    0x3ea0,
    "Whiskey Lake",
    "i915 kernel driver, Linux kernel 4.16 or newer"
)]
#[case::broxton(0x5a85, "Broxton (Apollo Lake)", "i915 kernel driver")]
#[case::gemini_lake(
    0x3185,
    "Gemini Lake",
    "i915 kernel driver (before Linux 4.13 needs i915.alpha_support=1)"
)]
#[case::amber_lake(0x87c0, "Amber Lake", "i915 kernel driver, Linux kernel 5.0 or newer")]
fn gen9_gpus_get_i915(#[case] id: u16, #[case] platform: &str, #[case] describe: &str) {
    let gpu = lookup(id);
    assert_eq!(gpu.platform, Some(platform));
    assert_eq!(gpu.requirement().describe(), describe);
}

/// xe alone, never i915; their releases are tested in tests/xe_only.rs.
#[rstest]
#[case::wildcat_lake(0xfd80)]
#[case::nova_lake_s(0xd740)]
#[case::crescent_island(0x674c)]
#[case::nova_lake_p(0xd750)]
fn xe_only_platforms_name_xe(#[case] id: u16) {
    let gpu = lookup(id);
    let drivers: Vec<_> = gpu.drivers.iter().map(|d| d.driver).collect();
    assert_eq!(drivers, ["xe"]);
    let r = gpu.requirement();
    assert!(
        r.describe().starts_with("xe kernel driver"),
        "{}",
        r.describe()
    );
}

#[test]
fn an_id_no_source_lists_is_unknown() {
    let r = lookup(0xffff).requirement();
    assert_eq!(r.unknown(), Some("unknown device: no source lists it"));
    assert_eq!(r.describe(), "unknown device: no source lists it");
}
