//! The requirement command's logic: device ids, driver specs, host enumeration, reports.
#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use std::path::Path;

use gpuctl_nvidia::model::site::{Format, parse_site_rows};
use rstest::rstest;

use gpuctl_core::Host;
use gpuctl_nvidia::model::{BranchKnowledge, DriverSource, KernelModule};
use gpuctl_nvidia::requirement::*;
use gpuctl_nvidia::table::builtin_table;

#[rstest]
#[case("2901", Ok(0x2901))]
#[case("2E12", Ok(0x2e12))]
#[case("0x1db4", Ok(0x1db4))]
#[case("0X1DB4", Ok(0x1db4))]
#[case("10de:2901", Ok(0x2901))]
#[case("10DE:2901", Ok(0x2901))]
#[case("0000", Ok(0))]
#[case("ffff", Ok(0xffff))]
#[case("1db", Err(()))]
#[case("1db40", Err(()))]
#[case("zzzz", Err(()))]
#[case("2b85x", Err(()))]
#[case("", Err(()))]
#[case(" 1db4", Err(()))]
#[case("1db4\n", Err(()))]
#[case("0x", Err(()))]
#[case("0x1db", Err(()))]
#[case("1002:744c", Err(()))]
#[case("10de:", Err(()))]
#[case("10de2901", Err(()))]
#[case("0x10de:2901", Err(()))]
#[case("+2901", Err(()))]
#[case("２９０１", Err(()))]
#[case("é901", Err(()))]
fn device_ids(#[case] token: &str, #[case] want: Result<u16, ()>) {
    let got = parse_device_id(token);
    match want {
        Ok(id) => assert_eq!(got, Ok(id)),
        Err(()) => assert_eq!(
            got,
            Err(DeviceIdError::Malformed {
                token: token.to_string()
            })
        ),
    }
}

#[test]
fn device_id_messages_and_cap() {
    let err = parse_device_id("0x1db").expect_err("malformed");
    assert_eq!(
        err.to_string(),
        "'0x1db' is not an NVIDIA PCI device id; give four hex digits as XXXX, 0xXXXX or \
         10de:XXXX (e.g. 2901)"
    );
    assert_eq!(parse_device_ids(["1db4", "2901"]), Ok(vec![0x1db4, 0x2901]));
    assert_eq!(
        parse_device_ids(["1db4", "nope", "also bad"]),
        Err(DeviceIdError::Malformed {
            token: "nope".into()
        })
    );
    let many = std::iter::repeat_n("2901", MAX_DEVICE_IDS);
    assert_eq!(parse_device_ids(many).map(|v| v.len()), Ok(MAX_DEVICE_IDS));
    // Stops at the first id past the cap, however long the list goes on.
    let endless = std::iter::repeat("2901");
    let err = parse_device_ids(endless).expect_err("too many");
    assert_eq!(
        err,
        DeviceIdError::TooMany {
            limit: MAX_DEVICE_IDS
        }
    );
    assert_eq!(
        err.to_string(),
        "more than 65536 device ids were given, one per possible PCI device id"
    );
}

use BranchKnowledge::{AtLeast, Exact, Unknown};
use KernelModule::{Open, Proprietary};

#[rstest]
#[case("open:580", Some(Open), Exact(580))]
#[case("open:580+", Some(Open), AtLeast(580))]
#[case("open", Some(Open), Unknown)]
#[case("OPEN", Some(Open), Unknown)]
#[case("proprietary:470", Some(Proprietary), Exact(470))]
#[case("Proprietary:0580+", Some(Proprietary), AtLeast(580))]
#[case("580", None, Exact(580))]
#[case("580+", None, AtLeast(580))]
fn driver_specs(
    #[case] spec: &str,
    #[case] module: Option<KernelModule>,
    #[case] branch: BranchKnowledge,
) {
    let parsed = parse_driver_spec(spec).expect("valid");
    assert_eq!(parsed.spec(), spec);
    assert_eq!(parsed.source(), &DriverSource::new(module, branch));
}

#[rstest]
#[case("", "it is empty")]
#[case("open:", "a driver branch is an integer like 580, not ''")]
#[case("open:+", "a driver branch is an integer like 580, not ''")]
#[case(
    "open:580.95.1.2",
    "'580.95.1.2' is not an NVIDIA driver release; give its numbers as the driver prints them, e.g. 570.124.06"
)]
#[case("open:580++", "a driver branch is an integer like 580, not '580+'")]
#[case(
    "580.x",
    "'580.x' is not an NVIDIA driver release; give its numbers as the driver prints them, e.g. 570.124.06"
)]
#[case("open:new", "a driver branch is an integer like 580, not 'new'")]
#[case(":580", "the kernel module must be open or proprietary, not ''")]
#[case(
    "nouveau:580",
    "the kernel module must be open or proprietary, not 'nouveau'"
)]
#[case(
    "nouveau",
    "the kernel module must be open or proprietary, not 'nouveau'"
)]
#[case("open:580:1", "a driver branch is an integer like 580, not '580:1'")]
#[case(
    "either:580",
    "a driver installs the open or the proprietary kernel module, not either"
)]
#[case(
    "open:99999999999",
    "driver branch 99999999999 is out of range: a branch is at most 4294967295"
)]
fn bad_driver_specs(#[case] spec: &str, #[case] reason: &str) {
    let err = parse_driver_spec(spec).expect_err("invalid");
    assert_eq!(
        err,
        DriverSpecError {
            spec: spec.to_string(),
            reason: reason.to_string()
        }
    );
}

fn gpu(id: u16) -> Gpu {
    Gpu {
        device_id: id,
        name: None,
        pci_address: None,
    }
}

fn for_ids(ids: &[u16], driver: Option<&str>) -> Report {
    let spec = driver.map(|d| parse_driver_spec(d).expect("valid spec"));
    ids_report(&builtin_table(), ids, spec.as_ref())
}

#[test]
fn one_blackwell() {
    let r = for_ids(&[0x2901], Some("open:580"));
    let json = serde_json::to_value(&r).expect("serializes");
    assert_eq!(
        json,
        serde_json::json!({
            "gpus": [{"device_id": "2901", "name": null, "generation": "Blackwell",
                      "kernel_module": "open", "min_branch": 570, "max_branch": null,
                      "compute": true,
                      "describe": "open kernel module, driver branch 570 or newer",
                      "who": "NVIDIA GPU (Blackwell, 10de:2901)",
                      "pci_address": null, "counted": true,
                      "floors": ["first listed: open kernel module 570.86.15 (2025-01-27, open-gpu-kernel-modules README)"]}],
            "combined": {"device_id": "2901", "name": null, "generation": "Blackwell",
                         "kernel_module": "open", "min_branch": 570, "max_branch": null,
                         "compute": true,
                         "describe": "open kernel module, driver branch 570 or newer",
                         "who": "NVIDIA GPU (Blackwell, 10de:2901)"},
            "conflicts": [],
            "driver": {"spec": "open:580", "satisfied": true, "why_not": null},
            "warnings": []
        })
    );
    assert!(!r.unserved());
}

#[rstest]
#[case(&[0x2901], Some("open:565"), Some("branch 565 is older than 570"))]
#[case(&[0x2901], Some("proprietary:580"), Some("proprietary kernel module, the open one is needed"))]
#[case(&[0x1db4, 0x15f8], Some("proprietary:580+"), Some("installs the newest branch it carries, which can be newer than 580"))]
#[case(&[0x1db4], Some("580"), Some("unknown kernel module, the proprietary one is needed"))]
#[case(&[0x27b0], Some("580"), None)]
#[case(&[0x2901, 0x3182], Some("open:575"), Some("branch 575 is older than 580"))]
#[case(&[0x2901, 0x3182], Some("open:580+"), None)]
fn driver_verdicts(#[case] ids: &[u16], #[case] driver: Option<&str>, #[case] want: Option<&str>) {
    let r = for_ids(ids, driver);
    let verdict = r.driver.as_ref().expect("asked");
    assert_eq!(verdict.why_not.as_deref(), want);
    assert_eq!(verdict.satisfied, want.is_none());
    assert_eq!(r.unserved(), want.is_some());
}

#[test]
fn ada_and_blackwell_combine() {
    let r = for_ids(&[0x27b0, 0x2901], None);
    let combined = r.combined.as_ref().expect("combines");
    assert_eq!(
        combined.describe,
        "open kernel module, driver branch 570 or newer"
    );
    assert_eq!(
        combined.who,
        "NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:27b0), NVIDIA GPU (Blackwell, 10de:2901)"
    );
    assert_eq!(
        (combined.device_id.as_deref(), combined.compute),
        (None, None)
    );
}

#[test]
fn v100_and_b200_conflict() {
    let r = for_ids(&[0x1db4, 0x2901], Some("open:580"));
    let conflict = "NVIDIA GPU (Blackwell, 10de:2901) needs the open kernel module, but NVIDIA GPU \
                    (Maxwell/Pascal/Volta, 10de:1db4) needs the proprietary one";
    assert_eq!(r.combined, None);
    assert_eq!(r.conflicts, [conflict]);
    let verdict = r.driver.as_ref().expect("asked");
    assert_eq!(
        (verdict.satisfied, verdict.why_not.as_deref()),
        (false, Some(conflict))
    );
    assert!(r.unserved());
    assert_eq!(r.gpus.len(), 2);
}

#[test]
fn a_host_kepler_is_left_out_with_the_warning_and_an_id_counts() {
    let gpus = [
        Gpu {
            device_id: 0x102d,
            name: Some("GK210GL [Tesla K80]".into()),
            pci_address: Some("0000:86:00.0".into()),
        },
        gpu(0x2901),
    ];
    let spec = parse_driver_spec("open:580").expect("valid");
    let r = report(&builtin_table(), &gpus, Some(&spec), vec!["earlier".into()]);
    assert_eq!(
        r.warnings,
        [
            "earlier",
            "NVIDIA GPU GK210GL [Tesla K80] (10de:102d) is Kepler or older silicon: it needs driver \
             branch 470 or older, which current distributions no longer package -- left out of the \
             combined requirement",
            "driver open:580 will not drive GK210GL [Tesla K80] (Kepler or older, 10de:102d): open \
             kernel module, the proprietary one is needed"
        ]
    );
    assert_eq!(
        r.gpus.iter().map(|g| g.counted).collect::<Vec<_>>(),
        [false, true]
    );
    assert_eq!(
        r.gpus[0].requirement.who,
        "GK210GL [Tesla K80] (Kepler or older, 10de:102d)"
    );
    assert_eq!(r.gpus[0].requirement.compute, Some(false));
    assert!(r.conflicts.is_empty());
    assert_eq!(
        r.combined.as_ref().map(|c| c.device_id.as_deref()),
        Some(Some("2901"))
    );
    assert!(!r.unserved());

    // Named by its id, the same GPU counts: open:580 cannot drive it.
    let only = for_ids(&[0x102d], Some("open:580"));
    assert!(only.warnings.is_empty());
    assert!(only.gpus[0].counted);
    assert_eq!(only.driver.as_ref().map(|d| d.satisfied), Some(false));
    assert!(!for_ids(&[0x102d, 0x3182], None).conflicts.is_empty());
}

#[test]
fn site_rows_change_the_requirement_but_not_who_counts() {
    let site = "- {generation: Hopper (site policy), first: 2330, last: 2330, kernel_module: open, min_branch: 575}\n\
                - {generation: Kepler (site), first: 102d, last: 102d, compute: true}\n";
    let rows = parse_site_rows(site, Format::Yaml, Path::new("site.yaml")).expect("valid");
    let table = builtin_table().with_prepended(rows);
    let spec = parse_driver_spec("open:570").expect("valid");
    let host_kepler = Gpu {
        pci_address: Some("0000:86:00.0".into()),
        ..gpu(0x102d)
    };
    let r = report(&table, &[gpu(0x2330), host_kepler], Some(&spec), Vec::new());
    assert_eq!(
        r.gpus[0].requirement.describe,
        "open kernel module, driver branch 575 or newer"
    );
    assert_eq!(r.gpus[0].requirement.compute, None);
    assert_eq!(
        r.gpus[1].requirement.generation.as_deref(),
        Some("Kepler (site)")
    );
    assert!(!r.gpus[1].counted);
    assert_eq!(
        r.driver.as_ref().and_then(|d| d.why_not.as_deref()),
        Some("branch 570 is older than 575")
    );
}

#[test]
fn many_ids_combine_in_bounded_work() {
    let ids = vec![0x2901u16; 10_000];
    let r = for_ids(&ids, Some("open:580"));
    assert_eq!(r.gpus.len(), 10_000);
    assert_eq!(
        r.combined.as_ref().map(|c| c.describe.as_str()),
        Some("open kernel module, driver branch 570 or newer")
    );
    assert!(!r.unserved());
}

/// A host tree shaped as the kernel makes it: `sys/bus/pci/devices/<addr>` is a relative link
/// into `sys/devices/pci0000:00/<addr>`.
fn host_with(devices: &[(&str, &str, &str, &str)], pci_ids: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let bus = root.join("sys/bus/pci/devices");
    std::fs::create_dir_all(&bus).expect("mkdir");
    for (addr, vendor, device, class) in devices {
        let real = root.join("sys/devices/pci0000:00").join(addr);
        std::fs::create_dir_all(&real).expect("mkdir");
        for (file, value) in [("vendor", vendor), ("device", device), ("class", class)] {
            std::fs::write(real.join(file), format!("{value}\n")).expect("write");
        }
        let target = format!("../../../devices/pci0000:00/{addr}");
        std::os::unix::fs::symlink(target, bus.join(addr)).expect("symlink");
    }
    if let Some(ids) = pci_ids {
        std::fs::create_dir_all(root.join("usr/share/misc")).expect("mkdir");
        std::fs::write(root.join("usr/share/misc/pci.ids"), ids).expect("write");
    }
    dir
}

#[test]
fn host_gpus_from_sysfs() {
    let tree = host_with(
        &[
            ("0000:3b:00.0", "0x10de", "0x2901", "0x030200"),
            ("0000:02:00.0", "0x1a03", "0x2000", "0x030000"),
            ("0000:05:00.0", "0x10de", "0x22a3", "0x068000"),
            ("0000:1b:00.0", "0x10de", "0x1db4", "0x030200"),
            ("0000:1b:00.1", "0x10de", "0x10f0", "0x040300"),
            ("0000:9a:00.0", "0x10de", "0x2330", "0x120000"),
        ],
        Some("10de  NVIDIA Corporation\n\t2901  GB100 [B200]\n\t22a3  GH100 [H100 NVSwitch]\n"),
    );
    let host = Host::at(tree.path()).expect("host");
    let (gpus, warnings) = host_gpus(&host);
    assert!(warnings.is_empty(), "{warnings:?}");
    let got: Vec<(u16, Option<&str>, Option<&str>)> = gpus
        .iter()
        .map(|g| (g.device_id, g.name.as_deref(), g.pci_address.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (0x1db4, None, Some("0000:1b:00.0")),
            (0x2901, Some("GB100 [B200]"), Some("0000:3b:00.0")),
            (0x2330, None, Some("0000:9a:00.0")),
        ]
    );
    let r = host_report(&host, &builtin_table(), None);
    assert_eq!(
        r.gpus[1].requirement.who,
        "GB100 [B200] (Blackwell, 10de:2901)"
    );
    assert_eq!(r.gpus[1].pci_address.as_deref(), Some("0000:3b:00.0"));
    assert_eq!(r.conflicts.len(), 1);
    assert!(r.unserved());
}

#[test]
fn a_host_without_gpus_has_no_combined_requirement() {
    let tree = host_with(&[("0000:02:00.0", "0x1a03", "0x2000", "0x030000")], None);
    let host = Host::at(tree.path()).expect("host");
    let spec = parse_driver_spec("proprietary:470").expect("valid");
    let r = host_report(&host, &builtin_table(), Some(&spec));
    assert!(r.gpus.is_empty() && r.combined.is_none() && r.conflicts.is_empty());
    assert_eq!(r.driver.as_ref().map(|d| d.satisfied), Some(true));
    let bare = tempfile::tempdir().expect("tempdir");
    let host = Host::at(bare.path()).expect("host");
    assert!(host_report(&host, &builtin_table(), None).gpus.is_empty());
}

#[rstest]
#[case("open:570.124.06", Some(KernelModule::Open), 570, "570.124.06")]
#[case(
    "proprietary:550.54.15",
    Some(KernelModule::Proprietary),
    550,
    "550.54.15"
)]
#[case("550.54.15", None, 550, "550.54.15")]
#[case("open:570", Some(KernelModule::Open), 570, "570")]
fn full_releases_are_specs_judged_by_their_branch_and_their_release(
    #[case] spec: &str,
    #[case] module: Option<KernelModule>,
    #[case] branch: u32,
    #[case] release: &str,
) {
    let parsed = parse_driver_spec(spec).expect("valid");
    assert_eq!(
        parsed.source(),
        &DriverSource::new(module, BranchKnowledge::Exact(branch))
    );
    assert_eq!(parsed.release().map(|r| r.as_str()), Some(release));
}
