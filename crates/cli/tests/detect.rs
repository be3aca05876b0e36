//! Which vendors a host offers and their device order (docs/reference-tools.md#examples, 46-51).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use gpuctl_cli as _;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::{Finding, GpuError, Host, Reason, Registry};
use gpuctl_testkit::Tree;

fn probe(t: &Tree) -> Probe {
    let dirs: Vec<PathBuf> = gpuctl_cdi::DEFAULT_SPEC_DIRS
        .iter()
        .map(PathBuf::from)
        .collect();
    Probe::new(&Host::at(t.root()).unwrap(), &dirs, None)
}

fn usable(t: &Tree) -> Vec<String> {
    let report = Registry::discovered().detect(&probe(t));
    report
        .vendors
        .iter()
        .filter(|v| v.usable)
        .map(|v| v.vendor.clone())
        .collect()
}

/// Each vendor's devices' PCI addresses as `detect` lists them (the reference's
/// `gpu_device_addresses`).
fn addresses(t: &Tree) -> Vec<(String, Vec<String>)> {
    let p = probe(t);
    Registry::discovered()
        .backends()
        .iter()
        .map(|b| {
            let report = b.detect(&p).unwrap();
            let addresses = report.devices.iter().filter_map(|d| d.pci_address.clone());
            (b.vendor().to_string(), addresses.collect())
        })
        .collect()
}

#[test]
fn all_three_vendors_are_registered_in_canonical_order() {
    assert_eq!(Registry::discovered().names(), ["nvidia", "amd", "intel"]);
    assert!(Registry::discovered().rejected().is_empty());
}

#[test]
fn ex46_cdi_nvidia_kfd_and_two_render_nodes() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "all"]);
    t.dev(&["kfd"]);
    t.render_node("renderD128", "0x8086", "0000:00:02.0")
        .render_node("renderD129", "0x1002", "0000:03:00.0");
    assert_eq!(usable(&t), ["nvidia", "amd", "intel"]);
}

#[test]
fn ex47_markers_one_by_one() {
    let kfd = Tree::new();
    kfd.dev(&["kfd"]);
    assert!(usable(&kfd).is_empty());
    assert!(usable(&Tree::new()).is_empty());
    let hook = Tree::new();
    hook.nvidia_hook();
    assert_eq!(usable(&hook), ["nvidia"]);
    let ctl = Tree::new();
    ctl.dev(&["nvidiactl"]);
    assert_eq!(usable(&ctl), ["nvidia"]);
}

#[test]
fn ex48_an_amd_render_node_needs_kfd_or_cdi() {
    let t = Tree::new();
    t.render_node("renderD128", "0x1002", "0000:03:00.0");
    assert!(usable(&t).is_empty());
    t.cdi_spec("/etc/cdi/amd.yaml", "amd.com/gpu", &["0"]);
    assert_eq!(usable(&t), ["amd"]);
}

#[test]
fn ex49_device_addresses_in_index_order() {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD129", "0x1002", "0000:03:00.0");
    t.render_node("renderD128", "0x1002", "0000:0b:00.0");
    t.render_node("renderD130", "0x8086", "0000:00:02.0");
    t.nvidia_proc("0000:01:00.0", Some(1))
        .nvidia_proc("0000:02:00.0", Some(0));
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    assert_eq!(
        addresses(&t),
        [
            ("nvidia".to_string(), s(&["0000:01:00.0", "0000:02:00.0"])),
            ("amd".to_string(), s(&["0000:03:00.0", "0000:0b:00.0"])),
            ("intel".to_string(), s(&["0000:00:02.0"])),
        ]
    );
}

#[test]
fn ex50_one_amd_node_and_nothing_else() {
    let t = Tree::new();
    t.render_node("renderD128", "0x1002", "0000:03:00.0");
    let got = addresses(&t);
    assert_eq!(got[0].1, Vec::<String>::new());
    assert_eq!(got[1].1, ["0000:03:00.0"]);
    assert_eq!(got[2].1, Vec::<String>::new());
}

#[test]
fn ex51_a_device_directory_gives_the_node_name_as_address() {
    let t = Tree::new();
    t.file("/sys/class/drm/renderD128/device/vendor", "0x1002\n");
    assert_eq!(addresses(&t)[1].1, ["renderD128"]);
    let report = Registry::discovered().detect(&probe(&t));
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.code() == "drm-address-unknown"
                && w.to_string()
                    .contains("renderD128/device is not a symbolic link")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn nvidia_devices_come_from_pci_even_without_a_driver() {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, 0x1db4, 0x030200);
    t.pci("0000:d8:00.0", 0x10de, 0x2901, 0x030200);
    t.pci("0000:00:1f.0", 0x10de, 0x22a3, 0x068000); // an NVSwitch is not a GPU
    t.pci("0000:02:00.0", 0x1a03, 0x2000, 0x030000); // nor is the BMC
    let report = Registry::discovered().detect(&probe(&t));
    let nvidia = &report.vendors[0];
    assert!(!nvidia.usable);
    assert!(
        nvidia
            .reason
            .to_string()
            .starts_with("2 NVIDIA GPU(s) on the PCI bus"),
        "{}",
        nvidia.reason
    );
    let devices = serde_json::to_value(&nvidia.devices).unwrap();
    assert_eq!(devices[0]["pci_address"], "0000:3b:00.0");
    assert_eq!(devices[0]["generation"], "Maxwell/Pascal/Volta");
    assert_eq!(
        devices[0]["requirement"],
        "proprietary kernel module, driver branch 580 or older"
    );
    assert_eq!(devices[1]["device_id"], "2901");
    assert_eq!(devices[1]["compute"], true);
}

#[test]
fn a_spec_naming_missing_host_nodes_is_reported_stale() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "all"]);
    t.dev(&["fake0"]);
    let report = Registry::discovered().detect(&probe(&t));
    assert_eq!(
        report.warnings,
        [Finding::CdiSpecStale {
            path: "/etc/cdi/nvidia.yaml".into(),
            missing: vec!["/dev/fake1".into()],
        }]
    );
    assert_eq!(
        report.warnings[0].to_string(),
        "CDI spec /etc/cdi/nvidia.yaml injects 1 host device node(s) that do not exist here (first: /dev/fake1): it is stale — regenerate it, or podman fails with 'failed to stat CDI host device'"
    );
}

/// A vendor whose probe fails is reported unusable with the failure itself as its reason, so a
/// caller can tell it from a vendor that merely lacks its driver.
#[test]
fn a_failed_probe_is_the_reason_not_a_sentence_about_it() {
    let t = Tree::new();
    t.link("/sys/class/drm", "drm"); // a link to itself: a loop
    let report = Registry::discovered().detect(&probe(&t));
    let amd = &report.vendors[1];
    assert!(!amd.usable);
    let Reason::ProbeFailed(GpuError::Host { source, .. }) = &amd.reason else {
        panic!("{:?}", amd.reason);
    };
    assert_eq!(source.path, PathBuf::from("/sys/class/drm"));
    let json = serde_json::to_value(amd).unwrap();
    assert_eq!(json["reason"], amd.reason.to_string());
    assert!(
        amd.reason
            .to_string()
            .starts_with("/sys/class/drm is a loop of symbolic links"),
        "{}",
        amd.reason
    );
}

/// `detect` shows an AMD device's name, LLVM target and requirement, and an Intel device's
/// platform and requirement, from their tables, as it shows NVIDIA's generation and requirement.
#[test]
fn amd_and_intel_devices_carry_their_table_facts() {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.pci("0000:03:00.0", 0x1002, 0x744c, 0x03_00_00);
    t.render_node("renderD129", "0x1002", "0000:03:00.0");
    t.pci("0000:00:02.0", 0x8086, 0xe20b, 0x03_00_00);
    t.render_node("renderD128", "0x8086", "0000:00:02.0");
    let out = assert_cmd::cargo::cargo_bin_cmd!("gpuctl")
        .env_clear()
        .args([
            "--root",
            &t.root().to_string_lossy(),
            "detect",
            "--format",
            "json",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let amd = &v["vendors"][1]["devices"][0];
    assert_eq!(amd["device_id"], "744c");
    assert_eq!(amd["name"], "AMD Radeon RX 7900 XTX");
    assert_eq!(amd["target"], "gfx1100");
    assert!(amd["requirement"].as_str().unwrap().starts_with("ROCm "));
    let intel = &v["vendors"][2]["devices"][0];
    assert_eq!(intel["device_id"], "e20b");
    assert_eq!(intel["platform"], "Battlemage");
    assert!(
        intel["requirement"]
            .as_str()
            .unwrap()
            .starts_with("xe kernel driver")
    );
}
