//! `gpuctl report`: one host's whole answer, as JSON (an Ansible local fact) or as a Node
//! Feature Discovery feature file, on stdout or written atomically to `--output`.

use std::io::Write;
use std::path::PathBuf;

use gpuctl_fleet::every::StopSignals;
use gpuctl_fleet::{build, nfd, output};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// The typed report, `"schema": "gpuctl.report/1"` (also an Ansible local fact).
    Json,
    /// A Node Feature Discovery local feature file (`gpuctl.io/` labels with an expiry).
    Nfd,
}

/// Flags of `gpuctl report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// How to print the report.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ReportFormat,

    /// Write to FILE atomically (a dot-file beside it, then a rename) instead of stdout:
    /// /etc/kubernetes/node-feature-discovery/features.d/gpuctl or
    /// /etc/ansible/facts.d/gpuctl.fact. Written on this machine, not under --root.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With --output: write again every SECONDS until SIGTERM or SIGINT (a DaemonSet's timer
    /// in an image with no shell), then exit 0. A failed write is said on stderr and tried
    /// again at the next tick. With --format nfd the labels expire after two periods (one hour
    /// at least).
    #[arg(long, value_name = "SECONDS", requires = "output", value_parser = clap::value_parser!(u64).range(1..))]
    pub every: Option<u64>,
}

/// Runs `gpuctl report`. Exit 0 once the report is out, whatever it says about the host: the
/// engines that read it decide; 1 when it cannot be written.
pub fn run(ctx: &Context, a: &ReportArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let Some(every) = a.every else {
        return once(ctx, a, out);
    };
    // Watched before the first write, so a stop during it is not lost (every.rs says why).
    let stop = StopSignals::watch()
        .map_err(|e| {
            ctx.ui
                .warn(&format!("cannot watch SIGTERM and SIGINT: {e}"))
        })
        .ok();
    let period = std::time::Duration::from_secs(every);
    loop {
        if let Err(e) = once(ctx, a, out) {
            ctx.ui.error(&e.to_string());
        }
        match &stop {
            Some(s) if s.wait(period) => return Ok(Outcome::Served),
            Some(_) => {}
            None => std::thread::sleep(period),
        }
    }
}

fn once(ctx: &Context, a: &ReportArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let report = build(&ctx.host, &ctx.cdi_dirs);
    ctx.ui.warn_all(&report.warnings);
    let text = match a.format {
        ReportFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| CliError::Encode {
                what: "report",
                reason: e.to_string(),
            })?;
            s.push('\n');
            s
        }
        ReportFormat::Nfd => {
            let (labels, dropped) = nfd::labels(&report);
            ctx.ui.warn_all(&dropped);
            nfd::render(&labels, now(), a.every).map_err(CliError::Nfd)?
        }
    };
    match &a.output {
        None => write_out(out, &text)?,
        Some(path) => output::write_atomic(path, text.as_bytes()).map_err(CliError::Output)?,
    }
    Ok(Outcome::Served)
}

/// The clock for the expiry: `SOURCE_DATE_EPOCH` when set (reproducible output, tests), else
/// the system's.
fn now() -> u64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}
