//! `cargo xtask bench --check`: the performance gate (issue 26). Each workload runs a release
//! `gpuctl` once natively (its exit code and output must be the right answer, or it measures
//! nothing), once under callgrind, which counts the instructions the whole process executes
//! (a figure that stays put on a loaded, shared 2-core machine, where wall time does not), and,
//! for the workloads with a memory budget, five times under GNU time for the peak resident
//! memory (the median). The figures are compared with `xtask/budgets.tsv` ([`super::budget`]).
//!
//! Every input is generated the same way each time (no clock, no randomness), and every run is
//! pinned to one CPU, so the fleet reader starts one thread wherever it runs: the counts repeat.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::budget::{Budgets, Figures, Metric, compare};
use super::measure::Tools;
use super::{fleet, hosts};

/// The committed budgets.
pub const BUDGETS: &str = include_str!("../../budgets.tsv");

/// What a workload runs on.
#[derive(Debug, Clone, Copy)]
pub enum Input {
    /// `--root` a generated host of this many NVIDIA GPUs (YAML spec) and 2 AMD GPUs.
    Host(usize),
    /// `--root tests/hosts/<name>`.
    Fixture(&'static str),
    /// `--root tests/hosts/empty`, then every NVIDIA device id, 0000 to ffff.
    AllNvidiaIds,
    /// This many generated reports, in one directory given last.
    Fleet(usize),
    /// `--root tests/hosts/dgx-b200`, then a generated 16 MiB stderr file given last.
    Stderr,
    /// `--root tests/hosts/dgx-b200`, then a file of podman's one error line (the common case:
    /// what explain's fixed costs, its automata and tables, come to).
    HookError,
}

/// One measured command line.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Its name in the budget file.
    pub name: &'static str,
    /// What it runs on.
    pub input: Input,
    /// The gpuctl arguments (after `--root`, before the input's own).
    pub argv: &'static [&'static str],
    /// The exit code of the right answer.
    pub code: i32,
    /// Text the right answer's stdout holds.
    pub expect: &'static str,
    /// Whether its peak memory has a budget too.
    pub peak: bool,
}

const fn w(
    name: &'static str,
    input: Input,
    argv: &'static [&'static str],
    code: i32,
    expect: &'static str,
    peak: bool,
) -> Workload {
    Workload {
        name,
        input,
        argv,
        code,
        expect,
        peak,
    }
}

/// The workloads, in the order they run (issue 26's list).
pub const WORKLOADS: [Workload; 11] = [
    w(
        "args-none-8",
        Input::Host(8),
        &["args", "none"],
        0,
        "",
        false,
    ),
    w(
        "args-all-8",
        Input::Host(8),
        &["args", "all"],
        0,
        "nvidia.com/gpu=all",
        false,
    ),
    w(
        "args-all-512",
        Input::Host(512),
        &["args", "all"],
        0,
        "nvidia.com/gpu=all",
        false,
    ),
    w(
        "detect-json-512",
        Input::Host(512),
        &["detect", "--format", "json"],
        0,
        "\"nvidia\"",
        false,
    ),
    w(
        "args-all-4096",
        Input::Host(4096),
        &["args", "all"],
        0,
        "nvidia.com/gpu=all",
        true,
    ),
    w(
        "detect-json-4096",
        Input::Host(4096),
        &["detect", "--format", "json"],
        0,
        "\"nvidia\"",
        true,
    ),
    w(
        "requirement-65536-ids",
        Input::AllNvidiaIds,
        &["requirement"],
        1,
        "combined: ",
        false,
    ),
    w(
        "report-nfd-dgx-b200",
        Input::Fixture("dgx-b200"),
        &["report", "--format", "nfd"],
        0,
        "gpuctl.io/nvidia.count=8",
        false,
    ),
    w(
        "fleet-10000",
        Input::Fleet(10_000),
        &["fleet", "--format", "json"],
        1,
        "\"hosts\": 10000",
        true,
    ),
    w(
        "explain-16mib",
        Input::Stderr,
        &["explain"],
        0,
        "no-cgroups = true",
        false,
    ),
    w(
        "explain-hook-error",
        Input::HookError,
        &["explain"],
        0,
        "no-cgroups = true",
        false,
    ),
];

/// What crun prints when the NVIDIA hook fails on rootless podman: the answer explain must find
/// at the end of 16 MiB of a container's own output.
const HOOK_ERROR: &str = "Error: OCI runtime error: crun: error executing hook /usr/bin/nvidia-container-runtime-hook (exit code: 1): nvidia-container-cli: container error: cgroup subsystem devices not found\n";

/// Runs the check; `Ok(false)` when a budget is exceeded.
pub fn run(gpuctl: &Path, repo: &Path, dir: &Path, only: &[String]) -> Result<bool, String> {
    let budgets = Budgets::parse(BUDGETS)?;
    for name in only {
        if !WORKLOADS.iter().any(|w| w.name == name) {
            return Err(format!(
                "--only {name}: no such workload (xtask/src/bench/check.rs, WORKLOADS)"
            ));
        }
    }
    let tools = Tools::find()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let started = Instant::now();
    let mut inputs = Inputs::new(gpuctl, repo, dir);
    let mut figures = Figures::new();
    for wl in WORKLOADS
        .iter()
        .filter(|w| only.is_empty() || only.iter().any(|o| o == w.name))
    {
        let t = Instant::now();
        let args = inputs.args(wl)?;
        answer(&tools, gpuctl, wl, &args, dir)?;
        let n = tools.instructions(gpuctl, &args, dir)?;
        figures.insert((wl.name.to_string(), Metric::Instructions), n);
        if wl.peak {
            figures.insert(
                (wl.name.to_string(), Metric::PeakKib),
                tools.peak_kib(gpuctl, &args, dir)?,
            );
        }
        eprintln!(
            "bench --check: {} measured in {:.1} s",
            wl.name,
            t.elapsed().as_secs_f64()
        );
    }
    let selected = (!only.is_empty()).then_some(only);
    let (outcomes, unbudgeted) = compare(&budgets, &figures, selected);
    println!(
        "gpuctl bench --check: {} (budgets: xtask/budgets.tsv, margin {}%; {:.0} s)",
        gpuctl.display(),
        budgets.margin_percent,
        started.elapsed().as_secs_f64()
    );
    println!();
    println!(
        "{:<34} {:<12} {:>14} {:>14} {:>14} {:>6}",
        "workload", "metric", "measured", "budget", "limit", "used"
    );
    for o in &outcomes {
        let m = o.budget.metric;
        println!(
            "{:<34} {:<12} {:>14} {:>14} {:>14} {:>6} {}",
            o.budget.workload,
            m.name(),
            o.measured.map_or("-".to_string(), |v| m.show(v)),
            m.show(o.budget.value),
            m.show(o.limit),
            o.measured.map_or(String::new(), |v| format!(
                "{:.0}%",
                v / o.budget.value * 100.0
            )),
            if o.ok() { "ok" } else { "OVER" }
        );
    }
    let failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| o.failure())
        .chain(unbudgeted)
        .collect();
    println!();
    for f in &failures {
        println!("budget exceeded: {f}");
    }
    println!(
        "budgets: {}",
        if failures.is_empty() {
            "met"
        } else {
            "NOT met"
        }
    );
    Ok(failures.is_empty())
}

/// The native run: a benchmark that answers wrongly measures nothing.
fn answer(
    tools: &Tools,
    gpuctl: &Path,
    wl: &Workload,
    args: &[OsString],
    dir: &Path,
) -> Result<(), String> {
    let out = tools.pinned(dir, &[], gpuctl, args)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() != Some(wl.code) || !stdout.contains(wl.expect) {
        return Err(format!(
            "workload {}: gpuctl exited {:?} (expected {}) or printed no {:?}, so it measures nothing: {}",
            wl.name,
            out.status.code(),
            wl.code,
            wl.expect,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(())
}

/// The generated inputs, each made once per run.
struct Inputs<'a> {
    gpuctl: &'a Path,
    repo: &'a Path,
    dir: &'a Path,
    made: Vec<(String, PathBuf)>,
}

impl<'a> Inputs<'a> {
    fn new(gpuctl: &'a Path, repo: &'a Path, dir: &'a Path) -> Inputs<'a> {
        Inputs {
            gpuctl,
            repo,
            dir,
            made: Vec::new(),
        }
    }

    fn path(
        &mut self,
        key: &str,
        make: impl FnOnce(&Self) -> Result<PathBuf, String>,
    ) -> Result<PathBuf, String> {
        if let Some((_, p)) = self.made.iter().find(|(k, _)| k == key) {
            return Ok(p.clone());
        }
        let p = make(self)?;
        self.made.push((key.to_string(), p.clone()));
        Ok(p)
    }

    fn fixture(&self, name: &str) -> PathBuf {
        self.repo.join("tests/hosts").join(name)
    }

    /// The whole gpuctl command line of `wl`.
    fn args(&mut self, wl: &Workload) -> Result<Vec<OsString>, String> {
        let root = match wl.input {
            Input::Host(gpus) => self.path(&format!("host-{gpus}"), |s| {
                hosts::build(s.dir, gpus, hosts::SpecFormat::Yaml)
            })?,
            Input::Fixture(name) => self.fixture(name),
            Input::AllNvidiaIds => self.fixture("empty"),
            Input::Stderr | Input::HookError => self.fixture("dgx-b200"),
            Input::Fleet(_) => PathBuf::new(),
        };
        let mut args: Vec<OsString> = Vec::new();
        if !root.as_os_str().is_empty() {
            args.extend(["--root".into(), root.into()]);
        }
        args.extend(wl.argv.iter().map(OsString::from));
        match wl.input {
            Input::AllNvidiaIds => {
                args.extend((0..=0xffffu32).map(|id| format!("{id:04x}").into()))
            }
            Input::Fleet(count) => {
                let d = self.path(&format!("fleet-{count}"), |s| {
                    let bases = fleet::base_reports(s.gpuctl, s.repo)?;
                    fleet::generate(s.dir, &bases, count, true)
                })?;
                args.push(d.into());
            }
            Input::Stderr => {
                let f = self.path("stderr", |s| stderr_file(s.dir))?;
                args.push(f.into());
            }
            Input::HookError => {
                let f = self.path("hook-error", |s| {
                    let f = s.dir.join("podman-hook.err");
                    std::fs::write(&f, HOOK_ERROR)
                        .map_err(|e| format!("cannot write {}: {e}", f.display()))?;
                    Ok(f)
                })?;
                args.push(f.into());
            }
            Input::Host(_) | Input::Fixture(_) => {}
        }
        Ok(args)
    }
}

/// Exactly 16 MiB (the most explain reads) of a container's own output, podman's error last.
fn stderr_file(dir: &Path) -> Result<PathBuf, String> {
    let line = "container log line that has nothing to do with GPUs\n";
    let size = 16 << 20;
    let mut text = line.repeat((size - HOOK_ERROR.len()) / line.len());
    text.push_str(&"x".repeat(size - HOOK_ERROR.len() - text.len() - 1));
    text.push('\n');
    text.push_str(HOOK_ERROR);
    let f = dir.join("podman-16mib.err");
    std::fs::write(&f, text).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    Ok(f)
}
