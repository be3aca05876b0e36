//! `gpuctl doctor` on every bundled fixture host: the problems it reports are exactly the ones
//! tests/hosts/README.md writes down as deliberate, so that each tree says what the real host it
//! stands for would. podman is kept off PATH and `--podman-version` names a current one, so
//! nothing on this machine decides an answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn host(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
}

/// Exit code and the checks as (status, code, subject).
fn doctor(name: &str) -> (i32, Vec<(String, String, String)>) {
    doctor_at(&host(name))
}

/// [`doctor`] on any tree.
fn doctor_at(root: &Path) -> (i32, Vec<(String, String, String)>) {
    let empty = tempfile::tempdir().unwrap();
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("PATH", empty.path())
        .arg("--root")
        .arg(root)
        .args(["--podman-version", "5.4.0", "doctor", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let checks = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("status"), s("code"), s("subject"))
        })
        .collect();
    (out.status.code().unwrap(), checks)
}

fn problems(checks: &[(String, String, String)]) -> Vec<String> {
    checks
        .iter()
        .filter(|(status, _, _)| status == "problem")
        .map(|(_, code, subject)| format!("{code} {subject}"))
        .collect()
}

#[test]
fn the_nvidia_cdi_hosts_have_every_file_their_specs_name() {
    for name in ["workstation", "dgx-b200"] {
        let (code, checks) = doctor(name);
        assert_eq!(
            (code, problems(&checks)),
            (0, vec![]),
            "{name}: {checks:#?}"
        );
        let stale: Vec<&String> = checks
            .iter()
            .filter(|(_, c, _)| c == "cdi-stale")
            .map(|(s, _, _)| s)
            .collect();
        assert_eq!(stale, ["ok"], "{name}");
    }
}

#[test]
fn cdi_override_reports_only_its_deliberately_stale_spec() {
    // The /etc/cdi spec mounts the 550.54.15 libraries an upgrade to 570.195.03 removed; the
    // fresh /var/run/cdi spec is complete.
    let (code, checks) = doctor("cdi-override");
    assert_eq!(code, 1);
    assert_eq!(
        problems(&checks),
        [
            "cdi-stale /etc/cdi/nvidia.yaml",
            "nvidia-spec-driver /etc/cdi/nvidia.yaml"
        ]
    );
}

#[test]
fn the_other_hosts_report_only_their_deliberate_problems() {
    let cases: &[(&str, i32, &[&str])] = &[
        ("amd-ctk-cdi", 0, &[]),
        ("amd-mi300x", 0, &[]),
        ("intel-laptop", 0, &[]),
        ("intel-arc-cdi", 0, &[]),
        ("nvidia-hook-only", 0, &[]),
        ("nvidia-raw-only", 0, &[]),
        (
            "cdi-broken",
            1,
            &[
                "cdi-version /etc/cdi/nokind.yaml",
                "cdi-version /etc/cdi/nvidia.yaml",
                "cdi-version /etc/cdi/old.json",
            ],
        ),
        // No GPU of any vendor: nothing is missing (issue 28, item 2).
        ("empty", 0, &[]),
    ];
    for (name, want_code, want) in cases {
        let (code, checks) = doctor(name);
        assert_eq!(
            (code, problems(&checks)),
            (
                *want_code,
                want.iter().map(|s| s.to_string()).collect::<Vec<_>>()
            ),
            "{name}: {checks:#?}"
        );
    }
}

/// A host with one vendor's GPU and nothing to give it with: that vendor's missing support is a
/// problem, the vendors whose GPUs the host does not have are not (issue 28, item 2).
#[test]
fn only_the_vendor_the_host_has_is_a_problem_when_none_is_usable() {
    let tree = tempfile::tempdir().unwrap();
    let fn_dir = tree.path().join("sys/bus/pci/devices/0000:41:00.0");
    std::fs::create_dir_all(&fn_dir).unwrap();
    // An H100 (10de:2330), a 3D controller (class 0x0302), with no driver, node or spec.
    for (attr, value) in [
        ("vendor", "0x10de"),
        ("device", "0x2330"),
        ("class", "0x030200"),
        ("revision", "0xa1"),
    ] {
        std::fs::write(fn_dir.join(attr), format!("{value}\n")).unwrap();
    }
    std::fs::create_dir_all(tree.path().join("proc/sys/kernel")).unwrap();
    let (code, checks) = doctor_at(tree.path());
    let tier = |vendor: &str| {
        checks
            .iter()
            .find(|(_, c, s)| c == "tier" && s == vendor)
            .map(|(st, _, _)| st.clone())
            .unwrap()
    };
    assert_eq!(code, 1, "{checks:#?}");
    assert_eq!(
        [tier("nvidia"), tier("amd"), tier("intel")],
        ["problem", "skipped", "skipped"],
        "{checks:#?}"
    );
}
