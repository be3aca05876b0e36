//! The host's distribution from os-release(5), and doctor's driver-package check.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use std::path::Path;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::{Status, codes};
use gpuctl_sources::{Catalogue, OsRelease, driver_package_check};
// The vendors register themselves when linked.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;
use rstest::rstest;

#[rstest]
#[case::debian_12(
    "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n",
    Some("debian:12")
)]
#[case::single_quotes("ID='ubuntu'\nVERSION_ID='24.04'\n", Some("ubuntu:24.04"))]
// Debian unstable names no VERSION_ID; its codename is the next release's, which the catalogue
// does not list as unstable.
#[case::sid(
    "ID=debian\nVERSION_CODENAME=forky\nPRETTY_NAME=\"Debian GNU/Linux forky/sid\"\n",
    None
)]
#[case::codename_only("ID=debian\nVERSION_CODENAME=trixie\n", Some("debian:13"))]
#[case::unknown("ID=fedora\nVERSION_ID=41\n", None)]
#[case::comments(
    "# a comment\n\nnot a line\nID=debian\nVERSION_ID=11\n",
    Some("debian:11")
)]
fn os_release_names_a_catalogue_release(#[case] text: &str, #[case] release: Option<&str>) {
    let os = OsRelease::parse(text).expect("an ID");
    let c = Catalogue::builtin().expect("loads");
    let got = os
        .release(&c)
        .map(|r| format!("{}:{}", r.distro, r.release));
    assert_eq!(got.as_deref(), release);
}

#[test]
fn no_id_is_no_os_release() {
    assert_eq!(OsRelease::parse("VERSION_ID=12\n"), None);
}

fn tree(os_release: Option<&str>, from: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(from);
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", src.display()))
        .arg(dir.path())
        .status()
        .expect("cp runs");
    assert!(status.success());
    if let Some(text) = os_release {
        std::fs::create_dir_all(dir.path().join("etc")).expect("mkdir");
        std::fs::write(dir.path().join("etc/os-release"), text).expect("write");
    }
    dir
}

#[test]
fn the_check_names_each_vendor_s_package_of_the_host_s_release() {
    let dir = tree(Some("ID=debian\nVERSION_ID=\"12\"\n"), "workstation");
    let host = Host::at(dir.path()).expect("root");
    let c = driver_package_check(&host, Registry::discovered()).expect("a check");
    assert_eq!(c.code, codes::DRIVER_PACKAGE);
    assert_eq!(c.subject, "Debian 12 (bookworm)");
    // The RX 7900 XTX needs ROCm 6, which Debian 12 does not build: a warning, not a problem.
    assert_eq!(c.status, Status::Warning);
    assert_eq!(
        c.facts[0],
        "NVIDIA: nvidia-driver drives every GPU (apt-get install nvidia-driver)"
    );
    assert!(c.facts[1].starts_with("AMD: none — "), "{:?}", c.facts);
    assert!(
        c.remedy
            .as_deref()
            .is_some_and(|r| r.contains("--distro debian:12"))
    );
}

#[test]
fn a_host_every_vendor_of_which_has_a_package_is_ok() {
    let dir = tree(Some("ID=ubuntu\nVERSION_ID=\"24.04\"\n"), "dgx-b200");
    let host = Host::at(dir.path()).expect("root");
    let c = driver_package_check(&host, Registry::discovered()).expect("a check");
    assert_eq!(c.status, Status::Ok);
    assert_eq!(
        c.facts,
        [
            "NVIDIA: nvidia-driver-580-open drives every GPU (apt-get install nvidia-driver-580-open)"
        ]
    );
    assert_eq!(c.remedy, None);
}

#[test]
fn an_unlisted_release_is_skipped_and_no_os_release_is_no_check() {
    let dir = tree(Some("ID=fedora\nVERSION_ID=41\n"), "dgx-b200");
    let host = Host::at(dir.path()).expect("root");
    let c = driver_package_check(&host, Registry::discovered()).expect("a check");
    assert_eq!(c.status, Status::Skipped);
    assert_eq!(
        c.facts,
        ["the driver-source catalogue does not list fedora 41 (/etc/os-release)"]
    );
    let bare = tree(None, "dgx-b200");
    let host = Host::at(bare.path()).expect("root");
    assert_eq!(driver_package_check(&host, Registry::discovered()), None);
    // A host with no GPU gets no check, whatever its distribution.
    let empty = tree(Some("ID=debian\nVERSION_ID=12\n"), "empty");
    let host = Host::at(empty.path()).expect("root");
    assert_eq!(driver_package_check(&host, Registry::discovered()), None);
}
