//! `gpuctl run` with a stand-in engine on PATH (a shell script that prints what podman prints,
//! and an empty environment for run's image check, crates/cli/tests/run_image.rs):
//! the argument order, the exit code passed through, stderr streamed and explained, stdin and
//! stdout left alone. The real-podman runs are in `cargo xtask integration --fake`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

const ENGINE: &str = r#"#!/bin/sh
[ "$1" = image ] && echo '[]' && exit 0
case "$FAKE" in
gpu) echo 'Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all' >&2; exit 125;;
pull) echo 'Error: initializing source docker://nope:latest: reading manifest latest in docker.io/library/nope: requested access to the resource is denied' >&2; exit 125;;
cat) cat; exit 0;;
cuda) echo 'step 1' >&2; echo 'step 2' >&2; echo 'RuntimeError: CUDA error: no CUDA-capable device is detected' >&2; echo 'step 4' >&2; exit 1;;
code) exit "$CODE";;
*) printf '%s\n' "$@";;
esac
"#;

fn engine_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for name in ["podman", "docker"] {
        let p = d.path().join(name);
        std::fs::write(&p, ENGINE).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    d
}

fn nvidia_raw() -> Tree {
    let t = Tree::new();
    t.dev(&["nvidiactl", "nvidia0"]);
    t
}

fn gpuctl(t: &Tree, path: &std::path::Path) -> assert_cmd::Command {
    let mut c = cargo_bin_cmd!("gpuctl");
    c.env("PATH", format!("{}:/usr/bin:/bin", path.display()))
        .env_remove("GPUCTL_PODMAN_VERSION")
        .arg("--root")
        .arg(t.root());
    c
}

#[test]
fn gpu_arguments_go_before_the_user_s_and_dry_run_quotes_them() {
    let t = nvidia_raw();
    let d = engine_dir();
    gpuctl(&t, d.path())
        .args(["run", "--gpus", "nvidia", "--dry-run", "--", "--rm", "alpine", "sh", "-c", "echo it's"])
        .assert()
        .code(0)
        .stdout("podman run --device /dev/nvidia0 --device /dev/nvidiactl -e NVIDIA_VISIBLE_DEVICES=all -e NVIDIA_DRIVER_CAPABILITIES=all --rm alpine sh -c 'echo it'\\''s'\n");
    gpuctl(&t, d.path())
        .args(["run", "--gpus", "nvidia", "--", "--rm", "alpine", "true"])
        .assert()
        .code(0)
        .stdout("run\n--device\n/dev/nvidia0\n--device\n/dev/nvidiactl\n-e\nNVIDIA_VISIBLE_DEVICES=all\n-e\nNVIDIA_DRIVER_CAPABILITIES=all\n--rm\nalpine\ntrue\n");
}

#[test]
fn a_gpu_failure_keeps_the_engine_s_code_and_gets_its_diagnosis() {
    let t = nvidia_raw();
    let d = engine_dir();
    gpuctl(&t, d.path())
        .env("FAKE", "gpu")
        .args(["run", "--gpus", "nvidia", "--", "alpine"])
        .assert()
        .code(125)
        .stdout("")
        .stderr(
            predicate::str::starts_with(
                "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n",
            )
            .and(predicate::str::contains(
                "gpuctl: podman could not start the container (exit 125: podman's own error)\nGPU misconfiguration, in these lines (of 1):\n    1 | Error: setting up CDI devices",
            ))
            .and(predicate::str::contains("Diagnosis (cdi-unresolvable)")),
        );
}

/// issue 19: a container that ran and failed is not "could not start", and the engine's stderr,
/// already shown live, is quoted only where it shows the failure.
#[test]
fn a_container_that_ran_is_told_apart_and_only_its_failing_line_is_quoted() {
    let t = nvidia_raw();
    let d = engine_dir();
    let out = gpuctl(&t, d.path())
        .env("FAKE", "cuda")
        .args(["run", "--gpus", "nvidia", "--", "alpine"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(
        err.contains("gpuctl: the container started and exited with 1\n"),
        "{err}"
    );
    assert!(err.contains("Diagnosis (nvidia-cuda-no-device)"), "{err}");
    assert!(
        err.contains("    2 | step 2\n    3 | RuntimeError: CUDA error: no CUDA-capable device is detected\n    4 | step 4\n"),
        "{err}"
    );
    assert_eq!(err.matches("step 1").count(), 1, "{err}");
}

#[test]
fn a_non_gpu_failure_is_passed_through_unexplained() {
    let t = nvidia_raw();
    let d = engine_dir();
    gpuctl(&t, d.path())
        .env("FAKE", "pull")
        .args(["run", "--gpus", "nvidia", "--", "nope"])
        .assert()
        .code(125)
        .stderr("Error: initializing source docker://nope:latest: reading manifest latest in docker.io/library/nope: requested access to the resource is denied\n");
}

#[test]
fn the_engine_s_exit_codes_come_back_unchanged() {
    let t = nvidia_raw();
    let d = engine_dir();
    for code in ["1", "2", "42", "125", "126", "127"] {
        gpuctl(&t, d.path())
            .env("FAKE", "code")
            .env("CODE", code)
            .args(["run", "--gpus", "nvidia", "--", "alpine"])
            .assert()
            .code(code.parse::<i32>().unwrap());
    }
}

#[test]
fn stdin_reaches_the_engine_and_its_stdout_comes_back() {
    let t = nvidia_raw();
    let d = engine_dir();
    gpuctl(&t, d.path())
        .env("FAKE", "cat")
        .args(["run", "--gpus", "nvidia", "--", "-i", "alpine", "cat"])
        .write_stdin("hello from stdin\n")
        .assert()
        .code(0)
        .stdout("hello from stdin\n");
}

#[test]
fn docker_gets_numeric_groups_and_gpuctl_s_own_failures_are_1_and_2() {
    let t = Tree::new();
    t.dev(&["kfd", "dri/renderD128"]);
    t.render_node("renderD128", "0x1002", "0000:c1:00.0");
    // As udev makes them: the render group opens the nodes (never group 0, issue 16).
    let gid = gpuctl_testkit::other_gid().unwrap_or(0);
    t.owned("/dev/kfd", 0o660, gid)
        .owned("/dev/dri/renderD128", 0o660, gid);
    let groups = if gid == 0 {
        String::new()
    } else {
        format!(" --group-add {gid}")
    };
    let d = engine_dir();
    gpuctl(&t, d.path())
        .args([
            "run",
            "--gpus",
            "amd",
            "--engine",
            "docker",
            "--dry-run",
            "--",
            "alpine",
        ])
        .assert()
        .code(0)
        .stdout(format!(
            "docker run --device /dev/kfd --device /dev/dri/renderD128{groups} alpine\n"
        ));
    gpuctl(&t, d.path())
        .args([
            "run",
            "--gpus",
            "amd",
            "--dry-run",
            "--",
            "--runtime",
            "runc",
            "alpine",
        ])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "gpuctl: warning: --runtime runc drops the supplementary groups",
        ));
    gpuctl(&t, d.path())
        .args(["run", "--gpus", "nvidai", "--", "alpine"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--gpus: unknown GPU vendor 'nvidai'",
        ));
    gpuctl(&t, d.path())
        .args(["run", "--gpus", "nvidia", "--", "alpine"])
        .assert()
        .code(1);
    let empty = tempfile::tempdir().unwrap();
    cargo_bin_cmd!("gpuctl")
        .env("PATH", empty.path())
        .arg("--root")
        .arg(t.root())
        .args(["run", "--gpus", "amd", "--", "alpine"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("podman is not on PATH"));
    gpuctl(&t, d.path())
        .args(["run", "--gpus", "amd"])
        .assert()
        .code(2);
}
