//! One stack for several GPUs: `intersect` and `conflicts`, component by component.

use thiserror::Error;

use super::{Alternative, Component, Constraint, Requirement, Scope, Version};

/// Why requirements cannot be combined into one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CombineError {
    /// Nothing was given to combine.
    #[error("intersect needs at least one requirement")]
    Empty,
    /// No single stack fits every member; one sentence per conflict. Said of one vendor's GPUs
    /// in that vendor's words (`no single NVIDIA driver supports all GPUs on this host: ...`,
    /// Rex-GPU's sentence), of several vendors' as `no single driver stack`.
    #[error(
        "no single {} supports all GPUs on this host: {}",
        stack_noun(vendor),
        conflicts.join("; ")
    )]
    Conflict {
        /// The conflicts, in the order the components first appear.
        conflicts: Vec<String>,
        /// The members' vendor when they share one (`NVIDIA`); empty when they do not.
        vendor: String,
    },
}

fn stack_noun(vendor: &str) -> String {
    if vendor.is_empty() {
        "driver stack".to_string()
    } else {
        format!("{vendor} driver")
    }
}

/// The one requirement that satisfies all of `reqs` ([`Requirement::intersect`]).
fn intersect<'a, I>(reqs: I) -> Result<Requirement, CombineError>
where
    I: IntoIterator<Item = &'a Requirement>,
{
    let mut iter = reqs.into_iter();
    let Some(first) = iter.next() else {
        return Err(CombineError::Empty);
    };
    let Some(second) = iter.next() else {
        return Ok(first.clone());
    };
    let members = flatten([first, second].into_iter().chain(iter));
    let conflicts = conflicts_of(&members);
    if !conflicts.is_empty() {
        return Err(CombineError::Conflict {
            conflicts,
            vendor: shared_vendor(first, &members).to_string(),
        });
    }
    Ok(merge(first, members))
}

/// What [`intersect`] would refuse, one sentence per conflict ([`Requirement::conflicts`]).
fn conflicts<'a, I>(reqs: I) -> Vec<String>
where
    I: IntoIterator<Item = &'a Requirement>,
{
    conflicts_of(&flatten(reqs))
}

/// Each input's members in its place, or the input itself when it has none.
fn flatten<'a>(reqs: impl IntoIterator<Item = &'a Requirement>) -> Vec<Requirement> {
    let mut out = Vec::new();
    for r in reqs {
        match r.members() {
            [] => out.push(r.clone()),
            members => out.extend(members.iter().cloned()),
        }
    }
    out
}

/// The vendor of `first` when every member has it; empty otherwise.
fn shared_vendor<'a>(first: &'a Requirement, members: &[Requirement]) -> &'a str {
    if members.iter().all(|m| m.vendor == first.vendor) {
        &first.vendor
    } else {
        ""
    }
}

/// Per host-scoped component, the values every member accepts and the highest lower and
/// lowest upper bound; no device id, name, label or facts; the vendor and vendor id of `first`
/// (the vendor left empty when the members' vendors differ).
fn merge(first: &Requirement, members: Vec<Requirement>) -> Requirement {
    let constraints = host_components(&members)
        .into_iter()
        .map(|c| combined(&members, c))
        .collect();
    let vendor = shared_vendor(first, &members).to_string();
    Requirement {
        vendor: vendor.into(),
        vendor_id: first.vendor_id,
        constraints,
        members,
        ..Requirement::default()
    }
}

impl Requirement {
    /// The one requirement a host must meet to drive all of `reqs`: per host-scoped component
    /// (matched by key, in order of first appearance), the values every member accepts and the
    /// highest lower and lowest upper version bound. Device-scoped components are each GPU's
    /// own and are left out.
    ///
    /// One requirement comes back unchanged. Several give a requirement whose members are the
    /// inputs, an input's own members taking its place (one level, order and duplicates kept),
    /// with no device id, name or label. Members whose constraints leave nothing are a
    /// [`CombineError::Conflict`] naming the GPUs on each side.
    pub fn intersect<'a, I>(reqs: I) -> Result<Requirement, CombineError>
    where
        I: IntoIterator<Item = &'a Requirement>,
    {
        self::intersect(reqs)
    }

    /// What [`intersect`](Self::intersect) would refuse, one sentence per conflict, in the order
    /// the components first appear. Empty when the requirements combine.
    pub fn conflicts<'a, I>(reqs: I) -> Vec<String>
    where
        I: IntoIterator<Item = &'a Requirement>,
    {
        self::conflicts(reqs)
    }
}

/// The host-scoped components the members constrain, by key, in order of first appearance.
fn host_components(members: &[Requirement]) -> Vec<Component> {
    let mut out: Vec<Component> = Vec::new();
    for c in members.iter().flat_map(|m| &m.constraints) {
        let comp = *c.component();
        if comp.scope == Scope::Host && !out.iter().any(|o| o.key == comp.key) {
            out.push(comp);
        }
    }
    out
}

/// Each member's constraint on `component`, with the member.
fn on<'a>(
    members: &'a [Requirement],
    component: &Component,
) -> impl Iterator<Item = (&'a Requirement, &'a Constraint)> {
    let key = component.key;
    members.iter().filter_map(move |m| {
        m.constraints
            .iter()
            .find(|c| c.component().key == key)
            .map(|c| (m, c))
    })
}

/// The values every restricting member accepts (`None`: nobody restricts), with each value's
/// needs gathered from every member that lists it.
fn common_values(members: &[Requirement], component: &Component) -> Option<Vec<Alternative>> {
    let mut acc: Option<Vec<Alternative>> = None;
    for (_, c) in on(members, component) {
        let Constraint::Choice { allowed, .. } = c else {
            continue;
        };
        if allowed.is_empty() {
            continue;
        }
        acc = Some(match acc {
            None => allowed.clone(),
            Some(have) => have
                .into_iter()
                .filter_map(|mut a| {
                    let theirs = allowed.iter().find(|b| b.value == a.value)?;
                    a.needs.extend(theirs.needs.iter().cloned());
                    if a.note.is_none() {
                        a.note.clone_from(&theirs.note);
                    }
                    Some(a)
                })
                .collect(),
        });
    }
    acc
}

/// The highest lower bound and the lowest upper bound, each with the first member that sets it.
type Bounds<'a> = (
    Option<(&'a Requirement, Version)>,
    Option<(&'a Requirement, Version)>,
);

fn bounds<'a>(members: &'a [Requirement], component: &Component) -> Bounds<'a> {
    let mut highest_min: Option<(&Requirement, Version)> = None;
    let mut lowest_max: Option<(&Requirement, Version)> = None;
    for (m, c) in on(members, component) {
        let Constraint::Range { min, max, .. } = c else {
            continue;
        };
        // On ties the first member in list order speaks.
        if let Some(lo) = *min
            && highest_min.is_none_or(|(_, v)| lo > v)
        {
            highest_min = Some((m, lo));
        }
        if let Some(hi) = *max
            && lowest_max.is_none_or(|(_, v)| hi < v)
        {
            lowest_max = Some((m, hi));
        }
    }
    (highest_min, lowest_max)
}

fn combined(members: &[Requirement], component: Component) -> Constraint {
    if component.values.is_empty() && is_range(members, &component) {
        let (lo, hi) = bounds(members, &component);
        Constraint::Range {
            component,
            min: lo.map(|(_, v)| v),
            max: hi.map(|(_, v)| v),
        }
    } else {
        Constraint::Choice {
            component,
            allowed: common_values(members, &component).unwrap_or_default(),
        }
    }
}

fn is_range(members: &[Requirement], component: &Component) -> bool {
    on(members, component).any(|(_, c)| matches!(c, Constraint::Range { .. }))
}

fn conflicts_of(members: &[Requirement]) -> Vec<String> {
    let mut out = Vec::new();
    for component in host_components(members) {
        if is_range(members, &component) {
            if let (Some((low, lo)), Some((up, hi))) = bounds(members, &component)
                && !lo.within_max(&hi)
            {
                out.push(format!(
                    "{} needs {} {lo} or newer, but {} is supported only up to {} {hi}",
                    low.who(),
                    component.noun,
                    up.who(),
                    component.short,
                ));
            }
        } else if common_values(members, &component).is_some_and(|v| v.is_empty()) {
            out.push(choice_conflict(members, &component));
        }
    }
    out
}

/// `A needs the open kernel module, but B needs the proprietary one`: the members grouped by
/// what they accept, groups in the order of the component's values.
fn choice_conflict(members: &[Requirement], component: &Component) -> String {
    let mut groups: Vec<(Vec<&str>, Vec<&Requirement>)> = Vec::new();
    for (m, c) in on(members, component) {
        let Constraint::Choice { allowed, .. } = c else {
            continue;
        };
        if allowed.is_empty() {
            continue;
        }
        let values: Vec<&str> = allowed.iter().map(|a| a.value.as_ref()).collect();
        match groups.iter_mut().find(|(v, _)| *v == values) {
            Some((_, who)) => who.push(m),
            None => groups.push((values, vec![m])),
        }
    }
    let rank = |values: &[&str]| {
        values
            .first()
            .and_then(|v| component.values.iter().position(|k| k == v))
            .unwrap_or(usize::MAX)
    };
    groups.sort_by_key(|(v, _)| rank(v));
    let mut s = String::new();
    let last = groups.len().saturating_sub(1);
    for (i, (values, who)) in groups.iter().enumerate() {
        let names = who_list(who);
        let verb = if who.len() == 1 { "needs" } else { "need" };
        let what = values.join(" or ");
        match i {
            0 => s.push_str(&format!("{names} {verb} the {what} {}", component.noun)),
            _ if i == last => s.push_str(&format!(", but {names} {verb} the {what} one")),
            _ => s.push_str(&format!(", {names} {verb} the {what} one")),
        }
    }
    s
}

fn who_list(reqs: &[&Requirement]) -> String {
    let mut out = String::new();
    for (i, r) in reqs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        r.write_who(&mut out);
    }
    out
}
