//! `gpuctl requirement`: which driver stack can drive the given GPUs or the host's. Core
//! answers ([`gpuctl_core::plugin::requirement_answer`], asking each registered vendor's model) and
//! prints ([`gpuctl_core::plugin::requirement::text`], or the report as JSON); this file reads the
//! flags and the image environment file, and picks the exit code.

use std::io::Write;
use std::path::PathBuf;

use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{VendorRequest, text};
use gpuctl_core::plugin::requirement_answer::{Request, answer};
use gpuctl_sources::{Catalogue, choose};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl requirement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RequirementFormat {
    /// For people: one line per GPU, the combined requirement, the driver verdict.
    Text,
    /// One JSON object: {"vendors": [{"vendor", "gpus", "combined", "conflicts", "driver"}],
    /// "host_conflicts", "warnings"}, one shape for every vendor.
    Json,
}

/// Flags of `gpuctl requirement`.
#[derive(Debug, clap::Args)]
pub struct RequirementArgs {
    /// How to print the answer.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: RequirementFormat,

    /// Check a driver stack, one spec per flag: NVIDIA's open:580 (exactly branch 580),
    /// open:580+ (the newest branch a repository carries, at least 580), open (branch
    /// unknown), 580 (module unknown); rocm:6.2, kernel:6.8 (add + for "at least"), xe or i915
    /// for the other vendors. Exit 1 when the stack cannot drive the GPUs.
    #[arg(long, value_name = "SPEC", conflicts_with = "distro")]
    pub driver: Vec<String>,

    /// A distribution release (debian:12, debian:bookworm; debian alone: its newest numbered
    /// release): its driver packages in its preference order, each judged as --driver judges
    /// its stack, the first that drives every GPU and its install command. Exit 1 when none
    /// does.
    #[arg(long, value_name = "NAME[:RELEASE]")]
    pub distro: Option<String>,

    /// A site's own driver sources (a .yaml, .yml or .json list of {distro, release, label,
    /// vendor, package, stack, install, source, ...}) put in front of the built-in catalogue.
    /// Read from this machine, not under --root.
    #[arg(long, value_name = "FILE", requires = "distro")]
    pub sources: Option<PathBuf>,

    /// A CUDA toolkit (X.Y or X.Y.Z, e.g. 12.8): adds its minimum Linux driver from NVIDIA's
    /// CUDA release notes (Table 3) to the NVIDIA requirement.
    #[arg(long, value_name = "X.Y[.Z]")]
    pub cuda: Option<String>,

    /// An image's environment (FILE, or - for standard input): the JSON list `podman image
    /// inspect --format '{{json .Config.Env}}' IMAGE` prints, or KEY=VALUE lines: its
    /// NVIDIA_REQUIRE_* variables are checked against a --driver release by the container
    /// toolkit's rules, and its CUDA line is added as --cuda would be.
    #[arg(long, value_name = "FILE|-")]
    pub image_env: Option<PathBuf>,

    /// Site-policy rows (a .yaml, .yml or .json list of {first, last, generation,
    /// kernel_module, min_branch, max_branch, compute}) put in front of the built-in table. Read
    /// from this machine, not under --root.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,

    /// PCI device ids: VVVV:DDDD for any vendor (1002:74a1, 8086:56a5), and NVIDIA's as XXXX,
    /// 0xXXXX or 10de:XXXX, any case; none: the host's GPUs, from /sys/bus/pci/devices.
    #[arg(value_name = "DEVICE_ID")]
    pub device_ids: Vec<String>,
}

/// Runs `gpuctl requirement`: exit 0 when one driver fits (and `--driver` is it), 1 when the
/// GPUs conflict or the driver does not satisfy them, 2 for invalid input.
pub fn run(
    ctx: &Context,
    args: &RequirementArgs,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let image = args
        .image_env
        .as_deref()
        .map(|p| crate::image_input::read_file(p, &p.display().to_string()))
        .transpose()?;
    let request = Request {
        ids: &args.device_ids,
        specs: &args.driver,
        vendor: VendorRequest {
            table: args.table.as_deref(),
            toolkit: args.cuda.as_deref(),
            image_env: image.as_ref(),
        },
    };
    if let Some(distro) = &args.distro {
        return run_distro(ctx, args, request, distro, out);
    }
    let report =
        answer(&ctx.host, Registry::discovered(), request).map_err(CliError::Requirement)?;
    ctx.ui.warn_all(&report.warnings);
    let text = match args.format {
        // One shape for every vendor (docs/requirement.md#json).
        RequirementFormat::Json => json(&report)?,
        RequirementFormat::Text => text::render(&report),
    };
    write_out(out, &text)?;
    Ok(if report.unserved() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

/// `requirement --distro`: the release's sources judged (docs/requirement.md#driver-sources).
fn run_distro(
    ctx: &Context,
    args: &RequirementArgs,
    request: Request<'_>,
    distro: &str,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let catalogue = match &args.sources {
        Some(path) => Catalogue::with_site(path),
        None => Catalogue::builtin(),
    }
    .map_err(CliError::Sources)?;
    let release = catalogue.resolve(distro).map_err(CliError::Sources)?;
    let (report, choice) = choose(
        &ctx.host,
        Registry::discovered(),
        request,
        &catalogue,
        &release,
    )
    .map_err(CliError::Sources)?;
    ctx.ui.warn_all(&report.warnings);
    let text = match args.format {
        // The requirement report's keys, and "distro" beside them.
        RequirementFormat::Json => {
            let mut value = serde_json::to_value(&report).map_err(encode)?;
            if let serde_json::Value::Object(map) = &mut value {
                map.insert(
                    "distro".to_string(),
                    serde_json::to_value(&choice).map_err(encode)?,
                );
            }
            json(&value)?
        }
        RequirementFormat::Text => gpuctl_sources::text::render(&report, &choice),
    };
    write_out(out, &text)?;
    Ok(if report.unserved() || choice.unserved() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

fn encode(e: serde_json::Error) -> CliError {
    CliError::Encode {
        what: "answer",
        reason: e.to_string(),
    }
}

fn json(value: &impl serde::Serialize) -> Result<String, CliError> {
    let mut s = serde_json::to_string_pretty(value).map_err(encode)?;
    s.push('\n');
    Ok(s)
}
