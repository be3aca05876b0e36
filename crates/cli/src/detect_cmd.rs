//! `gpuctl detect`: what the host offers, vendor by vendor, and why.

use std::fmt::Write as _;
use std::io::Write;

use gpuctl_cdi::version::{min_podman, parse_version};
use gpuctl_core::backend::Probe;
use gpuctl_core::report::{HostReport, detect};
use gpuctl_core::{Device, Registry};

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
    let report = detect(registry, &probe);
    let text = match a.format {
        DetectFormat::Json => {
            // Scripts read the JSON; the person running them still sees the warnings.
            ctx.ui.warn_all(&report.warnings);
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| CliError::Encode {
                what: "report",
                reason: e.to_string(),
            })?;
            s.push('\n');
            s
        }
        DetectFormat::Text => render_text(&report),
    };
    write_out(out, &text)?;
    Ok(Outcome::Served)
}

/// The report for people: per vendor, usable or not, the tier and why, the devices; then the
/// CDI spec files and the warnings (part of the report here, so not repeated on stderr).
pub fn render_text(report: &HostReport) -> String {
    let mut s = String::new();
    for v in &report.vendors {
        let head = match v.tier {
            Some(t) => format!("usable ({})", t.as_str()),
            None => "not usable".to_string(),
        };
        let _ = writeln!(s, "{}: {head}", v.vendor);
        let _ = writeln!(s, "  why: {}", v.reason);
        if !v.cdi_devices.is_empty() {
            let _ = writeln!(s, "  CDI devices: {}", v.cdi_devices.join(", "));
        }
        for d in &v.devices {
            let _ = writeln!(s, "  {}", device_line(&v.vendor, d));
        }
    }
    if !report.cdi_specs.is_empty() {
        let _ = writeln!(s, "CDI specs:");
        for spec in &report.cdi_specs {
            match (&spec.kind, &spec.error) {
                (Some(kind), None) => {
                    let version = spec.cdi_version.as_deref().unwrap_or("?");
                    let podman = parse_version(version).map(min_podman).unwrap_or("?");
                    let _ = writeln!(
                        s,
                        "  {}: {kind}, cdiVersion {version} (podman {podman} or newer), {} device(s)",
                        spec.path,
                        spec.devices.len()
                    );
                }
                (_, Some(err)) => {
                    let _ = writeln!(s, "  {}: skipped — {err}", spec.path);
                }
                (None, None) => {}
            }
        }
    }
    if !report.warnings.is_empty() {
        let _ = writeln!(s, "warnings:");
        for w in &report.warnings {
            let _ = writeln!(s, "  - {w}");
        }
    }
    s
}

/// One device: its selector, its address, then what the vendor chose to show, in its order.
fn device_line(vendor: &str, d: &Device) -> String {
    let mut parts = vec![format!("{vendor}:{}", d.index)];
    parts.extend(d.pci_address.clone());
    parts.extend(d.shown_facts().map(str::to_string));
    parts.join("  ")
}
