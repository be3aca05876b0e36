//! The first kernel of each AMD GPU against the lists it comes from: `amdgpu-pciids.tsv` (the
//! kernel's amdgpu pciidlist at each release, by device id) and `amdgpu-kernel.tsv` (the releases
//! whose amdgpu_discovery.c first handles a target's IP blocks). Every id of the pciidlist lands
//! on the release the list gives it; the gaps the issue named land where the kernel says.
#![allow(clippy::unwrap_used)]

use gpuctl_amd::requirement::lookup;
use gpuctl_amd::table::tables;
use gpuctl_core::plugin::requirement::Version;
use rstest::rstest;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn every_pciidlist_id_gets_the_first_release_that_binds_it_by_default() {
    let t = tables();
    assert!(t.skipped.is_empty(), "{:?}", t.skipped);
    assert_eq!(t.pciids.len(), 304);
    let oldest = t.oldest_pciid_tree().unwrap();
    assert_eq!(oldest, v("4.9"));
    for (id, row) in &t.pciids {
        // An id the oldest tree read already binds has no settled first release.
        let want = (row.first_default != oldest).then_some(row.first_default);
        assert_eq!(
            lookup(*id, None).first_kernel,
            want,
            "{id:04x} ({})",
            row.chip
        );
    }
}

// The chips whose first kernel was open: each device id as amdgpu's pciidlist first binds it
// without amdgpu.exp_hw_support (the second release, where it differs, is when it was listed as
// experimental first).
#[rstest]
#[case(0x69af, "VEGA12", "4.17", "4.17")] // Radeon Pro Vega 20 (Vega12, gfx904)
#[case(0x15dd, "RAVEN", "4.15", "4.13")] // Raven Ridge
#[case(0x15d8, "RAVEN", "4.20", "4.20")] // Picasso and the Raven2 parts that carry 15d8
#[case(0x1636, "RENOIR", "5.5", "5.4")]
#[case(0x164c, "RENOIR", "5.11", "5.11")] // a later Renoir id
#[case(0x738c, "ARCTURUS", "5.10", "5.4")] // Instinct MI100
#[case(0x7360, "NAVI12", "5.9", "5.4")]
#[case(0x7340, "NAVI14", "5.4", "5.4")]
#[case(0x73df, "NAVY_FLOUNDER", "5.11", "5.11")] // Navi22
#[case(0x73ff, "DIMGREY_CAVEFISH", "5.11", "5.11")] // Navi23
#[case(0x163f, "VANGOGH", "5.11", "5.11")]
#[case(0x13fe, "CYAN_SKILLFISH", "5.15", "5.15")]
// The rows that cited weaker sources, re-checked against the pciidlist:
#[case(0x687f, "VEGA10", "4.15", "4.12")] // Phoronix gave 4.12, when it needed exp_hw_support
#[case(0x66af, "VEGA20", "4.20", "4.18")] // kernelnewbies' 4.20 notes: confirmed
#[case(0x694c, "VEGAM", "4.18", "4.18")] // Gentoo gave 4.15
#[case(0x740c, "ALDEBARAN", "5.18", "5.13")] // Phoronix gave 5.13, when it needed exp_hw_support
#[case(0x73bf, "SIENNA_CICHLID", "5.9", "5.9")] // confirmed
#[case(0x731f, "NAVI10", "5.3", "5.3")] // confirmed
#[case(0x743f, "BEIGE_GOBY", "5.14", "5.14")] // confirmed
#[case(0x1681, "YELLOW_CARP", "5.14", "5.14")] // confirmed
#[case(0x6980, "POLARIS12", "4.11", "4.11")] // Gentoo gave 4.15; 4.10 was not read
fn a_device_lands_on_the_release_the_pciidlist_gives(
    #[case] id: u16,
    #[case] chip: &str,
    #[case] kernel: &str,
    #[case] listed: &str,
) {
    let row = &tables().pciids[&id];
    assert_eq!((row.chip, row.first_listed), (chip, v(listed)), "{id:04x}");
    assert_eq!(lookup(id, None).first_kernel, Some(v(kernel)), "{id:04x}");
}

#[test]
fn raven_and_picasso_share_a_target_but_not_a_kernel() {
    let (raven, picasso) = (lookup(0x15dd, Some(0xc6)), lookup(0x15d8, Some(0xc1)));
    assert_eq!(raven.target, picasso.target);
    assert_eq!(raven.target.as_deref(), Some("gfx902"));
    assert_eq!(raven.first_kernel, Some(v("4.15")));
    assert_eq!(picasso.first_kernel, Some(v("4.20")));
}

#[test]
fn ids_the_oldest_tree_already_binds_get_no_kernel() {
    // Polaris10 (67df, RX 480/580), Tonga (6939), Fiji (7300), Carrizo (9874): bound by 4.9,
    // the oldest pciidlist read, so their first release is not settled.
    for id in [0x67df, 0x6939, 0x7300, 0x9874] {
        assert_eq!(tables().pciids[&id].first_default, v("4.9"), "{id:04x}");
        assert_eq!(lookup(id, None).first_kernel, None, "{id:04x}");
    }
}

// GPUs amdgpu binds by IP discovery: the kernel comes by LLVM target.
#[rstest]
#[case(0x74a1, "gfx942", "6.5")] // Instinct MI300X
#[case(0x75a3, "gfx950", "6.15")] // Instinct MI355X
#[case(0x744c, "gfx1100", "6.0")] // Radeon RX 7900 XTX
#[case(0x747e, "gfx1101", "6.1")] // Radeon RX 7800 XT
#[case(0x7480, "gfx1102", "6.0")] // Radeon RX 7600
#[case(0x15bf, "gfx1103", "6.2")] // Radeon 780M (Phoenix)
#[case(0x150e, "gfx1150", "6.7")] // Radeon 890M (Strix Point)
#[case(0x1586, "gfx1151", "6.9")] // Radeon 8060S (Strix Halo)
#[case(0x7590, "gfx1200", "6.11")] // Radeon RX 9060 XT
#[case(0x7550, "gfx1201", "6.11")] // Radeon RX 9070 XT
fn a_target_row_gives_its_gpus_the_kernel(
    #[case] id: u16,
    #[case] target: &str,
    #[case] kernel: &str,
) {
    assert!(!tables().pciids.contains_key(&id), "{id:04x}");
    let gpu = lookup(id, None);
    assert_eq!(gpu.target.as_deref(), Some(target));
    assert_eq!(gpu.first_kernel, Some(v(kernel)));
}

#[test]
fn every_target_row_reaches_some_gpu_of_the_table() {
    let t = tables();
    assert_eq!(t.kernels.len(), 10);
    for key in t.kernels.keys() {
        let reached = t
            .names
            .iter()
            .any(|n| lookup(n.device_id, None).target.as_deref() == Some(*key));
        assert!(reached, "{key}");
    }
}

#[test]
fn the_kernel_floor_is_a_constraint_whatever_rocm_says() {
    // 1002:6980 (Polaris12, gfx803) is listed by no ROCm release, yet needs the kernel.
    let r = lookup(0x6980, None).requirement();
    assert!(r.constraint("kernel").is_some(), "{:?}", r.constraints());
    assert!(
        r.describe().contains("Linux kernel 4.11 or newer"),
        "{}",
        r.describe()
    );
}
