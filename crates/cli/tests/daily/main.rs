//! What a new user hit in daily use (issue 19): one CDI device selected by its name, Quadlet
//! following `--podman-version`, `run` without `--`, wrong inputs named, and the small ones.
//! Bundled hosts where one fits, trees built in the test otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cdi_spec_facts;
mod cuda_requirement;
mod detect_labels;
mod inputs;
mod names;
mod node_missing;
mod quadlet;
mod run_args;
mod small;

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

/// A command that hangs is a failure, not a stuck test run.
const HANG: Duration = Duration::from_secs(20);

fn host(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
}

fn gpuctl(root: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().arg("--root").arg(root).timeout(HANG);
    cmd
}

/// Exit code, stdout and stderr of one run.
fn run(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = gpuctl(root).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
