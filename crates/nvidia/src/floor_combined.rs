//! The driver floor of the GPUs together, under the combined line: Rex's combined requirement
//! has ceilings only ("any driver branch" for Turing and newer), so without this line a reader
//! of the combined answer would take "any" for an RTX 4080 on 470. The floor of several GPUs is
//! the newest of their first listings, per kernel module (docs/requirement.md, "NVIDIA driver
//! floors"); a toolkit's minimum joins it. The proprietary floor takes each release's own list
//! too ([`crate::release_lists`]): an id the changelog does not date (0191, a GeForce 8800) has
//! its first release read that lists it as a floor "at the latest", and a legacy id's last
//! branch is a ceiling, said where it is stricter than Rex's.

use gpuctl_core::plugin::requirement::report::{Section, VendorStack};

use crate::floors::{self, ProprietaryBound};
use crate::model::KernelModule;
use crate::release::DriverRelease;
use crate::release_lists as lists;

/// What one module's floor is for every counted GPU together.
enum Floor {
    /// Every GPU has a release from the sources: the newest of them.
    Known(DriverRelease),
    /// Some GPU's release is only an upper bound: the newest, "at the latest".
    AtMost(DriverRelease),
    /// Some GPU has no release in the sources for this module.
    Unknown,
}

fn newest(a: Option<DriverRelease>, b: &DriverRelease) -> DriverRelease {
    match a {
        Some(a) if a >= *b => a,
        _ => b.clone(),
    }
}

/// The floor line for the counted GPUs, when at least one of them has a floor in the sources;
/// `toolkit` is a CUDA toolkit's minimum driver and its label (`CUDA 12.8`).
pub fn under_combined(report: &mut VendorStack, toolkit: Option<(&DriverRelease, String)>) {
    let Some(combined) = &report.combined else {
        return;
    };
    // Rex's combined module decides which modules' floors matter: a Volta is proprietary only,
    // and the open module's README never lists it.
    let module = crate::floor_verdict::kernel_module(combined);
    let ids: Vec<u16> = report
        .gpus
        .iter()
        .filter(|g| g.counted)
        .filter_map(|g| g.requirement.device_id.as_deref())
        .filter_map(|d| u16::from_str_radix(d, 16).ok())
        .collect();
    if ids.is_empty() {
        return;
    }
    let mut open: Option<DriverRelease> = None;
    let mut open_all = true;
    // The newest exact first release and the newest "at the latest" one, apart: a floor is at
    // the latest only where such a bound is above every exact one (a GeForce 8800, 340.108 at
    // the latest, beside a V100's 384.98 leaves 384.98 exact).
    let mut prop: Option<DriverRelease> = None;
    let mut prop_at_most: Option<DriverRelease> = None;
    let mut prop_unknown = false;
    for id in &ids {
        match floors::open_floor(*id) {
            Some(f) => open = Some(newest(open, &f.first)),
            None => open_all = false,
        }
        match proprietary_first(*id) {
            Some((r, true)) => prop = Some(newest(prop, &r)),
            Some((r, false)) => prop_at_most = Some(newest(prop_at_most, &r)),
            None => prop_unknown = true,
        }
    }
    let ceiling = last_branch(&ids, combined);
    let open = match open {
        Some(r) if open_all => Floor::Known(r),
        _ => Floor::Unknown,
    };
    let prop = match (prop, prop_at_most) {
        _ if prop_unknown => Floor::Unknown,
        (Some(exact), Some(bound)) if bound > exact => Floor::AtMost(bound),
        (Some(exact), _) => Floor::Known(exact),
        (None, Some(bound)) => Floor::AtMost(bound),
        (None, None) => Floor::Unknown,
    };
    let open = if module == KernelModule::Proprietary {
        None
    } else {
        Some(open)
    };
    let prop = if module == KernelModule::Open {
        None
    } else {
        Some(prop)
    };
    let words = |f: &Option<Floor>| match f {
        Some(Floor::Known(r)) => (Some(r.to_string()), false),
        Some(Floor::AtMost(r)) => (Some(r.to_string()), true),
        _ => (None, false),
    };
    let ((open_first, open_bound), (prop_first, prop_bound)) = (words(&open), words(&prop));
    report.sections.0.push((
        "floor",
        Section::default()
            .field("open", open_first)
            .field("open_at_the_latest", open_bound)
            .field("proprietary", prop_first)
            .field("proprietary_at_the_latest", prop_bound)
            .field("toolkit", toolkit.as_ref().map(|(min, _)| min.to_string())),
    ));
    let mut parts = Vec::new();
    let mut unknown = Vec::new();
    match &open {
        Some(Floor::Known(r)) => parts.push(format!("open kernel module {r} or newer")),
        Some(Floor::AtMost(r)) => {
            parts.push(format!("open kernel module from {r} at the latest"));
        }
        Some(Floor::Unknown) => unknown.push("open"),
        None => {}
    }
    match &prop {
        Some(Floor::Known(r)) => parts.push(format!("proprietary kernel module {r} or newer")),
        Some(Floor::AtMost(r)) => parts.push(format!(
            "proprietary kernel module from {r} at the latest (an earlier release may list it)"
        )),
        Some(Floor::Unknown) => unknown.push("proprietary"),
        None => {}
    }
    let ceiling = ceiling.map(|(label, branch, id, r)| {
        let mut words = format!(
            "last branch: {label} (10de:{id:04x}: the README of {} lists it only under \"The \
             {label} driver supports\")",
            r.release
        );
        let above = match &prop {
            Some(Floor::Known(r) | Floor::AtMost(r)) => r.branch() > branch,
            _ => false,
        };
        if above
            && !lists::releases()
                .iter()
                .any(|r| ids.iter().all(|i| r.lists(*i)))
        {
            words.push_str(&format!(
                ", below the floor: no proprietary release read ({}) lists every GPU",
                read_span()
            ));
        }
        words
    });
    if parts.is_empty() {
        let mut line =
            "driver floor: not known — no source lists the first release for every GPU".to_string();
        if let Some(c) = ceiling {
            line.push_str(&format!("; {c}"));
        }
        report.under_combined.push(line);
        return;
    }
    let mut line = format!(
        "driver floor (the first releases listing every GPU): {}",
        parts.join("; ")
    );
    for which in unknown {
        line.push_str(&format!(
            "; the {which} module's floor is not known for every GPU"
        ));
    }
    if let Some(c) = ceiling {
        line.push_str(&format!("; {c}"));
    }
    if let Some((min, label)) = toolkit {
        line.push_str(&format!("; {label} needs {min} or newer"));
    }
    report.under_combined.push(line);
}

/// The first proprietary release of one id, and whether it is exact: the changelog's per-id
/// floor is; the open module's first release and the first release read that lists it bound
/// it only from above ("at the latest"). The lowest of them is the floor: a release read that
/// lists the id below the changelog's entry (1fb8 in 418.226.00, added by 430.09) makes the
/// changelog's no floor. A name several ids carry dates none of them.
fn proprietary_first(id: u16) -> Option<(DriverRelease, bool)> {
    let mut best: Option<(DriverRelease, bool)> = match floors::proprietary_bound(id) {
        ProprietaryBound::Listed(f) => Some((f.first, true)),
        ProprietaryBound::AtMost(r) => Some((r, false)),
        ProprietaryBound::SharedName(..) | ProprietaryBound::Unknown => None,
    };
    if let Some(read) = lists::first_listing(id)
        && best.as_ref().is_none_or(|(r, _)| read.release < *r)
    {
        best = Some((read.release.clone(), false));
    }
    best
}

/// The lowest last branch the legacy sections give a counted GPU, where it is below Rex's
/// combined ceiling: (`340.xx`, 340, the id, the release whose README says so).
fn last_branch(
    ids: &[u16],
    combined: &gpuctl_core::plugin::requirement::report::RequirementView,
) -> Option<(String, u32, u16, &'static lists::ReadRelease)> {
    // Rex's own ceiling, before requirement_model lowered a GPU's to its legacy branch: the
    // line says the sourced branch wherever it is below what Rex's rows give.
    let rex_max = crate::floor_verdict::fact_u32(combined, "max_branch");
    let table = crate::table::builtin_table();
    ids.iter()
        .filter_map(|id| lists::legacy_ceiling(*id).map(|(l, b, r)| (l, b, *id, r)))
        .filter(|(_, b, id, _)| {
            let row_max = table.row_for(*id).and_then(|(_, row)| row.max_branch());
            row_max.is_some_and(|m| *b < m) || rex_max.is_none_or(|m| *b < m)
        })
        .min_by_key(|(_, b, ..)| *b)
}

/// `340.108 to 555.58.02`: the releases read.
fn read_span() -> String {
    let all = lists::releases();
    match (all.first(), all.last()) {
        (Some(a), Some(b)) => format!("{} to {}", a.release, b.release),
        _ => String::new(),
    }
}
