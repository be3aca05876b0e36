//! `gpuctl fleet` over reports that `gpuctl report` wrote: the bundled fixture hosts, and trees
//! built here (a Maxwell node and a Blackwell node that no one NVIDIA stack serves, hosts with
//! the same GPUs on different drivers, a driver its GPUs cannot use). Files of another schema
//! or broken ones are named and skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

mod fleet_hosts;
use fleet_hosts::{OPEN, PROPRIETARY, nvidia_host};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
}

fn report_into(root: &Path, dir: &Path, file: &str) {
    let out = cargo_bin_cmd!("gpuctl")
        .arg("--root")
        .arg(root)
        .args(["-q", "report", "--output"])
        .arg(dir.join(file))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

fn fleet(args: &[&str], paths: &[&Path]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("gpuctl")
        .arg("fleet")
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn bundled_hosts_split_on_the_kernel_module_and_name_the_stale_spec() {
    let dir = tempfile::tempdir().unwrap();
    for e in fs::read_dir(fixture("")).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            let name = e.file_name().to_string_lossy().into_owned();
            report_into(&e.path(), dir.path(), &format!("{name}.json"));
        }
    }
    let (code, out, _) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("11 report(s) read\n"), "{out}");
    assert!(out.contains("nvidia (6 host(s)): no one stack fits every host; 2 group(s):"));
    assert!(
        out.contains("  proprietary kernel module, driver branch 580 or older: nvidia-hook-only\n")
    );
    assert!(out.contains("needs the open kernel module, nvidia-hook-only the proprietary one"));
    assert!(
        out.contains("amd (3 host(s)): one stack fits every host:"),
        "{out}"
    );
    // Drift by severity: the stale spec makes cdi-override's GPUs unusable, said before the
    // cosmetic release differences.
    assert!(out.contains(
        "  GPUs unusable: 1 host (cdi-override): nvidia: a CDI spec was written for another driver (/etc/cdi/nvidia.yaml: it mounts /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 but the loaded driver is 570.195.03): write it again for the loaded one; change to open:580\n"
    ), "{out}");
    // JSON has the same plan, every host named.
    let (_, json, _) = fleet(&["--format", "json"], &[dir.path()]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["hosts"], 11);
    let nv = v["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["vendor"] == "nvidia")
        .unwrap();
    assert_eq!(nv["fits_all"], false);
    assert_eq!(nv["groups"][0]["hosts"].as_array().unwrap().len(), 5);
}

#[test]
fn a_maxwell_and_a_blackwell_node_need_different_modules() {
    let dir = tempfile::tempdir().unwrap();
    let maxwell = nvidia_host("node-maxwell", 0x13c2, PROPRIETARY);
    let blackwell = nvidia_host("node-blackwell", 0x2901, OPEN);
    report_into(maxwell.root(), dir.path(), "maxwell.json");
    report_into(blackwell.root(), dir.path(), "blackwell.json");
    let (code, out, _) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("divided by: node-blackwell needs the open kernel module, node-maxwell the proprietary one"),
        "{out}"
    );
    // Either alone has its stack.
    let (code, out, _) = fleet(&[], &[&dir.path().join("maxwell.json")]);
    assert_eq!(code, 0);
    assert!(out.contains(
        "one stack fits every host: proprietary kernel module, driver branch 580 or older"
    ));
}

#[test]
fn same_gpus_on_different_releases_and_a_driver_that_does_not_fit_are_drift() {
    let dir = tempfile::tempdir().unwrap();
    let a = nvidia_host("node-a", 0x2901, OPEN);
    let b = nvidia_host("node-b", 0x2901, &OPEN.replace("580.95.05", "575.64.05"));
    // Blackwell has no proprietary module: this host's driver cannot drive its GPU.
    let c = nvidia_host("node-c", 0x2901, PROPRIETARY);
    for (t, f) in [(&a, "a.json"), (&b, "b.json"), (&c, "c.json")] {
        report_into(t.root(), dir.path(), f);
    }
    let (code, out, _) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("  cosmetic (release differences): 3 hosts (node-a, node-b, node-c): hosts with the same nvidia GPUs (1x 10de:2901) run different drivers: 575.64.05 on node-b; 580.95.05 on node-a, node-c\n"), "{out}");
    // In THE verdict's words, as `requirement --driver proprietary:580.95.05 2901` says it, and
    // before the release difference: its GPUs are unusable.
    let unusable = out
        .find("  GPUs unusable: 1 host (node-c): nvidia: its driver does not drive its GPUs: proprietary kernel module, the open one is needed; change to open:580\n")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(unusable < out.find("  cosmetic").unwrap(), "{out}");
    assert!(out.contains("  cosmetic (release differences): 1 host (node-b): nvidia: it runs its group's stack at another release than the plan's; change to open:580\n"), "{out}");
    assert!(
        out.contains(
            "order:\n  1. GPUs unusable: node-c\n  2. cosmetic (release differences): node-b\n"
        ),
        "{out}"
    );
}

#[test]
fn another_schema_and_broken_files_are_named_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    report_into(&fixture("dgx-b200"), dir.path(), "dgx.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("dgx.json")).unwrap()).unwrap();
    v["schema"] = "gpuctl.report/2".into();
    v["vendors"] = "reshaped".into();
    fs::write(dir.path().join("future.json"), v.to_string()).unwrap();
    fs::write(
        dir.path().join("broken.json"),
        "{\"schema\": \"gpuctl.report/1\", \"host\"",
    )
    .unwrap();
    fs::write(dir.path().join(".hidden"), "not read").unwrap();
    let (code, out, err) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1 report(s) read, 2 skipped\n"), "{out}");
    assert!(err.contains("future.json: skipped: its schema is \"gpuctl.report/2\", and this gpuctl reads gpuctl.report/1"), "{err}");
    assert!(
        err.contains("broken.json: skipped: not a gpuctl.report/1 report"),
        "{err}"
    );
    assert!(!err.contains(".hidden"));
}

#[test]
fn cuda_is_checked_against_each_host_s_loaded_driver() {
    // dgx-b200 loads 580.95.05 (CUDA 13.0), nvidia-hook-only 535.183.01 (CUDA 12.2, below
    // 12.4 GA's 550.54.14), and an AMD host runs no CUDA.
    let dir = tempfile::tempdir().unwrap();
    report_into(&fixture("dgx-b200"), dir.path(), "dgx.json");
    report_into(&fixture("amd-mi300x"), dir.path(), "mi300x.json");
    report_into(&fixture("nvidia-hook-only"), dir.path(), "hook.json");
    let (_, out, _) = fleet(&["--cuda", "12.4"], &[dir.path()]);
    assert!(
        // Each host that cannot says why, in THE verdict's words (`requirement --cuda 12.4
        // --driver proprietary:535.183.01` refuses it alike).
        out.contains(
            "CUDA 12.4:\n  can run it: dgx-b200\n  cannot:\n    amd-mi300x: no NVIDIA GPU\n    nvidia-hook-only: CUDA 12.4 needs driver 550.54.14 or newer (CUDA release notes, Table 3); 535.183.01 is older\n"
        ),
        "{out}"
    );
    let (_, out, _) = fleet(&["--cuda", "12.2"], &[dir.path()]);
    assert!(
        out.contains(
            "CUDA 12.2:\n  can run it: dgx-b200, nvidia-hook-only\n  cannot:\n    amd-mi300x: no NVIDIA GPU\n"
        ),
        "{out}"
    );
}

#[test]
fn bad_input_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 2);
    assert!(err.contains("no gpuctl report was read"), "{err}");
    report_into(&fixture("dgx-b200"), dir.path(), "dgx.json");
    let (code, _, err) = fleet(&["--cuda", "twelve"], &[dir.path()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--cuda \"twelve\" is not a CUDA version"),
        "{err}"
    );
}

/// The group line says branches ("driver branch 570 or newer", Rex's combined line); each
/// host's verdict compares releases, so the release floor of the group's GPUs together is said
/// under it, as `gpuctl requirement IDS` prints it: a GB200 (10de:2941) is first listed by the
/// open module's README at 570.124.04, so beside a B200 (2901, 570.86.15) the stack the group
/// shares needs 570.124.04, though its branch line says 570.
#[test]
fn a_group_names_the_release_floor_its_hosts_are_judged_by() {
    let banner = |release: &str| {
        format!(
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {release}  Release Build  (dvs-builder@U22-I3-AE18-23-3)  Thu Sep 18 20:38:17 UTC 2025\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let gb200 = nvidia_host("node-gb200", 0x2941, &banner("570.172.08"));
    let b200 = nvidia_host("node-b200", 0x2901, &banner("570.86.15"));
    report_into(gb200.root(), dir.path(), "gb200.json");
    report_into(b200.root(), dir.path(), "b200.json");
    let (_, out, _) = fleet(&[], &[dir.path()]);
    let floor = "driver floor (the first releases listing every GPU): open kernel module 570.124.04 or newer";
    assert!(
        out.contains(&format!(
            "one stack fits every host: open kernel module, driver branch 570 or newer\n  {floor}\n"
        )),
        "{out}"
    );
    let (_, req) = {
        let o = cargo_bin_cmd!("gpuctl")
            .args(["requirement", "2941", "2901"])
            .output()
            .unwrap();
        (o.status.code(), String::from_utf8(o.stdout).unwrap())
    };
    assert!(req.contains(&format!("  {floor}\n")), "{req}");
    // JSON keeps its keys: the floor is the text's.
    let (_, json, _) = fleet(&["--format", "json"], &[dir.path()]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let group = &v["vendors"][0]["groups"][0];
    let mut keys: Vec<&str> = group
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["constraints", "describe", "hosts"]);
}
