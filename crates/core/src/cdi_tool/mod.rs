//! `gpuctl cdi`: CDI specs as podman will read them. [`list`] resolves the spec directories
//! (which file wins each device name, what is shadowed or skipped), [`check`] judges spec files
//! one by one, and [`generate`] writes a spec for a vendor whose nodes gpuctl knows as data.
//! Each builds a typed report that prints as text or JSON ([`crate::output::ReportFormat`]);
//! the facts they rest on are in docs/cdi.md#gpuctl-cdi.

pub mod check;
pub mod generate;
pub mod list;

use crate::text::escape_controls;

/// Appends one line with its control characters escaped (what the host supplied is in it).
fn line(s: &mut String, text: &str) {
    s.push_str(&escape_controls(text));
    s.push('\n');
}

/// Renders a report as pretty JSON ending in a newline.
fn json<T: serde::Serialize>(report: &T) -> Result<String, serde_json::Error> {
    let mut s = serde_json::to_string_pretty(report)?;
    s.push('\n');
    Ok(s)
}
