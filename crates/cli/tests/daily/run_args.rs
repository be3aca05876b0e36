//! Item 8: `gpuctl run --gpus amd IMAGE CMD...` as podman users type it, without `--`; `--`
//! still works, and everything from the image on is the container's, flags included.

use std::os::unix::fs::PermissionsExt;

use gpuctl_testkit::Tree;
use rstest::rstest;

use super::*;

/// A stand-in podman that prints its arguments, one a line.
fn engine_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("podman");
    std::fs::write(&p, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

fn amd_raw() -> Tree {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD128", "0x1002", "0000:c1:00.0");
    t
}

const GPU: &str = "--device\n/dev/kfd\n--device\n/dev/dri/renderD128\n--group-add\nkeep-groups\n";

#[rstest]
#[case::bare_image(&["run", "--gpus", "amd", "alpine", "sh", "-c", "echo hi"], "alpine\nsh\n-c\necho hi\n")]
#[case::container_flags_stay_the_container_s(&["run", "--gpus", "amd", "alpine", "ls", "--dry-run", "-l"], "alpine\nls\n--dry-run\n-l\n")]
#[case::podman_options_before_the_image(&["run", "--gpus", "amd", "--rm", "-it", "-e", "A=1", "alpine"], "--rm\n-it\n-e\nA=1\nalpine\n")]
#[case::double_dash_still_works(&["run", "--gpus", "amd", "--", "--rm", "alpine", "true"], "--rm\nalpine\ntrue\n")]
#[case::gpus_after_other_flags(&["run", "--engine", "podman", "--gpus=amd", "alpine"], "alpine\n")]
fn run_takes_the_image_and_its_command(#[case] args: &[&str], #[case] user: &str) {
    let t = amd_raw();
    let d = engine_dir();
    let out = gpuctl(t.root())
        .env("PATH", format!("{}:/usr/bin:/bin", d.path().display()))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("run\n{GPU}{user}")
    );
}

#[test]
fn dry_run_before_the_image_is_gpuctl_s() {
    let t = amd_raw();
    gpuctl(t.root())
        .args(["run", "--gpus", "amd", "--dry-run", "alpine", "echo", "it's"])
        .assert()
        .code(0)
        .stdout("podman run --device /dev/kfd --device /dev/dri/renderD128 --group-add keep-groups alpine echo 'it'\\''s'\n");
}

#[test]
fn no_image_is_a_usage_error() {
    let t = amd_raw();
    let out = gpuctl(t.root())
        .args(["run", "--gpus", "amd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("gpuctl: error: "), "{stderr}");
    assert!(stderr.contains("<ARGS>"), "{stderr}");
}
