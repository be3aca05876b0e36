//! What `fleet` keeps of one report: per vendor the GPUs' identity, the combined host-scoped
//! constraints, the running driver; and doctor's findings of a CDI spec written for another
//! driver.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use crate::model::{ConstraintEntry, Fit};

/// Doctor's check of NVIDIA CDI specs against the loaded driver (crates/nvidia/src/doctor.rs).
pub const SPEC_DRIVER_CHECK: &str = "nvidia-spec-driver";

/// One host, as planning sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSummary {
    /// The host's name, or the file's when the report has none.
    pub name: String,
    /// True when the name is the report's own `host.name`, not the file's: only such a name
    /// identifies a host (two reports with it are one host reported twice).
    pub reported_name: bool,
    /// The report's `host.machine_id`, when it has one: two reports with one name and two
    /// machine ids are two hosts.
    pub machine_id: Option<String>,
    /// Vendors with GPUs.
    pub vendors: Vec<VendorSummary>,
    /// CDI specs written for another driver than the loaded one, one sentence each.
    pub stale_specs: Vec<String>,
    /// Doctor's other findings (status `problem` or `warning`), so a plan can name them; each
    /// distinct one is held once for the whole fleet ([`Notes`]).
    pub doctor: Vec<Arc<DoctorNote>>,
    /// True when read from a node's labels, which say less than a report
    /// ([`crate::nodelist::LABELS_CANNOT_TELL`]).
    pub from_labels: bool,
}

/// One doctor finding of a host, kept so the plan groups it with the same finding elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DoctorNote {
    /// The check's code (`cdi-version`).
    pub code: String,
    /// `problem` or `warning`.
    pub status: String,
    /// What it saw, its first fact, or what labels say of it.
    pub fact: String,
}

/// One vendor's GPUs on a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorSummary {
    /// `nvidia`.
    pub vendor: String,
    /// The GPUs' identity, e.g. `8x 10de:2901`.
    pub gpus: String,
    /// The combined requirement's host-scoped constraints; `None` when the GPUs conflict.
    pub stack: Option<Vec<ConstraintEntry>>,
    /// Why the host's own GPUs conflict.
    pub conflicts: Vec<String>,
    /// The running driver's release.
    pub driver_version: Option<String>,
    /// Whether it fits the GPUs, and why not.
    pub fits: Fit,
    /// Why it does not fit.
    pub why: Option<String>,
    /// NVIDIA: the newest CUDA the loaded driver runs, when known.
    pub cuda: Option<String>,
    /// Whether a container can be given the GPUs, and detect's reason.
    pub usable: bool,
    /// Detect's reason, in its words.
    pub reason: String,
    /// The GPUs' `vvvv:dddd` ids as detect lists them, in index order.
    pub ids: Vec<String>,
    /// The loaded stack as `--driver` specs: what `fleet --cuda` asks THE verdict about.
    pub specs: Vec<String>,
    /// The GPUs nothing is known of, as `who: why` (no source lists them): such a host fits no
    /// stack the fleet plans.
    pub unknown: Vec<String>,
}

/// The distinct doctor findings of a fleet: 10,000 hosts share a handful, so each is held once
/// (shared by the reading threads).
pub type Notes = Mutex<HashSet<Arc<DoctorNote>>>;

/// `note`, as the one copy `notes` holds.
pub fn intern(notes: &Notes, note: DoctorNote) -> Arc<DoctorNote> {
    // A reader that panicked left the set whole (an insert is one step): use it anyway.
    let mut set = notes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = set.get(&note) {
        return Arc::clone(n);
    }
    let n = Arc::new(note);
    set.insert(Arc::clone(&n));
    n
}

/// The part of a [`crate::model::Report`] planning reads: the same keys, everything else skipped
/// unread, strings borrowed from the file where they have no escapes. Reading 10,000 reports
/// is mostly this parse (docs/fleet.md#planning).
#[derive(Deserialize)]
pub struct LeanReport<'a> {
    /// The report's schema.
    #[serde(borrow)]
    pub schema: Cow<'a, str>,
    #[serde(borrow)]
    host: LeanHost<'a>,
    #[serde(borrow)]
    vendors: Vec<LeanVendor<'a>>,
    #[serde(borrow)]
    doctor: LeanDoctor<'a>,
}

#[derive(Deserialize)]
struct LeanHost<'a> {
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    machine_id: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct LeanVendor<'a> {
    #[serde(borrow)]
    vendor: Cow<'a, str>,
    usable: bool,
    #[serde(borrow)]
    reason: Cow<'a, str>,
    #[serde(borrow)]
    devices: Vec<LeanDevice<'a>>,
    requirement: LeanRequirement,
    #[serde(borrow)]
    driver: LeanDriver<'a>,
}

#[derive(Deserialize)]
struct LeanDevice<'a> {
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct LeanRequirement {
    gpus: Vec<LeanGpu>,
    combined: Option<LeanNeed>,
    conflicts: Vec<String>,
}

#[derive(Deserialize)]
struct LeanGpu {
    who: String,
    #[serde(default)]
    unknown: Option<String>,
}

#[derive(Deserialize)]
struct LeanNeed {
    constraints: Vec<ConstraintEntry>,
}

#[derive(Deserialize)]
struct LeanDriver<'a> {
    #[serde(borrow)]
    version: Option<Cow<'a, str>>,
    fits: Fit,
    why: Option<String>,
    #[serde(default, borrow)]
    cuda_ceiling: Option<Cow<'a, str>>,
    #[serde(default)]
    specs: Vec<String>,
}

#[derive(Deserialize)]
struct LeanDoctor<'a> {
    #[serde(borrow)]
    checks: Vec<LeanCheck<'a>>,
}

#[derive(Deserialize)]
struct LeanCheck<'a> {
    #[serde(borrow)]
    code: Cow<'a, str>,
    #[serde(borrow)]
    status: Cow<'a, str>,
    #[serde(borrow)]
    subject: Cow<'a, str>,
    #[serde(borrow)]
    facts: Vec<Cow<'a, str>>,
}

/// The summary of `r`, read from `file`.
pub fn summarize(r: &LeanReport<'_>, file: &Path, notes: &Notes) -> HostSummary {
    let name = r.host.name.as_deref().map_or_else(
        || {
            file.file_stem().map_or_else(
                || file.display().to_string(),
                |s| s.to_string_lossy().into(),
            )
        },
        str::to_string,
    );
    let vendors = r
        .vendors
        .iter()
        .filter(|v| !v.requirement.gpus.is_empty())
        .map(|v| {
            let mut ids: Vec<&str> = v
                .devices
                .iter()
                .map(|d| d.id.as_deref().unwrap_or("?"))
                .collect();
            ids.sort_unstable();
            let mut gpus: Vec<String> = Vec::new();
            let mut i = 0;
            while i < ids.len() {
                let n = ids[i..].iter().take_while(|x| **x == ids[i]).count();
                gpus.push(format!("{n}x {}", ids[i]));
                i += n;
            }
            VendorSummary {
                vendor: v.vendor.to_string(),
                gpus: gpus.join(" + "),
                stack: v.requirement.combined.as_ref().map(|c| {
                    c.constraints
                        .iter()
                        .filter(|c| c.scope == "host")
                        .cloned()
                        .collect()
                }),
                conflicts: v.requirement.conflicts.clone(),
                driver_version: v.driver.version.as_deref().map(str::to_string),
                fits: v.driver.fits,
                why: v.driver.why.clone(),
                cuda: v
                    .driver
                    .cuda_ceiling
                    .as_deref()
                    .filter(|c| *c != crate::model::UNKNOWN)
                    .map(str::to_string),
                usable: v.usable,
                reason: v.reason.to_string(),
                ids: v
                    .devices
                    .iter()
                    .filter_map(|d| d.id.as_deref().map(str::to_string))
                    .collect(),
                specs: v.driver.specs.clone(),
                unknown: v
                    .requirement
                    .gpus
                    .iter()
                    .filter_map(|g| g.unknown.as_ref().map(|u| format!("{}: {u}", g.who)))
                    .collect(),
            }
        })
        .collect();
    let stale_specs = r
        .doctor
        .checks
        .iter()
        .filter(|c| c.code == SPEC_DRIVER_CHECK && c.status == "problem")
        .map(|c| format!("{}: {}", c.subject, c.facts.join("; ")))
        .collect();
    // The stale spec is drift already (said with its own sentence), and each vendor's
    // `<vendor>-driver` check is THE verdict on the loaded driver that `driver.fits` holds;
    // every other finding is kept as doctor said it.
    let verdict_check = |code: &str| {
        code.strip_suffix("-driver")
            .is_some_and(|v| r.vendors.iter().any(|x| x.vendor == v))
    };
    let doctor = r
        .doctor
        .checks
        .iter()
        .filter(|c| c.code != SPEC_DRIVER_CHECK && !verdict_check(&c.code))
        .filter(|c| c.status == "problem" || c.status == "warning")
        .map(|c| {
            intern(
                notes,
                DoctorNote {
                    code: c.code.to_string(),
                    status: c.status.to_string(),
                    fact: c
                        .facts
                        .first()
                        .map_or_else(|| c.subject.to_string(), |f| format!("{}: {f}", c.subject)),
                },
            )
        })
        .collect();
    HostSummary {
        name,
        reported_name: r.host.name.is_some(),
        machine_id: r.host.machine_id.as_deref().map(str::to_string),
        vendors,
        stale_specs,
        doctor,
        from_labels: false,
    }
}
