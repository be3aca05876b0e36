//! `gpuctl args`: the GPU arguments for a selection, for podman, Quadlet, compose or docker.

use std::io::Write;

use gpuctl_core::commands::render::{self, Format};
use gpuctl_core::plugin::Probe;
use gpuctl_core::{
    commands::selector::{self, Selection},
    plugin::{Notice, Plan, Registry},
};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl args`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ArgsFormat {
    /// One line, arguments separated by single spaces, for `podman run $(gpuctl args nvidia)`.
    Plain,
    /// One JSON array of strings.
    Json,
    /// The [Container] lines of a Quadlet .container unit.
    Quadlet,
    /// The GPU keys of a compose service (podman-compose and docker compose).
    Compose,
    /// Arguments for `docker run` (numeric groups instead of keep-groups).
    Docker,
}

impl From<ArgsFormat> for Format {
    fn from(f: ArgsFormat) -> Format {
        match f {
            ArgsFormat::Plain => Format::Plain,
            ArgsFormat::Json => Format::Json,
            ArgsFormat::Quadlet => Format::Quadlet,
            ArgsFormat::Compose => Format::Compose,
            ArgsFormat::Docker => Format::Docker,
        }
    }
}

/// Flags of `gpuctl args`.
#[derive(Debug, clap::Args)]
pub struct ArgsArgs {
    /// How to print the arguments.
    #[arg(long, value_enum, ignore_case = true, default_value = "plain")]
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
    // No word at all is a newcomer's `gpuctl args`, not a request for no GPU: an empty output
    // with exit 0 would read as "this host has nothing". `none` and `''` still ask for nothing.
    if a.selectors.is_empty() {
        return Err(CliError::NoSelector {
            vendors: registry.names().iter().map(|n| n.to_string()).collect(),
        });
    }
    let selection =
        selector::normalize(&a.selectors, &registry.names()).map_err(CliError::Selector)?;
    let plan = if selection == Selection::None {
        // Nothing asked, nothing probed.
        Plan::default()
    } else {
        let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
        ctx.ui.warn_all(&probe.cdi_findings());
        let plan = registry
            .plan(&probe, &selection)
            .map_err(CliError::Unserved)?;
        let notices: Vec<&Notice> = plan.notices();
        ctx.ui.warn_all(&notices);
        crate::keep_to_exit(probe);
        plan
    };
    let rendering = render::render(&plan, a.format.into(), &ctx.host, ctx.podman.as_ref())
        .map_err(CliError::UnsafePlain)?;
    ctx.ui.warn_all(&rendering.notes);
    write_out(out, &rendering.text)?;
    crate::keep_to_exit((plan, rendering));
    Ok(Outcome::Served)
}
