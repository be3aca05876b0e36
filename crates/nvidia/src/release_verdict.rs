//! The proprietary module's verdict on one release (or branch) and one GPU, from the releases'
//! own lists first (docs/requirement.md, "The verdict at release precision"):
//!
//! 1. a release read answers by its own list (listed, legacy only, or not listed);
//! 2. a legacy section of any release read gives the id a last branch, a sourced ceiling;
//! 3. a branch with releases read answers "depends on the release" where they differ;
//! 4. between releases read, the id is listed only when the read releases on both sides list it
//!    (a per-id changelog floor in the release's own branch stands for the lower side);
//! 5. otherwise a per-id changelog floor can still refuse, and an id no source names gets its
//!    generation's bound, said as the generation's; everything else is "not known".

use std::sync::OnceLock;

use crate::floor_check::{Listing, open_listing};
use crate::floors::{self, ProprietaryBound, ProprietaryFloor};
use crate::model::table::GenerationTable;
use crate::release::DriverRelease;
use crate::release_lists::{self as lists, Membership, ReadRelease};

fn table() -> &'static GenerationTable {
    static T: OnceLock<GenerationTable> = OnceLock::new();
    T.get_or_init(crate::table::builtin_table)
}

fn said(r: &ReadRelease, id: u16) -> &'static str {
    if r.lists(id) {
        "lists it"
    } else {
        "does not list it"
    }
}

fn changelog(f: &ProprietaryFloor) -> String {
    format!(
        "NVIDIA's changelog adds \"{}\" in {} ({})",
        f.product, f.first, f.date
    )
}

/// Where the first release read that lists the id is, for a refusal's reason.
fn first_words(id: u16) -> String {
    match lists::first_listing(id) {
        Some(r) => format!("the first release read that lists it is {}", r.release),
        None => format!("no release read lists 10de:{id:04x}"),
    }
}

/// The verdict of a release read.
fn by_own_list(id: u16, r: &ReadRelease) -> Listing {
    match r.membership(id) {
        Membership::Listed(_) => Listing::Lists,
        Membership::LegacyOnly(b) => Listing::Lacks(format!(
            "the README of {} lists it only under \"The {b} driver supports\" (legacy GPUs): {b} is its last branch",
            r.release
        )),
        Membership::NotListed => Listing::Lacks(format!(
            "the README of {} ({}) does not list it; {}",
            r.release,
            r.package,
            first_words(id)
        )),
    }
}

/// Past the newest release read, the other side of the id's listing is the open module's README
/// of that release (both modules ship in one release) or, for Maxwell to Volta, the 580 legacy
/// list Rex-GPU's row cites (docs/requirement.md#nvidia-rows).
fn above_newest(id: u16, spec: &DriverRelease, below: Option<&ReadRelease>) -> bool {
    if open_listing(id, spec) == Listing::Lists {
        return true;
    }
    let max = table().row_for(id).and_then(|(_, row)| row.max_branch());
    below.is_some_and(|r| r.lists(id)) && max.is_some_and(|m| m >= spec.branch())
}

/// Whether the read release `below`, the nearest under `spec`, vouches for it. Releases of an
/// older branch can postdate `spec` (470.256.02 came years after 510.47.03) and carry backports
/// (GeForce RTX 3050 OEM, 2508, added in 470.141.03 of August 2022, after 510.47.03): an older
/// branch's listing counts only when a read release of a yet older branch lists the id too.
fn lower_side(id: u16, spec: &DriverRelease, below: &ReadRelease) -> bool {
    below.lists(id)
        && (below.release.branch() == spec.branch()
            || lists::releases()
                .iter()
                .any(|r| r.release.branch() < below.release.branch() && r.lists(id)))
}

/// Whether the proprietary module of release (or branch) `spec` supports `device_id`.
pub fn proprietary_listing(id: u16, spec: &DriverRelease) -> Listing {
    if let Some(r) = lists::read_release(spec) {
        return by_own_list(id, r);
    }
    if let Some((label, branch, r)) = lists::legacy_ceiling(id)
        && spec.branch() > branch
    {
        return Listing::Lacks(format!(
            "{label} is its last branch: the README of {} lists it only under \"The {label} driver supports\" (legacy GPUs)",
            r.release
        ));
    }
    let bound = floors::proprietary_bound(id);
    let in_branch = |f: &ProprietaryFloor| f.first.branch() == spec.branch();
    let branch_floor = match &bound {
        ProprietaryBound::Listed(f) | ProprietaryBound::SharedName(f, _) if in_branch(f) => {
            Some(changelog(f))
        }
        ProprietaryBound::AtMost(open) if open.branch() == spec.branch() => Some(format!(
            "the proprietary module supports it from {open} at the latest (the open module's first release listing it)"
        )),
        _ => None,
    };
    if spec.is_branch_only() {
        let read = lists::of_branch(spec.branch());
        if !read.is_empty() {
            return by_branch_read(id, spec.branch(), &read, branch_floor);
        }
    }
    // Where the open module's README of this release was read and lists the id, the proprietary
    // module of the release supports it: at each of the 7 releases where both lists were read,
    // every id the open README lists is in the proprietary list (docs/requirement.md).
    if !spec.is_branch_only() && open_listing(id, spec) == Listing::Lists {
        return Listing::Lists;
    }
    let (below, above) = lists::neighbours(spec);
    let own_floor = matches!(&bound, ProprietaryBound::Listed(f)
        if in_branch(f) && !spec.is_branch_only() && *spec >= f.first);
    let low = below.is_some_and(|r| lower_side(id, spec, r)) || own_floor;
    let high = match above {
        Some(r) => r.lists(id),
        None => above_newest(id, spec, below),
    };
    if low && high {
        return match branch_floor {
            Some(f) if spec.is_branch_only() => {
                Listing::Depends(format!("the release within branch {}: {f}", spec.branch()))
            }
            _ => Listing::Lists,
        };
    }
    if let ProprietaryBound::Listed(f) = &bound {
        let branch_lists = lists::of_branch(spec.branch()).iter().any(|r| r.lists(id));
        let below_floor = if spec.is_branch_only() {
            spec.branch() < f.first.branch()
        } else {
            *spec < f.first
        };
        if below_floor && !branch_lists {
            return Listing::Lacks(changelog(f));
        }
        if spec.is_branch_only() && in_branch(f) {
            return Listing::Depends(format!(
                "the release within branch {}: {}",
                spec.branch(),
                changelog(f)
            ));
        }
    }
    if !lists::any_lists(id)
        && floors::open_floor(id).is_none()
        && matches!(bound, ProprietaryBound::Unknown)
    {
        return generation_bound(id, spec);
    }
    Listing::Unknown(between_words(id, spec, below, above, &bound))
}

/// A branch whose releases were read: each says.
fn by_branch_read(id: u16, branch: u32, read: &[&ReadRelease], floor: Option<String>) -> Listing {
    let listing: Vec<&&ReadRelease> = read.iter().filter(|r| r.lists(id)).collect();
    let names = |rs: &mut dyn Iterator<Item = &&ReadRelease>| {
        rs.map(|r| r.release.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if listing.is_empty() {
        return match read.iter().find_map(|r| match r.membership(id) {
            Membership::LegacyOnly(b) => Some((r, b)),
            _ => None,
        }) {
            Some((r, b)) => Listing::Lacks(format!(
                "the README of {} lists it only under \"The {b} driver supports\" (legacy GPUs): {b} is its last branch",
                r.release
            )),
            None => Listing::Lacks(format!(
                "no release of branch {branch} read lists it ({}); {}",
                names(&mut read.iter()),
                first_words(id)
            )),
        };
    }
    if listing.len() < read.len() {
        let lacking = names(&mut read.iter().filter(|r| !r.lists(id)));
        return Listing::Depends(format!(
            "the release within branch {branch}: {} is the first release read that lists it; {lacking} does not",
            listing[0].release
        ));
    }
    match floor {
        Some(f) => Listing::Depends(format!("the release within branch {branch}: {f}")),
        None => Listing::Lists,
    }
}

/// An id no source names: its generation row's first release, as the generation's bound.
fn generation_bound(id: u16, spec: &DriverRelease) -> Listing {
    let Some((_, row)) = table().row_for(id) else {
        return Listing::Unknown(format!(
            "no source lists 10de:{id:04x}, and no generation row covers it"
        ));
    };
    let generation = row.generation().unwrap_or("its generation");
    let floor = floors::generation_floor(row.first(), row.last());
    if let Some(f) = floor {
        let below = if spec.is_branch_only() {
            spec.branch() < f.first.branch()
        } else {
            *spec < f.first
        };
        if below {
            return Listing::Lacks(format!(
                "no source lists 10de:{id:04x}; the generation's bound: no {generation} GPU is supported before {} ({})",
                f.first,
                changelog(f)
            ));
        }
    }
    Listing::Unknown(format!(
        "no source lists 10de:{id:04x}; only the generation's bound is known ({generation}{})",
        floor.map_or(String::new(), |f| format!(", from {} on", f.first))
    ))
}

fn between_words(
    id: u16,
    spec: &DriverRelease,
    below: Option<&ReadRelease>,
    above: Option<&ReadRelease>,
    bound: &ProprietaryBound,
) -> String {
    let mut parts = vec![format!("proprietary {spec} was not read")];
    if let Some(r) = below {
        if r.lists(id) && !lower_side(id, spec, r) {
            parts.push(format!(
                "{} lists it, but as a release of an older branch that can postdate {spec} (no release read of a yet older branch lists it)",
                r.release
            ));
        } else {
            parts.push(format!("{} {}", r.release, said(r, id)));
        }
    }
    match above {
        Some(r) => parts.push(format!("{} {}", r.release, said(r, id))),
        None => parts.push("no newer release was read".to_string()),
    }
    match bound {
        ProprietaryBound::SharedName(f, n) => parts.push(format!(
            "{}, a name {n} device ids carry: no floor for this id",
            changelog(f)
        )),
        ProprietaryBound::AtMost(open) => parts.push(format!(
            "the proprietary module supports it from {open} at the latest (the open module's first release listing it)"
        )),
        _ => {}
    }
    parts.join("; ")
}

#[cfg(test)]
#[path = "release_verdict_tests.rs"]
mod tests;
