//! The gpuctl command line: parses flags, calls the library, prints the result, picks the exit
//! code. No decision about GPUs is made here.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::text::escape_controls;

// The vendor crates this build links. A crate nothing names is not linked, and its
// `register_backend!` would vanish with it: these lines are what makes the registry complete.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

/// docs/plugins.md, whose Rust snippets `cargo test` compiles as doc tests: the guide a third
/// party writes a plug-in from cannot drift from the interface.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/plugins.md")]
pub struct PluginsGuide;

mod args_cmd;
mod cdi_cmd;
mod completions_cmd;
mod detect_cmd;
mod doctor_cmd;
mod error;
mod explain_cmd;
mod fleet_cmd;
mod image_input;
mod report_cmd;
mod requirement;
mod run_cmd;

pub use error::{CliError, EXIT_INVALID, EXIT_OK, EXIT_UNSERVED, Outcome, exit_code};

/// Which `podman run` arguments give a container this host's GPUs, which driver stack can drive
/// them, and what is wrong when a GPU container fails.
#[derive(Debug, Parser)]
#[command(name = "gpuctl", version, about, max_term_width = 100)]
pub struct Cli {
    /// Treat DIR as the host's `/` (a captured host tree, a fixture); emitted paths stay host
    /// paths.
    #[arg(long, global = true, value_name = "DIR", env = "GPUCTL_ROOT")]
    pub root: Option<PathBuf>,

    /// Look for CDI specs in DIR instead of /etc/cdi and /var/run/cdi (repeatable; later
    /// directories win, as with podman's --cdi-spec-dir).
    #[arg(long = "cdi-spec-dir", global = true, value_name = "DIR")]
    pub cdi_spec_dirs: Vec<PathBuf>,

    /// The podman that will run the container (e.g. 4.3.1): CDI specs it cannot load (too new a
    /// cdiVersion, digit-leading names before 4.3) count as invalid, and Quadlet output uses
    /// the keys its Quadlet reads. Without it, args, detect and report assume a current podman
    /// (they never run podman); doctor and run ask the podman on PATH.
    #[arg(
        long,
        global = true,
        value_name = "VERSION",
        env = "GPUCTL_PODMAN_VERSION"
    )]
    pub podman_version: Option<String>,

    /// Show what was probed (on stderr). RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,

    /// Print no warnings, only errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// gpuctl's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the podman run arguments that give a container the selected GPUs.
    Args(args_cmd::ArgsArgs),
    /// Show what the host offers, vendor by vendor, and why.
    Detect(detect_cmd::DetectArgs),
    /// Which driver stack (NVIDIA module and branch, ROCm, i915 or xe, kernel) can drive these GPUs.
    Requirement(requirement::RequirementArgs),
    /// Read podman's stderr and explain a GPU misconfiguration.
    Explain(explain_cmd::ExplainArgs),
    /// Check the host before a GPU container starts (the one command that may run podman).
    Doctor(doctor_cmd::DoctorArgs),
    /// Run podman (or docker) with the GPU arguments; explain a GPU failure; exit with its code.
    Run(run_cmd::RunArgs),
    /// One host's whole answer as a typed report: JSON (an Ansible fact) or NFD labels.
    Report(report_cmd::ReportArgs),
    /// Plan many hosts' reports together: the driver stack that fits them all, or what divides them.
    Fleet(fleet_cmd::FleetArgs),
    /// CDI specs as podman will read them: list the names they resolve, check files, generate one.
    Cdi(cdi_cmd::CdiArgs),
    /// Print a shell completion script (bash, zsh, fish) on stdout.
    Completions(completions_cmd::CompletionsArgs),
}

/// What every command gets: the host to look at and where to print.
pub struct Context {
    /// The host tree.
    pub host: Host,
    /// CDI spec directories, in priority order (later wins).
    pub cdi_dirs: Vec<PathBuf>,
    /// What the podman that will run the container can load, when known.
    pub podman: Option<gpuctl_cdi::podman::PodmanCeiling>,
    /// Where warnings and errors go.
    pub ui: Ui,
}

/// Runs gpuctl with the given command line and returns its exit code.
pub fn main_entry<I, T>(argv: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    // `Cli::try_parse_from`, spelled out so the command description clap builds (and the
    // matches) go to the exit unfreed, as the probe does: freeing them was 40,000 of the 1.3 M
    // instructions issue 26 allows `args all` on an 8-GPU host.
    let mut command = <Cli as clap::CommandFactory>::command();
    let parsed = command
        .try_get_matches_from_mut(argv)
        .and_then(|mut matches| {
            let cli = <Cli as clap::FromArgMatches>::from_arg_matches_mut(&mut matches)
                .map_err(|e| e.format(&mut command));
            keep_to_exit(matches);
            cli
        });
    keep_to_exit(command);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints its own words: usage on stderr, led like gpuctl's other errors
            // ("gpuctl: error: ..."), or help and version on stdout.
            if e.use_stderr() {
                let text = e.render().to_string();
                let _ = write!(std::io::stderr(), "gpuctl: {text}");
            } else {
                let _ = e.print();
            }
            let end = if e.use_stderr() {
                Err(CliError::Flags)
            } else {
                Ok(Outcome::Help)
            };
            return ExitCode::from(exit_code(&end));
        }
    };
    init_tracing(cli.verbose);
    let ui = Ui::new(cli.quiet);
    let mut stdout = std::io::stdout().lock();
    let mut end = run(cli, &ui, &mut stdout);
    if let Err(e) = stdout.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
        && end.is_ok()
    {
        end = Err(CliError::Write {
            reason: e.to_string(),
        });
    }
    if let Err(e) = &end {
        ui.error(&e.to_string());
    }
    ExitCode::from(exit_code(&end))
}

fn run(cli: Cli, ui: &Ui, out: &mut dyn Write) -> Result<Outcome, CliError> {
    // Completions describe the command line, not a host: no --root is needed or checked.
    if let Command::Completions(a) = &cli.command {
        return completions_cmd::run(a, out);
    }
    let host = match &cli.root {
        None => Host::system(),
        Some(dir) => Host::at(dir).map_err(CliError::Root)?,
    };
    let cdi_dirs = if cli.cdi_spec_dirs.is_empty() {
        gpuctl_cdi::DEFAULT_SPEC_DIRS
            .iter()
            .map(PathBuf::from)
            .collect()
    } else {
        cli.cdi_spec_dirs.clone()
    };
    // Only where the answer is about the whole host (an empty `args` selection probes nothing).
    let reads_gpus = matches!(
        cli.command,
        Command::Detect(_) | Command::Doctor(_) | Command::Report(_)
    );
    if reads_gpus && cli.root.is_some() && host.looks_bare(&cdi_dirs) {
        ui.warn(&format!(
            "--root {} has no sys/, dev/ or proc/ and no CDI spec directory, so gpuctl finds no GPU there; point --root at a copy of a host's / (laid out like tests/hosts/<name>)",
            host.root().display()
        ));
    }
    for dir in &cli.cdi_spec_dirs {
        if !host.is_dir(dir).unwrap_or(true) {
            ui.warn(&format!(
                "the CDI spec directory {} does not exist, so no spec is read from it; podman skips a missing --cdi-spec-dir without a word (its devices are then unresolvable), so check the path",
                dir.display()
            ));
        }
    }
    let podman = match &cli.podman_version {
        None => None,
        Some(v) => {
            Some(gpuctl_cdi::podman::PodmanCeiling::parse(v).map_err(CliError::PodmanVersion)?)
        }
    };
    let ctx = Context {
        host,
        cdi_dirs,
        podman,
        ui: ui.clone(),
    };
    match &cli.command {
        Command::Args(a) => args_cmd::run(&ctx, a, out),
        Command::Detect(a) => detect_cmd::run(&ctx, a, out),
        Command::Requirement(a) => requirement::run(&ctx, a, out),
        Command::Explain(a) => explain_cmd::run(&ctx, a, out),
        Command::Doctor(a) => doctor_cmd::run(&ctx, a, out),
        Command::Run(a) => run_cmd::run(&ctx, a, out),
        Command::Report(a) => report_cmd::run(&ctx, a, out),
        Command::Fleet(a) => fleet_cmd::run(&ctx, a, out),
        Command::Cdi(a) => cdi_cmd::run(&ctx, a, out),
        Command::Completions(a) => completions_cmd::run(a, out),
    }
}

/// Hands a command's large read of the host (the probe, a report) to the end of the process
/// without running its destructors: the process exits right after the command prints, and the
/// OS takes the memory back at once. Freeing a 4096-GPU host's probe piece by piece was 8 M
/// instructions of the 97 M `args all` cost there (issue 26, docs/performance.md). Only for
/// plain data (no destructor with an effect: no file to flush, no lock, no child).
pub(crate) fn keep_to_exit<T>(value: T) {
    std::mem::forget(value);
}

// Where gpuctl's words go: results on stdout, one sentence per warning or error on stderr.

/// Writes a result to stdout; a closed pipe (`gpuctl args | head -c0`) is not an error.
pub fn write_out(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Write {
            reason: e.to_string(),
        }),
    }
}

/// Prints warnings and errors on stderr.
#[derive(Debug, Clone)]
pub struct Ui {
    quiet: bool,
}

impl Ui {
    /// With `quiet`, warnings are not printed; errors always are.
    pub fn new(quiet: bool) -> Self {
        Ui { quiet }
    }

    /// One warning line. A warning names what the host supplied (paths, spec and device
    /// names), so its control characters are escaped: a name cannot start a line of its own
    /// or an escape sequence.
    pub fn warn(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(
                std::io::stderr().lock(),
                "gpuctl: warning: {}",
                escape_controls(message)
            );
        }
    }

    /// Every warning, in order: sentences, or findings printed as their sentences.
    pub fn warn_all<S: std::fmt::Display>(&self, messages: &[S]) {
        for m in messages {
            self.warn(&m.to_string());
        }
    }

    /// One error line, escaped as a warning is.
    pub fn error(&self, message: &str) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "gpuctl: error: {}",
            escape_controls(message)
        );
    }
}

/// Sends `tracing` output to stderr: off by default, `-v` for debug, `-vv` for trace;
/// `RUST_LOG` overrides.
pub fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    // Without -v or RUST_LOG nothing is shown: building the subscriber would cost every run
    // (about a tenth of `args none`'s instructions) and print nothing.
    if verbose == 0 && std::env::var_os("RUST_LOG").is_none() {
        return;
    }
    let default = match verbose {
        0 => "off",
        1 => {
            "gpuctl=debug,gpuctl_core=debug,gpuctl_nvidia=debug,gpuctl_amd=debug,gpuctl_intel=debug"
        }
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}
