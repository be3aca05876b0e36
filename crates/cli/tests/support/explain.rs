//! What the explain tests ask of `explain`, shared by the test crates that `#[path]` this file
//! in (each test crate is its own binary, so a helper not every crate calls is allowed dead).

#![allow(dead_code)]

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;

/// The family code, the emitter and the operation explain answers with.
pub(crate) fn read(
    text: &str,
) -> (
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
) {
    let e = explain(text, Registry::discovered(), None);
    (
        e.as_ref().map(|e| e.family.as_str()),
        e.as_ref().and_then(|e| e.emitter),
        e.as_ref().and_then(|e| e.operation).map(|o| o.as_str()),
    )
}

/// The cause a structured answer gives.
pub(crate) fn cause(text: &str) -> String {
    explain(text, Registry::discovered(), None)
        .and_then(|e| e.cause)
        .unwrap_or_default()
}

/// The line is read by the emitter rules as `emitter` failing `operation`, and the cause names
/// `word`.
pub(crate) fn assert_read_by_emitter(emitter: &str, operation: &str, word: &str, text: &str) {
    assert_eq!(
        read(text),
        (Some("gpu-structured"), Some(emitter), Some(operation)),
        "{text}"
    );
    let c = cause(text).to_lowercase();
    assert!(
        c.contains(&word.to_lowercase()),
        "{word} not in {c} for {text}"
    );
}

/// The text is claimed, and its diagnosis or hint names `word` (a cause a widened reading
/// lists beside its others).
pub(crate) fn assert_names(text: &str, word: &str) {
    let said = explain(text, Registry::discovered(), None)
        .map(|out| format!("{} {}", out.diagnosis, out.hint).to_lowercase())
        .unwrap_or_default();
    assert!(said.contains(word), "{word} not in {said}");
}

/// `gpuctl explain` on `root`'s host: its stdout, after checking it diagnosed (exit 0).
pub(crate) fn explain_on(root: &Path, text: &str) -> String {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .arg("--root")
        .arg(root)
        .arg("explain")
        .write_stdin(text)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8_lossy(&out).into_owned()
}
