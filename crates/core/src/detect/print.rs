//! `gpuctl detect`'s one printer: the report as text for people or as JSON for scripts.

use gpuctl_cdi::version::{min_podman, parse_version};

use super::{Device, HostReport};
use crate::output::ReportFormat;
use crate::plan::Tier;
use crate::text::escape_controls;

impl HostReport {
    /// The report as `gpuctl detect --format <format>` prints it, ending in a newline.
    pub fn render(&self, format: ReportFormat) -> Result<String, serde_json::Error> {
        Ok(match format {
            ReportFormat::Text => self.text(),
            ReportFormat::Json => {
                let mut s = serde_json::to_string_pretty(self)?;
                s.push('\n');
                s
            }
        })
    }

    /// The report for people: per vendor, usable or not, the tier and why, the devices; then
    /// the CDI spec files and the warnings (part of the report here, so not repeated on
    /// stderr). Every line passes through [`line`], so a host-supplied name cannot forge a line
    /// of its own.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for v in &self.vendors {
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
            let cdi = v.tier == Some(Tier::Cdi);
            for d in &v.devices {
                line(&mut s, format!("  {}", device_line(&v.vendor, cdi, d)));
            }
        }
        if !self.cdi_specs.is_empty() {
            line(&mut s, "CDI specs:".to_string());
            for spec in &self.cdi_specs {
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
        if !self.warnings.is_empty() {
            line(&mut s, "warnings:".to_string());
            for w in &self.warnings {
                line(&mut s, format!("  - {w}"));
            }
        }
        s
    }
}

/// Appends one line with its control characters escaped (what the host supplied is in it).
fn line(s: &mut String, text: String) {
    s.push_str(&escape_controls(&text));
    s.push('\n');
}

/// One device: its selector, its address, then what the vendor chose to show, in its order.
/// On the CDI tier the selector is the CDI name (`intel:0000-08-00-0-0x56a5`), each name that
/// selects the device alone, since there `vendor:N` must be a declared name.
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
