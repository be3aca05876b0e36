//! The Gaudi plug-in through gpuctl's command line on a host that also has an Intel NPU: two
//! 1da3:1020 functions whose nodes are `/dev/accel/accel1` and `accel2` (each with its
//! `accel_controlDN`), and an 8086 NPU whose node is `/dev/accel/accel0`. The NPU's node is never
//! granted as a Gaudi, in any format, in the variable, or in the CDI spec gpuctl writes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_example_accel as _;
use gpuctl_testkit::Tree;

const NPU: &str = "0000:00:0b.0";
const GAUDI0: &str = "0000:33:00.0";
const GAUDI1: &str = "0000:9a:00.0";

/// Two Gaudis (accel1, accel2) and an Intel NPU (accel0) in the one `/dev/accel`.
fn mixed_host() -> Tree {
    let t = Tree::new();
    t.pci(NPU, 0x8086, 0x7d1d, 0x120000);
    t.pci(GAUDI0, 0x1da3, 0x1020, 0x120000);
    t.pci(GAUDI1, 0x1da3, 0x1020, 0x120000);
    t.class_node("accel", "accel0", NPU, "/dev/accel/accel0");
    t.class_node("accel", "accel1", GAUDI0, "/dev/accel/accel1");
    t.class_node("accel", "accel2", GAUDI1, "/dev/accel/accel2");
    t.file("/dev/accel/accel_controlD1", "")
        .file("/dev/accel/accel_controlD2", "");
    t
}

fn gpuctl(t: &Tree) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl-gaudi");
    cmd.env_clear().arg("--root").arg(t.root());
    cmd
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

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
    let vendors = v["vendors"].as_array().unwrap();
    let gaudi = vendors.iter().find(|v| v["vendor"] == "gaudi").unwrap();
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

/// doctor's permission check on Gaudi nodes only root may open names the group the Gaudi driver
/// gives them, never `render`: they are accel nodes, not render nodes.
#[test]
fn the_node_check_does_not_tell_a_gaudi_user_about_render() {
    let t = mixed_host();
    for n in ["accel1", "accel_controlD1", "accel2", "accel_controlD2"] {
        t.owned(&format!("/dev/accel/{n}"), 0o600, 0);
    }
    t.file(
        "/proc/self/status",
        "Name:\tgpuctl\nUid:\t4242\t4242\t4242\t4242\nGid:\t4242\t4242\t4242\t4242\nGroups:\t\n",
    );
    let out = gpuctl(&t)
        .args([
            "--podman-version",
            "5.4.0",
            "doctor",
            "--format",
            "json",
            "gaudi",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems: Vec<&serde_json::Value> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == "render-groups" && c["status"] == "problem")
        .collect();
    assert_eq!(problems.len(), 1, "{v}");
    assert_eq!(
        problems[0]["subject"],
        "/dev/accel/accel1, /dev/accel/accel2, /dev/accel/accel_controlD1, /dev/accel/accel_controlD2"
    );
    let remedy = problems[0]["remedy"].as_str().unwrap();
    assert!(
        remedy.starts_with(
            "each such node should belong to the group the Gaudi driver gives it with mode 0660"
        ),
        "{remedy}"
    );
    assert!(!remedy.contains("render"), "{remedy}");
}

/// doctor's sentences about the selected devices call Gaudis accelerators: SELinux's, a stale
/// spec's and a refused selection's (issue 27 item 4).
#[test]
fn doctor_calls_gaudis_accelerators() {
    let t = mixed_host();
    t.file("/sys/fs/selinux/enforce", "1");
    t.file("/sys/fs/selinux/booleans/container_use_devices", "0 0");
    t.file(
        "/etc/cdi/gaudi.yaml",
        "cdiVersion: \"0.5.0\"\nkind: \"habana.ai/gaudi\"\ndevices:\n  - name: \"7\"\n    containerEdits:\n      deviceNodes:\n        - path: \"/dev/accel/accel7\"\n",
    );
    let out = gpuctl(&t)
        .args([
            "--podman-version",
            "5.4.0",
            "doctor",
            "--format",
            "json",
            "gaudi:9",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let check = |code: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == code)
            .unwrap_or_else(|| panic!("{code} in {v}"))
            .clone()
    };
    assert_eq!(
        check("selinux")["facts"][0],
        "enforcing, and container_use_devices is off: containers may not use the accelerator device nodes"
    );
    let stale = check("cdi-stale");
    let remedy = stale["remedy"].as_str().unwrap();
    assert!(
        remedy.starts_with("the spec is stale (driver upgrade or accelerator change): "),
        "{remedy}"
    );
    assert_eq!(
        check("selection")["remedy"],
        "select accelerators the host has ('gpuctl detect' lists them)"
    );
}

/// explain's header calls a Gaudi failure an accelerator's (issue 27 item 4).
#[test]
fn explain_s_header_calls_a_gaudi_failure_an_accelerator_s() {
    let t = mixed_host();
    let out = gpuctl(&t)
        .arg("explain")
        .write_stdin("Error: stat /dev/accel/accel7: no such file or directory\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("accelerator misconfiguration, in these lines (of 1):\n"),
        "{text}"
    );
    assert!(text.contains("Diagnosis (gaudi-node-missing)"), "{text}");
}

/// `report --format nfd` gives a plug-in's hosts the base labels a built-in vendor's get, and
/// the report names each Gaudi by its PCI id, so `gpuctl fleet` tells its hosts apart by chip
/// (issue 27 item 4).
#[test]
fn a_gaudi_host_gets_nfd_labels_and_a_place_in_the_fleet() {
    let t = mixed_host();
    let nfd = stdout(gpuctl(&t).args(["report", "--format", "nfd"]));
    for label in [
        "gpuctl.io/gaudi.tier=raw\n",
        "gpuctl.io/gaudi.present=true\n",
        "gpuctl.io/gaudi.count=2\n",
        "gpuctl.io/gaudi.requirement=unknown\n",
    ] {
        assert!(nfd.contains(label), "{label} in {nfd}");
    }
    let reports = Tree::new();
    for name in ["a", "b"] {
        t.file("/etc/hostname", &format!("{name}\n"));
        let out = gpuctl(&t)
            .args(["-q", "report", "--output"])
            .arg(reports.path(&format!("/{name}.json")))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(reports.path("/a.json")).unwrap()).unwrap();
    let gaudi = report["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["vendor"] == "gaudi")
        .unwrap();
    let ids: Vec<&str> = gaudi["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["1da3:1020", "1da3:1020"]);
    let fleet = stdout(
        cargo_bin_cmd!("gpuctl-gaudi")
            .arg("fleet")
            .arg(reports.path("/a.json"))
            .arg(reports.path("/b.json")),
    );
    // No Gaudi table: unknown, never a stack that fits "any" driver.
    assert!(
        fleet.contains("gaudi (2 host(s)): no one stack fits every host"),
        "{fleet}"
    );
    assert!(
        fleet.contains("a: Gaudi accelerator (1da3:1020): unknown: no requirement data"),
        "{fleet}"
    );
}

/// A Gaudi card no driver is bound to has no node, so no recipe lists it; the report and its
/// NFD labels still show it, and a host without one is reported as before (issue 27 item 4).
#[test]
fn an_unbound_gaudi_is_shown_in_the_report_and_its_labels() {
    let t = mixed_host();
    let report = |t: &Tree| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_str(&stdout(gpuctl(t).args(["-q", "report"]))).unwrap();
        v["vendors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["vendor"] == "gaudi")
            .unwrap()
            .clone()
    };
    let before = report(&t);
    assert!(before.get("unbound").is_none(), "{before}");
    let nfd = stdout(gpuctl(&t).args(["report", "--format", "nfd"]));
    assert!(!nfd.contains("unbound"), "{nfd}");

    t.pci("0000:b3:00.0", 0x1da3, 0x1020, 0x120000);
    let after = report(&t);
    assert_eq!(
        after["unbound"],
        serde_json::json!([{"pci_address": "0000:b3:00.0", "id": "1da3:1020"}])
    );
    assert_eq!(after["devices"].as_array().unwrap().len(), 2);
    let nfd = stdout(gpuctl(&t).args(["report", "--format", "nfd"]));
    assert!(nfd.contains("gpuctl.io/gaudi.unbound.count=1\n"), "{nfd}");
    assert!(nfd.contains("gpuctl.io/gaudi.count=2\n"), "{nfd}");
}
