//! `gpuctl doctor --image-env FILE` and `--image IMAGE` (docs/image-check.md): each vendor's
//! check of what an image declares against the fixture hosts' loaded drivers, and how an
//! image is read through podman (a stand-in on PATH that logs its calls; no real podman runs).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;
use serde_json::Value;

fn workspace(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// NVIDIA's CUDA 12.8.0 base image (tests/images/README.md names the source).
fn cuda_12_8() -> PathBuf {
    workspace("tests/images/cuda-12.8.0-base-ubuntu2404.env")
}

/// A CUDA 12.8 image whose only forward-compatibility branch is 470, as the fake-GPU
/// integration scenario builds it.
fn cuda_12_8_on_470_only(dir: &Path) -> PathBuf {
    let p = dir.join("img.env");
    std::fs::write(
        &p,
        "NVIDIA_REQUIRE_CUDA=cuda>=12.8 brand=tesla,driver>=470,driver<471\nCUDA_VERSION=12.8.0\n",
    )
    .unwrap();
    p
}

/// `doctor --format json` on a fixture host with podman kept off PATH: exit code and the
/// image checks.
fn image_checks(host: &str, image_env: &Path) -> (i32, Vec<Value>) {
    let empty = tempfile::tempdir().unwrap();
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", empty.path())
        .env_remove("GPUCTL_PODMAN_VERSION")
        .arg("--root")
        .arg(workspace(&format!("tests/hosts/{host}")))
        .args(["doctor", "--format", "json", "--image-env"])
        .arg(image_env)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let checks = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"].as_str().is_some_and(|c| c.ends_with("image")))
        .cloned()
        .collect();
    (out.status.code().unwrap(), checks)
}

#[test]
fn an_old_loaded_driver_is_a_problem_and_names_both_ways_out() {
    let d = tempfile::tempdir().unwrap();
    // nvidia-hook-only loads 535.183.01, which runs CUDA 12.2.
    let (code, checks) = image_checks("nvidia-hook-only", &cuda_12_8_on_470_only(d.path()));
    assert_eq!(code, 1);
    assert_eq!(checks.len(), 1, "{checks:?}");
    let c = &checks[0];
    assert_eq!(c["code"], "nvidia-image");
    assert_eq!(c["status"], "problem");
    assert_eq!(c["subject"], "the image on the loaded NVIDIA driver");
    assert_eq!(
        c["facts"][0],
        "loaded driver 535.183.01, which runs CUDA 12.2; the image asks for CUDA 12.8 or newer"
    );
    assert_eq!(
        c["remedy"],
        "install a driver of at least 570.26, or use an image built for CUDA 12.2 or older (NVIDIA's legacy hook refuses such a container; under CDI it starts and fails at its first CUDA call)"
    );
}

#[test]
fn a_new_loaded_driver_runs_the_real_cuda_12_8_image() {
    // workstation loads 575.64.05 (CUDA 12.9).
    let (_, checks) = image_checks("workstation", &cuda_12_8());
    assert_eq!(checks[0]["status"], "ok", "{checks:?}");
    assert_eq!(
        checks[0]["facts"][0],
        "loaded driver 575.64.05, which runs CUDA 12.9; the image asks for CUDA 12.8 or newer"
    );
    // 535 is one of the image's forward-compatibility branches: it runs on some brands only.
    let (_, checks) = image_checks("nvidia-hook-only", &cuda_12_8());
    assert_eq!(checks[0]["status"], "warning", "{checks:?}");
}

#[test]
fn an_image_no_vendor_reads_anything_from_is_skipped_not_ok() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("plain.env");
    std::fs::write(&p, "PATH=/usr/bin:/bin\nHOME=/root\n").unwrap();
    let (code, checks) = image_checks("workstation", &p);
    assert_eq!(code, 0);
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["code"], "image");
    assert_eq!(checks[0]["status"], "skipped");
}

/// A stand-in podman: `image inspect` prints the 12.8 image's environment as
/// `{{json .Config.Env}}` does, or fails as podman 4.3 does for an image not in local storage;
/// every call is logged.
fn podman_dir(log: &Path) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let lines = std::fs::read_to_string(cuda_12_8()).unwrap();
    let list: Vec<&str> = lines.lines().filter(|l| !l.is_empty()).collect();
    let json = d.path().join("env.json");
    std::fs::write(&json, serde_json::to_string(&list).unwrap()).unwrap();
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\nif [ \"$1\" = image ]; then\n  case \"$6\" in\n  cuda:12.8) /bin/cat '{}';;\n  *) echo \"Error: inspecting object: $6: image not known\" >&2; exit 125;;\n  esac\nfi\n",
        log.display(),
        json.display()
    );
    let p = d.path().join("podman");
    std::fs::write(&p, script).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

fn doctor_here(path: &Path, args: &[&str]) -> std::process::Output {
    cargo_bin_cmd!("gpuctl")
        .env("PATH", path)
        .env_remove("GPUCTL_PODMAN_VERSION")
        .env("HOME", "/nonexistent-home")
        .args(["--root", "/", "doctor", "--format", "json"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn image_asks_this_machine_s_podman_and_a_missing_image_is_exit_2() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("calls");
    let bin = podman_dir(&log);
    let out = doctor_here(bin.path(), &["--image", "cuda:12.8", "nvidia"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(
        calls.contains("image inspect --format {{json .Config.Env}} -- cuda:12.8\n"),
        "{calls}"
    );
    // The image's NVIDIA variables reached the NVIDIA check (this machine loads no driver).
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "nvidia-image")
        .unwrap();
    assert_eq!(c["subject"], "cuda:12.8 on the loaded NVIDIA driver");

    let out = doctor_here(bin.path(), &["--image", "nosuch:1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "gpuctl: error: cannot inspect image nosuch:1 ('{}/podman image inspect nosuch:1' failed (exit status: 125): Error: inspecting object: nosuch:1: image not known); pull it first (podman pull IMAGE), or pass its environment with --image-env FILE\n",
            bin.path().display()
        )
    );

    let empty = tempfile::tempdir().unwrap();
    let out = doctor_here(empty.path(), &["--image", "cuda:12.8"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gpuctl: error: podman is not on PATH, so image cuda:12.8 cannot be inspected; install podman, or pass the image's environment with --image-env FILE\n"
    );
}

#[test]
fn another_host_s_image_is_not_asked_of_this_machine_s_podman() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("calls");
    let bin = podman_dir(&log);
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", bin.path())
        .env_remove("GPUCTL_PODMAN_VERSION")
        .arg("--root")
        .arg(workspace("tests/hosts/workstation"))
        .args(["doctor", "--format", "json", "--image", "cuda:12.8"])
        .output()
        .unwrap();
    assert!(!log.exists(), "podman was asked about another host's image");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "image")
        .unwrap();
    assert_eq!(c["status"], "skipped");
    assert_eq!(
        c["facts"][0],
        "skipped: --root names another host, and this machine's podman does not hold that host's images"
    );
}

#[test]
fn image_and_image_env_are_one_or_the_other() {
    cargo_bin_cmd!("gpuctl")
        .args(["doctor", "--image", "a", "--image-env", "b"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// Issue 25 item 12: the JSON list `{{json .Config.Env}}` prints keeps a line break inside one
/// value, so `X=a\nNVIDIA_DISABLE_REQUIRE=true` turns nothing off; the lines form is still
/// read, and a list that does not read is exit 2 naming the file.
#[test]
fn the_json_form_keeps_a_value_whole_and_a_broken_one_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("env.json");
    std::fs::write(
        &json,
        r#"["X=a\nNVIDIA_DISABLE_REQUIRE=true","NVIDIA_REQUIRE_CUDA=cuda>=12.8"]"#,
    )
    .unwrap();
    let (code, checks) = image_checks("nvidia-hook-only", &json);
    assert_eq!(code, 1);
    assert_eq!(checks[0]["status"], "problem", "{checks:?}");
    // The same pairs as lines forge the second one: what the lines form cannot carry.
    let lines = d.path().join("env.lines");
    std::fs::write(
        &lines,
        "X=a\nNVIDIA_DISABLE_REQUIRE=true\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\n",
    )
    .unwrap();
    let (_, checks) = image_checks("nvidia-hook-only", &lines);
    assert_eq!(checks[0]["status"], "skipped", "{checks:?}");

    let bad = d.path().join("bad.json");
    std::fs::write(&bad, r#"["NVIDIA_REQUIRE_CUDA"]"#).unwrap();
    let empty = tempfile::tempdir().unwrap();
    cargo_bin_cmd!("gpuctl")
        .env("PATH", empty.path())
        .arg("--root")
        .arg(workspace("tests/hosts/nvidia-hook-only"))
        .args(["doctor", "--image-env"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "--image-env {}: has the entry 'NVIDIA_REQUIRE_CUDA', which is no KEY=VALUE pair; give the JSON list or the KEY=VALUE lines podman image inspect prints",
            bad.display()
        )));
}

/// Issue 25 items 8-11 through doctor on nvidia-hook-only (535.183.01, CUDA 12.2) and
/// workstation (575.64.05, CUDA 12.9): each as NVIDIA's legacy hook would take it.
#[rstest::rstest]
// an empty NVIDIA_REQUIRE_CUDA holds; then the legacy CUDA_VERSION rule applies
#[case("nvidia-hook-only", "NVIDIA_REQUIRE_CUDA=\n", "ok")]
#[case(
    "nvidia-hook-only",
    "NVIDIA_REQUIRE_CUDA=\nCUDA_VERSION=12.8.1\n",
    "problem"
)]
// an empty CUDA_VERSION skips nothing else
#[case(
    "nvidia-hook-only",
    "CUDA_VERSION=\nNVIDIA_REQUIRE_DRIVER=driver>=550\n",
    "problem"
)]
// JETPACK variables are no requirements, and the rest is still checked
#[case(
    "nvidia-hook-only",
    "NVIDIA_REQUIRE_JETPACK=csv-mounts=all\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\n",
    "problem"
)]
#[case(
    "workstation",
    "NVIDIA_REQUIRE_JETPACK=csv-mounts=all\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\n",
    "ok"
)]
// the whole value: a 12.9 driver meets 12.8.1, and nothing is 12.8.1 but a 12.8.1 driver
#[case("workstation", "NVIDIA_REQUIRE_CUDA=cuda>=12.8.1\n", "ok")]
#[case("workstation", "NVIDIA_REQUIRE_CUDA=cuda=12.8.1\n", "problem")]
// `==` and a TAB are refused by the hook
#[case("workstation", "NVIDIA_REQUIRE_CUDA=cuda==12.8\n", "problem")]
#[case(
    "workstation",
    "NVIDIA_REQUIRE_CUDA=cuda>=13.0\tcuda>=12.0\n",
    "problem"
)]
fn doctor_takes_the_image_as_the_hook_does(
    #[case] host: &str,
    #[case] env: &str,
    #[case] status: &str,
) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("img.env");
    std::fs::write(&p, env).unwrap();
    let (_, checks) = image_checks(host, &p);
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["code"], "nvidia-image", "{checks:?}");
    assert_eq!(checks[0]["status"], status, "{checks:?}");
}
