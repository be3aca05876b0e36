//! How `cargo xtask bench --check` runs gpuctl: pinned to one CPU with a small fixed
//! environment, under callgrind for the instruction count, under GNU time for the peak memory.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Output};

/// The programs the check runs gpuctl under.
pub(super) struct Tools {
    /// The first CPU this process may run on.
    cpu: String,
}

impl Tools {
    pub(super) fn find() -> Result<Tools, String> {
        for (tool, package) in [("valgrind", "valgrind"), ("taskset", "util-linux")] {
            let found = Command::new(tool).arg("--version").output().is_ok();
            if !found {
                return Err(format!(
                    "bench --check needs {tool}: install it (apt-get install {package})"
                ));
            }
        }
        if !Path::new("/usr/bin/time").is_file() {
            return Err(
                "bench --check needs GNU time as /usr/bin/time: install it (apt-get install time)"
                    .into(),
            );
        }
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let cpu = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .and_then(|l| l.trim().split([',', '-']).next().map(str::to_string))
            .unwrap_or_else(|| "0".to_string());
        Ok(Tools { cpu })
    }

    /// Runs `prefix... gpuctl args...` on one CPU with a fixed, small environment.
    pub(super) fn pinned(
        &self,
        dir: &Path,
        prefix: &[OsString],
        gpuctl: &Path,
        args: &[OsString],
    ) -> Result<Output, String> {
        let home = dir.join("home");
        std::fs::create_dir_all(&home)
            .map_err(|e| format!("cannot create {}: {e}", home.display()))?;
        Command::new("taskset")
            .arg("-c")
            .arg(&self.cpu)
            .args(prefix)
            .arg(gpuctl)
            .args(args)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
            .env("HOME", &home)
            .env("LC_ALL", "C")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", gpuctl.display()))
    }

    /// Instructions executed, as callgrind counts them.
    pub(super) fn instructions(
        &self,
        gpuctl: &Path,
        args: &[OsString],
        dir: &Path,
    ) -> Result<f64, String> {
        let log = dir.join("callgrind.log");
        let profile = dir.join("callgrind.out");
        let prefix: Vec<OsString> = vec![
            "valgrind".into(),
            "--tool=callgrind".into(),
            flag("--log-file=", &log),
            flag("--callgrind-out-file=", &profile),
        ];
        let out = self.pinned(dir, &prefix, gpuctl, args)?;
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let collected = text.lines().find_map(|l| {
            l.split_once("Collected :")
                .map(|(_, n)| n.trim().to_string())
        });
        match collected.and_then(|n| n.parse::<f64>().ok()) {
            Some(n) => Ok(n),
            None => Err(format!(
                "valgrind --tool=callgrind counted nothing (exit {:?}): {}",
                out.status.code(),
                text.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
            )),
        }
    }

    /// The median of five runs' peak resident memory, KiB (GNU time's `%M`, the reaped child's
    /// `ru_maxrss`).
    pub(super) fn peak_kib(
        &self,
        gpuctl: &Path,
        args: &[OsString],
        dir: &Path,
    ) -> Result<f64, String> {
        let file = dir.join("time.out");
        let prefix: Vec<OsString> = vec![
            "/usr/bin/time".into(),
            "-f".into(),
            "%M".into(),
            "-o".into(),
            file.clone().into(),
        ];
        let mut peaks = Vec::new();
        for _ in 0..5 {
            self.pinned(dir, &prefix, gpuctl, args)?;
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let kib = text
                .lines()
                .last()
                .and_then(|l| l.trim().parse::<f64>().ok());
            peaks.push(kib.ok_or_else(|| format!("GNU time printed no peak: {text:?}"))?);
        }
        peaks.sort_by(f64::total_cmp);
        Ok(peaks[peaks.len() / 2])
    }
}

fn flag(name: &str, path: &Path) -> OsString {
    let mut f = OsString::from(name);
    f.push(path);
    f
}
