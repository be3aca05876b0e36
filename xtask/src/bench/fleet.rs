//! The `fleet` lines of `cargo xtask bench`: 1,000 and 10,000 reports, made from the fixture
//! hosts' own reports under distinct host names, planned by a fresh `gpuctl-bench-fleet`
//! (median time, peak memory) and by whole `gpuctl fleet` processes (median wall time). Goal
//! (issue 18): 10,000 reports well under a second and under 256 MiB, cost linear in reports.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Report counts measured.
pub const SIZES: [usize; 2] = [1_000, 10_000];

/// The fixture hosts' reports, as `gpuctl report` prints them.
pub(super) fn base_reports(gpuctl: &Path, repo: &Path) -> Result<Vec<(String, String)>, String> {
    let hosts = repo.join("tests/hosts");
    let mut names: Vec<String> = std::fs::read_dir(&hosts)
        .map_err(|e| format!("cannot list {}: {e}", hosts.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        let o = Command::new(gpuctl)
            .arg("--root")
            .arg(hosts.join(&n))
            .args(["-q", "report"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", gpuctl.display()))?;
        if !o.status.success() {
            return Err(format!("gpuctl report failed on {n}"));
        }
        out.push((n, String::from_utf8_lossy(&o.stdout).into_owned()));
    }
    Ok(out)
}

/// `count` reports in `dir/fleet-<count>/`, each a fixture host's under a name of its own;
/// those already there are kept unless `fresh` (the budget check, whose counts must not depend
/// on reports an older gpuctl wrote).
pub(super) fn generate(
    dir: &Path,
    bases: &[(String, String)],
    count: usize,
    fresh: bool,
) -> Result<PathBuf, String> {
    let out = dir.join(format!("fleet-{count}"));
    if !fresh && out.is_dir() && std::fs::read_dir(&out).map_or(0, |d| d.count()) == count {
        return Ok(out);
    }
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for i in 0..count {
        let (name, text) = &bases[i % bases.len()];
        let renamed = text.replacen(
            &format!("\"name\": \"{name}\""),
            &format!("\"name\": \"node-{i:05}-{name}\""),
            1,
        );
        let f = out.join(format!("node-{i:05}.json"));
        std::fs::write(&f, renamed).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    }
    Ok(out)
}

/// Prints the lines; `Ok(false)` when the goal is missed.
pub fn run(
    gpuctl: &Path,
    bench: &Path,
    repo: &Path,
    dir: &Path,
    runs: usize,
) -> Result<bool, String> {
    let bases = base_reports(gpuctl, repo)?;
    println!(
        "{:<18} {:>9} {:>9} {:>10} {:>12}",
        "fleet, reports", "MB", "ms", "peak MiB", "process ms"
    );
    let mut ok = true;
    let mut previous: Option<(usize, f64)> = None;
    let runs = runs.clamp(3, 10);
    for count in SIZES {
        let d = generate(dir, &bases, count, false)?;
        let bytes: u64 = std::fs::read_dir(&d)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum();
        let o = Command::new(bench)
            .arg(&d)
            .arg(runs.to_string())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bench.display()))?;
        let text = String::from_utf8_lossy(&o.stdout);
        let f: Vec<f64> = text
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        let [ms, peak_kib, hosts] = f[..] else {
            return Err(format!(
                "gpuctl-bench-fleet failed on {count}: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        };
        if hosts as usize != count {
            return Err(format!(
                "gpuctl-bench-fleet planned {hosts} of {count} reports"
            ));
        }
        let mut wall = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            Command::new(gpuctl)
                .args(["fleet", "--format", "json"])
                .arg(&d)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", gpuctl.display()))?;
            wall.push(t.elapsed().as_secs_f64() * 1e3);
        }
        wall.sort_by(f64::total_cmp);
        let process = wall[wall.len() / 2];
        let peak = peak_kib / 1024.0;
        println!(
            "{:<18} {:>9.1} {ms:>9.1} {peak:>10.1} {process:>12.1}",
            count,
            bytes as f64 / 1e6
        );
        if count == 10_000 && (process > 1000.0 || peak > 256.0) {
            ok = false;
        }
        if let Some((c0, t0)) = previous {
            println!(
                "growth: {c0} -> {count} reports (x{}): time x{:.1}",
                count / c0.max(1),
                ms / t0.max(1e-6)
            );
        }
        previous = Some((count, ms));
    }
    Ok(ok)
}
