//! Building the gpuctl binary under test and calling it.
//!
//! The binary is built with the cargo that runs this task (`$CARGO`), in the target directory
//! the caller chose (`CARGO_TARGET_DIR`, `build.target-dir`), and its path is taken from cargo's
//! own build messages, so the task never tests a stale binary from somewhere else.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::podman::{Captured, run_with_timeout};

/// gpuctl only reads a few files; anything slower is a bug worth a failure.
const GPUCTL_TIMEOUT: Duration = Duration::from_secs(30);
/// A cold build of the workspace on a 2-core CI machine takes a few minutes.
const BUILD_TIMEOUT: Duration = Duration::from_secs(900);

/// The gpuctl binary and where the workspace builds.
#[derive(Debug, Clone)]
pub struct Gpuctl {
    /// The binary.
    pub bin: PathBuf,
    /// The cargo target directory.
    pub target_dir: PathBuf,
}

fn cargo() -> Command {
    // Set by cargo for `cargo run` (and so for `cargo xtask`); the plain name otherwise.
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The workspace root: the parent of this crate's manifest directory.
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// Builds gpuctl (debug profile) and returns the binary.
pub fn build() -> Result<Gpuctl, String> {
    let root = workspace_root();
    let meta = run_with_timeout(
        cargo()
            .current_dir(&root)
            .args(["metadata", "--format-version", "1", "--no-deps"]),
        BUILD_TIMEOUT,
    )?;
    if !meta.ok() {
        return Err(format!(
            "'cargo metadata' failed (exit {}): {}",
            meta.code_text(),
            meta.stderr.trim()
        ));
    }
    let target_dir = target_dir_of(&meta.stdout)?;
    // Build the way `cargo test --workspace` does, so that right after the tests (CI) this is
    // a no-op: a plain `cargo build -p gpuctl` resolves dependency features without the
    // dev-dependencies and recompiles most of the tree (a minute on a 2-core machine).
    let json = "--message-format=json-render-diagnostics";
    let via_tests = run_with_timeout(
        cargo()
            .current_dir(&root)
            .args(["test", "--workspace", "--no-run", "--quiet", json]),
        BUILD_TIMEOUT,
    )?;
    let built = if via_tests.ok() {
        via_tests
    } else {
        // Broken tests must not stop the integration run of a gpuctl that builds.
        println!(
            "integration: the workspace tests do not build; building gpuctl alone (cargo build -p gpuctl)"
        );
        run_with_timeout(
            cargo().current_dir(&root).args([
                "build",
                "--quiet",
                "--package",
                "gpuctl",
                "--bin",
                "gpuctl",
                json,
            ]),
            BUILD_TIMEOUT,
        )?
    };
    if !built.ok() {
        return Err(format!(
            "building gpuctl failed (exit {}):\n{}",
            built.code_text(),
            built.stderr.trim_end()
        ));
    }
    let bin = executable_of(&built.stdout, "gpuctl")
        .ok_or_else(|| "cargo built gpuctl but named no gpuctl executable".to_string())?;
    if !bin.is_file() {
        return Err(format!(
            "cargo built gpuctl but {} is not there",
            bin.display()
        ));
    }
    Ok(Gpuctl { bin, target_dir })
}

/// The executable of the binary target `name` in cargo's JSON messages (not its unit-test
/// harness, which `cargo test` also builds).
fn executable_of(messages: &str, name: &str) -> Option<PathBuf> {
    messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m.get("reason").and_then(|r| r.as_str()) == Some("compiler-artifact"))
        .filter(|m| {
            let target = m.get("target");
            target.and_then(|t| t.get("name")).and_then(|n| n.as_str()) == Some(name)
                && target
                    .and_then(|t| t.get("kind"))
                    .and_then(|k| k.as_array())
                    .is_some_and(|k| k.iter().any(|x| x.as_str() == Some("bin")))
                && m.get("profile")
                    .and_then(|p| p.get("test"))
                    .and_then(|t| t.as_bool())
                    == Some(false)
        })
        .find_map(|m| m.get("executable")?.as_str().map(PathBuf::from))
}

/// `target_directory` from `cargo metadata` output.
fn target_dir_of(metadata: &str) -> Result<PathBuf, String> {
    let v: serde_json::Value = serde_json::from_str(metadata)
        .map_err(|e| format!("'cargo metadata' printed something that is not JSON ({e})"))?;
    v.get("target_directory")
        .and_then(|t| t.as_str())
        .map(PathBuf::from)
        .ok_or_else(|| "'cargo metadata' names no target_directory".to_string())
}

/// What one `gpuctl args --format json` call printed.
#[derive(Debug, Clone)]
pub struct ArgsResult {
    /// The exit code and the raw output.
    pub raw: Captured,
    /// The arguments, when the call succeeded and printed a JSON array of strings.
    pub args: Option<Vec<String>>,
}

impl Gpuctl {
    fn command(&self, root: Option<&Path>) -> Command {
        let mut c = Command::new(&self.bin);
        // The caller's environment must not pick another host tree.
        c.env_remove("GPUCTL_ROOT").env_remove("RUST_LOG");
        if let Some(r) = root {
            c.arg("--root").arg(r);
        }
        c
    }

    /// `gpuctl [--root R] [--podman-version V] args --format json SELECTOR...`.
    pub fn args(
        &self,
        root: Option<&Path>,
        podman_version: Option<&str>,
        selectors: &[&str],
    ) -> Result<ArgsResult, String> {
        let mut c = self.command(root);
        if let Some(v) = podman_version {
            c.arg("--podman-version").arg(v);
        }
        c.args(["args", "--format", "json"]).args(selectors);
        let raw = run_with_timeout(&mut c, GPUCTL_TIMEOUT)?;
        let args = if raw.ok() {
            parse_args_json(&raw.stdout)
        } else {
            None
        };
        Ok(ArgsResult { raw, args })
    }

    /// `gpuctl --root R args --format FORMAT SELECTOR...`, as it ran.
    pub fn args_as(
        &self,
        root: &Path,
        format: &str,
        selectors: &[&str],
    ) -> Result<Captured, String> {
        let mut c = self.command(Some(root));
        c.args(["args", "--format", format]).args(selectors);
        run_with_timeout(&mut c, GPUCTL_TIMEOUT)
    }

    /// `gpuctl [--root R] detect --format json`, parsed.
    pub fn detect(&self, root: Option<&Path>) -> Result<(serde_json::Value, Captured), String> {
        let mut c = self.command(root);
        c.args(["detect", "--format", "json"]);
        let raw = run_with_timeout(&mut c, GPUCTL_TIMEOUT)?;
        if !raw.ok() {
            return Err(format!(
                "'gpuctl detect' failed (exit {}): {}",
                raw.code_text(),
                raw.stderr.trim()
            ));
        }
        let v = serde_json::from_str(&raw.stdout).map_err(|e| {
            format!("'gpuctl detect --format json' printed something that is not JSON ({e})")
        })?;
        Ok((v, raw))
    }
}

/// The arguments of `gpuctl args --format json` output: one JSON array of strings.
pub fn parse_args_json(text: &str) -> Option<Vec<String>> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.as_array()?
        .iter()
        .map(|a| a.as_str().map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("[\"--device\",\"/dev/kfd\"]\n", Some(vec!["--device", "/dev/kfd"]))]
    #[case("[]\n", Some(vec![]))]
    #[case("[1]", None)]
    #[case("--device /dev/kfd", None)]
    #[case("", None)]
    fn args_json(#[case] text: &str, #[case] want: Option<Vec<&str>>) {
        let want = want.map(|w| w.into_iter().map(str::to_string).collect::<Vec<_>>());
        assert_eq!(parse_args_json(text), want);
    }

    #[test]
    fn the_binary_not_its_test_harness() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"gpuctl"},"profile":{"test":true},"executable":"/t/debug/deps/gpuctl-f2b3"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"gpuctl_cli"},"profile":{"test":false},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"gpuctl"},"profile":{"test":false},"executable":"/t/debug/gpuctl"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        assert_eq!(
            executable_of(messages, "gpuctl"),
            Some(PathBuf::from("/t/debug/gpuctl"))
        );
        assert_eq!(executable_of("not json\n", "gpuctl"), None);
    }

    #[test]
    fn target_dir_from_metadata() {
        let meta = r#"{"packages":[],"target_directory":"/work/target-x","version":1}"#;
        assert_eq!(target_dir_of(meta), Ok(PathBuf::from("/work/target-x")));
        assert!(target_dir_of("{}").is_err());
    }
}
