//! `gpuctl cdi generate ascend`: a plug-in written as data (`NodeVendor` with `cdi_naming`) gets
//! a spec from gpuctl in amd-ctk's shape (docs/cdi.md#gpuctl-cdi-generate), which gpuctl then
//! reads back: `cdi check` accepts it and `args ascend` answers on the CDI tier with its names.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_example_ascend as _;
use gpuctl_testkit::Tree;
use serde_json::Value;

const SHARED: [&str; 3] = ["/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"];

/// An Ascend server whose driver numbered its NPUs 0 and 2, with a directory named like a third.
fn ascend_host() -> Tree {
    let t = Tree::new();
    t.pci("0000:c1:00.0", 0x19e5, 0xd802, 0x120000);
    t.pci("0000:c2:00.0", 0x19e5, 0xd802, 0x120000);
    t.dev(&[
        "davinci_manager",
        "devmm_svm",
        "hisi_hdc",
        "davinci0",
        "davinci2",
    ]);
    t.dir("/dev/davinci3");
    t
}

fn gpuctl(t: &Tree, args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("gpuctl-ascend")
        .env_clear()
        .arg("--root")
        .arg(t.root())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_generated_ascend_spec_names_the_driver_s_numbers_and_round_trips() {
    let t = ascend_host();
    t.dir("/etc/cdi");
    let (_, before, _) = gpuctl(&t, &["args", "ascend"]);
    assert!(
        before.starts_with("--device /dev/davinci_manager"),
        "{before}"
    );
    let spec_path = t.path("/etc/cdi/ascend.json");
    let spec = spec_path.to_str().unwrap();
    let (code, out, err) = gpuctl(&t, &["cdi", "generate", "ascend", "--output", spec]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");

    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&spec_path).unwrap()).unwrap();
    assert_eq!(written["kind"], "huawei.com/Ascend910");
    // Digit-leading names need 0.5.0 (the CDI library's MinimumRequiredVersion), nothing more.
    assert_eq!(written["cdiVersion"], "0.5.0");
    let devices: Vec<(String, Vec<String>)> = written["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let paths = d["containerEdits"]["deviceNodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["path"].as_str().unwrap().to_string())
                .collect();
            (d["name"].as_str().unwrap().to_string(), paths)
        })
        .collect();
    let with_shared = |own: &[&str]| -> Vec<String> {
        own.iter()
            .chain(SHARED.iter())
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(
        devices,
        vec![
            ("0".to_string(), with_shared(&["/dev/davinci0"])),
            ("2".to_string(), with_shared(&["/dev/davinci2"])),
            (
                "all".to_string(),
                with_shared(&["/dev/davinci0", "/dev/davinci2"])
            ),
        ]
    );

    let (code, out, err) = gpuctl(&t, &["cdi", "check", spec]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("huawei.com/Ascend910"), "{out}");

    let (code, out, err) = gpuctl(&t, &["args", "ascend"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "--device huawei.com/Ascend910=all --group-add keep-groups\n"
        ),
        "{err}"
    );
    let (code, out, err) = gpuctl(&t, &["args", "ascend:2"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "--device huawei.com/Ascend910=2 --group-add keep-groups\n"
        ),
        "{err}"
    );
    let (_, out, _) = gpuctl(&t, &["detect", "--format", "json"]);
    let detect: Value = serde_json::from_str(&out).unwrap();
    let ascend = detect["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["vendor"] == "ascend")
        .unwrap();
    assert_eq!(ascend["tier"], "cdi", "{ascend}");
}

#[test]
fn a_host_without_a_shared_node_gets_no_spec() {
    let t = ascend_host();
    std::fs::remove_file(t.path("/dev/hisi_hdc")).unwrap();
    let (code, out, err) = gpuctl(&t, &["cdi", "generate", "ascend"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/dev/hisi_hdc"), "{err}");
}
