//! `gpuctl requirement --distro` end to end: the chosen package and its install command, each
//! source's verdict in JSON, exit codes 0/1/2, a site's `--sources` file.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;
use serde_json::Value;

fn gpuctl(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().args(args);
    cmd
}

fn hosts(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn a_kepler_gpu_on_debian_12_gets_the_tesla_470_package() {
    gpuctl(&["requirement", "102d", "--distro", "debian:12"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Debian 12 (bookworm), NVIDIA: install nvidia-tesla-470-driver: apt-get install nvidia-tesla-470-driver\n",
        ))
        .stdout(predicate::str::contains(
            "  1. nvidia-driver 535.309.01-0+deb12u1 (bookworm-security; proprietary:535.309.01): does not fit — branch 535 is newer than 470\n",
        ));
}

#[test]
fn dgx_b200_on_debian_12_has_no_package_and_exits_1() {
    let root = hosts("dgx-b200");
    gpuctl(&["--root", &root, "requirement", "--distro", "debian:bookworm"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "Debian 12 (bookworm), NVIDIA: none — Debian 12 (bookworm) carries no package that drives every NVIDIA GPU here; no release of debian in the catalogue carries one\n",
        ));
}

#[test]
fn json_has_the_report_and_each_source_with_its_verdict() {
    let root = hosts("workstation");
    let out = gpuctl(&[
        "--root",
        &root,
        "requirement",
        "--distro",
        "debian:13",
        "--format",
        "json",
    ])
    .assert()
    .code(1)
    .get_output()
    .stdout
    .clone();
    let v: Value = serde_json::from_slice(&out).expect("one JSON object");
    // The requirement report's own keys stay.
    assert!(v["vendors"].is_array() && v["host_conflicts"].is_array());
    let d = &v["distro"];
    assert_eq!(d["release"]["label"], "Debian 13 (trixie)");
    let nvidia = &d["vendors"][0];
    assert_eq!(nvidia["vendor"], "nvidia");
    assert_eq!(nvidia["chosen"], "nvidia-driver");
    assert_eq!(nvidia["install"], "apt-get install nvidia-driver");
    let first = &nvidia["sources"][0];
    for key in [
        "distro", "release", "label", "suite", "vendor", "package", "version", "stack", "install",
        "source", "read", "fits", "why_not",
    ] {
        assert!(first.get(key).is_some(), "no {key} in {first}");
    }
    assert_eq!(first["fits"], "yes");
    // The workstation's RX 7900 XTX needs ROCm 6: Debian 13 builds 5.7.1.
    let amd = &d["vendors"][1];
    assert_eq!(amd["vendor"], "amd");
    assert_eq!(amd["chosen"], Value::Null);
    assert_eq!(amd["sources"][0]["fits"], "no");
}

#[test]
fn an_unknown_distribution_lists_the_known_ones_and_exits_2() {
    gpuctl(&["requirement", "2704", "--distro", "fedora"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--distro fedora: the catalogue has no distribution 'fedora'; it knows debian:11 (bullseye), debian:12 (bookworm), debian:13 (trixie), debian:sid (unstable), ubuntu:22.04 (jammy), ubuntu:24.04 (noble); add a site's own sources with --sources FILE",
        ));
}

#[test]
fn driver_and_distro_do_not_go_together() {
    gpuctl(&[
        "requirement",
        "2704",
        "--distro",
        "debian",
        "--driver",
        "open:580",
    ])
    .assert()
    .code(2);
    gpuctl(&["requirement", "2704", "--sources", "x.yaml"])
        .assert()
        .code(2);
}

#[test]
fn a_site_sources_file_is_preferred() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("site.yaml");
    std::fs::write(
        &file,
        "- {distro: debian, release: '13', label: Debian 13 (trixie), vendor: nvidia, package: site-nvidia-580-open, stack: ['open:580.95.05'], install: apt-get install site-nvidia-580-open, source: https://repo.example/site}\n",
    )
    .expect("write");
    let file = file.display().to_string();
    gpuctl(&["requirement", "2901", "--distro", "debian:13", "--sources", &file])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Debian 13 (trixie), NVIDIA: install site-nvidia-580-open: apt-get install site-nvidia-580-open\n",
        ));
    let bad = dir.path().join("site.txt");
    std::fs::write(&bad, "").expect("write");
    let bad = bad.display().to_string();
    gpuctl(&[
        "requirement",
        "2901",
        "--distro",
        "debian:13",
        "--sources",
        &bad,
    ])
    .assert()
    .code(2)
    .stderr(predicate::str::contains("is neither .json nor .yaml/.yml"));
}

#[test]
fn doctor_names_the_package_of_the_host_s_own_release() {
    let dir = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", hosts("dgx-b200")))
        .arg(dir.path())
        .status()
        .expect("cp runs");
    assert!(status.success());
    std::fs::create_dir_all(dir.path().join("etc")).expect("mkdir");
    std::fs::write(
        dir.path().join("etc/os-release"),
        "ID=debian\nVERSION_ID=\"13\"\nVERSION_CODENAME=trixie\n",
    )
    .expect("write");
    let root = dir.path().display().to_string();
    gpuctl(&["--root", &root, "--podman-version", "4.9.3", "doctor"])
        .assert()
        .stdout(predicate::str::contains(
            "warning  driver-package     Debian 13 (trixie)\n         - NVIDIA: none — Debian 13 (trixie) carries no package that drives every NVIDIA GPU here; no release of debian in the catalogue carries one\n",
        ));
}
