//! Inputs the user names: no FIFO that blocks (item 7), explain reading the end of podman's
//! stderr and a site-table error quoting a short excerpt (item 8).

use std::path::Path;
use std::process::Command;

use gpuctl_testkit::Tree;
use predicates::prelude::*;

use super::gpuctl;

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
fn a_fifo_given_to_explain_is_read_at_once_and_standard_input_still_works() {
    // `explain <(podman ...)` names a pipe: it is read like standard input, and one nobody
    // writes to is empty input at once, never a hang (issue: daily use, item 9).
    let t = Tree::new();
    let fifo = t.path("/podman-stderr.txt");
    mkfifo(&fifo);
    gpuctl(t.root())
        .arg("explain")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(format!(
            "Nothing to explain: {} was empty.",
            fifo.display()
        )));
    for args in [&["explain"][..], &["explain", "-"][..]] {
        gpuctl(t.root())
            .args(args)
            .write_stdin("Error: crun: executable file not found\n")
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with("No GPU misconfiguration found"));
    }
}

/// What crun prints when the NVIDIA hook fails on rootless podman (the hint cites it).
const HOOK_ERROR: &str = "Error: OCI runtime error: crun: error executing hook /usr/bin/nvidia-container-runtime-hook (exit code: 1): nvidia-container-cli: container error: cgroup subsystem devices not found\n";

/// 17 MiB of a container's own chatter, then podman's error: the error is past the first
/// 16 MiB, where explain used to stop and report nothing.
fn long_log() -> String {
    let line = "container log line that has nothing to do with GPUs\n";
    let mut s = line.repeat(17 * 1024 * 1024 / line.len() + 1);
    s.push_str(HOOK_ERROR);
    s
}

#[test]
fn explain_reads_the_end_of_a_long_stderr_and_says_it_was_cut() {
    let t = Tree::new();
    t.file("/podman.err", &long_log());
    let warning =
        "is longer than 16 MiB: only its last 16 MiB were read, where podman prints its error\n";
    gpuctl(t.root())
        .arg("explain")
        .arg(t.path("/podman.err"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no-cgroups = true"))
        .stderr(format!(
            "gpuctl: warning: {} {warning}",
            t.path("/podman.err").display()
        ));
    gpuctl(t.root())
        .arg("explain")
        .write_stdin(long_log())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no-cgroups = true"))
        .stderr(format!("gpuctl: warning: standard input {warning}"));
    gpuctl(t.root())
        .arg("explain")
        .write_stdin(HOOK_ERROR)
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn a_wrong_site_table_is_quoted_in_a_short_excerpt() {
    // /etc/passwd given as a site table: YAML reads all of it as one string.
    let t = Tree::new();
    let passwd: String = (0..200)
        .map(|i| format!("user{i}:x:{i}:{i}:User {i}:/home/user{i}:/bin/sh\n"))
        .collect();
    t.file("/passwd.yaml", &passwd);
    let out = gpuctl(t.root())
        .args(["requirement", "--table"])
        .arg(t.path("/passwd.yaml"))
        .arg("2330")
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(
        err.contains(
            "invalid type: string \"user0:x:0:0:User 0:/home/user0:/bin/sh user1:x:1:1:User 1:/h…\""
        ),
        "{err}"
    );
    assert!(!err.contains("user199"), "{err}");
    assert!(err.len() < 800, "{} bytes: {err}", err.len());
}
