//! Item 6: `args --format quadlet` writes the keep-groups key the given podman's Quadlet reads.
//! The Intel CDI host's spec (cdiVersion 0.5.0) loads in every podman named here, so only the
//! key changes.

use rstest::rstest;

use super::*;

#[rstest]
#[case::none(
    None,
    "GroupAdd=keep-groups",
    "gpuctl: warning: Quadlet reads GroupAdd= from podman 5.1 on; with an older podman write 'PodmanArgs=--group-add keep-groups' instead, or pass --podman-version and gpuctl writes the key that podman reads\n"
)]
#[case::debian_12(
    Some("4.3.1"),
    "PodmanArgs=--group-add keep-groups",
    "gpuctl: warning: podman 4.3.1 has no Quadlet (podman 4.4 is the first): these [Container] keys need a newer podman; with this one use 'gpuctl args' in a podman run line\n"
)]
#[case::ubuntu_24_04(Some("4.9.3"), "PodmanArgs=--group-add keep-groups", "")]
#[case::last_without(Some("5.0.3"), "PodmanArgs=--group-add keep-groups", "")]
#[case::first_with(Some("5.1.0"), "GroupAdd=keep-groups", "")]
#[case::later(Some("5.2.0"), "GroupAdd=keep-groups", "")]
fn quadlet_follows_podman_version(
    #[case] podman: Option<&str>,
    #[case] line: &str,
    #[case] stderr: &str,
) {
    let mut cmd = gpuctl(&host("intel-arc-cdi"));
    if let Some(v) = podman {
        cmd.args(["--podman-version", v]);
    }
    let out = cmd
        .args(["args", "--format", "quadlet", "intel"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("[Container]\nAddDevice=intel.com/gpu=0000-08-00-0-0x56a5\n{line}\n")
    );
    assert_eq!(String::from_utf8(out.stderr).unwrap(), stderr);
}

#[test]
fn the_environment_variable_works_like_the_flag() {
    let out = gpuctl(&host("intel-arc-cdi"))
        .env("GPUCTL_PODMAN_VERSION", "4.9.3")
        .args(["args", "--format", "quadlet", "intel"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("PodmanArgs=--group-add keep-groups\n"),
        "{text}"
    );
    assert!(out.stderr.is_empty());
}
