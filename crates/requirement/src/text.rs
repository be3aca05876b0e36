//! `gpuctl requirement`'s answer for people: one printer for every vendor, worded as each
//! vendor's [`Wording`](super::Wording) asks (NVIDIA keeps Rex's lines), with the lines of
//! each vendor's own sections (a toolkit's floor, an image) before its combined line.

use std::fmt::Write as _;

use super::report::{Report, VendorStack};

/// The answer as text: per vendor its GPUs (with notes), its combined line, its conflicts and
/// the `--driver` verdict; then the conflicts across vendors.
pub fn render(report: &Report) -> String {
    let mut s = String::new();
    for v in &report.vendors {
        vendor(&mut s, v);
    }
    for c in &report.host_conflicts {
        let _ = writeln!(s, "conflict: {c}");
    }
    s
}

fn vendor(s: &mut String, v: &VendorStack) {
    let w = &v.wording;
    for g in &v.gpus {
        if let Some(addr) = &g.pci_address {
            let _ = write!(s, "{addr} ");
        }
        let r = &g.requirement;
        let _ = write!(s, "{}: {}", r.who, r.describe);
        if !g.counted {
            s.push_str(" (left out of the combined requirement)");
        }
        s.push('\n');
        for line in &g.floors {
            let _ = writeln!(s, "  {line}");
        }
        for n in &r.notes {
            let _ = writeln!(s, "  note: {n}");
        }
    }
    for line in &v.lines {
        let _ = writeln!(s, "{line}");
    }
    let label = if w.bare_combined {
        "combined".to_string()
    } else {
        format!("{} combined", v.display)
    };
    match &v.combined {
        Some(c) => {
            let _ = writeln!(s, "{label}: {}", c.describe);
        }
        None if v.gpus.is_empty() => {
            if let Some(none) = w.none_found {
                let _ = writeln!(s, "{none}");
            }
        }
        None if v.conflicts.is_empty() => {
            let _ = writeln!(s, "{label}: none — every GPU is left out");
        }
        None => {
            let _ = writeln!(s, "{label}: none — the GPUs conflict");
        }
    }
    for line in &v.under_combined {
        let _ = writeln!(s, "  {line}");
    }
    for c in &v.conflicts {
        let _ = writeln!(s, "conflict: {c}");
    }
    if let Some(d) = &v.driver {
        let v = d.verdict();
        match (&v.why, v.fit) {
            (None, _) | (_, super::Fit::Yes) => {
                let _ = writeln!(s, "driver {}: satisfies", d.spec);
            }
            (Some(why), super::Fit::Unknown) => {
                let _ = writeln!(s, "driver {}: unknown — {why}", d.spec);
            }
            (Some(why), super::Fit::No) => {
                let _ = writeln!(s, "driver {}: does not satisfy — {why}", d.spec);
            }
        }
    }
}
