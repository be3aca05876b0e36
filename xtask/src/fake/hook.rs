//! A stand-in for NVIDIA's legacy OCI hook (`oci-nvidia-hook.json`, prestart, `when: always`),
//! given to podman with `--hooks-dir` for one container. It does what decides whether the real
//! hook acts: it reads `NVIDIA_VISIBLE_DEVICES` from the bundle's `config.json` and writes down
//! every value there, in order. The real hook reads the environment into a map, so the last
//! value wins (nvidia-container-toolkit, `internal/config/image/builder.go`, `WithEnv`); it
//! injects GPUs unless that value is empty, `void` or `none`. docs/vendors.md#nvidia-cdi-tier.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The hook's directory, script and record, under a scratch directory of this run.
pub(super) struct StandIn {
    dir: PathBuf,
    record: PathBuf,
}

impl StandIn {
    /// Writes the hook JSON and its script under `scratch/<name>`.
    pub(super) fn create(scratch: &Path, name: &str) -> Result<StandIn, String> {
        let dir = scratch.join(name);
        let hooks = dir.join("hooks.d");
        fs::create_dir_all(&hooks).map_err(|e| format!("{}: {e}", hooks.display()))?;
        let record = dir.join("seen");
        let script = dir.join("nvidia-hook-standin.sh");
        // The state arrives on stdin as JSON with "bundle"; grep -o keeps values with commas.
        let text = format!(
            "#!/bin/sh\nstate=$(cat)\nbundle=$(printf '%s' \"$state\" | sed -n 's/.*\"bundle\":\"\\([^\"]*\\)\".*/\\1/p')\necho ran > {rec}\ngrep -o '\"NVIDIA_VISIBLE_DEVICES=[^\"]*\"' \"$bundle/config.json\" | tr -d '\"' >> {rec}\n",
            rec = record.display()
        );
        write(&script, &text)?;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", script.display()))?;
        let json = format!(
            "{{\"version\":\"1.0.0\",\"hook\":{{\"path\":\"{}\"}},\"when\":{{\"always\":true}},\"stages\":[\"prestart\"]}}\n",
            script.display()
        );
        write(&hooks.join("oci-nvidia-hook.json"), &json)?;
        let _ = fs::remove_file(&record);
        Ok(StandIn { dir: hooks, record })
    }

    /// The directory to pass as `podman --hooks-dir`.
    pub(super) fn hooks_dir(&self) -> &Path {
        &self.dir
    }

    /// What the hook saw: `None` when it did not run, otherwise the values of
    /// `NVIDIA_VISIBLE_DEVICES` in the container's config, in order.
    pub(super) fn seen(&self) -> Option<Vec<String>> {
        let text = fs::read_to_string(&self.record).ok()?;
        let mut lines = text.lines();
        (lines.next() == Some("ran")).then(|| {
            lines
                .filter_map(|l| l.strip_prefix("NVIDIA_VISIBLE_DEVICES="))
                .map(str::to_string)
                .collect()
        })
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Whether NVIDIA's hook would inject GPUs given these values (the last one counts).
pub(super) fn would_inject(values: &[String]) -> bool {
    !matches!(
        values.last().map(String::as_str),
        None | Some("" | "void" | "none")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_value_decides_as_in_the_toolkit_s_map() {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(!would_inject(&v(&["all", "void"])));
        assert!(would_inject(&v(&["void", "all"])));
        assert!(would_inject(&v(&["all"])));
        assert!(!would_inject(&v(&[])));
        assert!(!would_inject(&v(&["none"])));
    }
}
