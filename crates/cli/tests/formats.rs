//! Every rendering of `gpuctl args` says what the podman arguments say, on every fixture host
//! and selection: Quadlet item for item and in order, compose item for item within each key,
//! docker item for item with its numeric groups standing for keep-groups. And a format a
//! command does not have is invalid input that lists the ones it has.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::readback::{
    compose_to_podman, docker_to_podman, grouped, pairs, quadlet_to_podman,
};

const SELECTIONS: &[&str] = &[
    "all",
    "nvidia",
    "nvidia:0",
    "nvidia:1",
    "amd",
    "amd:0",
    "amd:1",
    "intel",
    "intel:0",
    "amd,intel",
    "nvidia:0,amd:0,intel:0",
];

fn hosts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts");
    let mut hosts: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    hosts.sort();
    hosts
}

/// stdout and stderr of a successful run, or `None` when the selection cannot be served.
fn args(root: &Path, format: &str, sel: &str) -> Option<(String, String)> {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .arg("--root")
        .arg(root)
        .args(["args", "--format", format, sel])
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
    match out.status.code() {
        Some(0) => Some((text(&out.stdout), text(&out.stderr))),
        Some(1) => None,
        other => panic!(
            "{}: {sel} --format {format}: exit {other:?}",
            root.display()
        ),
    }
}

#[test]
fn quadlet_compose_and_docker_say_what_the_podman_arguments_say() {
    let mut checked = 0;
    for root in hosts() {
        for sel in SELECTIONS {
            let Some((json, _)) = args(&root, "json", sel) else {
                for f in ["quadlet", "compose", "docker"] {
                    assert!(
                        args(&root, f, sel).is_none(),
                        "{f} serves what json does not"
                    );
                }
                continue;
            };
            let podman = pairs(&serde_json::from_str::<Vec<String>>(&json).unwrap());
            let at = format!("{} {sel}", root.display());

            let (quadlet, _) = args(&root, "quadlet", sel).unwrap();
            assert_eq!(quadlet_to_podman(&quadlet).unwrap(), podman, "quadlet {at}");

            let (compose, _) = args(&root, "compose", sel).unwrap();
            let compose = compose_to_podman(&compose).unwrap();
            assert_eq!(compose, grouped(&podman), "compose {at}");

            let (docker, stderr) = args(&root, "docker", sel).unwrap();
            let (docker, gids) = docker_to_podman(&docker);
            let mut podman = podman.clone();
            let keeps = ("--group-add".to_string(), "keep-groups".to_string());
            if gids.is_empty() && podman.contains(&keeps) {
                // A CDI-tier vendor, or nodes no group opens (the fixtures' nodes are files of
                // mode 0644): docker cannot keep groups, and says why no group is given.
                assert!(
                    stderr.contains("docker has no keep-groups")
                        || stderr
                            .contains("no '--group-add' lets a non-root container user open them")
                        || stderr.contains("gpuctl never adds '--group-add 0'"),
                    "{at}: {stderr}"
                );
                podman.retain(|p| *p != keeps);
            }
            assert_eq!(docker, podman, "docker {at}");
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} selections were served");
}

/// docker gets the group of each granted node that opens it (mode 0660, a group other than 0),
/// on a tree whose nodes have the ownership udev gives them.
#[test]
fn docker_groups_are_the_groups_that_own_the_granted_nodes() {
    let Some(gid) = gpuctl_testkit::other_gid() else {
        eprintln!("skipped: the user's only group is 0");
        return;
    };
    let t = gpuctl_testkit::Tree::new();
    t.dev(&["kfd"]);
    t.pci("0000:03:00.0", 0x1002, 0x74a1, 0x038000)
        .render_node("renderD128", "0x1002", "0000:03:00.0")
        .by_path("0000:03:00.0", "renderD128");
    t.owned("/dev/kfd", 0o660, gid)
        .owned("/dev/dri/renderD128", 0o660, gid);
    let (line, stderr) = args(t.root(), "docker", "amd:0").unwrap();
    assert!(line.ends_with(&format!(" --group-add {gid}\n")), "{line}");
    assert!(!line.contains("keep-groups"));
    assert!(stderr.contains(&format!("docker has no keep-groups: the container gets the groups that own the granted nodes (/dev/kfd: {gid}, /dev/dri/renderD128: {gid})")), "{stderr}");
}

#[test]
fn a_format_the_command_lacks_is_invalid_input_listing_the_ones_it_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts/workstation");
    for (cmd, bad, listed) in [
        ("args", "yaml", "plain, json, quadlet, compose, docker"),
        ("detect", "quadlet", "text, json"),
        ("requirement", "docker", "text, json"),
    ] {
        let out = cargo_bin_cmd!("gpuctl")
            .env_clear()
            .arg("--root")
            .arg(&root)
            .args([cmd, "--format", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd} --format {bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("[possible values: {listed}]")),
            "{cmd}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

/// Where a docker CLI is installed, it parses the docker rendering of every fixture host: its
/// flag parser runs before it contacts the daemon (here an absent socket), and rejects a
/// `--mount` or `--group-add` it cannot read with "invalid argument". Without docker the test
/// has nothing to ask and passes.
#[test]
fn the_docker_cli_parses_the_docker_rendering() {
    let Some(docker) = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("docker"))
            .find(|d| d.is_file())
    }) else {
        eprintln!("no docker CLI on PATH: nothing to check");
        return;
    };
    for root in hosts() {
        let Some((line, _)) = args(&root, "docker", "all") else {
            continue;
        };
        let out = std::process::Command::new(&docker)
            .env("DOCKER_HOST", "unix:///nonexistent/gpuctl-test.sock")
            .args(["run", "--rm"])
            .args(line.split_whitespace())
            .args(["busybox", "true"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            !stderr.contains("invalid argument") && !stderr.contains("unknown flag"),
            "{}: docker rejects {line}: {stderr}",
            root.display()
        );
    }
}
