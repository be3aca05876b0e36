//! The Intel table against the lists it was built from (crates/intel/data/*.tsv, each naming
//! its origin): every id of pciids.h lands on its platform and on the drivers whose id lists
//! include that platform.
#![allow(clippy::unwrap_used)]

use gpuctl_intel::requirement::lookup;
use gpuctl_intel::table::tables;
use rstest::rstest;

#[test]
fn every_line_of_every_data_file_parses() {
    let t = tables();
    assert!(t.skipped.is_empty(), "{:?}", t.skipped);
    // 216 from pciids.tsv (Comet Lake on), 212 from i915-legacy.tsv (before Comet Lake)
    assert_eq!(t.ids.len(), 428);
}

#[test]
fn every_pciids_id_lands_on_its_macros_platform_and_drivers() {
    let t = tables();
    for (id, m) in &t.ids {
        let gpu = lookup(*id);
        assert_eq!(gpu.macro_name, Some(*m), "{id:04x}");
        assert!(gpu.platform.is_some(), "{m} has no platform row");
        let drivers: Vec<&str> = gpu.drivers.iter().map(|d| d.driver).collect();
        let listed: Vec<&str> = t
            .drivers
            .iter()
            .filter(|d| d.macro_name == *m)
            .map(|d| d.driver)
            .collect();
        assert_eq!(drivers, listed, "{id:04x}");
    }
}

/// Every platform of the compute runtime's README table, and the legacy packages, as
/// compute-runtime.tsv records them.
#[rstest]
#[case(0x9a49, "compute runtime: OpenCL 3.0, Level Zero 1.17")]
#[case(0xe20b, "compute runtime: OpenCL 3.0, Level Zero 1.17")]
#[case(
    0x9b41,
    "compute runtime: the legacy1 packages (Gen8, Gen9 and Gen11 devices)"
)]
// documentation/LEGACY_PLATFORMS.md's table (and the README's legacy table): Ice Lake OpenCL 3.0 and
// Level Zero 1.5, Elkhart Lake OpenCL 3.0 and no Level Zero.
#[case(
    0x8a52,
    "compute runtime: the legacy1 packages (Gen8, Gen9 and Gen11 devices): OpenCL 3.0, Level Zero 1.5"
)]
#[case(
    0x4541,
    "compute runtime: the legacy1 packages (Gen8, Gen9 and Gen11 devices): OpenCL 3.0, no Level Zero"
)]
fn compute_runtime_notes(#[case] id: u16, #[case] note: &str) {
    assert_eq!(lookup(id).requirement().notes(), [note]);
}

#[test]
fn every_compute_row_names_a_known_platform() {
    let t = tables();
    for c in &t.compute {
        assert!(t.platform(c.macro_name).is_some(), "{}", c.macro_name);
    }
    // 23 rows, and Gen8 (2) and Gen9 (7) platforms before Comet Lake
    assert_eq!(t.compute.len(), 32);
}

#[test]
fn no_id_belongs_to_two_platforms() {
    let t = tables();
    for (i, (id, _)) in t.ids.iter().enumerate() {
        assert!(!t.ids[i + 1..].iter().any(|(j, _)| j == id), "{id:04x}");
    }
}

/// The xe force-probe flags exactly as xe_pci.c's descs give them.
#[rstest]
#[case("TGL", true)]
#[case("DG2", true)]
#[case("MTL", true)]
#[case("LNL", false)]
#[case("BMG", false)]
// Panther Lake's .require_force_probe is gone since 6.17 (force-probe.tsv); the row says "no".
#[case("PTL", false)]
#[case("WCL", false)]
#[case("NVLS", true)]
#[case("NVLP", true)]
fn xe_force_probe_follows_the_desc(#[case] m: &str, #[case] force: bool) {
    let t = tables();
    let xe = t
        .drivers_of(m)
        .into_iter()
        .find(|d| d.driver == "xe")
        .unwrap();
    assert_eq!(xe.force_probe, Some(force));
}

#[rstest]
// The fixture hosts' GPUs: intel-laptop (Tiger Lake), intel-arc-cdi (Arc A380), workstation
// (Comet Lake).
#[case(
    0x9a49,
    "Intel GPU (Tiger Lake, 8086:9a49)",
    "i915 kernel driver (before Linux 5.7 needs i915.force_probe=9a49) or xe kernel driver \
     (Linux kernel 6.8 or newer; needs xe.force_probe=9a49 and i915.force_probe=!9a49), \
     Linux kernel 5.4 or newer"
)]
#[case(
    0x56a5,
    "Intel GPU (Alchemist, 8086:56a5)",
    "i915 kernel driver (before Linux 6.2 needs i915.force_probe=56a5) or xe kernel driver \
     (Linux kernel 6.8 or newer; needs xe.force_probe=56a5 and i915.force_probe=!56a5), \
     Linux kernel 6.0 or newer"
)]
#[case(
    0x9b41,
    "Intel GPU (Comet Lake, 8086:9b41)",
    "i915 kernel driver, Linux kernel 5.2 or newer"
)]
// xe only: the kernel floor is the GPU's own.
#[case(
    0xe20b,
    "Intel GPU (Battlemage, 8086:e20b)",
    "xe kernel driver (before Linux 6.12 needs xe.force_probe=e20b and i915.force_probe=!e20b), \
     Linux kernel 6.10 or newer"
)]
#[case(
    0x64a0,
    "Intel GPU (Lunar Lake, 8086:64a0)",
    "xe kernel driver (before Linux 6.12 needs xe.force_probe=64a0 and i915.force_probe=!64a0), \
     Linux kernel 6.8 or newer"
)]
fn requirements(#[case] id: u16, #[case] who: &str, #[case] describe: &str) {
    let r = lookup(id).requirement();
    assert_eq!(r.who(), who);
    assert_eq!(r.describe(), describe);
}

#[test]
fn an_id_no_list_names_is_unknown_never_any_driver() {
    let r = lookup(0x0001).requirement();
    assert_eq!(r.who(), "Intel GPU (8086:0001)");
    assert_eq!(r.describe(), "unknown device: no source lists it");
}

// crates/intel/data/force-probe.tsv: the commits that dropped xe's force_probe for Lunar Lake
// (2024-08-22) and Battlemage (2024-08-28), both in Linux 6.12.
#[rstest]
#[case(0x64a0, "LNL")]
#[case(0xe20b, "BMG")]
fn xe_binds_without_force_probe_from_the_kernel_the_commit_is_in(
    #[case] id: u16,
    #[case] macro_name: &str,
) {
    let gpu = lookup(id);
    assert_eq!(gpu.macro_name, Some(macro_name));
    let xe = gpu.drivers.iter().find(|d| d.driver == "xe").unwrap();
    assert_eq!(
        xe.default_from,
        Some(gpuctl_core::plugin::requirement::Version::parse("6.12").unwrap())
    );
    let r = gpu.requirement().describe();
    assert!(
        r.contains(&format!("before Linux 6.12 needs xe.force_probe={id:04x}")),
        "{r}"
    );
}

#[test]
fn no_other_driver_row_has_a_force_probe_kernel() {
    let with: Vec<_> = tables()
        .drivers
        .iter()
        .filter(|d| d.default_from.is_some())
        .map(|d| (d.macro_name, d.driver))
        .collect();
    assert_eq!(
        with,
        [("DG1", "i915"), ("LNL", "xe"), ("BMG", "xe"), ("PTL", "xe")]
    );
}

/// i915 without force_probe, where i915-releases.tsv (i915's own sources, release by release) and
/// the single sources read before agree; DG1 is past the releases read there and keeps
/// force-probe.tsv's row. xe needs its own force_probe on all four platforms, so the note names
/// only i915's flag.
#[rstest]
// balena-os/balena-intel#633 (2023-05-03): Alder Lake GPUs supported from 5.16 (force_probe=4680 before).
#[case(0x4680, "ADLS", "5.16")]
// "[PULL] drm-intel-gt-next" for 6.17 (2025-07-02): DG1 out of force probe (jellyfin.org#1526 agrees).
#[case(0x4905, "DG1", "6.17")]
// Phoronix, Linux 6.2 graphics summary (2022-12): Alchemist stable, no i915.force_probe.
#[case(0x56a0, "DG2", "6.2")]
// nishikiout.net (2024-01-08): Meteor Lake's GPU usable by default from Linux 6.7.
#[case(0x7d40, "MTL", "6.7")]
fn i915_binds_without_force_probe_from_the_kernel_its_source_names(
    #[case] id: u16,
    #[case] macro_name: &str,
    #[case] kernel: &str,
) {
    let gpu = lookup(id);
    assert_eq!(gpu.macro_name, Some(macro_name));
    let i915 = gpu.drivers.iter().find(|d| d.driver == "i915").unwrap();
    assert_eq!(
        i915.default_from,
        Some(gpuctl_core::plugin::requirement::Version::parse(kernel).unwrap())
    );
    let r = gpu.requirement().describe();
    assert!(
        r.starts_with(&format!(
            "i915 kernel driver (before Linux {kernel} needs i915.force_probe={id:04x}) or"
        )),
        "{r}"
    );
}

/// First kernels: xe's from drivers.tsv's sources; i915's from i915-releases.tsv, which agrees with
/// the single sources read before (now superseded) for these three ids.
#[rstest]
// freebsd/drm-kmod#47, its maintainer (2021-01-16): Tiger Lake support introduced in 5.4.
#[case(0x9a49, "TGL", "i915", "5.4")]
// Phoronix, Linux 5.18 i915 pull (2022-02-09): Alder Lake N support in place.
#[case(0x46d0, "ADLN", "i915", "5.18")]
// wccftech (2022-07): initial Meteor Lake in the pull for "Linux 5.20", released as 6.0.
#[case(0x7d40, "MTL", "i915", "6.0")]
// "[git pull] drm for 6.8" and the first drm-xe-next pull it carries: Lunar Lake under enablement,
// force-probed, with "drm/xe/lnl: Add LNL platform definition".
#[case(0x64a0, "LNL", "xe", "6.8")]
// "[git pull] drm for 6.13-rc1" carries "drm/xe/ptl: Add PTL platform definition".
#[case(0xb080, "PTL", "xe", "6.13")]
fn first_kernel_lands_where_its_source_says(
    #[case] id: u16,
    #[case] macro_name: &str,
    #[case] driver: &str,
    #[case] kernel: &str,
) {
    let gpu = lookup(id);
    assert_eq!(gpu.macro_name, Some(macro_name));
    let row = gpu.drivers.iter().find(|d| d.driver == driver).unwrap();
    assert_eq!(
        row.first_kernel,
        Some(gpuctl_core::plugin::requirement::Version::parse(kernel).unwrap())
    );
}

// Alder Lake-N: i915 from 5.18 is the GPU's floor; xe adds its own 6.8.
#[test]
fn alder_lake_n_carries_the_i915_floor() {
    assert_eq!(
        lookup(0x46d0).requirement().describe(),
        "i915 kernel driver or xe kernel driver (Linux kernel 6.8 or newer; needs \
         xe.force_probe=46d0 and i915.force_probe=!46d0), Linux kernel 5.18 or newer"
    );
}
