//! The Gaudi plug-in through gpuctl's command line on a host that also has an Intel NPU: two
//! 1da3:1020 functions whose nodes are `/dev/accel/accel1` and `accel2` (each with its
//! `accel_controlDN`), and an 8086 NPU whose node is `/dev/accel/accel0`. The NPU's node is never
//! granted as a Gaudi, in any format, in the variable, or in the CDI spec gpuctl writes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use gpuctl_example_accel as _;
use gpuctl_testkit::Tree;

mod common;
use common::*;

/// `gpuctl args SELECTOR` on `t` succeeds with exactly `expected`.
fn grants(t: &Tree, selector: &str, expected: &str) {
    gpuctl(t)
        .args(["args", selector])
        .assert()
        .code(0)
        .stdout(expected.to_string());
}

const BOTH: &str = "--device /dev/accel/accel1 --device /dev/accel/accel_controlD1 \
--device /dev/accel/accel2 --device /dev/accel/accel_controlD2 \
-e HABANA_VISIBLE_DEVICES=1,2 --group-add keep-groups\n";

#[test]
fn a_whole_grant_passes_each_gaudi_with_its_control_node_and_never_the_npu() {
    let t = mixed_host();
    grants(&t, "gaudi", BOTH);
    // `all` asks every vendor: the NPU's node is still nobody's grant.
    let all = stdout(gpuctl(&t).args(["args", "all"]));
    assert!(!all.contains("accel0"), "{all}");
    assert!(all.contains("HABANA_VISIBLE_DEVICES=1,2"), "{all}");
}

#[test]
fn no_format_carries_the_npu_s_node() {
    let t = mixed_host();
    let json = gpuctl(&t)
        .args(["args", "gaudi", "--format", "json"])
        .output()
        .unwrap();
    let argv: Vec<String> = serde_json::from_slice(&json.stdout).unwrap();
    assert!(argv.contains(&"/dev/accel/accel_controlD2".to_string()));
    assert!(argv.contains(&"HABANA_VISIBLE_DEVICES=1,2".to_string()));
    for format in ["json", "quadlet", "compose", "docker"] {
        let out = stdout(gpuctl(&t).args(["args", "gaudi", "--format", format]));
        assert!(out.contains("/dev/accel/accel1"), "{format}: {out}");
        assert!(!out.contains("accel0"), "{format}: {out}");
    }
}

#[test]
fn the_npu_s_number_is_no_gaudi_index() {
    let t = mixed_host();
    let out = gpuctl(&t).args(["args", "gaudi:0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("gaudi:1=/dev/accel/accel1, gaudi:2=/dev/accel/accel2"),
        "{err}"
    );
    grants(
        &t,
        "gaudi:2",
        "--device /dev/accel/accel2 --device /dev/accel/accel_controlD2 -e HABANA_VISIBLE_DEVICES=2 --group-add keep-groups\n",
    );
}

#[test]
fn detect_lists_the_gaudis_by_pci_function() {
    let t = mixed_host();
    let out = gpuctl(&t)
        .args(["detect", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gaudi = gaudi_of(&v);
    let devices = &gaudi["devices"];
    let seen: Vec<(u64, &str, &str)> = devices
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["index"].as_u64().unwrap(),
                d["pci_address"].as_str().unwrap(),
                d["device_node"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (1, GAUDI0, "/dev/accel/accel1"),
            (2, GAUDI1, "/dev/accel/accel2")
        ]
    );
}

#[test]
fn the_cdi_spec_gpuctl_writes_has_no_npu_node() {
    let t = mixed_host();
    let out = gpuctl(&t)
        .args(["cdi", "generate", "gaudi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let spec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let devices: Vec<(String, Vec<String>)> = spec["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let nodes = d["containerEdits"]["deviceNodes"].as_array().unwrap();
            (
                d["name"].as_str().unwrap().to_string(),
                nodes
                    .iter()
                    .map(|n| n["path"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        devices,
        [
            (
                "1".to_string(),
                v(&["/dev/accel/accel1", "/dev/accel/accel_controlD1"])
            ),
            (
                "2".to_string(),
                v(&["/dev/accel/accel2", "/dev/accel/accel_controlD2"])
            ),
            (
                "all".to_string(),
                v(&[
                    "/dev/accel/accel1",
                    "/dev/accel/accel_controlD1",
                    "/dev/accel/accel2",
                    "/dev/accel/accel_controlD2"
                ])
            ),
        ]
    );
}

#[test]
fn a_host_with_only_the_npu_serves_no_gaudi() {
    let t = Tree::new();
    t.pci(NPU, 0x8086, 0x7d1d, 0x120000);
    t.class_node("accel", "accel0", NPU, "/dev/accel/accel0");
    let out = gpuctl(&t).args(["args", "gaudi"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no /dev/accel/accelN node of a 1da3 PCI function"),
        "{err}"
    );
}

#[test]
fn a_link_to_the_npu_s_node_is_not_granted() {
    let t = mixed_host();
    std::fs::remove_file(t.path("/dev/accel/accel2")).unwrap();
    t.link("/dev/accel/accel2", "accel0");
    grants(
        &t,
        "gaudi",
        "--device /dev/accel/accel1 --device /dev/accel/accel_controlD1 -e HABANA_VISIBLE_DEVICES=1 --group-add keep-groups\n",
    );
}

#[test]
fn a_gaudi_of_the_older_driver_s_layout_is_served() {
    let t = Tree::new();
    t.pci(NPU, 0x8086, 0x7d1d, 0x120000);
    t.pci(GAUDI0, 0x1da3, 0x1000, 0x120000);
    t.class_node("accel", "accel0", NPU, "/dev/accel/accel0");
    t.class_node("habanalabs", "hl0", GAUDI0, "/dev/hl0");
    t.file("/dev/hl_controlD0", "");
    grants(
        &t,
        "gaudi",
        "--device /dev/hl0 --device /dev/hl_controlD0 -e HABANA_VISIBLE_DEVICES=0 --group-add keep-groups\n",
    );
}

#[test]
fn texts_about_every_vendor_call_the_devices_by_their_nouns() {
    let t = mixed_host();
    let compose = stdout(gpuctl(&t).args(["args", "gaudi", "--format", "compose"]));
    assert!(
        compose.starts_with("# gpuctl: accelerator keys for one compose service;"),
        "{compose}"
    );
    // Nothing usable at all: `all`'s error names both nouns the linked vendors use.
    let empty = Tree::new();
    let out = gpuctl(&empty).args(["args", "all"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no usable GPU or accelerator support was detected"),
        "{err}"
    );
}
