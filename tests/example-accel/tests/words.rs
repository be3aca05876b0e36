//! The Gaudi plug-in's own words in doctor, explain, the report, its NFD labels and the fleet
//! (issue 27 item 4), on the host of gaudi.rs: two Gaudis and an Intel NPU.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_example_accel as _;
use gpuctl_testkit::Tree;

mod common;
use common::*;

/// doctor's permission check on Gaudi nodes only root may open names the group the Gaudi driver
/// gives them, never `render`: they are accel nodes, not render nodes.
/// `gpuctl doctor --format json SELECTION` on `t`, podman 5.4.0 given so that none is run.
fn doctor(t: &Tree, selection: &str) -> serde_json::Value {
    let out = gpuctl(t)
        .args(["--podman-version", "5.4.0", "doctor", "--format", "json"])
        .arg(selection)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

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
    let v = doctor(&t, "gaudi");
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
    let v = doctor(&t, "gaudi:9");
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
    let gaudi = gaudi_of(&report);
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
        gaudi_of(&serde_json::from_str(&stdout(gpuctl(t).args(["-q", "report"]))).unwrap())
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
