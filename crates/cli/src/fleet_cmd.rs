//! `gpuctl fleet`: many hosts' reports planned together.

use std::io::Write;
use std::path::PathBuf;

use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{VendorRequest, Version};
use gpuctl_core::plugin::requirement_answer::check_request;
use gpuctl_fleet::{load, plan, plan_text};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl fleet`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FleetFormat {
    /// For people.
    Text,
    /// One JSON object: {"hosts", "vendors", "drift", "cuda", "skipped", "rollout"}.
    Json,
}

/// Flags of `gpuctl fleet`.
#[derive(Debug, clap::Args)]
pub struct FleetArgs {
    /// How to print the plan.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FleetFormat,

    /// Also say which hosts can run an image that needs this CUDA version (e.g. 12.4).
    #[arg(long, value_name = "X.Y")]
    pub cuda: Option<String>,

    /// Report files (`gpuctl report` JSON), directories of them, or `kubectl get nodes -o json`
    /// output (a file, or `-` for standard input).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
}

/// Runs `gpuctl fleet`: exit 0 when one stack per vendor fits every host, 1 when not, 2 when
/// no report could be read or `--cuda` is not a version.
pub fn run(ctx: &Context, a: &FleetArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let cuda = match &a.cuda {
        None => None,
        Some(c) => Some(Version::parse(c).map_err(|e| CliError::FleetCuda {
            value: c.clone(),
            reason: e.to_string(),
        })?),
    };
    // The toolkit is asked of every host as `gpuctl requirement --cuda` asks it: one it
    // refuses is refused here, once, before any report is read.
    if let Some(c) = &a.cuda {
        let request = VendorRequest {
            toolkit: Some(c),
            ..VendorRequest::default()
        };
        check_request(Registry::discovered(), &request).map_err(CliError::Requirement)?;
    }
    let (files, mut skipped) = load::files(&a.paths);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (hosts, unread) = load::read_all(&files, threads).map_err(CliError::NodeList)?;
    skipped.extend(unread);
    for s in &skipped {
        ctx.ui.warn(&format!("{}: skipped: {}", s.file, s.why));
    }
    if hosts.is_empty() {
        return Err(CliError::FleetEmpty {
            paths: a.paths.len(),
        });
    }
    let p = plan::plan(hosts, cuda.as_ref(), skipped);
    match a.format {
        FleetFormat::Text => write_out(out, &plan_text::render(&p))?,
        // Written as it is encoded: 10,000 hosts' plan is megabytes, never held whole.
        FleetFormat::Json => {
            let mut w = std::io::BufWriter::new(&mut *out);
            let written = serde_json::to_writer_pretty(&mut w, &p)
                .map_err(std::io::Error::from)
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush());
            match written {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(CliError::Write {
                        reason: e.to_string(),
                    });
                }
                _ => {}
            }
        }
    }
    Ok(if p.divided() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}
