//! The first kernel of each AMD chip against `crates/amd/data/amdgpu-kernel.tsv` (whose rows
//! cite the Gentoo wiki's AMDGPU feature table and the Linux 5.3 release notes): every chip of
//! the file lands on the kernel its source states, for every device id of that chip.
#![allow(clippy::unwrap_used)]

use gpuctl_amd::requirement::lookup;
use gpuctl_amd::table::tables;
use gpuctl_core::requirement::Version;
use rstest::rstest;

#[rstest]
#[case("Carrizo", "4.7")]
#[case("Fiji", "4.7")]
#[case("Tonga", "4.7")]
#[case("Polaris10", "4.15")]
#[case("Polaris11", "4.15")]
#[case("Polaris12", "4.15")]
#[case("VegaM", "4.15")]
#[case("Navi10", "5.3")]
fn every_device_of_a_chip_gets_the_kernel_its_source_states(
    #[case] chip: &str,
    #[case] kernel: &str,
) {
    let ids: Vec<u16> = tables()
        .gfxip
        .iter()
        .filter(|(_, (_, c))| *c == chip)
        .map(|(id, _)| *id)
        .collect();
    assert!(!ids.is_empty(), "no device of {chip}");
    for id in ids {
        assert_eq!(
            lookup(id, None).first_kernel,
            Some(Version::parse(kernel).unwrap()),
            "{id:04x} ({chip})"
        );
    }
}

#[test]
fn every_row_of_the_file_is_a_case_above_and_nothing_else_gets_a_kernel() {
    let t = tables();
    assert!(t.skipped.is_empty(), "{:?}", t.skipped);
    assert_eq!(t.kernels.len(), 8);
    // Vega20 and gfx942 have no row: no source read settles their first kernel.
    assert_eq!(lookup(0x66af, None).first_kernel, None);
    assert_eq!(lookup(0x74a1, None).first_kernel, None);
}

#[test]
fn the_kernel_floor_is_a_constraint_whatever_rocm_says() {
    // 1002:67df (Polaris10, gfx803) is listed by no ROCm release, yet needs the kernel.
    let r = lookup(0x67df, None).requirement();
    assert!(r.constraint("kernel").is_some(), "{:?}", r.constraints());
    assert!(
        r.describe().contains("Linux kernel 4.15 or newer"),
        "{}",
        r.describe()
    );
}
