//! The driver floor of the GPUs together, under the combined line: Rex's combined requirement
//! has ceilings only ("any driver branch" for Turing and newer), so without this line a reader
//! of the combined answer would take "any" for an RTX 4080 on 470. The floor of several GPUs is
//! the newest of their first listings, per kernel module (docs/requirement.md, "NVIDIA driver
//! floors"); a toolkit's minimum joins it.

use gpuctl_core::requirement::report::{Section, VendorStack};

use crate::floors::{self, ProprietaryBound};
use crate::model::KernelModule;
use crate::release::DriverRelease;

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
    let mut prop: Option<DriverRelease> = None;
    let (mut prop_bound, mut prop_unknown) = (false, false);
    for id in &ids {
        match floors::open_floor(*id) {
            Some(f) => open = Some(newest(open, &f.first)),
            None => open_all = false,
        }
        match floors::proprietary_bound(*id) {
            ProprietaryBound::Listed(f) => prop = Some(newest(prop, &f.first)),
            ProprietaryBound::AtMost(r) => {
                prop = Some(newest(prop, &r));
                prop_bound = true;
            }
            // A name several ids carry is no floor for one of them.
            ProprietaryBound::SharedName(..) | ProprietaryBound::Unknown => prop_unknown = true,
        }
    }
    let open = match open {
        Some(r) if open_all => Floor::Known(r),
        _ => Floor::Unknown,
    };
    let prop = match prop {
        Some(_) if prop_unknown => Floor::Unknown,
        Some(r) if prop_bound => Floor::AtMost(r),
        Some(r) => Floor::Known(r),
        None => Floor::Unknown,
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
    if parts.is_empty() {
        report.under_combined.push(
            "driver floor: not known — no source lists the first release for every GPU".to_string(),
        );
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
    if let Some((min, label)) = toolkit {
        line.push_str(&format!("; {label} needs {min} or newer"));
    }
    report.under_combined.push(line);
}
