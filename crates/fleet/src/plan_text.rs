//! `gpuctl fleet`'s text: per vendor the stack or the groups and what divides them, then
//! drift, the CUDA answer and the files skipped. Long host lists are cut for people; the JSON
//! has them all. Host names, file names, reasons and stacks come from the reports (a host's
//! name is whatever its `/etc/hostname` held), so each is escaped (`escape_controls`): a line break
//! in a name cannot start a line of its own, an escape sequence cannot reach the terminal
//! (docs/output-safety.md, "Text output").

use std::fmt::Write as _;

use crate::plan::FleetPlan;
use crate::rollout_text::{e, names};

/// The plan for people.
pub fn render(p: &FleetPlan) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} report(s) read{}",
        p.hosts,
        if p.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} skipped", p.skipped.len())
        }
    );
    if p.vendors.is_empty() {
        s.push_str("no host has a GPU\n");
    }
    for v in &p.vendors {
        if v.fits_all && !v.groups.is_empty() {
            let _ = writeln!(
                s,
                "{} ({} host(s)): one stack fits every host: {}",
                e(&v.vendor),
                v.hosts,
                e(&v.groups[0].describe)
            );
            for l in &v.groups[0].floor {
                let _ = writeln!(s, "  {}", e(l));
            }
        } else if v.fits_all {
            let _ = writeln!(s, "{} ({} host(s)): no host to plan", e(&v.vendor), v.hosts);
        } else {
            let _ = writeln!(
                s,
                "{} ({} host(s)): no one stack fits every host; {} group(s):",
                e(&v.vendor),
                v.hosts,
                v.groups.len()
            );
            for g in &v.groups {
                let _ = writeln!(s, "  {}: {}", e(&g.describe), names(&g.hosts));
                for l in &g.floor {
                    let _ = writeln!(s, "    {}", e(l));
                }
            }
            for d in &v.divides {
                let _ = writeln!(s, "  divided by: {}", e(d));
            }
            if !v.conflicted.is_empty() {
                let _ = writeln!(s, "  no stack drives all GPUs of: {}", names(&v.conflicted));
            }
            for u in &v.unknown {
                let _ = writeln!(s, "  unknown (no source lists its GPUs): {u}");
            }
        }
    }
    crate::rollout_text::render(&p.rollout, &p.vendors, &mut s);
    if let Some(c) = &p.cuda {
        let _ = writeln!(s, "CUDA {}:", e(&c.cuda));
        let _ = writeln!(s, "  can run it: {}", or_none(&c.can));
        // Each host that cannot, or of which it is not known, with THE verdict's reason.
        let why = |h: &String| {
            c.reasons
                .iter()
                .find(|r| r.host == *h)
                .map_or(String::new(), |r| format!(": {}", r.why))
        };
        s.push_str(if c.cannot.is_empty() {
            "  cannot: none\n"
        } else {
            "  cannot:\n"
        });
        for h in &c.cannot {
            let _ = writeln!(s, "    {h}{}", why(h));
        }
        if !c.unknown.is_empty() {
            let _ = writeln!(s, "  unknown:");
            for h in &c.unknown {
                let _ = writeln!(s, "    {h}{}", why(h));
            }
        }
    }
    if !p.skipped.is_empty() {
        s.push_str("skipped:\n");
        for k in &p.skipped {
            let _ = writeln!(s, "  - {}: {}", e(&k.file), e(&k.why));
        }
    }
    s
}

fn or_none(hosts: &[String]) -> String {
    if hosts.is_empty() {
        "none".into()
    } else {
        names(hosts)
    }
}
