//! `gpuctl cdi list|check|generate`: CDI specs as podman will read them (docs/cdi.md#gpuctl-cdi).

use std::io::Write;
use std::path::PathBuf;

use gpuctl_core::commands::cdi_tool::check::CdiCheckReport;
use gpuctl_core::commands::cdi_tool::list::CdiListReport;
use gpuctl_core::commands::output::ReportFormat;
use gpuctl_core::plugin::Probe;
use gpuctl_core::{commands::cdi_generate_command, plugin::Registry};
use gpuctl_fleet::output;

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl cdi list` and `gpuctl cdi check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CdiFormat {
    /// For people.
    Text,
    /// One JSON object (see docs/cdi.md#gpuctl-cdi for its keys).
    Json,
}

/// Flags of `gpuctl cdi`.
#[derive(Debug, clap::Args)]
pub struct CdiArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CdiCommand,
}

/// `gpuctl cdi`'s subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum CdiCommand {
    /// Every CDI device name the spec directories declare as podman resolves them: the file that
    /// wins each, names a later directory shadows, specs skipped and why.
    List {
        /// How to print the list.
        #[arg(long, value_enum, ignore_case = true, default_value = "text")]
        format: CdiFormat,
    },
    /// Judge CDI spec files as podman's CDI library does (and the --podman-version podman on
    /// top): exit 1 when one is not loaded, 2 when a path cannot be read.
    Check {
        /// How to print the verdicts.
        #[arg(long, value_enum, ignore_case = true, default_value = "text")]
        format: CdiFormat,
        /// Spec files, or directories read as podman reads a spec directory (this machine's
        /// paths, not under --root).
        #[arg(value_name = "FILE|DIR", required = true)]
        paths: Vec<PathBuf>,
    },
    /// Write a CDI spec for a vendor whose device nodes gpuctl knows (amd, intel, a plug-in
    /// that names its devices' CDI shape), named as the vendor's own generator names its
    /// devices; NVIDIA's is nvidia-ctk's (exit 1).
    Generate {
        /// The vendor (amd, intel, or a plug-in's).
        #[arg(value_name = "VENDOR")]
        vendor: String,
        /// Write to FILE atomically (a dot-file beside it, then a rename) instead of stdout,
        /// such as /etc/cdi/amd.json. Written on this machine, not under --root.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

/// Runs `gpuctl cdi`.
pub fn run(ctx: &Context, a: &CdiArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    match &a.command {
        CdiCommand::List { format } => list(ctx, *format, out),
        CdiCommand::Check { format, paths } => check(ctx, *format, paths, out),
        CdiCommand::Generate { vendor, output } => generate(ctx, vendor, output.as_ref(), out),
    }
}

fn report_format(f: CdiFormat) -> ReportFormat {
    match f {
        CdiFormat::Text => ReportFormat::Text,
        CdiFormat::Json => ReportFormat::Json,
    }
}

fn encode(e: serde_json::Error) -> CliError {
    CliError::Encode {
        what: "report",
        reason: e.to_string(),
    }
}

/// Exit 0: a list is a fact, whatever it holds (`detect`'s rule).
fn list(ctx: &Context, format: CdiFormat, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    let podman = ctx.podman.as_ref().map(|p| p.podman.as_str());
    let report = CdiListReport::build(&probe, &ctx.cdi_dirs, podman);
    if format == CdiFormat::Json {
        // Text prints the skipped specs as part of the list; JSON readers' users still see them.
        ctx.ui.warn_all(&report.skipped);
    }
    write_out(out, &report.render(report_format(format)).map_err(encode)?)?;
    Ok(Outcome::Served)
}

fn check(
    ctx: &Context,
    format: CdiFormat,
    paths: &[PathBuf],
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    if ctx.host.root() != std::path::Path::new("/") {
        ctx.ui.warn(&format!(
            "cdi check reads the paths given on this machine, not under --root {}; name the tree's files (such as {}/etc/cdi) to check them",
            ctx.host.root().display(),
            ctx.host.root().display()
        ));
    }
    let report = CdiCheckReport::build(paths, ctx.podman.as_ref()).map_err(CliError::CdiCheck)?;
    write_out(out, &report.render(report_format(format)).map_err(encode)?)?;
    Ok(if report.problems > 0 {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

fn generate(
    ctx: &Context,
    vendor: &str,
    output: Option<&PathBuf>,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    let Some(backend) = registry.get(vendor) else {
        return Err(CliError::CdiVendor {
            vendor: vendor.to_string(),
            known: registry.names().join(", "),
        });
    };
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    let Some(draft) = backend.cdi_tooling().cdi_draft(&probe) else {
        return Err(CliError::CdiNotOurs {
            vendor: vendor.to_string(),
            generator: cdi_generate_command(backend, &format!("/etc/cdi/{vendor}.yaml")).or(
                backend
                    .cdi_tooling()
                    .cdi_tool()
                    .map(|t| format!("{t} --output=/etc/cdi/{vendor}.yaml")),
            ),
        });
    };
    let spec = draft
        .and_then(|d| d.finish())
        .map_err(CliError::CdiGenerate)?;
    if let Some(p) = &ctx.podman
        && let Some(why) = gpuctl_cdi::version::parse_version(&spec.cdi_version)
            .and_then(|v| p.rejects(v, &spec.devices))
    {
        ctx.ui.warn(&format!(
            "the spec is written, but {why}; podman {} or later loads it",
            spec.min_podman
        ));
    }
    match output {
        None => write_out(out, &spec.text)?,
        Some(path) => {
            output::write_atomic(path, spec.text.as_bytes()).map_err(CliError::CdiOutput)?;
        }
    }
    Ok(Outcome::Served)
}
