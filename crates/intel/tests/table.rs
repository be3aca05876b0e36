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
    assert_eq!(t.ids.len(), 216);
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
fn compute_runtime_notes(#[case] id: u16, #[case] note: &str) {
    assert_eq!(lookup(id).requirement().notes(), [note]);
}

#[test]
fn every_compute_row_names_a_known_platform() {
    let t = tables();
    for c in &t.compute {
        assert!(t.platform(c.macro_name).is_some(), "{}", c.macro_name);
    }
    assert_eq!(t.compute.len(), 23);
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
#[case("PTL", true)]
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
    "i915 kernel driver or xe kernel driver (Linux kernel 6.8 or newer; needs xe.force_probe=9a49 and i915.force_probe=!9a49)"
)]
#[case(
    0x56a5,
    "Intel GPU (Alchemist, 8086:56a5)",
    "i915 kernel driver or xe kernel driver (Linux kernel 6.8 or newer; needs xe.force_probe=56a5 and i915.force_probe=!56a5)"
)]
#[case(0x9b41, "Intel GPU (Comet Lake, 8086:9b41)", "i915 kernel driver")]
// xe only: the kernel floor is the GPU's own.
#[case(
    0xe20b,
    "Intel GPU (Battlemage, 8086:e20b)",
    "xe kernel driver, Linux kernel 6.11 or newer"
)]
#[case(0x64a0, "Intel GPU (Lunar Lake, 8086:64a0)", "xe kernel driver")]
fn requirements(#[case] id: u16, #[case] who: &str, #[case] describe: &str) {
    let r = lookup(id).requirement();
    assert_eq!(r.who(), who);
    assert_eq!(r.describe(), describe);
}

#[test]
fn an_id_no_list_names_has_no_constraint() {
    let r = lookup(0x0001).requirement();
    assert_eq!(r.who(), "Intel GPU (8086:0001)");
    assert_eq!(r.describe(), "any driver");
}
