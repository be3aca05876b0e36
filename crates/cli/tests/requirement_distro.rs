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

/// A copy of the bundled host `name` with an `/etc/os-release` of `text`.
fn host_with_os_release(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", hosts(name)))
        .arg(dir.path())
        .status()
        .expect("cp runs");
    assert!(status.success());
    std::fs::create_dir_all(dir.path().join("etc")).expect("mkdir");
    std::fs::write(dir.path().join("etc/os-release"), text).expect("write");
    dir
}

fn driver_package(report: &Value) -> Value {
    report["doctor"]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["code"] == "driver-package")
        .cloned()
        .unwrap_or(Value::Null)
}

/// Issue 30, item 2: report (and so the Ansible fact, NFD's doctor counts and fleet) carries
/// doctor's driver-package check; a vendor the catalogue lists no source for in the release is
/// "not known", never a warning; fleet groups the hosts whose release carries no package.
#[test]
fn report_and_fleet_name_the_package_of_each_host_s_release() {
    let b200 = host_with_os_release(
        "dgx-b200",
        "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n",
    );
    let ws = host_with_os_release(
        "workstation",
        "ID=ubuntu\nVERSION_ID=\"24.04\"\nVERSION_CODENAME=noble\n",
    );
    let reports = tempfile::tempdir().expect("temp dir");
    for (name, dir) in [("b200", &b200), ("ws", &ws)] {
        let root = dir.path().display().to_string();
        let out = gpuctl(&["--root", &root, "report"])
            .output()
            .expect("report runs");
        std::fs::write(reports.path().join(format!("{name}.json")), &out.stdout).expect("write");
    }
    let read = |n: &str| -> Value {
        let text = std::fs::read_to_string(reports.path().join(format!("{n}.json"))).expect("read");
        serde_json::from_str(&text).expect("report JSON")
    };
    let b = driver_package(&read("b200"));
    assert_eq!(b["status"], "warning", "{b}");
    assert_eq!(b["subject"], "Debian 12 (bookworm)");
    let w = driver_package(&read("ws"));
    assert_eq!(w["status"], "ok", "{w}");
    let facts = w["facts"].to_string();
    assert!(
        facts.contains(
            "NVIDIA: nvidia-driver-580 drives every GPU (apt-get install nvidia-driver-580)"
        ),
        "{facts}"
    );
    assert!(
        facts.contains("AMD: not known — the catalogue lists no AMD source"),
        "{facts}"
    );
    let dir = reports.path().display().to_string();
    let out = gpuctl(&["fleet", &dir]).output().expect("fleet runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("doctor warnings: 1 host (dgx-b200): driver-package: Debian 12 (bookworm): NVIDIA: none — Debian 12 (bookworm) carries no package"),
        "{text}"
    );
    assert!(!text.contains("(workstation): driver-package"), "{text}");
}
