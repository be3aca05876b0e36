//! `gpuctl run` checks the image before the engine starts it (docs/image-check.md): a stand-in
//! engine on PATH answers `image inspect` with an image's environment and logs every call, so
//! the tests see that a refused image is never run. The real podman run is the
//! `run-image-cdi` and `run-image-raw` scenarios of `cargo xtask integration --fake`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::{Tree, cdi_yaml};
use predicates::prelude::*;

/// `image inspect` prints `$IMAGE_ENV`, the JSON list podman's `{{json .Config.Env}}` prints
/// (or fails as podman 4.3 does for an image not in local
/// storage when it is `missing`); `run` prints `started`. Every call is logged to `$LOG`.
const ENGINE: &str = r#"#!/bin/sh
echo "$*" >> "$LOG"
if [ "$1" = image ]; then
  if [ "$IMAGE_ENV" = missing ]; then
    echo "Error: inspecting object: $6: image not known" >&2; exit 125
  fi
  printf '%s\n' "$IMAGE_ENV"; exit 0
fi
echo started
"#;

/// What NVIDIA's CUDA 12.8 images declare, cut to one forward-compatibility alternative
/// (the full string is tested in crates/nvidia/src/image_env/real_strings.rs).
const CUDA_12_8: &str =
    "NVIDIA_REQUIRE_CUDA=cuda>=12.8 brand=tesla,driver>=470,driver<471\nCUDA_VERSION=12.8.0";

fn engine_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for name in ["podman", "docker"] {
        let p = d.path().join(name);
        std::fs::write(&p, ENGINE).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    d
}

/// An NVIDIA host on the CDI tier whose loaded driver is `release`.
fn nvidia_cdi(release: &str) -> Tree {
    nvidia_cdi_gpu(release, 0x2901)
}

/// [`nvidia_cdi`] with GPU `10de:device`.
fn nvidia_cdi_gpu(release: &str, device: u16) -> Tree {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, device, 0x030200);
    t.nvidia_dev();
    t.file(
        "/proc/driver/nvidia/version",
        &format!("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {release}  Release Build  (dvs-builder@U16-T02-35-3)  Tue Mar  5 22:15:33 UTC 2024\n"),
    );
    t.file(
        "/etc/cdi/nvidia.yaml",
        &cdi_yaml("nvidia.com/gpu", &["0", "all"]),
    );
    t
}

fn run(
    t: &Tree,
    engine: &Path,
    log: &Path,
    env: &str,
    args: &[&str],
) -> assert_cmd::assert::Assert {
    run_with(t, engine, log, env, &[], args)
}

/// [`run`] with `host` in gpuctl's own environment (what `-e KEY` and `--env-host` read).
fn run_with(
    t: &Tree,
    engine: &Path,
    log: &Path,
    env: &str,
    host: &[(&str, &str)],
    args: &[&str],
) -> assert_cmd::assert::Assert {
    cargo_bin_cmd!("gpuctl")
        .env_remove("NVIDIA_DISABLE_REQUIRE")
        .envs(host.iter().copied())
        .env("PATH", format!("{}:/usr/bin:/bin", engine.display()))
        .env("LOG", log)
        .env("IMAGE_ENV", as_podman_prints(env))
        .env_remove("GPUCTL_PODMAN_VERSION")
        .arg("--root")
        .arg(t.root())
        .arg("run")
        .args(args)
        .assert()
}

/// `KEY=VALUE` lines as `podman image inspect --format '{{json .Config.Env}}'` prints them;
/// `missing` stays the stand-in's word for an image not in local storage.
fn as_podman_prints(lines: &str) -> String {
    if lines == "missing" {
        return lines.to_string();
    }
    let list: Vec<&str> = lines.lines().filter(|l| !l.is_empty()).collect();
    serde_json::to_string(&list).unwrap()
}

fn calls(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_too_new_image_is_refused_on_the_cdi_tier_before_the_engine_runs_it() {
    let t = nvidia_cdi("550.54.15");
    let d = engine_dir();
    let log = d.path().join("log");
    run(&t, d.path(), &log, CUDA_12_8, &["--gpus", "nvidia", "--", "--rm", "-it", "cuda:12.8", "nvidia-smi"])
        .code(1)
        .stdout("")
        .stderr(predicate::str::diff(
            "gpuctl: error: refusing to start the container: cuda:12.8 on the loaded NVIDIA driver: loaded driver 550.54.15, which runs CUDA 12.4; the image asks for CUDA 12.8 or newer; install a driver of at least 570.26, or use an image built for CUDA 12.4 or older (NVIDIA's legacy hook refuses such a container; under CDI it starts and fails at its first CUDA call); --no-image-check starts it anyway\n",
        ));
    // Asked about the image, never told to run it.
    let calls = calls(&log);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert!(calls[0].starts_with("image inspect --format "), "{calls:?}");
    assert!(calls[0].ends_with(" -- cuda:12.8"), "{calls:?}");
}

#[test]
fn no_image_check_starts_it_and_a_new_driver_runs_it() {
    let d = engine_dir();
    let log = d.path().join("log");
    run(
        &nvidia_cdi("550.54.15"),
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "nvidia", "--no-image-check", "--", "cuda:12.8"],
    )
    .code(0)
    .stdout("started\n");
    assert!(calls(&log).iter().all(|c| !c.starts_with("image ")));
    run(
        &nvidia_cdi("570.124.06"),
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "nvidia", "--", "cuda:12.8"],
    )
    .code(0)
    .stdout("started\n")
    .stderr("");
}

#[test]
fn an_image_not_pulled_yet_is_a_warning_and_the_start_goes_on() {
    let d = engine_dir();
    let log = d.path().join("log");
    run(&nvidia_cdi("550.54.15"), d.path(), &log, "missing", &["--gpus", "nvidia", "--", "--rm", "nvcr.io/nvidia/cuda:12.8.0-base-ubuntu22.04"])
        .code(0)
        .stdout("started\n")
        .stderr(predicate::str::contains(
            "gpuctl: warning: the image is not checked against the host's drivers: cannot inspect image nvcr.io/nvidia/cuda:12.8.0-base-ubuntu22.04 (",
        ).and(predicate::str::contains("image not known")));
}

#[test]
fn an_option_gpuctl_cannot_place_is_said_and_docker_is_asked_as_podman() {
    let d = engine_dir();
    let log = d.path().join("log");
    let t = nvidia_cdi("550.54.15");
    run(
        &t,
        d.path(),
        &log,
        CUDA_12_8,
        &[
            "--gpus",
            "nvidia",
            "--",
            "--some-new-flag",
            "x",
            "cuda:12.8",
        ],
    )
    .code(0)
    .stderr(predicate::str::contains(
        "gpuctl does not know whether --some-new-flag takes a value",
    ));
    run(
        &t,
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "nvidia", "--engine", "docker", "--", "cuda:12.8"],
    )
    .code(1)
    .stderr(predicate::str::contains(
        "refusing to start the container: cuda:12.8",
    ));
    // No GPU granted: nothing to check the image against.
    let before = calls(&log).len();
    run(
        &t,
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "none", "--", "cuda:12.8"],
    )
    .code(0);
    assert_eq!(calls(&log).len(), before + 1);
}

/// Issue 25 item 13: the hook reads the container's environment, the image's overlaid with
/// run's `-e`/`--env`/`--env-file`, so that is what is judged.
#[test]
fn run_s_environment_options_are_judged_as_the_hook_sees_the_container() {
    let d = engine_dir();
    let log = d.path().join("log");
    // An H100 (10de:2330, first listed by the open module at 525.85.05), which 550.54.15
    // drives, so only the image decides: a B200 needs 570 whatever the image says.
    let old = nvidia_cdi_gpu("550.54.15", 0x2330);
    let go = |host: &[(&str, &str)], args: &[&str]| {
        let mut all = vec!["--gpus", "nvidia", "--"];
        all.extend_from_slice(args);
        run_with(&old, d.path(), &log, CUDA_12_8, host, &all)
    };
    // NVIDIA_DISABLE_REQUIRE given at the start turns the toolkit's check off
    go(&[], &["-e", "NVIDIA_DISABLE_REQUIRE=true", "cuda:12.8"])
        .code(0)
        .stdout("started\n");
    go(&[], &["--env=NVIDIA_DISABLE_REQUIRE=1", "cuda:12.8"]).code(0);
    // `-e KEY` takes the value gpuctl (and so podman) runs with, when it has one
    go(
        &[("NVIDIA_DISABLE_REQUIRE", "true")],
        &["-e", "NVIDIA_DISABLE_REQUIRE", "cuda:12.8"],
    )
    .code(0);
    go(&[], &["-e", "NVIDIA_DISABLE_REQUIRE", "cuda:12.8"]).code(1);
    // an env-file, and --env over it
    let file = d.path().join("run.env");
    std::fs::write(&file, "# set by the site\nNVIDIA_DISABLE_REQUIRE=true\n").unwrap();
    let file = file.display().to_string();
    go(&[], &["--env-file", &file, "cuda:12.8"]).code(0);
    go(
        &[],
        &[
            "--env-file",
            &file,
            "-e",
            "NVIDIA_DISABLE_REQUIRE=false",
            "cuda:12.8",
        ],
    )
    .code(1);
    // a requirement added at the start is checked: CUDA 13.0 on a 570 driver
    let new = nvidia_cdi("570.124.06");
    run(
        &new,
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "nvidia", "--", "cuda:12.8"],
    )
    .code(0);
    run(
        &new,
        d.path(),
        &log,
        CUDA_12_8,
        &["--gpus", "nvidia", "--", "--env", "NVIDIA_REQUIRE_CUDA=cuda>=13.0", "cuda:12.8"],
    )
    .code(1)
    .stderr(predicate::str::contains(
        "loaded driver 570.124.06, which runs CUDA 12.8; the image asks for CUDA 13.0 or newer; install a driver of at least 580.65.06",
    ));
    // an env-file gpuctl must not read (a FIFO is read once, by the engine): said, and started
    let fifo = d.path().join("fifo.env");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    go(&[], &["--env-file", &fifo.display().to_string(), "cuda:12.8"])
        .code(0)
        .stderr(predicate::str::contains(
            "the image is not checked against the host's drivers: the container's environment cannot be told, since --env-file",
        ).and(predicate::str::contains("is a FIFO (named pipe), not a regular file")));
}
