//! `gpuctl explain`: podman's stderr in, a diagnosis and a remedy out.

use std::io::{Read, Write};
use std::path::PathBuf;

use gpuctl_core::backend::Probe;
use gpuctl_core::{Registry, explain};

use crate::output::write_out;
use crate::{CliError, Context, Outcome};

/// The most of podman's stderr gpuctl reads; a launch error is a few lines.
const STDERR_LIMIT: u64 = 16 * 1024 * 1024;

/// Flags of `gpuctl explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// A file holding podman's stderr; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// Runs `gpuctl explain`: exit 0 with the explanation, or 1 when the text shows no GPU problem.
pub fn run(ctx: &Context, a: &ExplainArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut bytes = Vec::new();
    let read = match &a.file {
        Some(path) if path.as_os_str() != "-" => std::fs::File::open(path)
            .and_then(|f| f.take(STDERR_LIMIT).read_to_end(&mut bytes))
            .map_err(|e| CliError::ExplainInput {
                file: Some(path.clone()),
                reason: e.to_string(),
            }),
        _ => std::io::stdin()
            .lock()
            .take(STDERR_LIMIT)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::ExplainInput {
                file: None,
                reason: e.to_string(),
            }),
    };
    read?;
    let stderr = String::from_utf8_lossy(&bytes);
    let registry = Registry::discovered();
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    match explain::explain(&stderr, registry, Some(&probe)) {
        Some(e) => {
            write_out(out, &e.render())?;
            Ok(Outcome::Served)
        }
        None => {
            write_out(
                out,
                "No GPU misconfiguration found in this text; if the container still lacks its GPU, run 'gpuctl detect'.\n",
            )?;
            Ok(Outcome::NothingFound)
        }
    }
}
