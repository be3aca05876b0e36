//! Every grant is the device asked for, and every input is bounded (issue 11): one numbering
//! for NVIDIA GPUs, no whitespace smuggled into plain output, no impossible minors, no
//! `/dev/nvidia*` granted by its name alone, linear selectors, no FIFO that blocks, and
//! explain reading the end of podman's stderr. Each host is a tree built in the test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

/// A command that hangs is a failure, not a stuck test run.
const HANG: Duration = Duration::from_secs(20);

fn gpuctl(root: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().arg("--root").arg(root).timeout(HANG);
    cmd
}

/// A FIFO at `path` (std has no mkfifo; coreutils has).
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_given_as_site_table_is_refused_without_opening_it() {
    let t = Tree::new();
    let fifo = t.path("/site.yaml");
    mkfifo(&fifo);
    gpuctl(t.root())
        .args(["requirement", "--table"])
        .arg(&fifo)
        .arg("2330")
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "gpuctl: error: site table {} cannot be read (it is a FIFO (named pipe), not a regular file); pass --table a readable file\n",
            fifo.display()
        ));
}

#[test]
fn a_fifo_given_to_explain_is_refused_and_standard_input_still_works() {
    let t = Tree::new();
    let fifo = t.path("/podman-stderr.txt");
    mkfifo(&fifo);
    gpuctl(t.root())
        .arg("explain")
        .arg(&fifo)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "gpuctl: error: cannot read {} (it is a FIFO (named pipe), not a regular file); pass a file holding podman's stderr, or pipe it on standard input\n",
            fifo.display()
        ));
    for args in [&["explain"][..], &["explain", "-"][..]] {
        gpuctl(t.root())
            .args(args)
            .write_stdin("Error: crun: executable file not found\n")
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with("No GPU misconfiguration found"));
    }
}
