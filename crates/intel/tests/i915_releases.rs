//! i915's binding of each device id, release by release (crates/intel/data/i915-releases.tsv,
//! extracted from i915_pci.c and i915_pciids.h at each Linux release 4.16 to 6.11 by
//! i915-releases.py): every row lands on its device's i915 alternative, and the platforms the
//! earlier sources left open get the kernel those files give.
#![allow(clippy::unwrap_used)]

use gpuctl_core::plugin::requirement::Version;
use gpuctl_intel::requirement::lookup;
use gpuctl_intel::table::tables;
use rstest::rstest;

#[test]
fn every_row_parses_and_names_an_id_of_pciids_that_i915_lists() {
    let t = tables();
    assert!(t.skipped.is_empty(), "{:?}", t.skipped);
    // 151 from Comet Lake on (i915-releases.tsv), 29 older ones whose first release or gate was
    // read (i915-legacy.tsv)
    assert_eq!(t.i915.len(), 180);
    for r in &t.i915 {
        let gpu = lookup(r.device_id);
        assert!(gpu.macro_name.is_some(), "{:04x}", r.device_id);
        assert!(
            gpu.drivers.iter().any(|d| d.driver == "i915"),
            "{:04x}",
            r.device_id
        );
        assert!(r.first_default.is_none_or(|d| d >= r.first_listed));
        assert_eq!(r.gate.is_none(), r.first_default == Some(r.first_listed));
    }
}

#[test]
fn every_row_lands_on_its_devices_i915_alternative() {
    for r in &tables().i915 {
        let gpu = lookup(r.device_id);
        let i915 = gpu.drivers.iter().find(|d| d.driver == "i915").unwrap();
        let id = r.device_id;
        if tables().i915_before_oldest.contains(&id) {
            assert_eq!(i915.first_kernel, None, "{id:04x}");
        } else {
            assert_eq!(i915.first_kernel, Some(r.first_listed), "{id:04x}");
        }
        match (r.gate, r.first_default) {
            (None, _) => assert_eq!(i915.default_from, None, "{id:04x}"),
            (Some(gate), Some(from)) => {
                assert_eq!(i915.default_from, Some(from), "{id:04x}");
                assert_eq!(i915.parameter, gate, "{id:04x}");
            }
            // Still gated at 6.11: only a later release's source (DG1's) can end it.
            (Some(gate), None) => {
                assert_eq!(i915.parameter, gate, "{id:04x}");
                assert!(
                    i915.default_from
                        .is_none_or(|v| v > Version::parse("6.11").unwrap())
                );
            }
        }
    }
}

fn v(s: &str) -> Option<Version> {
    (s != "-").then(|| Version::parse(s).unwrap())
}

/// The gaps issue 10's first Intel table left, one id each, as i915-releases.tsv gives them:
/// the first release whose i915 binds the id and the first without a module parameter.
#[rstest]
#[case(0x9b41, "CML", "5.2", "-")]
#[case(0x8a52, "ICL", "4.17", "5.2")]
#[case(0x4541, "EHL", "5.2", "5.15")]
#[case(0x4e61, "JSL", "5.6", "5.15")]
#[case(0x9a49, "TGL", "5.4", "5.7")]
#[case(0x4c8a, "RKL", "5.9", "5.13")]
#[case(0x4905, "DG1", "5.16", "6.17")]
#[case(0x4680, "ADLS", "5.13", "5.16")]
#[case(0x46a6, "ADLP", "5.14", "5.17")]
#[case(0xa780, "RPLS", "5.17", "-")]
#[case(0xa7a0, "RPLP", "5.19", "-")]
#[case(0xa7a1, "RPLU", "5.19", "-")]
#[case(0x5690, "DG2", "5.19", "6.2")]
#[case(0x56a5, "DG2", "6.0", "6.2")]
#[case(0x56c0, "ATS_M", "6.0", "-")]
#[case(0x7d67, "ARL", "6.7", "-")]
#[case(0x7d41, "ARL", "6.9", "-")]
#[case(0x9ac0, "TGL", "5.8", "-")]
fn i915_first_and_default_kernels(
    #[case] id: u16,
    #[case] macro_name: &str,
    #[case] first: &str,
    #[case] default: &str,
) {
    let gpu = lookup(id);
    assert_eq!(gpu.macro_name, Some(macro_name));
    let i915 = gpu.drivers.iter().find(|d| d.driver == "i915").unwrap();
    assert_eq!(i915.first_kernel, v(first));
    assert_eq!(i915.default_from, v(default));
}

/// Ice Lake came in 4.17 behind i915.alpha_support, force_probe's name before Linux 5.3; xe does
/// not list it, so 4.17 is the GPU's kernel floor.
#[test]
fn ice_lake_before_5_2_needs_alpha_support() {
    assert_eq!(
        lookup(0x8a52).requirement().describe(),
        "i915 kernel driver (before Linux 5.2 needs i915.alpha_support=1), Linux kernel 4.17 or \
         newer"
    );
}

/// Ids added to a platform later carry their own release: Tiger Lake's 9ac0 came in 5.8, after
/// Tiger Lake's force_probe had gone (5.7), so it has no note.
#[test]
fn a_later_id_of_a_platform_has_its_own_floor() {
    assert_eq!(
        lookup(0x9ac0).requirement().describe(),
        "i915 kernel driver or xe kernel driver (Linux kernel 6.8 or newer; needs \
         xe.force_probe=9ac0 and i915.force_probe=!9ac0), Linux kernel 5.8 or newer"
    );
}

/// id-pulls.tsv: every row lands on its device's driver alternative as that driver's first
/// kernel, and no row repeats an id i915-releases.tsv already covers.
#[test]
fn every_pull_row_lands_on_its_devices_driver() {
    let t = tables();
    assert_eq!(t.id_pulls.len(), 14);
    for (driver, id, first) in &t.id_pulls {
        let gpu = lookup(*id);
        let row = gpu.drivers.iter().find(|d| d.driver == *driver).unwrap();
        assert_eq!(row.first_kernel, Some(*first), "{driver} {id:04x}");
        assert!(
            *driver != "i915" || t.i915_release(*id).is_none(),
            "{id:04x}"
        );
    }
}

/// "[git pull] drm for 6.10-rc1" carries "drm/xe/bmg: Add BMG platform definition", whose diff
/// lists e202, e20b, e20c, e20d and e212; Battlemage's later ids have no pull for their
/// release: kernel-releases.tsv bounds e220 by the reads (Debian's 6.12.117 lacks it, 7.2.13
/// lists it), so its floor is 7.2.13, the releases between unread.
#[rstest]
#[case(0xe20b, Some("6.10"))]
#[case(0xe212, Some("6.10"))]
#[case(0xe220, Some("7.2.13"))]
fn battlemage_xe_first_kernel_is_the_ids_own(#[case] id: u16, #[case] first: Option<&str>) {
    let gpu = lookup(id);
    assert_eq!(gpu.macro_name, Some("BMG"));
    let xe = gpu.drivers.iter().find(|d| d.driver == "xe").unwrap();
    assert_eq!(xe.first_kernel, first.map(|v| Version::parse(v).unwrap()));
}

/// "[git pull] drm for 6.13-rc1" carries the i915 and the xe commit "Add new PCI id for ARL"
/// (b640): both drivers from 6.13, xe behind force_probe.
#[test]
fn arrow_lake_b640_comes_with_6_13_on_both_drivers() {
    assert_eq!(
        lookup(0xb640).requirement().describe(),
        "i915 kernel driver or xe kernel driver (needs xe.force_probe=b640 and \
         i915.force_probe=!b640), Linux kernel 6.13 or newer"
    );
}
