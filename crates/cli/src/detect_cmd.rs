//! `gpuctl detect`: what the host offers, vendor by vendor, and why.

use std::io::Write;

use gpuctl_cdi::version::{min_podman, parse_version};
use gpuctl_core::backend::Probe;
use gpuctl_core::detect::HostReport;
use gpuctl_core::text::escape_controls;
use gpuctl_core::{Device, Registry, Tier};

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
/// CDI spec files and the warnings (part of the report here, so not repeated on stderr). Every
/// line passes through [`line`], so a host-supplied name cannot forge a line of its own.
pub fn render_text(report: &HostReport) -> String {
    let mut s = String::new();
    for v in &report.vendors {
        let head = match v.tier {
            Some(t) => format!("usable ({})", t.as_str()),
            None => "not usable".to_string(),
        };
        line(&mut s, format!("{}: {head}", v.vendor));
        line(&mut s, format!("  why: {}", v.reason));
        if !v.cdi_devices.is_empty() {
            line(
                &mut s,
                format!("  CDI devices: {}", v.cdi_devices.join(", ")),
            );
        }
        for d in &v.devices {
            let cdi = v.tier == Some(Tier::Cdi);
            line(&mut s, format!("  {}", device_line(&v.vendor, cdi, d)));
        }
    }
    if !report.cdi_specs.is_empty() {
        line(&mut s, "CDI specs:".to_string());
        for spec in &report.cdi_specs {
            match (&spec.kind, &spec.error) {
                (Some(kind), None) => {
                    let version = spec.cdi_version.as_deref().unwrap_or("?");
                    let podman = parse_version(version).map(min_podman).unwrap_or("?");
                    line(
                        &mut s,
                        format!(
                            "  {}: {kind}, cdiVersion {version} (podman {podman} or newer), {} device(s)",
                            spec.path,
                            spec.devices.len()
                        ),
                    );
                }
                (_, Some(err)) => {
                    line(&mut s, format!("  {}: skipped — {err}", spec.path));
                }
                (None, None) => {}
            }
        }
    }
    if !report.warnings.is_empty() {
        line(&mut s, "warnings:".to_string());
        for w in &report.warnings {
            line(&mut s, format!("  - {w}"));
        }
    }
    s
}

/// Appends one line with its control characters escaped (what the host supplied is in it).
fn line(s: &mut String, text: String) {
    s.push_str(&escape_controls(&text));
    s.push('\n');
}

/// One device: its selector, its address, then what the vendor chose to show, in its order.
/// On the CDI tier the selector is the CDI name (`intel:0000-08-00-0-0x56a5`), each name
/// that selects the device alone, since there `vendor:N` must be a declared name.
fn device_line(vendor: &str, cdi: bool, d: &Device) -> String {
    let label = if !cdi {
        format!("{vendor}:{}", d.index)
    } else if d.cdi_names.is_empty() {
        "(no CDI device of its own)".to_string()
    } else {
        d.cdi_names
            .iter()
            .map(|n| format!("{vendor}:{n}"))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let mut parts = vec![label];
    parts.extend(d.pci_address.clone());
    parts.extend(d.shown_facts().map(str::to_string));
    parts.join("  ")
}
