//! Host-scoped constraints of several hosts combined, component by component, as the
//! requirement model combines GPUs ([requirement.md](../../../docs/requirement.md)): a choice
//! keeps the values every side accepts (none listed: any), a range the highest floor and the
//! lowest ceiling. Works on the report's data, so it knows no vendor.

use gpuctl_core::plugin::requirement::Version;

use crate::model::{ConstraintEntry, Kind};

/// Where two stacks part: the component, and each side's constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// One side's constraint.
    pub left: ConstraintEntry,
    /// The other's.
    pub right: ConstraintEntry,
}

fn version(s: &Option<String>) -> Option<Version> {
    s.as_deref().and_then(|v| Version::parse(v).ok())
}

/// One component's constraints combined, or `None` when nothing satisfies both.
fn meet(a: &ConstraintEntry, b: &ConstraintEntry) -> Option<ConstraintEntry> {
    let mut c = a.clone();
    match (a.kind, b.kind) {
        (Kind::Choice, Kind::Choice) => {
            c.allowed = match (a.allowed.is_empty(), b.allowed.is_empty()) {
                (true, _) => b.allowed.clone(),
                (_, true) => a.allowed.clone(),
                _ => {
                    let both: Vec<String> = a
                        .allowed
                        .iter()
                        .filter(|v| b.allowed.contains(v))
                        .cloned()
                        .collect();
                    if both.is_empty() {
                        return None;
                    }
                    both
                }
            };
        }
        (Kind::Range, Kind::Range) => {
            let (amin, bmin) = (version(&a.min), version(&b.min));
            let (amax, bmax) = (version(&a.max), version(&b.max));
            let min = match (amin, bmin) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            };
            // A ceiling holds its point releases: of 470 and 470.1 the lower (470.1) binds.
            let max = match (amax, bmax) {
                (Some(x), Some(y)) => Some(if x.within_max(&y) { x } else { y }),
                (x, y) => x.or(y),
            };
            if let (Some(lo), Some(hi)) = (&min, &max)
                && !lo.within_max(hi)
            {
                return None;
            }
            c.min = min.map(|v| v.to_string());
            c.max = max.map(|v| v.to_string());
        }
        // The same key with two kinds is two vendors' mistake, not a stack: nothing fits.
        _ => return None,
    }
    c.describe = describe(&c);
    Some(c)
}

/// The two stacks combined, or where they part.
pub fn intersect(
    a: &[ConstraintEntry],
    b: &[ConstraintEntry],
) -> Result<Vec<ConstraintEntry>, Vec<Split>> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let mut splits = Vec::new();
    for c in a {
        match b.iter().find(|x| x.component == c.component) {
            None => out.push(c.clone()),
            Some(other) => match meet(c, other) {
                Some(m) => out.push(m),
                None => splits.push(Split {
                    left: c.clone(),
                    right: other.clone(),
                }),
            },
        }
    }
    out.extend(
        b.iter()
            .filter(|x| !a.iter().any(|c| c.component == x.component))
            .cloned(),
    );
    if splits.is_empty() {
        Ok(out)
    } else {
        Err(splits)
    }
}

/// A constraint in words, as core words it (`open kernel module`, `ROCm 6.0 or newer`).
pub fn describe(c: &ConstraintEntry) -> String {
    let noun = &c.noun;
    match c.kind {
        Kind::Choice if c.allowed.is_empty() => format!("any {noun}"),
        Kind::Choice => c
            .allowed
            .iter()
            .map(|v| format!("{v} {noun}"))
            .collect::<Vec<_>>()
            .join(" or "),
        Kind::Range => match (&c.min, &c.max) {
            (Some(lo), Some(hi)) => format!("{noun} {lo} to {hi}"),
            (Some(lo), None) => format!("{noun} {lo} or newer"),
            (None, Some(hi)) => format!("{noun} {hi} or older"),
            (None, None) => format!("any {noun}"),
        },
    }
}

/// A stack in words.
pub fn describe_all(cs: &[ConstraintEntry]) -> String {
    if cs.is_empty() {
        return "no constraint the tables know".into();
    }
    cs.iter().map(describe).collect::<Vec<_>>().join(", ")
}

/// Where a split is, in words naming each side: `node-maxwell needs the proprietary kernel
/// module, node-blackwell the open one`.
pub fn split_sentence(s: &Split, left: &str, right: &str) -> String {
    match s.left.kind {
        Kind::Choice if s.left.allowed.len() == 1 && s.right.allowed.len() == 1 => format!(
            "{left} needs the {} {}, {right} the {} one",
            s.left.allowed[0], s.left.noun, s.right.allowed[0]
        ),
        _ => format!(
            "{left} needs {}, {right} {}",
            describe(&s.left),
            describe(&s.right)
        ),
    }
}
