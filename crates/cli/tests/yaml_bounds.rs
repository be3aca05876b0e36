//! YAML bombs through the command line (issue 11 item 5): a spec past a bound is skipped with a
//! sentence, a site table past one is invalid input; both fast and small. The bounds are
//! generous for debug builds on a shared machine; the figures are in docs/cdi-parsing.md.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;

fn gpuctl(root: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear()
        .arg("--root")
        .arg(root)
        .timeout(Duration::from_secs(20));
    cmd
}

/// The 1 MB spec: one anchored list of 90,000 strings referenced by 12,000 hooks.
fn alias_bomb_spec() -> String {
    let list = vec!["\"x\""; 90_000].join(",");
    let mut t = format!(
        "cdiVersion: \"0.5.0\"\nkind: nvidia.com/gpu\ncontainerEdits:\n  hooks:\n  - hookName: prestart\n    path: /bin/true\n    args: &a [{list}]\n"
    );
    for _ in 0..12_000 {
        t.push_str("  - {hookName: prestart, path: /bin/true, args: *a}\n");
    }
    t.push_str("devices:\n- name: \"0\"\n  containerEdits:\n    env: [A=1]\n");
    t
}

#[test]
fn a_one_megabyte_alias_bomb_spec_is_skipped_fast() {
    let t = Tree::new();
    t.file("/etc/cdi/nvidia.yaml", &alias_bomb_spec());
    let start = Instant::now();
    let out = gpuctl(t.root())
        .args(["detect"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // detect lists warnings on stdout.
    let err = String::from_utf8(out.stdout).unwrap();
    assert!(
        err.contains("CDI spec /etc/cdi/nvidia.yaml is skipped: failed to parse CDI Spec: document contains excessive aliasing; podman skips it too"),
        "{err}"
    );
}

#[test]
fn a_site_table_with_a_large_aliased_scalar_is_invalid_input() {
    let t = Tree::new();
    let mut table = format!(
        "- generation: &g {}\n  first: \"2330\"\n  last: \"2330\"\n",
        "x".repeat(500_000)
    );
    for _ in 0..10_000 {
        table.push_str("- {generation: *g, first: \"2330\", last: \"2330\"}\n");
    }
    t.file("/site.yaml", &table);
    let start = Instant::now();
    let out = gpuctl(t.root())
        .args(["requirement", "--table"])
        .arg(t.path("/site.yaml"))
        .arg("2330")
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("aliases expand the document by more than 1048576 bytes; write the rows out without YAML aliases or deep nesting"),
        "{err}"
    );
}

#[test]
fn a_socket_named_as_a_spec_is_a_warning() {
    let t = Tree::new();
    t.dir("/etc/cdi");
    let _socket = std::os::unix::net::UnixListener::bind(t.path("/etc/cdi/nvidia.json")).unwrap();
    gpuctl(t.root())
        .args(["detect"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains(
            "/etc/cdi/nvidia.json is not read: it is a socket, not a regular file",
        ));
}
