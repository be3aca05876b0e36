//! The AMD table against the lists it was built from (crates/amd/data/*.tsv, each naming its
//! origin): every id of every source lands in the row that source gives it.
#![allow(clippy::unwrap_used)]

use gpuctl_amd::requirement::{RocmSupport, lookup};
use gpuctl_amd::table::{TargetSource, tables};
use gpuctl_core::plugin::requirement::Version;
use rstest::rstest;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn every_line_of_every_data_file_parses() {
    let t = tables();
    assert!(t.skipped.is_empty(), "{:?}", t.skipped);
    assert_eq!(t.names.len(), 743);
    assert_eq!(t.gfxip.len(), 180);
}

#[test]
fn every_libdrm_id_and_revision_gets_its_name() {
    let t = tables();
    for row in &t.names {
        let gpu = lookup(row.device_id, Some(row.revision));
        // libdrm lists a few pairs twice; the first name of the pair is the one given.
        let first = t
            .names
            .iter()
            .find(|n| (n.device_id, n.revision) == (row.device_id, row.revision))
            .map(|n| n.name);
        assert_eq!(
            gpu.name, first,
            "{:04x}:{:02x}",
            row.device_id, row.revision
        );
    }
}

#[test]
fn every_thunk_id_gets_the_thunks_target() {
    for (id, (target, _)) in &tables().gfxip {
        let gpu = lookup(*id, None);
        assert_eq!(gpu.target.as_deref(), Some(target.as_str()), "{id:04x}");
        assert_eq!(gpu.target_source, Some(TargetSource::Thunk));
    }
}

/// Where the sources disagree: ROCm 5.5.1's GPU table gives the Radeon RX 6600 gfx1031, while
/// the thunk's table gives its device ids (0x73ff, Navi 23, "DIMGREY_CAVEFISH") 10.3.2, gfx1032,
/// which is the target the GPU reports; the thunk is taken.
const DISAGREEMENTS: &[(&str, &str)] = &[("AMD Radeon RX 6600", "5.5.1")];

/// Each product a ROCm release lists by name: every libdrm id of that name gets the target the
/// release gives, whether the target came from the thunk or from the product list.
#[test]
fn every_rocm_product_with_a_libdrm_id_gets_the_releases_target() {
    let t = tables();
    let mut checked = 0;
    let agreed = |r: &&gpuctl_amd::table::RocmRow| {
        !r.product.is_empty()
            && !DISAGREEMENTS.contains(&(r.product, r.release.to_string().as_str()))
    };
    for product in t.rocm.iter().filter(agreed) {
        for row in t.names.iter().filter(|n| {
            gpuctl_amd::table::normalize(n.name) == gpuctl_amd::table::normalize(product.product)
        }) {
            let gpu = lookup(row.device_id, Some(row.revision));
            assert_eq!(
                gpu.target.as_deref(),
                Some(product.target),
                "{}",
                product.product
            );
            checked += 1;
        }
    }
    assert!(
        checked > 20,
        "only {checked} products matched a libdrm name"
    );
}

#[rstest]
// ROCm 6.0.0 historical matrix lists gfx942 first; still listed by 6.4.1.
#[case(
    0x74a1,
    Some(0x00),
    "AMD Instinct MI300X",
    "gfx942",
    "ROCm 6.0.0 or newer, Linux kernel 6.5 or newer"
)]
#[case(
    0x744c,
    Some(0xc8),
    "AMD Radeon RX 7900 XTX",
    "gfx1100",
    "ROCm 6.0.0 or newer, Linux kernel 6.0 or newer"
)]
// Listed from the oldest covered release (5.5.1): no lower bound.
#[case(
    0x740c,
    Some(0x01),
    "AMD Instinct MI250X / MI250",
    "gfx90a",
    "any ROCm, Linux kernel 5.18 or newer"
)]
// Arcturus: amdgpu's pciidlist binds it by default from 5.10 (experimental from 5.4).
#[case(
    0x738c,
    Some(0x01),
    "AMD Instinct MI100",
    "gfx908",
    "any ROCm, Linux kernel 5.10 or newer"
)]
// Deprecated, last listed by the ROCm 6.2 system requirements.
#[case(
    0x66af,
    Some(0xc1),
    "AMD Radeon VII",
    "gfx906",
    "ROCm 6.2.2 or older, Linux kernel 4.20 or newer"
)]
// RDNA4, listed first by ROCm 6.4.1 (matrix footnote names the R9700 with the RX 9070 XT).
#[case(
    0x7551,
    Some(0xc0),
    "AMD Radeon AI PRO R9700",
    "gfx1201",
    "ROCm 6.4.1 or newer, Linux kernel 6.11 or newer"
)]
// CDNA4, first in the ROCm 7.0.0 matrix.
#[case(
    0x75a3,
    Some(0x00),
    "AMD Instinct MI355X",
    "gfx950",
    "ROCm 7.0.0 or newer, Linux kernel 6.15 or newer"
)]
fn listed_gpus(
    #[case] id: u16,
    #[case] rev: Option<u8>,
    #[case] name: &str,
    #[case] target: &str,
    #[case] describe: &str,
) {
    let gpu = lookup(id, rev);
    assert_eq!(gpu.name, Some(name));
    assert_eq!(gpu.target.as_deref(), Some(target));
    assert!(gpu.rocm_listed());
    let r = gpu.requirement();
    assert_eq!(r.describe(), describe);
    if describe.starts_with("any ROCm") {
        assert_eq!(
            r.notes()[0],
            format!("ROCm lists {target} from 5.5.1, the oldest list in the sources, or earlier")
        );
    }
}

#[rstest]
// Phoenix: IP discovery binds GC 11.0.4 parts from Linux 6.2 (crates/amd/data/amdgpu-kernel.tsv).
#[case(0x15bf, "gfx1103", "11.0.0", "Linux kernel 6.2 or newer")]
// Yellow Carp and Navi 23: amdgpu's pciidlist binds them from 5.14 and 5.11 (amdgpu-pciids.tsv).
#[case(0x1681, "gfx1035", "10.3.0", "Linux kernel 5.14 or newer")]
#[case(0x73ff, "gfx1032", "10.3.0", "Linux kernel 5.11 or newer")]
// Navi 33: the LLVM docs name the RX 7600 (XT) gfx1102; every revision of 0x7480 is that chip.
#[case(0x7480, "gfx1102", "11.0.0", "Linux kernel 6.0 or newer")]
fn integrated_and_unlisted_gpus_carry_the_override(
    #[case] id: u16,
    #[case] target: &str,
    #[case] value: &str,
    #[case] describe: &str,
) {
    let gpu = lookup(id, None);
    assert_eq!(gpu.target.as_deref(), Some(target));
    assert!(
        matches!(gpu.rocm, RocmSupport::Unofficial { override_version, .. } if override_version == value)
    );
    let r = gpu.requirement();
    assert_eq!(r.describe(), describe);
    assert!(r.notes()[0].contains(&format!("HSA_OVERRIDE_GFX_VERSION={value}")));
}

// Targets no ROCm release lists and no public thread gives an override for: the GPU still gets
// its name, target and kernel, and says no release lists it officially.
#[rstest]
#[case(
    0x150e,
    Some(0xc1),
    "AMD Radeon 890M Graphics",
    "gfx1150",
    "Linux kernel 6.7 or newer"
)]
#[case(
    0x1586,
    Some(0xc1),
    "AMD Radeon 8060S Graphics",
    "gfx1151",
    "Linux kernel 6.9 or newer"
)]
fn unlisted_targets_keep_name_target_and_kernel(
    #[case] id: u16,
    #[case] rev: Option<u8>,
    #[case] name: &str,
    #[case] target: &str,
    #[case] describe: &str,
) {
    let gpu = lookup(id, rev);
    assert_eq!(
        (gpu.name, gpu.target.as_deref()),
        (Some(name), Some(target))
    );
    assert_eq!(gpu.rocm, RocmSupport::Unlisted);
    let r = gpu.requirement();
    assert_eq!(r.describe(), describe);
    assert_eq!(
        r.notes(),
        [format!("no ROCm release lists {target} officially")]
    );
}

#[test]
fn an_id_no_source_knows_is_unknown_never_any_driver() {
    let gpu = lookup(0x0001, None);
    assert_eq!((gpu.name, gpu.target.as_deref()), (None, None));
    let r = gpu.requirement();
    assert_eq!(r.who(), "AMD GPU (1002:0001)");
    assert_eq!(r.describe(), "unknown device: no source lists it");
    assert!(r.constraints().is_empty());
    // no stack satisfies it, not even one naming every component
    let stack = gpuctl_core::plugin::requirement::Stack::default();
    assert_eq!(
        r.why_not(&stack).as_deref(),
        Some("unknown device: no source lists it")
    );
}

#[test]
fn the_rocm_range_is_what_the_releases_say() {
    let t = tables();
    assert_eq!(t.newest_release(), Some(v("7.2.3")));
    let gfx906: Vec<Version> = t
        .releases_listing("gfx906")
        .iter()
        .map(|r| r.release)
        .collect();
    assert_eq!(gfx906.first(), Some(&v("5.5.1")));
    assert_eq!(gfx906.last(), Some(&v("6.2.2")));
}

/// A ROCm release satisfies only a target it lists: every id the tables know whose target no
/// release of rocm-gpus.tsv lists is satisfied by no read release (with any kernel), nor is a
/// listed target by a read release outside its listed range; every id amdgpu's pciidlist lists
/// is a known device.
#[test]
fn no_read_rocm_release_satisfies_a_target_it_does_not_list() {
    use gpuctl_core::plugin::requirement::{Known, Stack};
    let t = tables();
    let ids: std::collections::BTreeSet<u16> =
        t.gfxip.keys().chain(t.pciids.keys()).copied().collect();
    let mut unofficial = 0;
    for id in ids {
        let gpu = lookup(id, None);
        let r = gpu.requirement();
        assert_ne!(
            r.unknown(),
            Some("unknown device: no source lists it"),
            "{id:04x}"
        );
        let listing = gpu
            .target
            .as_deref()
            .map(|target| t.releases_listing(target))
            .unwrap_or_default();
        for release in t.rocm.iter().map(|row| row.release) {
            let stack = Stack::new()
                .with_version("rocm", Known::Exact(release))
                .with_version("kernel", Known::Exact(v("99.0")));
            // Inside a listed range the matrices leave gaps (gfx906: 6.0.0 and 6.2.2, not the
            // releases between, in the historical matrix): the range answers there, a known
            // limitation; outside it and for a target no release lists, nothing satisfies.
            let inside = listing
                .first()
                .is_some_and(|first| first.release <= release)
                && listing.last().is_some_and(|last| release <= last.release);
            if !inside {
                assert!(!r.satisfied_by(&stack), "{id:04x} at ROCm {release}");
            }
        }
        if listing.is_empty() {
            unofficial += 1;
            assert!(
                r.unknown().is_some_and(|u| u.contains("no ROCm release")),
                "{id:04x}"
            );
        }
    }
    assert!(unofficial > 100, "{unofficial}");
}
