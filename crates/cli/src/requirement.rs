//! `gpuctl requirement`: which NVIDIA driver (kernel module, branch) can drive the given GPUs or
//! the host's. Parses flags, calls `gpuctl_nvidia::requirement`, prints, picks the exit code.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use gpuctl_core::requirement::site::load_site_rows;
use gpuctl_nvidia::requirement::{
    Report, host_report, ids_report, parse_device_ids, parse_driver_spec,
};
use gpuctl_nvidia::table::builtin_table;

use crate::output::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl requirement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RequirementFormat {
    /// For people: one line per GPU, the combined requirement, the driver verdict.
    Text,
    /// One JSON object: {"gpus", "combined", "conflicts", "driver", "warnings"}.
    Json,
}

/// Flags of `gpuctl requirement`.
#[derive(Debug, clap::Args)]
pub struct RequirementArgs {
    /// How to print the answer.
    #[arg(long, value_enum, default_value = "text")]
    pub format: RequirementFormat,

    /// Check one driver source: open:580 (exactly branch 580), open:580+ (the newest branch a
    /// repository carries, at least 580), open (branch unknown), 580 (module unknown). Exit 1
    /// when it cannot drive the GPUs.
    #[arg(long, value_name = "SPEC")]
    pub driver: Option<String>,

    /// Site-policy rows (a .yaml, .yml or .json list of {first, last, generation,
    /// kernel_module, min_branch, max_branch, compute}) put in front of the built-in table. Read
    /// from this machine, not under --root.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,

    /// NVIDIA PCI device ids (XXXX, 0xXXXX or 10de:XXXX, any case); none: the host's NVIDIA
    /// GPUs, from /sys/bus/pci/devices.
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
    let ids = parse_device_ids(&args.device_ids).map_err(CliError::DeviceId)?;
    let driver = match &args.driver {
        None => None,
        Some(spec) => Some(parse_driver_spec(spec).map_err(CliError::DriverSpec)?),
    };
    let mut table = builtin_table();
    if let Some(path) = &args.table {
        let rows = load_site_rows(path).map_err(CliError::SiteTable)?;
        table = table.with_prepended(rows);
    }
    let answer = if ids.is_empty() {
        host_report(&ctx.host, &table, driver.as_ref())
    } else {
        ids_report(&table, &ids, driver.as_ref())
    };
    ctx.ui.warn_all(&answer.warnings);
    let text = match args.format {
        RequirementFormat::Json => {
            let mut s = serde_json::to_string_pretty(&answer).map_err(|e| CliError::Encode {
                what: "answer",
                reason: e.to_string(),
            })?;
            s.push('\n');
            s
        }
        RequirementFormat::Text => render_text(&answer),
    };
    write_out(out, &text)?;
    Ok(if answer.unserved() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

/// The answer for people.
pub fn render_text(answer: &Report) -> String {
    let mut s = String::new();
    for gpu in &answer.gpus {
        if let Some(addr) = &gpu.pci_address {
            let _ = write!(s, "{addr} ");
        }
        let r = &gpu.requirement;
        let _ = write!(s, "{}: {}", r.who, r.describe);
        if !gpu.counted {
            s.push_str(" (left out of the combined requirement)");
        }
        s.push('\n');
    }
    match &answer.combined {
        Some(c) => {
            let _ = writeln!(s, "combined: {}", c.describe);
        }
        None if answer.gpus.is_empty() => s.push_str("no NVIDIA GPU found\n"),
        None if !answer.conflicts.is_empty() => s.push_str("combined: none — the GPUs conflict\n"),
        None => s.push_str("combined: none — every GPU is left out\n"),
    }
    for c in &answer.conflicts {
        let _ = writeln!(s, "conflict: {c}");
    }
    if let Some(d) = &answer.driver {
        match &d.why_not {
            None => {
                let _ = writeln!(s, "driver {}: satisfies", d.spec);
            }
            Some(why) => {
                let _ = writeln!(s, "driver {}: does not satisfy — {why}", d.spec);
            }
        }
    }
    s
}
