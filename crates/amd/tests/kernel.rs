//! The first kernel of each AMD chip against `crates/amd/data/amdgpu-kernel.tsv` (whose rows
//! cite the Gentoo wiki, release notes and amdgpu pull requests): every chip of
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
#[case("BEIGE_GOBY", "5.14")]
#[case("YELLOW_CARP", "5.14")]
#[case("Vega10", "4.12")]
#[case("Vega20", "4.20")]
#[case("SIENNA_CICHLID", "5.9")]
#[case("Aldebaran", "5.13")]
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
    assert_eq!(t.kernels.len(), 18);
    // Vega12 (gfx904) and Navi32 (gfx1101) have no row: no source read settles them.
    assert_eq!(lookup(0x69af, None).first_kernel, None);
    assert_eq!(lookup(0x747e, None).first_kernel, None);
}

// Targets of GPUs the thunk's table does not know: the kernel comes by LLVM target, from the
// amdgpu pull requests cited in the file.
#[rstest]
#[case(0x74a1, "gfx942", "6.5")] // Instinct MI300X
#[case(0x744c, "gfx1100", "6.0")] // Radeon RX 7900 XTX
#[case(0x7550, "gfx1201", "6.11")] // Radeon RX 9070 XT
fn a_target_row_gives_its_gpus_the_kernel(
    #[case] id: u16,
    #[case] target: &str,
    #[case] kernel: &str,
) {
    let gpu = lookup(id, None);
    assert_eq!(gpu.target.as_deref(), Some(target));
    assert_eq!(gpu.first_kernel, Some(Version::parse(kernel).unwrap()));
}

#[test]
fn every_target_row_names_a_target_some_rocm_release_lists() {
    let t = tables();
    for key in t.kernels.keys().filter(|k| k.starts_with("gfx")) {
        assert!(!t.releases_listing(key).is_empty(), "{key}");
    }
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
