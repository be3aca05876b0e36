//! `cargo xtask example-standalone`: builds and tests each example plug-in (tests/example-vendor,
//! tests/example-ascend, tests/example-accel) as a crate outside gpuctl's workspace, the way a
//! third party would
//! (docs/plugin-guide.md#step-1-the-crate-and-its-dependency-lines): its directory copied out of the checkout, each
//! `path = "../..."` dependency pointed at this checkout, and `cargo build --offline` against the
//! registry already downloaded, then `cargo test --offline`. A manifest that inherits from the workspace (`workspace = true`)
//! builds only inside it, and fails here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The example plug-ins, relative to the workspace root.
pub const EXAMPLES: [&str; 3] = [
    "tests/example-vendor",
    "tests/example-ascend",
    "tests/example-accel",
];

/// Flags of `cargo xtask example-standalone`.
#[derive(Debug, Clone, clap::Args)]
pub struct StandaloneArgs {
    /// Build only this example (a directory under tests/).
    #[arg(long)]
    pub example: Option<String>,
}

/// The workspace root: the parent of xtask's own directory.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Runs the task.
pub fn run(args: &StandaloneArgs) -> Result<bool, String> {
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let scratch = std::env::temp_dir().join(format!("gpuctl-standalone-{}", std::process::id()));
    let mut ok = true;
    for example in EXAMPLES {
        if args
            .example
            .as_deref()
            .is_some_and(|e| !example.ends_with(e))
        {
            continue;
        }
        // Outside the checkout: a directory under it would belong to gpuctl's workspace.
        let out = scratch.join(
            Path::new(example)
                .file_name()
                .ok_or_else(|| format!("{example}: no directory name"))?,
        );
        let _ = fs::remove_dir_all(&out);
        copy_dir(&root.join(example), &out)?;
        let manifest = out.join("Cargo.toml");
        let text =
            fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let rewritten = outside_manifest(&text, &root.join(example))?;
        fs::write(&manifest, rewritten).map_err(|e| format!("{}: {e}", manifest.display()))?;
        // The workspace's lock file pins the versions the workspace was tested with; cargo drops
        // the entries this crate does not need.
        fs::copy(root.join("Cargo.lock"), out.join("Cargo.lock"))
            .map_err(|e| format!("Cargo.lock: {e}"))?;
        eprintln!(
            "xtask: building {example} outside the workspace ({})",
            out.display()
        );
        // Built, then tested: an example's tests are what hold its claims (the Gaudi example's
        // that another vendor's node is never granted), and they must hold outside too.
        for (step, failed) in [("build", "build"), ("test", "pass its tests")] {
            let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args([step, "--offline", "--manifest-path"])
                .arg(&manifest)
                .env("CARGO_TARGET_DIR", &target)
                .status()
                .map_err(|e| format!("cannot run cargo: {e}"))?;
            if !status.success() {
                eprintln!("xtask: {example} does not {failed} outside the workspace");
                ok = false;
                break;
            }
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    Ok(ok)
}

/// The manifest with every relative `path = "..."` made absolute (what a third party does: point
/// it at their checkout, or replace it with `git = ...`). Inheriting from a workspace
/// (`workspace = true`, `.workspace = true`) is refused: outside it, there is none.
pub fn outside_manifest(text: &str, example_dir: &Path) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        if code.contains("workspace = true") || code.contains(".workspace") {
            return Err(format!(
                "Cargo.toml line {}: '{}' inherits from gpuctl's workspace, which a crate outside it does not have; write the version or path out",
                n + 1,
                line.trim()
            ));
        }
        match line.split_once("path = \"") {
            Some((before, rest)) if code.contains("path = \"") && !rest.starts_with('/') => {
                let (rel, after) = rest
                    .split_once('"')
                    .ok_or_else(|| format!("Cargo.toml line {}: unterminated path", n + 1))?;
                let abs = example_dir.join(rel);
                out.push_str(&format!("{before}path = \"{}\"{after}", abs.display()));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    Ok(out)
}

/// Copies a directory tree of plain files (an example crate: no links, no build outputs).
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", entry.path().display()))?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            if entry.file_name() != "target" {
                copy_dir(&entry.path(), &dest)?;
            }
        } else if kind.is_file() {
            fs::copy(entry.path(), &dest)
                .map_err(|e| format!("{}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fast and offline, in `cargo test`: every example's manifest is one a crate outside the
    /// workspace can use, and each path it names exists. The build itself is
    /// `cargo xtask example-standalone` (CI runs it).
    #[test]
    fn example_manifests_stand_outside_the_workspace() {
        let root = workspace_root();
        for example in EXAMPLES {
            let dir = root.join(example);
            let text = fs::read_to_string(dir.join("Cargo.toml")).expect("manifest");
            let outside =
                outside_manifest(&text, &dir).unwrap_or_else(|e| panic!("{example}: {e}"));
            for line in outside.lines() {
                let code = line.split('#').next().unwrap_or("");
                if let Some((_, rest)) = code.split_once("path = \"") {
                    let path = rest.split('"').next().expect("path");
                    assert!(
                        Path::new(path).join("Cargo.toml").is_file(),
                        "{example}: {path} is no crate"
                    );
                }
            }
        }
    }

    #[test]
    fn workspace_inheritance_is_refused_with_the_line() {
        let err = outside_manifest("[dependencies]\nserde.workspace = true\n", Path::new("/x"))
            .expect_err("inherits");
        assert!(
            err.starts_with("Cargo.toml line 2: 'serde.workspace = true' inherits"),
            "{err}"
        );
        let ok = outside_manifest(
            "gpuctl-core = { path = \"../../crates/core\" } # core\n",
            Path::new("/w/tests/ex"),
        )
        .expect("plain");
        assert_eq!(
            ok,
            "gpuctl-core = { path = \"/w/tests/ex/../../crates/core\" } # core\n"
        );
    }
}
