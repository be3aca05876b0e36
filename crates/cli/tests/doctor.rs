//! `gpuctl doctor` on trees built per test: each check's problem and its absence. podman is
//! kept off PATH (or replaced by a script printing what a real one prints), so no real podman
//! runs here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::{Tree, cdi_yaml};
use serde_json::Value;

/// A rootless user (uid 4242) in the given supplementary groups.
fn rootless(t: &Tree, groups: &str) {
    t.file(
        "/proc/self/status",
        &format!("Name:\tgpuctl\nUid:\t4242\t4242\t4242\t4242\nGid:\t4242\t4242\t4242\t4242\nGroups:\t{groups}\n"),
    );
}

fn doctor(t: &Tree, extra: &[&str], path: &Path) -> (i32, Value) {
    doctor_sel(t, extra, &[], path)
}

fn doctor_sel(t: &Tree, extra: &[&str], sel: &[&str], path: &Path) -> (i32, Value) {
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", path)
        .env_remove("GPUCTL_PODMAN_VERSION")
        .env("HOME", "/home/user")
        .env_remove("XDG_CONFIG_HOME")
        .arg("--root")
        .arg(t.root())
        .args(extra)
        .args(["doctor", "--format", "json"])
        .args(sel)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

fn status_of(v: &Value, code: &str) -> Vec<String> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == code)
        .map(|c| c["status"].as_str().unwrap().to_string())
        .collect()
}

fn no_podman() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// An NVIDIA host on the CDI tier with a spec whose one node exists.
fn nvidia_cdi(version: &str) -> Tree {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, 0x2901, 0x030200);
    t.nvidia_dev().dev(&["fake0", "fake1"]);
    t.file(
        "/proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Sun Jul 27 06:54:38 UTC 2025\n",
    );
    t.file(
        "/etc/cdi/nvidia.yaml",
        &cdi_yaml("nvidia.com/gpu", &["0", "all"]).replace("0.5.0", version),
    );
    t.link("/dev/char/195:0", "../nvidia0");
    t
}

#[test]
fn a_healthy_nvidia_host_has_no_problem_and_exits_0() {
    let t = nvidia_cdi("0.5.0");
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(status_of(&v, "cdi-version"), ["ok"]);
    assert_eq!(status_of(&v, "cdi-stale"), ["ok"]);
    assert_eq!(status_of(&v, "nvidia-driver"), ["ok"]);
    assert_eq!(status_of(&v, "nvidia-uvm"), ["ok"]);
    assert_eq!(status_of(&v, "nvidia-dev-char"), ["ok"]);
    assert_eq!(v["problems"], 0);
}

#[test]
fn a_spec_above_the_podman_ceiling_is_a_problem() {
    let t = nvidia_cdi("0.7.0");
    let (code, v) = doctor(&t, &["--podman-version", "4.9.3"], no_podman().path());
    assert_eq!(code, 1);
    assert_eq!(status_of(&v, "cdi-version"), ["problem"]);
    let (code, v) = doctor(&t, &["--podman-version", "5.1.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "cdi-version")),
        (0, vec!["ok".to_string()])
    );
}

#[test]
fn without_podman_the_podman_checks_are_skipped() {
    let t = nvidia_cdi("0.5.0");
    let (code, v) = doctor(&t, &[], no_podman().path());
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(status_of(&v, "podman"), ["skipped"]);
    assert_eq!(status_of(&v, "cdi-version"), ["skipped"]);
}

/// A stand-in podman that says 4.9.3 and runc, and leaves a mark when it is run.
fn podman_script(mark: &Path) -> tempfile::TempDir {
    let bin = tempfile::tempdir().unwrap();
    let script = bin.path().join("podman");
    std::fs::write(
        &script,
        format!("#!/bin/sh\n: > '{}'\ncase \"$1\" in\nversion) echo '{{\"Client\":{{\"Version\":\"4.9.3\"}}}}';;\ninfo) echo '{{\"host\":{{\"ociRuntime\":{{\"name\":\"runc\"}},\"security\":{{\"rootless\":false}}}}}}';;\n*) exit 3;;\nesac\n", mark.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

#[test]
fn podman_on_path_is_asked_its_version_and_runtime_on_this_host_only() {
    let marks = tempfile::tempdir().unwrap();
    let mark = marks.path().join("ran");
    let bin = podman_script(&mark);
    // A --root tree is another host: this machine's podman is not asked (issue 19, item 11).
    let t = nvidia_cdi("0.7.0");
    let (_, v) = doctor(&t, &[], bin.path());
    assert_eq!(status_of(&v, "podman"), ["skipped"]);
    let podman = &v["checks"][0];
    assert!(
        podman["facts"][0]
            .as_str()
            .unwrap()
            .starts_with("skipped: --root names another host; give --podman-version"),
        "{podman:#}"
    );
    assert!(!mark.exists(), "podman was run for another host");
    // On this machine ('--root /') it is asked.
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", bin.path())
        .env("HOME", "/nonexistent-home")
        .args(["--root", "/", "doctor", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(mark.exists());
    assert_eq!(status_of(&v, "podman"), ["ok"]);
    assert_eq!(v["checks"][0]["subject"], "podman 4.9.3");
    let rt = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "oci-runtime")
        .unwrap();
    assert_eq!(rt["subject"], "runc");
}

#[test]
fn a_missing_node_or_mounted_file_makes_the_spec_stale() {
    let t = nvidia_cdi("0.5.0");
    std::fs::remove_file(t.path("/dev/fake0")).unwrap();
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "cdi-stale")),
        (1, vec!["problem".to_string()])
    );
    let t = nvidia_cdi("0.5.0");
    t.file("/etc/cdi/nvidia.yaml", &format!(
        "{}containerEdits:\n  mounts:\n    - hostPath: /usr/lib/libcuda.so.575.64.03\n      containerPath: /usr/lib/libcuda.so.575.64.03\n",
        cdi_yaml("nvidia.com/gpu", &["0"])
    ));
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "cdi-stale"), ["problem"]);
    assert_eq!(status_of(&v, "nvidia-spec-driver"), ["problem"]);
}

#[test]
fn a_spec_the_user_cannot_read_is_a_problem_for_rootless_podman() {
    let t = nvidia_cdi("0.5.0");
    rootless(&t, "");
    let spec = t.path("/etc/cdi/nvidia.yaml");
    std::fs::set_permissions(&spec, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "cdi-readable")),
        (1, vec!["problem".to_string()])
    );
    std::fs::set_permissions(&spec, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "cdi-readable"), ["ok"]);
}

/// An AMD host on the raw tier: /dev/kfd and one render node, mode 0660, group 0.
fn amd_raw() -> Tree {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD128", "0x1002", "0000:c1:00.0");
    t.by_path("0000:c1:00.0", "renderD128");
    for n in ["/dev/kfd", "/dev/dri/renderD128"] {
        std::fs::set_permissions(t.path(n), std::fs::Permissions::from_mode(0o660)).unwrap();
    }
    t
}

#[test]
fn runc_with_keep_groups_and_docker_s_nvidia_runtime_are_problems() {
    let t = amd_raw();
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "oci-runtime")),
        (1, vec!["problem".to_string()])
    );
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"crun\"\n",
    );
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "oci-runtime"), ["ok"]);
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"nvidia\"\n",
    );
    let (_, v) = doctor_sel(
        &t,
        &["--podman-version", "5.4.0"],
        &["amd"],
        no_podman().path(),
    );
    assert_eq!(status_of(&v, "oci-runtime"), ["problem"]);
}

#[test]
fn selinux_enforcing_without_container_use_devices_is_a_problem() {
    let t = amd_raw();
    t.file("/sys/fs/selinux/enforce", "1");
    t.file("/sys/fs/selinux/booleans/container_use_devices", "0 0");
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "selinux")),
        (1, vec!["problem".to_string()])
    );
    t.file("/sys/fs/selinux/booleans/container_use_devices", "1 1");
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "selinux")),
        (0, vec!["ok".to_string()])
    );
}

#[test]
fn a_rootless_user_outside_the_node_group_is_a_problem() {
    let t = amd_raw();
    rootless(&t, "10");
    let (code, v) = doctor_sel(
        &t,
        &["--podman-version", "5.4.0"],
        &["amd"],
        no_podman().path(),
    );
    assert_eq!(code, 1);
    // Both nodes fail for one cause (their group): one finding names both (issue 25, item 16).
    assert_eq!(status_of(&v, "render-groups"), ["problem"]);
    let subject = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "render-groups")
        .unwrap()["subject"]
        .clone();
    assert_eq!(subject, "/dev/dri/renderD128, /dev/kfd");
    rootless(&t, "10 0");
    let (code, v) = doctor_sel(
        &t,
        &["--podman-version", "5.4.0"],
        &["amd"],
        no_podman().path(),
    );
    assert_eq!(
        (code, status_of(&v, "render-groups")),
        (0, vec!["ok".to_string(), "ok".to_string()])
    );
}

#[test]
fn rootless_hook_without_no_cgroups_and_a_missing_uvm_node_are_problems() {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, 0x2901, 0x030200);
    t.dev(&["nvidiactl", "nvidia0"]).nvidia_hook();
    t.file(
        "/proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build\n",
    );
    rootless(&t, "");
    t.file(
        "/etc/nvidia-container-runtime/config.toml",
        "[nvidia-container-cli]\n#no-cgroups = false\n",
    );
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(code, 1);
    assert_eq!(status_of(&v, "nvidia-no-cgroups"), ["problem"]);
    assert_eq!(status_of(&v, "nvidia-uvm"), ["problem"]);
    t.file(
        "/etc/nvidia-container-runtime/config.toml",
        "[nvidia-container-cli]\nno-cgroups = true\n",
    );
    t.dev(&["nvidia-uvm"]);
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "nvidia-no-cgroups"), ["ok"]);
    assert_eq!(status_of(&v, "nvidia-uvm"), ["ok"]);
}

#[test]
fn the_driver_in_use_is_checked_against_what_the_gpus_need() {
    // A Blackwell GPU (10de:2901) needs the open module, branch 570 or newer.
    let t = nvidia_cdi("0.5.0");
    t.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.154.05  Thu Dec 28 15:37:48 UTC 2023\n");
    let (code, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(
        (code, status_of(&v, "nvidia-driver")),
        (1, vec!["problem".to_string()])
    );
    std::fs::remove_file(t.path("/proc/driver/nvidia/version")).unwrap();
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "nvidia-driver"), ["problem"]);
    // The module's license (the kernel's 'P' taint) decides over the version banner.
    let t = nvidia_cdi("0.5.0");
    t.file("/sys/module/nvidia/taint", "POE\n");
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "nvidia-driver"), ["problem"]);
    t.file("/sys/module/nvidia/taint", "OE\n");
    let (_, v) = doctor(&t, &["--podman-version", "5.4.0"], no_podman().path());
    assert_eq!(status_of(&v, "nvidia-driver"), ["ok"]);
}

#[test]
fn text_output_names_status_check_and_fix_and_a_bad_selector_exits_2() {
    let t = amd_raw();
    t.file("/sys/fs/selinux/enforce", "1");
    t.file("/sys/fs/selinux/booleans/container_use_devices", "0 0");
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", no_podman().path())
        .arg("--root")
        .arg(t.root())
        .args(["doctor", "amd"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("problem  selinux"), "{text}");
    assert!(
        text.contains("fix: sudo setsebool -P container_use_devices=true"),
        "{text}"
    );
    cargo_bin_cmd!("gpuctl")
        .env("PATH", no_podman().path())
        .arg("--root")
        .arg(t.root())
        .args(["doctor", "nvidai"])
        .assert()
        .code(2);
}

/// NVIDIA's CUDA 12.0.0 base image's environment (crates/cli/tests/requirement/, where its
/// source is named).
const CUDA_12_0_ENV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/requirement/cuda-12.0.0-base-ubuntu2204.env"
);

fn image_check_on(proc_version: &str) -> Value {
    let t = nvidia_cdi("0.5.0");
    t.file("/proc/driver/nvidia/version", proc_version);
    let path = no_podman();
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", path.path())
        .env_remove("GPUCTL_PODMAN_VERSION")
        .env("HOME", "/home/user")
        .env_remove("XDG_CONFIG_HOME")
        .arg("--root")
        .arg(t.root())
        .args(["doctor", "--format", "json", "--image-env", CUDA_12_0_ENV])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "nvidia-image")
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn an_old_loaded_driver_is_a_problem_for_a_cuda_12_image() {
    // 495.29.05 runs CUDA 11.5; the image asks for 12.0 (or a 470/510/515/520 branch on some brands)
    let c = image_check_on("NVRM version: NVIDIA UNIX x86_64 Kernel Module  495.29.05\n");
    assert_eq!(c["status"], "problem", "{c}");
    assert_eq!(
        c["facts"][0],
        "loaded driver 495.29.05, which runs CUDA 11.5; the image asks for CUDA 12.0 or newer"
    );
    assert!(
        c["remedy"].as_str().unwrap().starts_with(
            "install a driver of at least 525.60.13, or use an image built for CUDA 11.5 or older"
        ),
        "{c}"
    );
}

#[test]
fn a_new_loaded_driver_runs_a_cuda_12_image() {
    let c = image_check_on(
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Sun Jul 27 06:54:38 UTC 2025\n",
    );
    assert_eq!(c["status"], "ok", "{c}");
}

#[test]
fn a_driver_in_a_forward_compatible_branch_depends_on_the_brand() {
    let c = image_check_on("NVRM version: NVIDIA UNIX x86_64 Kernel Module  520.61.05\n");
    assert_eq!(c["status"], "warning", "{c}");
}
