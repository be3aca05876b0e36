//! `requirement --distro`'s answer for people: the requirement report's lines, then per
//! vendor the first source that fits with its install command, and each source's verdict.

use std::fmt::Write as _;

use gpuctl_core::plugin::requirement::Fit;
use gpuctl_core::plugin::requirement::report::Report;

use crate::DistroReport;

/// The answer as text.
pub fn render(report: &Report, distro: &DistroReport) -> String {
    let mut s = gpuctl_core::plugin::requirement::text::render(report);
    for v in &distro.vendors {
        let label = &distro.release.label;
        match (&v.chosen, &v.install, &v.none) {
            (Some(pkg), Some(install), _) => {
                let _ = writeln!(s, "{label}, {}: install {pkg}: {install}", v.display);
            }
            // No source listed is the catalogue's gap: not known, not "none fits".
            (_, _, Some(none)) if v.sources.is_empty() => {
                let _ = writeln!(s, "{label}, {}: not known — {none}", v.display);
            }
            (_, _, Some(none)) => {
                let _ = writeln!(s, "{label}, {}: none — {none}", v.display);
            }
            _ => {}
        }
        for (i, sv) in v.sources.iter().enumerate() {
            let src = &sv.source;
            let suite = src
                .suite
                .as_deref()
                .map(|x| format!("{x}; "))
                .unwrap_or_default();
            let word = match (sv.fits, &sv.why_not) {
                (Fit::Yes, _) => "fits".to_string(),
                (Fit::No, Some(why)) => format!("does not fit — {why}"),
                (Fit::No, None) => "does not fit".to_string(),
                // Unknown, and any answer a later core adds: never read as a fit.
                (_, Some(why)) => format!("unknown — {why}"),
                (_, None) => "unknown".to_string(),
            };
            let _ = writeln!(
                s,
                "  {}. {} ({suite}{}): {word}",
                i + 1,
                src.named(),
                src.stack.join(", ")
            );
        }
    }
    s
}
