//! `gpuctl detect`: what the host offers, vendor by vendor, and why.

use std::io::Write;

use gpuctl_core::commands::output::ReportFormat;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::Registry;

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl detect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DetectFormat {
    /// For people.
    Text,
    /// One JSON object (see the README for its keys).
    Json,
}

/// Flags of `gpuctl detect`.
#[derive(Debug, clap::Args)]
pub struct DetectArgs {
    /// How to print the report.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: DetectFormat,
}

/// Runs `gpuctl detect`. Always exit 0: a host without GPUs is a fact, not a failure.
pub fn run(ctx: &Context, a: &DetectArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    let report = registry.detect(&probe);
    let format = match a.format {
        DetectFormat::Text => ReportFormat::Text,
        DetectFormat::Json => {
            // Scripts read the JSON; the person running them still sees the warnings (text
            // prints them as part of the report).
            ctx.ui.warn_all(&report.warnings);
            ReportFormat::Json
        }
    };
    let text = report.render(format).map_err(|e| CliError::Encode {
        what: "report",
        reason: e.to_string(),
    })?;
    write_out(out, &text)?;
    crate::keep_to_exit((probe, report, text));
    Ok(Outcome::Served)
}
