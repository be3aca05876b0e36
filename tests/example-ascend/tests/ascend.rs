//! The Ascend plug-in through gpuctl's command line, on host trees shaped like an Ascend server:
//! two 19e5:d802 NPUs on the PCI bus, `/dev/davinciN` per NPU, the three shared nodes, the
//! driver's files. Every command and format knows the vendor with no change to gpuctl.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_example_ascend as _;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

const SHARED: &str = "--device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc";
const BINDS: &str = "--mount type=bind,source=/usr/local/Ascend/driver/lib64,destination=/usr/local/Ascend/driver/lib64,ro=true \
--mount type=bind,source=/usr/local/Ascend/driver/version.info,destination=/usr/local/Ascend/driver/version.info,ro=true \
--mount type=bind,source=/etc/ascend_install.info,destination=/etc/ascend_install.info,ro=true";

/// An Ascend server with NPUs numbered `numbers` by the driver.
fn ascend_host(numbers: &[u32]) -> Tree {
    let t = Tree::new();
    t.pci("0000:c1:00.0", 0x19e5, 0xd802, 0x120000);
    t.pci("0000:c2:00.0", 0x19e5, 0xd802, 0x120000);
    t.dev(&["davinci_manager", "devmm_svm", "hisi_hdc", "sda"]);
    for n in numbers {
        t.dev(&[&format!("davinci{n}")]);
    }
    t.file("/usr/local/Ascend/driver/lib64/libascend_hal.so", "");
    t.file(
        "/usr/local/Ascend/driver/version.info",
        "Version=24.1.rc2\n",
    );
    t.file(
        "/etc/ascend_install.info",
        "Driver_Install_Path_Param=/usr/local/Ascend\n",
    );
    t
}

fn gpuctl(t: &Tree) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl-ascend");
    cmd.env_clear().arg("--root").arg(t.root());
    cmd
}

#[test]
fn a_whole_grant_passes_shared_nodes_every_npu_the_driver_files_and_the_variable() {
    let t = ascend_host(&[0, 1]);
    gpuctl(&t)
        .args(["args", "ascend"])
        .assert()
        .code(0)
        .stdout(format!(
            "{SHARED} --device /dev/davinci0 --device /dev/davinci1 {BINDS} -e ASCEND_VISIBLE_DEVICES=0,1 --group-add keep-groups\n"
        ));
}

#[test]
fn every_format_carries_the_same_grant() {
    let t = ascend_host(&[0, 1]);
    let out = gpuctl(&t)
        .args(["args", "ascend", "--format", "json"])
        .output()
        .unwrap();
    let argv: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(&argv[..2], ["--device", "/dev/davinci_manager"]);
    assert!(argv.contains(&"ASCEND_VISIBLE_DEVICES=0,1".to_string()));
    let quadlet = gpuctl(&t)
        .args(["args", "ascend", "--format", "quadlet"])
        .output()
        .unwrap();
    let quadlet = String::from_utf8(quadlet.stdout).unwrap();
    for line in [
        "AddDevice=/dev/hisi_hdc",
        "AddDevice=/dev/davinci1",
        "Mount=type=bind,source=/usr/local/Ascend/driver/lib64,destination=/usr/local/Ascend/driver/lib64,ro=true",
        "Environment=ASCEND_VISIBLE_DEVICES=0,1",
    ] {
        assert!(quadlet.lines().any(|l| l == line), "{line} in {quadlet}");
    }
    let compose = gpuctl(&t)
        .args(["args", "ascend", "--format", "compose"])
        .output()
        .unwrap();
    let compose = String::from_utf8(compose.stdout).unwrap();
    assert!(compose.contains("  - \"/dev/devmm_svm\"\n"), "{compose}");
    assert!(
        compose.contains("  - \"ASCEND_VISIBLE_DEVICES=0,1\"\n"),
        "{compose}"
    );
    // docker has no keep-groups: nodes everyone may open need no group, and the note names the
    // group the plug-in gives, not render or video.
    gpuctl(&t)
        .args(["args", "ascend", "--format", "docker"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("-e ASCEND_VISIBLE_DEVICES=0,1\n"))
        .stdout(predicate::str::contains("keep-groups").not())
        .stderr(predicate::str::contains(
            "have udev give the nodes mode 0660 and their HwHiAiUser group",
        ));
}

#[test]
fn an_index_is_the_driver_s_own_number_and_warns() {
    let t = ascend_host(&[0, 2]);
    gpuctl(&t)
        .args(["args", "ascend:2"])
        .assert()
        .code(0)
        .stdout(format!(
            "{SHARED} --device /dev/davinci2 {BINDS} -e ASCEND_VISIBLE_DEVICES=2 --group-add keep-groups\n"
        ))
        .stderr(
            "gpuctl: warning: 'ascend' device selection without CDI is best-effort: ascend:N is /dev/davinciN, the driver's own number, passed without the vendor's container runtime.  Install the vendor's CDI spec for authoritative device mapping.\n",
        );
}

#[test]
fn an_index_the_driver_has_no_node_for_lists_the_numbers_there_are() {
    let t = ascend_host(&[0, 2]);
    gpuctl(&t)
        .args(["args", "ascend:1"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "gpuctl: error: the selection asks for ascend device(s) [1] but this host has 2 ascend device(s): ascend:0=/dev/davinci0, ascend:2=/dev/davinci2; choose an index from that list\n",
        );
}

#[test]
fn links_directories_and_missing_files_are_warned_about_never_granted() {
    let t = ascend_host(&[0]);
    t.link("/dev/davinci1", "sda");
    std::fs::remove_file(t.path("/dev/hisi_hdc")).unwrap();
    t.dir("/dev/hisi_hdc");
    std::fs::remove_file(t.path("/etc/ascend_install.info")).unwrap();
    let out = gpuctl(&t).args(["args", "ascend"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(
            "--device /dev/davinci_manager --device /dev/devmm_svm --device /dev/davinci0 --mount"
        ),
        "{stdout}"
    );
    for absent in ["hisi_hdc", "davinci1", "sda", "ascend_install.info"] {
        assert!(!stdout.contains(absent), "{absent} granted: {stdout}");
    }
    assert!(stdout.contains("ASCEND_VISIBLE_DEVICES=0 "), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("not granted: /dev/hisi_hdc (a directory, not a device node), /dev/davinci1 (a link to /dev/sda, not one of the driver's nodes), /etc/ascend_install.info (missing) — "),
        "{stderr}"
    );
}

#[test]
fn a_grant_left_with_no_npu_is_refused() {
    let t = ascend_host(&[0]);
    std::fs::remove_file(t.path("/dev/davinci0")).unwrap();
    t.link("/dev/davinci0", "sda");
    gpuctl(&t)
        .args(["args", "ascend"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("but no valid CDI spec declares huawei.com/Ascend910 or huawei.com/Ascend310P and the raw device nodes are incomplete (no /dev/davinciN node, though the shared nodes exist) — is the Ascend driver loaded?"));
}

#[test]
fn either_cdi_kind_makes_the_cdi_tier_and_the_grant_names_the_kind_that_declares_it() {
    let t = ascend_host(&[0, 1]);
    t.cdi_spec(
        "/etc/cdi/ascend-310p.yaml",
        "huawei.com/Ascend310P",
        &["0", "1"],
    );
    gpuctl(&t).args(["args", "ascend"]).assert().code(0).stdout(
        "--device huawei.com/Ascend310P=0 --device huawei.com/Ascend310P=1 --group-add keep-groups\n",
    );
    t.cdi_spec(
        "/etc/cdi/ascend-910.yaml",
        "huawei.com/Ascend910",
        &["2", "all"],
    );
    gpuctl(&t).args(["args", "ascend"]).assert().code(0).stdout(
        "--device huawei.com/Ascend910=all --device huawei.com/Ascend310P=0 --device huawei.com/Ascend310P=1 --group-add keep-groups\n",
    );
    gpuctl(&t)
        .args(["args", "ascend:1,ascend:2"])
        .assert()
        .code(0)
        .stdout("--device huawei.com/Ascend310P=1 --device huawei.com/Ascend910=2 --group-add keep-groups\n");
    gpuctl(&t)
        .args(["args", "ascend:7"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "the declared huawei.com/Ascend910 devices are: 2, all, 0, 1",
        ));
}

#[test]
fn detect_lists_the_npus_by_number_in_text_and_json() {
    let t = ascend_host(&[0, 2]);
    gpuctl(&t)
        .args(["detect"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "ascend: usable (raw)\n  why: raw device nodes: /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc, 2 Ascend NPU node(s) /dev/davinciN (2 on the PCI bus; no valid CDI spec declares huawei.com/Ascend910 or huawei.com/Ascend310P)\n  ascend:0  /dev/davinci0\n  ascend:2  /dev/davinci2\n",
        ));
    let out = gpuctl(&t)
        .args(["detect", "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ascend = &report["vendors"][3];
    assert_eq!(ascend["vendor"], "ascend");
    assert_eq!(ascend["tier"], "raw");
    assert_eq!(ascend["devices"][1]["index"], 2);
    assert_eq!(ascend["devices"][1]["device_node"], "/dev/davinci2");
}

#[test]
fn detect_says_npus_on_the_bus_are_not_usable_without_the_shared_nodes() {
    let t = ascend_host(&[0, 1]);
    std::fs::remove_file(t.path("/dev/davinci_manager")).unwrap();
    gpuctl(&t)
        .args(["detect"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "ascend: not usable\n  why: 2 Ascend NPU(s) on the PCI bus but none usable ('gpuctl doctor' says why): no valid CDI spec declares huawei.com/Ascend910 or huawei.com/Ascend310P, no /dev/davinci_manager\n",
        ));
    gpuctl(&t)
        .args(["args", "all"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no /dev/davinci_manager"));
}

#[test]
fn doctor_runs_the_plug_in_s_driver_check() {
    let t = ascend_host(&[0, 1]);
    gpuctl(&t)
        .args(["doctor", "ascend", "--podman-version", "5.4.2"])
        .assert()
        .stdout(predicate::str::contains(
            "ok       ascend-driver      /usr/local/Ascend/driver/version.info\n         - Ascend driver 24.1.rc2\n",
        ));
    std::fs::remove_file(t.path("/usr/local/Ascend/driver/version.info")).unwrap();
    gpuctl(&t)
        .args(["doctor", "ascend", "--podman-version", "5.4.2"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "problem  ascend-driver      /usr/local/Ascend/driver/version.info\n",
        ))
        .stdout(predicate::str::contains(
            "Hint: install the Ascend NPU driver (the Ascend HDK 'npu-driver' package) and\n",
        ));
}

#[test]
fn the_report_reads_the_plug_in_s_driver() {
    let t = ascend_host(&[0, 1]);
    let out = gpuctl(&t).args(["report"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let driver = &report["vendors"][3]["driver"];
    assert_eq!(driver["state"], "loaded");
    assert_eq!(driver["source"], "/usr/local/Ascend/driver/version.info");
    assert_eq!(driver["version"], "24.1.rc2");
    std::fs::remove_file(t.path("/usr/local/Ascend/driver/version.info")).unwrap();
    let out = gpuctl(&t).args(["report"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["vendors"][3]["driver"]["state"], "not-loaded");
}

/// `gpuctl fleet` drifts a plug-in's hosts as it does a built-in vendor's: two Ascend hosts with
/// the same NPUs on different driver releases are a release difference, and neither is said to
/// fit a stack no table gives (issue 27 item 4).
#[test]
fn fleet_drifts_ascend_hosts_by_their_driver_release() {
    let reports = Tree::new();
    for (name, release) in [("npu-a", "24.1.rc2"), ("npu-b", "23.0.3")] {
        let t = ascend_host(&[0, 1]);
        t.file("/etc/hostname", &format!("{name}\n"));
        t.file(
            "/usr/local/Ascend/driver/version.info",
            &format!("Version={release}\n"),
        );
        gpuctl(&t)
            .args(["-q", "report", "--output"])
            .arg(reports.path(&format!("/{name}.json")))
            .assert()
            .code(0);
    }
    let out = cargo_bin_cmd!("gpuctl-ascend")
        .arg("fleet")
        .arg(reports.path("/npu-a.json"))
        .arg(reports.path("/npu-b.json"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("ascend (2 host(s)): no one stack fits every host"),
        "{text}"
    );
    assert!(
        text.contains("hosts with the same ascend GPUs")
            && text.contains("run different drivers: 23.0.3 on npu-b; 24.1.rc2 on npu-a"),
        "{text}"
    );
}
