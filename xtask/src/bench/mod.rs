//! `cargo xtask bench`: whole-process timings of a release `gpuctl`, each paired with
//! `/bin/true` (runs interleaved, medians compared, so the machine's load cancels out), on
//! generated hosts of 8, 64, 512 and 4096 NVIDIA GPUs (JSON and YAML specs) with 2 AMD GPUs;
//! then the CDI spec-directory read alone, in a fresh release process: median time and peak
//! memory. Goals (issue 9): `args all` on the 8-GPU host at most 2x `/bin/true`; a 2 MB spec
//! directory in at most 10 ms and 16 MiB, linear in size; `fleet` over 10,000 reports well
//! under a second and 256 MiB (issue 18, [`fleet`]).

mod budget;
mod check;
mod fleet;
pub(crate) mod hosts;
mod measure;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use hosts::SpecFormat;

/// Flags of `cargo xtask bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Paired runs per measurement (the median of each side is compared).
    #[arg(long, default_value_t = 30)]
    pub runs: usize,

    /// GPU counts of the generated hosts.
    #[arg(long, value_delimiter = ',', default_values_t = [8, 64, 512, 4096])]
    pub sizes: Vec<usize>,

    /// Also time this gpuctl binary in the same runs (e.g. a build of an older commit), so
    /// before and after are measured together.
    #[arg(long, value_name = "GPUCTL")]
    pub baseline: Option<PathBuf>,

    /// Only the `fleet` lines (1,000 and 10,000 reports).
    #[arg(long)]
    pub fleet_only: bool,

    /// Use this gpuctl binary instead of building `target/release/gpuctl`.
    #[arg(long, value_name = "GPUCTL")]
    pub gpuctl: Option<PathBuf>,

    /// The performance gate instead of the timings: count each workload's instructions
    /// (callgrind) and peak memory, compare them with xtask/budgets.tsv, exit 1 when one is over
    /// its budget by more than the margin (docs/performance.md).
    #[arg(long)]
    pub check: bool,

    /// With --check: only these workloads (comma-separated names from xtask/budgets.tsv).
    #[arg(
        long,
        value_delimiter = ',',
        requires = "check",
        value_name = "WORKLOAD"
    )]
    pub only: Vec<String>,
}

/// Runs the benchmark; `Ok(false)` when a goal is missed.
pub fn run(args: &BenchArgs) -> Result<bool, String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo.join("target"), PathBuf::from);
    let mut build = vec![];
    if !args.check {
        build.extend([
            "-p",
            "xtask",
            "--bin",
            "gpuctl-bench-scan",
            "--bin",
            "gpuctl-bench-fleet",
        ]);
    }
    if args.gpuctl.is_none() {
        build.extend(["-p", "gpuctl", "--bin", "gpuctl"]);
    }
    if !build.is_empty() {
        cargo_release(&repo, &build)?;
    }
    let gpuctl = args
        .gpuctl
        .clone()
        .unwrap_or_else(|| target.join("release/gpuctl"));
    if args.check {
        return check::run(
            &gpuctl,
            &repo,
            &target.join("xtask-bench/check"),
            &args.only,
        );
    }
    let scan = target.join("release/gpuctl-bench-scan");
    let dir = target.join("xtask-bench");
    let runs = args.runs.max(3);
    if args.fleet_only {
        let ok = fleet::run(
            &gpuctl,
            &target.join("release/gpuctl-bench-fleet"),
            &repo,
            &dir,
            runs,
        )?;
        println!();
        println!("goals: {}", if ok { "met" } else { "NOT met" });
        return Ok(ok);
    }

    println!("gpuctl bench: {runs} paired runs per line, medians; ratio = gpuctl / /bin/true");
    if let Some(b) = &args.baseline {
        println!("baseline: {} (timed in the same runs)", b.display());
    }
    println!();
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>7} {:>10}",
        "host, command", "spec KB", "true ms", "gpuctl ms", "ratio", "baseline"
    );
    let mut ok = true;
    let mut previous: Option<(usize, f64)> = None;
    let mut growth = Vec::new();
    for &gpus in &args.sizes {
        for format in [SpecFormat::Yaml, SpecFormat::Json] {
            let root = hosts::build(&dir, gpus, format)?;
            let spec_kb = spec_size(&root, format) as f64 / 1024.0;
            check_output(&gpuctl, &root)?;
            let mut commands = vec![("args all", vec!["args", "all"])];
            if gpus == args.sizes[0] && format == SpecFormat::Yaml {
                commands.insert(0, ("args none", vec!["args", "none"]));
            }
            for (label, argv) in commands {
                let m = paired(&gpuctl, args.baseline.as_deref(), &root, &argv, runs)?;
                let base = m
                    .baseline
                    .map_or(String::new(), |b| format!("{:.2}x", b / m.floor));
                println!(
                    "{:<18} {spec_kb:>9.1} {:>9.3} {:>9.3} {:>6.2}x {base:>10}",
                    format!("{gpus} {} {label}", format.ext()),
                    m.floor,
                    m.gpuctl,
                    m.gpuctl / m.floor
                );
                if gpus == 8 && label == "args all" && m.gpuctl / m.floor > 2.0 {
                    ok = false;
                }
                if label == "args all" && format == SpecFormat::Yaml {
                    let extra = (m.gpuctl - m.floor).max(0.0);
                    if let Some((g0, e0)) = previous {
                        growth.push(format!(
                            "{g0} -> {gpus} GPUs (x{}): time above /bin/true x{:.1}",
                            gpus / g0.max(1),
                            extra / e0.max(1e-6)
                        ));
                    }
                    previous = Some((gpus, extra));
                }
            }
        }
    }
    println!();
    for g in &growth {
        println!("growth: {g}");
    }
    println!();
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>10}",
        "spec-dir read", "spec KB", "ms", "MB/s", "peak MiB"
    );
    let mut sizes: Vec<(String, usize, SpecFormat)> = args
        .sizes
        .iter()
        .flat_map(|&g| {
            [SpecFormat::Yaml, SpecFormat::Json].map(|f| (format!("{g} {}", f.ext()), g, f))
        })
        .collect();
    // The goal's own size: as many GPUs as make a 2 MiB spec, in each format.
    for f in [SpecFormat::Yaml, SpecFormat::Json] {
        sizes.push((
            format!("2MiB {}", f.ext()),
            hosts::gpus_for_bytes(f, 2 << 20)?,
            f,
        ));
    }
    for (label, gpus, format) in sizes {
        let root = hosts::build(&dir, gpus, format)?;
        let bytes = spec_size(&root, format);
        let out = Command::new(&scan)
            .arg(&root)
            .arg(runs.to_string())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", scan.display()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<f64> = text
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        let [ms, peak, _base] = fields[..] else {
            return Err(format!(
                "gpuctl-bench-scan failed on {label}: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        };
        let peak_mib = peak / 1024.0;
        println!(
            "{label:<18} {:>9.1} {ms:>9.2} {:>9.1} {peak_mib:>10.1}",
            bytes as f64 / 1024.0,
            bytes as f64 / 1e3 / ms.max(1e-6)
        );
        if label.starts_with("2MiB") && (ms > 10.0 || peak_mib > 16.0) {
            ok = false;
        }
    }
    println!();
    ok &= fleet::run(
        &gpuctl,
        &target.join("release/gpuctl-bench-fleet"),
        &repo,
        &dir,
        runs,
    )?;
    println!();
    println!("goals: {}", if ok { "met" } else { "NOT met" });
    Ok(ok)
}

fn cargo_release(repo: &Path, args: &[&str]) -> Result<(), String> {
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(repo)
        .args(["build", "--release", "--quiet"])
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err("cargo build --release failed".to_string())
    }
}

fn spec_size(root: &Path, format: SpecFormat) -> u64 {
    std::fs::metadata(root.join(format!("etc/cdi/nvidia.{}", format.ext()))).map_or(0, |m| m.len())
}

/// A benchmark that grants nothing, or the wrong thing, measures nothing.
fn check_output(gpuctl: &Path, root: &Path) -> Result<(), String> {
    let out = Command::new(gpuctl)
        .arg("--root")
        .arg(root)
        .args(["args", "all"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", gpuctl.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !text.contains("nvidia.com/gpu=all") || !text.contains("/dev/kfd") {
        return Err(format!(
            "gpuctl args all on {} did not grant nvidia.com/gpu=all and /dev/kfd: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// Medians, in milliseconds.
struct Measured {
    floor: f64,
    gpuctl: f64,
    baseline: Option<f64>,
}

fn time(cmd: &mut Command) -> Result<f64, String> {
    let t = Instant::now();
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    Ok(t.elapsed().as_secs_f64() * 1e3)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn paired(
    gpuctl: &Path,
    baseline: Option<&Path>,
    root: &Path,
    argv: &[&str],
    runs: usize,
) -> Result<Measured, String> {
    let run = |bin: &Path| -> Result<f64, String> {
        time(Command::new(bin).arg("--root").arg(root).args(argv))
    };
    let (mut floor, mut mine, mut base) = (Vec::new(), Vec::new(), Vec::new());
    // Warm the page cache and the dynamic loader's files first.
    for _ in 0..3 {
        time(&mut Command::new("/bin/true"))?;
        run(gpuctl)?;
        if let Some(b) = baseline {
            run(b)?;
        }
    }
    for _ in 0..runs {
        floor.push(time(&mut Command::new("/bin/true"))?);
        mine.push(run(gpuctl)?);
        if let Some(b) = baseline {
            base.push(run(b)?);
        }
    }
    Ok(Measured {
        floor: median(floor),
        gpuctl: median(mine),
        baseline: baseline.map(|_| median(base)),
    })
}

#[cfg(test)]
mod tests {
    use super::hosts::{SpecFormat, spec};

    /// The benchmark measures the fast spec path: its specs must be in that path's subset, and
    /// read the same by the full reader.
    #[test]
    fn the_bench_specs_take_the_fast_path() {
        for gpus in [2, 8, 64] {
            for format in [SpecFormat::Json, SpecFormat::Yaml] {
                let text = spec(gpus, format).unwrap_or_default();
                let agrees = gpuctl_cdi::spec::fast_path_agrees(text.as_bytes());
                assert_eq!(agrees, Ok(true), "{gpus} GPUs, {}", format.ext());
            }
        }
    }
}
