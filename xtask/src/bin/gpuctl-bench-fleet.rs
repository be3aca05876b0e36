//! `gpuctl-bench-fleet DIR RUNS`: reads every report in DIR and plans them, as `gpuctl fleet`
//! does, RUNS times, and prints `median_ms peak_kib hosts`: the median time of one read and
//! plan, the process's peak resident memory (VmHWM) after the first, and the hosts planned.
//! Built in release mode and run by `cargo xtask bench`, in a fresh process so the peak is
//! this work's own.

use std::path::PathBuf;
use std::time::Instant;

use gpuctl_fleet::{load, plan};

fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn once(dir: &PathBuf, threads: usize) -> (f64, usize, usize) {
    let t = Instant::now();
    let (files, _) = load::files(std::slice::from_ref(dir));
    let (hosts, skipped) = load::read_all(&files, threads).unwrap_or_default();
    let p = plan::plan(hosts, None, skipped);
    (t.elapsed().as_secs_f64() * 1e3, p.hosts, p.skipped.len())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(runs)) = (
        args.get(1).map(PathBuf::from),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: gpuctl-bench-fleet DIR RUNS");
        return std::process::ExitCode::from(2);
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (first, hosts, skipped) = once(&dir, threads);
    let peak = vm_hwm_kib();
    if skipped > 0 {
        eprintln!(
            "gpuctl-bench-fleet: {skipped} report(s) skipped in {}",
            dir.display()
        );
        return std::process::ExitCode::from(1);
    }
    let mut times = vec![first];
    for _ in 1..runs {
        times.push(once(&dir, threads).0);
    }
    times.sort_by(f64::total_cmp);
    println!("{:.3} {peak} {hosts}", times[times.len() / 2]);
    std::process::ExitCode::SUCCESS
}
