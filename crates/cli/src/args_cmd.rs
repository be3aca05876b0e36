//! `gpuctl args`: the podman run arguments for a selection.

use std::io::Write;

use gpuctl_core::backend::Probe;
use gpuctl_core::report::unique;
use gpuctl_core::{Registry, Selection, args, plain, selector};

use crate::output::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl args`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ArgsFormat {
    /// One line, arguments separated by single spaces, for `podman run $(gpuctl args nvidia)`.
    Plain,
    /// One JSON array of strings.
    Json,
}

/// Flags of `gpuctl args`.
#[derive(Debug, clap::Args)]
pub struct ArgsArgs {
    /// How to print the arguments.
    #[arg(long, value_enum, default_value = "plain")]
    pub format: ArgsFormat,

    /// What to grant: all, none, vendor names (nvidia, amd, intel, ...), vendor:N; comma
    /// lists and several words are merged.
    #[arg(value_name = "SELECTOR")]
    pub selectors: Vec<String>,
}

/// Runs `gpuctl args`.
pub fn run(ctx: &Context, a: &ArgsArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    ctx.ui.warn_all(registry.rejected());
    let selection =
        selector::normalize(&a.selectors, &registry.names()).map_err(CliError::Selector)?;
    let result = if selection == Selection::None {
        // Nothing asked, nothing probed.
        Vec::new()
    } else {
        let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
        ctx.ui.warn_all(&probe.cdi().warnings());
        let run = args::run_args(registry, &probe, &selection).map_err(CliError::Unserved)?;
        ctx.ui.warn_all(&unique(run.warnings));
        run.args
    };
    if a.format == ArgsFormat::Plain {
        plain::check(&result).map_err(CliError::UnsafePlain)?;
    }
    let text = match a.format {
        ArgsFormat::Plain if result.is_empty() => String::new(),
        ArgsFormat::Plain => format!("{}\n", result.join(" ")),
        ArgsFormat::Json => format!("{}\n", serde_json::Value::from(result)),
    };
    write_out(out, &text)?;
    Ok(Outcome::Served)
}
