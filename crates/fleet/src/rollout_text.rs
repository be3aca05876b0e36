//! The roll-out plan for people: the release per group, the one release that serves several,
//! the findings by severity (hosts grouped, not one line per host), and the order. Every string
//! from a report is escaped as plan_text escapes it (docs/output-safety.md, "Text output").

use std::borrow::Cow;
use std::fmt::Write as _;

use gpuctl_core::plugin::text::escape_controls;

use crate::plan::VendorPlan;
use crate::rollout::{Rollout, Stack};

/// Host names a line shows before it counts the rest (text only; the JSON has them all).
const SHOWN: usize = 8;

/// A string from a report, as text output may hold it.
pub(crate) fn e(s: &str) -> Cow<'_, str> {
    escape_controls(s)
}

/// Host names for a line: the first few, then how many more (the JSON has them all).
pub(crate) fn names(hosts: &[String]) -> String {
    let shown: Vec<Cow<'_, str>> = hosts.iter().take(SHOWN).map(|h| e(h)).collect();
    if hosts.len() > SHOWN {
        format!("{} and {} more", shown.join(", "), hosts.len() - SHOWN)
    } else {
        shown.join(", ")
    }
}

/// `a`, or `a and 4 more`.
fn short(hosts: &[String]) -> String {
    match hosts {
        [] => String::new(),
        [one] => e(one).into_owned(),
        [first, rest @ ..] => format!("{} and {} more", e(first), rest.len()),
    }
}

/// `1 and 2`, `1, 2 and 3`.
fn and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 host".into()
    } else {
        format!("{n} hosts")
    }
}

fn stack_line(s: &Stack) -> String {
    match (&s.release, &s.why) {
        (Some(r), _) => format!("run {}", e(r)),
        (None, Some(why)) => format!("no release named: {}", e(why)),
        (None, None) => "no release named".into(),
    }
}

/// The plan's text, after the groups.
pub fn render(r: &Rollout, plans: &[VendorPlan], s: &mut String) {
    s.push_str("plan:\n");
    for (v, p) in r.vendors.iter().zip(plans) {
        for st in &v.stacks {
            let hosts = p.groups.get(st.group).map_or(&[][..], |g| &g.hosts[..]);
            let _ = writeln!(
                s,
                "  {} group {} ({}: {}): {}: {}",
                e(&v.vendor),
                st.group + 1,
                count(st.hosts),
                names(hosts),
                e(&st.describe),
                stack_line(st)
            );
        }
        if let Some(c) = &v.covering {
            let each: Vec<String> = c
                .groups
                .iter()
                .map(|g| {
                    let module = g.spec.split_once(':').map_or(&g.spec[..], |(m, _)| m);
                    let hosts = p.groups.get(g.group).map_or(&[][..], |g| &g.hosts[..]);
                    format!(
                        "{} module for group {} ({})",
                        e(module),
                        g.group + 1,
                        short(hosts)
                    )
                })
                .collect();
            let numbers: Vec<String> = c.groups.iter().map(|g| (g.group + 1).to_string()).collect();
            let _ = writeln!(
                s,
                "  {}: one release, branch {}, serves groups {}: {}",
                e(&v.vendor),
                e(&c.branch),
                and(&numbers),
                each.join(", ")
            );
        }
        if let Some(why) = &v.no_covering {
            let _ = writeln!(s, "  {}: {}", e(&v.vendor), e(why));
        }
    }
    if r.findings.is_empty() {
        s.push_str("drift by severity: none\n");
    } else {
        s.push_str("drift by severity:\n");
    }
    for f in &r.findings {
        let _ = writeln!(
            s,
            "  {}: {} ({}): {}",
            f.severity.words(),
            count(f.hosts.len()),
            names(&f.hosts),
            e(&f.message)
        );
    }
    if !r.order.is_empty() {
        s.push_str("order:\n");
    }
    for step in &r.order {
        let _ = writeln!(
            s,
            "  {}. {}: {}",
            step.step,
            step.severity.words(),
            names(&step.hosts)
        );
    }
    if !r.from_labels.is_empty() {
        let _ = writeln!(
            s,
            "planned from node labels ({}: {}), which cannot tell:",
            count(r.from_labels.len()),
            names(&r.from_labels)
        );
        for l in &r.labels_cannot_tell {
            let _ = writeln!(s, "  - {l}");
        }
    }
}
