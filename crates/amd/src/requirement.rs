//! What an AMD GPU needs of its driver stack: the ROCm releases that list its LLVM target, as a
//! requirement in core's vendor-neutral model.
//!
//! Decisions the sources leave open, made here:
//! - Support follows the LLVM target, the unit of AMD's compatibility matrices; a model whose
//!   target is listed but whose name is not gets a note saying so.
//! - The oldest release the data covers is ROCm 5.5.1 (the first tag of the ROCm repository
//!   that carries a GPU list). A target listed there has no lower bound: it may have been
//!   supported earlier. A target last listed before the newest covered release gets that
//!   release as its upper bound.
//! - The first kernel whose amdgpu drives a GPU by default comes from amdgpu's pciidlist by
//!   device id (`amdgpu-pciids.tsv`), else from `amdgpu-kernel.tsv` by target; where neither
//!   settles it, no kernel constraint is made rather than a guessed one.
//! - A target no ROCm release lists still gets its name, target and kernel; its note says no
//!   release lists it officially (and the community override, where `rocm-unofficial.tsv` has
//!   one). It is "unofficial", its own answer: no ROCm release satisfies it, since a release
//!   satisfies only a target it lists (the requirement is unknown with that reason, so no
//!   stack is ever said to fit it).
//! - An id amdgpu's pciidlist lists is a known device even where libdrm has no name for it and
//!   the thunk no target (SI and CIK ids such as 6602, 983a): it gets its chip, never "unknown
//!   device".

use gpuctl_core::plugin::requirement::{
    Component, Constraint, LINUX_KERNEL, Requirement, Scope, Version,
};

use crate::kernels;
use crate::table::{TargetSource, tables};

/// AMD's PCI vendor id.
pub const AMD_VENDOR_ID: u16 = 0x1002;

/// The ROCm release: one user space for every AMD GPU of a host.
pub const ROCM: Component = Component {
    key: "rocm",
    noun: "ROCm",
    short: "ROCm",
    values: &[],
    scope: Scope::Host,
};

/// What ROCm says about a GPU's target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RocmSupport {
    /// Listed by the releases from `first` (`None`: from before the data begins) up to `last`
    /// (`None`: still listed by the newest release covered).
    Listed {
        /// The first release listing the target, unless it is the oldest covered.
        first: Option<Version>,
        /// The last release listing it, when a newer covered release no longer does.
        last: Option<Version>,
        /// The newest listing calls it deprecated.
        deprecated: bool,
        /// Some release lists this model by name, not only its target.
        model_listed: bool,
    },
    /// Not listed, but run with an `HSA_OVERRIDE_GFX_VERSION`.
    Unofficial {
        /// The override value (`11.0.0`).
        override_version: &'static str,
        /// The thread that states it.
        source: &'static str,
    },
    /// No release lists the target (or the target is not known).
    Unlisted,
}

/// One AMD GPU as the table sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmdGpu {
    /// The PCI device id.
    pub device_id: u16,
    /// The PCI revision, when known.
    pub revision: Option<u8>,
    /// libdrm's marketing name.
    pub name: Option<&'static str>,
    /// The LLVM target (`gfx942`).
    pub target: Option<String>,
    /// Where the target was found.
    pub target_source: Option<TargetSource>,
    /// What ROCm says.
    pub rocm: RocmSupport,
    /// The first kernel whose amdgpu drives it, where a source states it.
    pub first_kernel: Option<Version>,
    /// amdgpu's chip for it (`OLAND`), where amdgpu's pciidlist lists the id.
    pub chip: Option<&'static str>,
}

/// The table's answer for device `id` at `revision`.
pub fn lookup(device_id: u16, revision: Option<u8>) -> AmdGpu {
    let t = tables();
    let name = t.name(device_id, revision);
    let found = t.target(device_id);
    let rocm = match &found {
        Some((target, _)) => support(target, name),
        None => RocmSupport::Unlisted,
    };
    let reads = kernels::reads();
    let by_target = || t.first_kernel(device_id, found.as_ref().map(|(t, _)| t.as_str()));
    // The pciidlist per release line (amdgpu-pciids.tsv) first; an id only Debian's trees
    // list takes the first read release from which every later read lists it.
    let first_kernel = match (t.pciids.get(&device_id), reads.settled_from(device_id)) {
        (None, Some((from, oldest))) => (!oldest).then_some(from),
        _ => by_target(),
    };
    AmdGpu {
        device_id,
        revision,
        name,
        first_kernel,
        chip: t
            .pciids
            .get(&device_id)
            .map(|row| row.chip)
            .or_else(|| reads.chip(device_id)),
        target: found.as_ref().map(|(t, _)| t.clone()),
        target_source: found.map(|(_, s)| s),
        rocm,
    }
}

fn support(target: &str, name: Option<&str>) -> RocmSupport {
    let t = tables();
    let listing = t.releases_listing(target);
    let (Some(oldest), Some(newest)) = (listing.first(), listing.last()) else {
        return match t.unofficial.get(target) {
            Some((value, source)) => RocmSupport::Unofficial {
                override_version: value,
                source,
            },
            None => RocmSupport::Unlisted,
        };
    };
    let covered_from = t.rocm.iter().map(|r| r.release).min();
    let covered_to = t.newest_release();
    let model_listed = name
        .and_then(|n| t.product_of(n))
        .is_some_and(|p| p.target == target);
    let newest_rows = listing.iter().filter(|r| r.release == newest.release);
    RocmSupport::Listed {
        first: (Some(oldest.release) != covered_from).then_some(oldest.release),
        last: (Some(newest.release) != covered_to).then_some(newest.release),
        deprecated: newest_rows.into_iter().any(|r| r.status == "deprecated"),
        model_listed,
    }
}

impl AmdGpu {
    /// The GPU's requirement: a ROCm range when ROCm lists its target, with notes for people.
    pub fn requirement(&self) -> Requirement {
        let mut r = Requirement::new("AMD", AMD_VENDOR_ID).with_device_id(self.device_id);
        if self.name.is_none()
            && self.target.is_none()
            && self.first_kernel.is_none()
            && self.chip.is_none()
        {
            // No source lists the id: unknown, never "any driver".
            return r.with_unknown("unknown device: no source lists it");
        }
        if let Some(name) = self.name {
            r = r.with_name(name);
        }
        if let Some(target) = &self.target {
            r = r.with_label(target.clone());
        }
        let target = self.target.as_deref().unwrap_or("its target");
        match &self.rocm {
            RocmSupport::Listed {
                first,
                last,
                deprecated,
                model_listed,
            } => {
                let range = Constraint::range(ROCM, *first, *last);
                // The table never gives a first release after the last, so this always holds.
                if let Ok(c) = range {
                    r = r.with_constraint(c);
                }
                if first.is_none()
                    && let Some(oldest) = tables().rocm.iter().map(|r| r.release).min()
                {
                    r = r.with_note(format!(
                        "ROCm lists {target} from {oldest}, the oldest list in the sources, or \
                         earlier"
                    ));
                }
                if *deprecated {
                    r = r.with_note(format!("ROCm lists {target} as deprecated"));
                }
                if !model_listed {
                    r = r.with_note(format!("ROCm lists {target}, but not this model by name"));
                }
            }
            RocmSupport::Unofficial {
                override_version, ..
            } => {
                r = r.with_note(format!(
                    "unofficial: no ROCm release lists {target}; users set \
                     HSA_OVERRIDE_GFX_VERSION={override_version}"
                ));
                r = r.with_unknown(unofficial(target));
            }
            RocmSupport::Unlisted => {
                r = r.with_note(match &self.target {
                    Some(t) => format!("no ROCm release lists {t} officially"),
                    None => "no ROCm release lists its target".to_string(),
                });
                r = r.with_unknown(match &self.target {
                    Some(t) => unofficial(t),
                    None => "no ROCm release can be said to fit it: its LLVM target is not known"
                        .to_string(),
                });
            }
        }
        // The kernel that drives the chip is needed whatever ROCm says of it.
        self.with_kernel(r)
    }

    /// `r` with amdgpu's chip where no name says what the GPU is, the GPU's kernel floor when a
    /// source states one, and why there is none when the oldest tree read already lists it.
    fn with_kernel(&self, mut r: Requirement) -> Requirement {
        let reads = kernels::reads();
        let id = self.device_id;
        if let Some(chip) = self.chip {
            if self.name.is_none() {
                r = r.with_note(format!("amdgpu's pciidlist lists it as CHIP_{chip}"));
            }
            let oldest = match tables().pciids.contains_key(&id) {
                true => tables().oldest_pciid_tree(),
                false => reads.releases.first().copied(),
            };
            match (self.first_kernel, oldest) {
                (None, Some(oldest)) => {
                    r = r.with_note(format!(
                        "amdgpu lists it in every Linux release read ({oldest} on); its first release is older"
                    ))
                }
                (Some(floor), _) if !tables().pciids.contains_key(&id) => {
                    let before = reads.releases.iter().rev().find(|v| **v < floor).copied();
                    let unread = match before {
                        Some(b) => format!(", not in {b} (read); the releases between were not read"),
                        None => String::new(),
                    };
                    r = r.with_note(format!(
                        "amdgpu's pciidlist lists it from Linux {floor} on among the releases read{unread}"
                    ));
                }
                _ => {}
            }
            if let Some(note) = reads.generation_note(chip) {
                r = r.with_note(note);
            }
        }
        if let Some(floor) = self.first_kernel {
            let stable: Vec<String> = reads
                .listed_before(id, floor)
                .iter()
                .map(ToString::to_string)
                .collect();
            if !stable.is_empty() {
                r = r.with_note(format!(
                    "Linux {} (read) lists it too, a stable update of an older release line; \
                     {floor} is the first from which every release read lists it",
                    stable.join(", ")
                ));
            }
        }
        self.with_floor(r)
    }

    /// `r` with the GPU's kernel floor, when a source states one.
    fn with_floor(&self, r: Requirement) -> Requirement {
        match Constraint::range(LINUX_KERNEL, self.first_kernel, None) {
            Ok(c) if self.first_kernel.is_some() => r.with_constraint(c),
            _ => r,
        }
    }

    /// True when some ROCm release lists the GPU's target.
    pub fn rocm_listed(&self) -> bool {
        matches!(self.rocm, RocmSupport::Listed { .. })
    }
}

/// The answer for a target no ROCm release lists: unofficial, never a pass, with the releases
/// read so the reader knows what "no release" covers.
fn unofficial(target: &str) -> String {
    let t = tables();
    let read = t.rocm.iter().map(|r| r.release);
    match (read.clone().min(), read.max()) {
        (Some(lo), Some(hi)) => format!(
            "unofficial: no ROCm release read ({lo} to {hi}) lists {target} officially; none is counted as a pass"
        ),
        _ => format!(
            "unofficial: no ROCm release read lists {target} officially; none is counted as a pass"
        ),
    }
}
