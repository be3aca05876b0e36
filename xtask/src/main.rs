//! gpuctl's development tasks, run as `cargo xtask <task>` (the alias lives in
//! `.cargo/config.toml`).
//!
//! `integration` proves with real podman containers that the arguments gpuctl prints hand a
//! container exactly the GPUs that were asked for: with fake device nodes on a CI machine
//! (`--fake`), or with the host's own GPUs on a GPU runner.
//!
//! `man` writes gpuctl's manual pages, generated from its clap definition.
//!
//! `path-files` lists the source files one gpuctl command runs code from.
//!
//! `example-standalone` builds and tests the example plug-ins outside the workspace, as a third
//! party would.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod args_check;
mod bench;
mod check;
#[cfg(test)]
mod docs_links;
mod fake;
mod fuzz;
mod gpuctl;
mod man;
mod path_files;
mod podman;
mod real;
mod report;
mod standalone;

/// gpuctl's development tasks.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

/// The tasks. Each lives in its own module; `main` only dispatches.
#[derive(Debug, Subcommand)]
enum Task {
    /// Start real podman containers with the arguments gpuctl prints and check, inside each
    /// container, that exactly the granted devices are there.
    Integration(IntegrationArgs),
    /// Seed and run the fuzz targets (cargo-fuzz, `--sanitizer none`, stable Rust), one after
    /// another.
    Fuzz(fuzz::FuzzArgs),
    /// Time a release gpuctl against /bin/true on generated hosts of 8 to 4096 GPUs, and the
    /// CDI spec-directory read alone (time and peak memory).
    Bench(bench::BenchArgs),
    /// Write gpuctl's manual pages (gpuctl.1 and one page per subcommand), generated from its
    /// command-line definition, to <target dir>/man or --out DIR.
    Man(man::ManArgs),
    /// List the workspace source files a gpuctl command runs code from (callgrind on a bundled
    /// host): how many files a reader follows from `main` to the output.
    PathFiles(path_files::PathFilesArgs),
    /// Build each example plug-in as a crate outside the workspace, as a third party would:
    /// copied out, its path dependencies pointed at this checkout, `cargo build --offline`, then
    /// `cargo test --offline`.
    ExampleStandalone(standalone::StandaloneArgs),
}

/// The OCI runtimes the integration run knows how to judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum Runtime {
    /// crun: honours `--group-add keep-groups`.
    Crun,
    /// runc: accepts `--group-add keep-groups` and silently drops the groups.
    Runc,
}

impl Runtime {
    /// The name podman and the runtime's binary use.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Crun => "crun",
            Runtime::Runc => "runc",
        }
    }
}

/// Flags of `cargo xtask integration`.
#[derive(Debug, Clone, clap::Args)]
pub struct IntegrationArgs {
    /// Fake mode (CI): create fake GPU device nodes, CDI specs and a fake host tree, and run
    /// every scenario. Needs root; everything it creates is removed at the end. Without this
    /// flag the task tests the GPUs of the machine it runs on.
    #[arg(long)]
    pub fake: bool,

    /// The image the containers run. It needs `sh`, `ls`, `find` and `stat` (busybox has all).
    #[arg(long, default_value = podman::DEFAULT_IMAGE)]
    pub image: String,

    /// Run every container under this OCI runtime (repeatable). Fake mode: crun and runc by
    /// default. Real mode: podman's configured runtime by default.
    #[arg(long = "runtime", value_enum)]
    pub runtimes: Vec<Runtime>,

    /// Fake mode: run only the scenarios with these names (repeatable).
    #[arg(long = "scenario", value_name = "NAME")]
    pub scenarios: Vec<String>,

    /// Fake mode: keep the fake host trees (the --root directories) and the container logs
    /// under the target directory. Host device nodes and CDI specs are always removed.
    #[arg(long)]
    pub keep: bool,

    /// Real mode: pass `--root DIR` to gpuctl (to try real mode against a fake tree whose
    /// nodes exist on this host). Not for normal use.
    #[arg(long, hide = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Where the task keeps scratch files: `<target dir>/xtask-integration`.
pub fn scratch_dir(target_dir: &std::path::Path) -> PathBuf {
    target_dir.join("xtask-integration")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.task {
        Task::Integration(args) if args.fake => fake::run(&args),
        Task::Integration(args) => real::run(&args),
        Task::Fuzz(args) => fuzz::run(&args),
        Task::Bench(args) => bench::run(&args),
        Task::Man(args) => man::run(&args),
        Task::PathFiles(args) => path_files::run(&args),
        Task::ExampleStandalone(args) => standalone::run(&args),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
