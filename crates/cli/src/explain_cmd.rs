//! `gpuctl explain`: podman's stderr in, a diagnosis and a remedy out.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use gpuctl_core::plugin::Probe;
use gpuctl_core::{
    commands::{doctor, explain, input},
    plugin::Registry,
};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// The most of podman's stderr gpuctl keeps: its end, where podman prints the error.
const STDERR_LIMIT: u64 = 16 * 1024 * 1024;
/// The most of a stream gpuctl reads looking for that end (`explain < /dev/zero` stops).
const STREAM_LIMIT: u64 = 256 * 1024 * 1024;

/// Output formats of `gpuctl explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    /// For people.
    Text,
    /// One JSON object: the family, the diagnosis, and the emitter, operation, object and
    /// cause read from the line (docs/explain.md#emitters).
    Json,
}

/// Flags of `gpuctl explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// A file holding podman's stderr; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// How to print the explanation.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: ExplainFormat,
}

/// The JSON of an explanation, or of none found (`family` null, and why when a rule can say).
fn json(e: Option<&explain::Explanation>, why: Option<String>) -> Result<String, CliError> {
    let value = match e {
        Some(e) => serde_json::to_value(e),
        None => Ok(serde_json::json!({ "family": null, "not_claimed_because": why })),
    };
    value
        .and_then(|v| serde_json::to_string_pretty(&v))
        .map(|s| s + "\n")
        .map_err(|e| CliError::Encode {
            what: "explanation",
            reason: e.to_string(),
        })
}

/// Runs `gpuctl explain`: exit 0 with the explanation, or 1 when the text shows no GPU problem.
pub fn run(ctx: &Context, a: &ExplainArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let named = |e: std::io::Error, path: &PathBuf| CliError::ExplainInput {
        file: Some(path.clone()),
        reason: e.to_string(),
    };
    let (tail, what, stream) = match &a.file {
        Some(path) if path.as_os_str() != "-" => {
            let tail = match input::open_named(path).map_err(|e| named(e, path))? {
                input::Named::File(mut f) => input::read_file_tail(&mut f, STDERR_LIMIT),
                input::Named::Pipe(f) => {
                    input::read_stream_tail(&mut f.take(STREAM_LIMIT), STDERR_LIMIT)
                }
            };
            (
                tail.map_err(|e| named(e, path))?,
                path.display().to_string(),
                false,
            )
        }
        _ => {
            if std::io::stdin().is_terminal() {
                // Not a warning: without it a user who typed `gpuctl explain` sees nothing.
                let _ = writeln!(
                    std::io::stderr(),
                    "gpuctl: reading podman's error text from the terminal: paste it, then press Ctrl-D on a line of its own (or pass a FILE, or pipe it: podman run ... 2>&1 | gpuctl explain)"
                );
            }
            (
                input::read_stream_tail(
                    &mut std::io::stdin().lock().take(STREAM_LIMIT),
                    STDERR_LIMIT,
                )
                .map_err(|e| CliError::ExplainInput {
                    file: None,
                    reason: e.to_string(),
                })?,
                "standard input".to_string(),
                true,
            )
        }
    };
    if tail.dropped == 0 && tail.bytes.iter().all(u8::is_ascii_whitespace) {
        // The usual cause is `>` where `2>` was meant: podman's errors went to the terminal.
        write_out(
            out,
            &format!(
                "Nothing to explain: {what} was empty. podman prints its errors on standard error, so capture them with '2>' ('podman run ... 2> podman.err') or '2>&1 |', not '>'.\n"
            ),
        )?;
        return Ok(Outcome::NothingFound);
    }
    let mib = STDERR_LIMIT >> 20;
    if stream && tail.dropped + tail.bytes.len() as u64 >= STREAM_LIMIT {
        ctx.ui.warn(&format!(
            "{what} went on for {} MiB or more: gpuctl stopped reading there, so only the {mib} MiB before that were read; pass podman's stderr as a FILE to have its end read",
            STREAM_LIMIT >> 20
        ));
    } else if tail.dropped > 0 {
        ctx.ui.warn(&format!(
            "{what} is longer than {mib} MiB: only its last {mib} MiB were read, where podman prints its error"
        ));
    }
    let bytes = tail.bytes;
    let stderr = String::from_utf8_lossy(&bytes);
    let registry = Registry::discovered();
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    match explain::explain(&stderr, registry, Some(&probe)) {
        Some(e) => {
            // doctor judges specs against podman's ceiling itself, so its probe keeps them all.
            let doctor_probe = probe.with_specs(&ctx.cdi_dirs, None);
            let e = e.with_host(&doctor::file_only(
                registry,
                &doctor_probe,
                ctx.podman.as_ref().map(|p| p.podman.as_str()),
            ));
            let text = match a.format {
                ExplainFormat::Text => e.render(),
                ExplainFormat::Json => json(Some(&e), None)?,
            };
            write_out(out, &text)?;
            Ok(Outcome::Served)
        }
        None => {
            let why = explain::not_claimed_because(&stderr, registry);
            if a.format == ExplainFormat::Json {
                write_out(out, &json(None, why)?)?;
                return Ok(Outcome::NothingFound);
            }
            write_out(
                out,
                "No GPU misconfiguration found in this text; if the container still lacks its GPU, run 'gpuctl detect'.\n",
            )?;
            if let Some(why) = why {
                write_out(out, &format!("{why}\n"))?;
            }
            Ok(Outcome::NothingFound)
        }
    }
}
