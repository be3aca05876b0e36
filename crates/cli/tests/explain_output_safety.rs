//! explain quotes the log it reads, and a reading's object is a piece of it: a control
//! character in the log (an escape sequence a container printed, a carriage return) reaches the
//! terminal written out (`\u{1b}`), never raw (docs/output-safety.md#text-output), while the
//! answer's own layout keeps its line breaks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use rstest::rstest;

fn explain_text(text: &str) -> String {
    let root = Tree::new();
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .arg("--root")
        .arg(root.root())
        .arg("explain")
        .write_stdin(text)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[rstest]
// A colour sequence inside a library name (an emitter rule's object).
#[case(
    "nvidia-container-cli: initialization error: load library failed: libnvidia-ml\u{1b}[31mX.so.1: cannot open shared object file: no such file or directory\n",
    "\\u{1b}[31m"
)]
// A terminal-title sequence (OSC, ended by BEL) inside a device path the fallback reads.
#[case(
    "foo: error: failed to open /dev/nvidia0\u{1b}]0;owned\u{7}: Permission denied\n",
    "\\u{7}"
)]
// A carriage return that would overwrite the quoted line with other words.
#[case(
    "Failed to initialize NVML: Driver/library version mismatch\rall is well            \n",
    "\\r"
)]
fn a_log_s_control_characters_are_written_out(#[case] text: &str, #[case] shown: &str) {
    let out = explain_text(text);
    assert!(
        !out.chars().any(|c| c.is_control() && c != '\n'),
        "a raw control character in: {out:?}"
    );
    assert!(out.contains(shown), "{shown} not in {out}");
    assert!(
        out.lines().count() > 3,
        "the layout's line breaks stay: {out}"
    );
}
