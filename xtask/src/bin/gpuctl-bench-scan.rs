//! `gpuctl-bench-scan ROOT RUNS`: reads the CDI specs of `/etc/cdi` under the host root ROOT
//! RUNS times and prints `median_ms peak_kib base_kib`: the median time of one read, the
//! process's peak resident memory after the first read (VmHWM), and that peak before it. Built
//! in release mode and run by `cargo xtask bench`, in a fresh process so the peak is this
//! read's own.

use std::path::PathBuf;
use std::time::Instant;

use gpuctl_cdi::CdiRegistry;
use gpuctl_core::plugin::Host;

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

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(runs)) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: gpuctl-bench-scan ROOT RUNS");
        return std::process::ExitCode::from(2);
    };
    let Ok(host) = Host::at(root) else {
        eprintln!("gpuctl-bench-scan: {root} is not a directory");
        return std::process::ExitCode::from(2);
    };
    let dirs = [PathBuf::from("/etc/cdi")];
    let base = vm_hwm_kib();
    let mut times = Vec::with_capacity(runs.max(1));
    let first = Instant::now();
    let reg = CdiRegistry::scan(&host, &dirs);
    times.push(first.elapsed().as_secs_f64() * 1e3);
    let peak = vm_hwm_kib();
    if !reg.warnings().is_empty() || reg.specs().iter().any(|s| s.error.is_some()) {
        eprintln!(
            "gpuctl-bench-scan: the specs did not read cleanly: {:?}",
            reg.warnings()
        );
        return std::process::ExitCode::from(1);
    }
    drop(reg);
    for _ in 1..runs {
        let t = Instant::now();
        let reg = CdiRegistry::scan(&host, &dirs);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        drop(reg);
    }
    times.sort_by(f64::total_cmp);
    println!("{:.3} {peak} {base}", times[times.len() / 2]);
    std::process::ExitCode::SUCCESS
}
