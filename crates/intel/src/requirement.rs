//! What an Intel GPU needs of its driver stack: a kernel driver that binds it (i915 or xe,
//! each device its own) and, where the sources say, the kernel release that brought it, as a
//! requirement in core's vendor-neutral model.

use gpuctl_core::plugin::requirement::{
    Alternative, Asks, Component, Constraint, LINUX_KERNEL, Requirement, Scope, Version,
};

use crate::kernels;
use crate::table::{ComputeRow, DriverRow, tables};

/// What an id no source lists is.
pub const UNKNOWN_DEVICE: &str = "unknown device: no source lists it";

/// Intel's PCI vendor id.
pub const INTEL_VENDOR_ID: u16 = 0x8086;

/// The PCI base classes Intel's GPUs enumerate as: display controllers only (integrated and
/// Arc GPUs are VGA-compatible, 0x0300; Data Center GPU Flex and Max are 0x0380). Intel's NPU
/// (Meteor Lake and newer, driven by `intel_vpu`) is a processing accelerator (0x1200) of the
/// same vendor id: counting it would call it an Intel GPU no kernel table lists, and make every
/// such laptop's stack "unknown" (docs/vendors.md#intel-npu).
pub const INTEL_GPU_CLASSES: &[u8] = &[0x03];

/// The kernel driver bound to one Intel GPU: i915 and xe can both be loaded, each device binds
/// one, so the choice is the device's, never the host's.
pub const KERNEL_DRIVER: Component = Component {
    key: "intel-kernel-driver",
    noun: "kernel driver",
    short: "kernel driver",
    values: &["i915", "xe"],
    scope: Scope::Device,
};

/// How one driver stands toward one device on one kernel release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// The release's driver does not list the device; it does from this release.
    ListedFrom(Version),
    /// It lists it and binds it unasked.
    Unasked,
    /// It lists it and binds it only with these settings (`i915.force_probe=56a0`); unasked
    /// from `until` when a source says so.
    Asked {
        /// The settings, in kernel command-line form.
        settings: Vec<String>,
        /// The first release binding it with none.
        until: Option<Version>,
    },
}

/// One Intel GPU as the table sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntelGpu {
    /// The PCI device id.
    pub device_id: u16,
    /// The pciids.h macro stem (`TGL`).
    pub macro_name: Option<&'static str>,
    /// The platform's name.
    pub platform: Option<&'static str>,
    /// Discrete rather than integrated.
    pub discrete: Option<bool>,
    /// The drivers that bind it, i915 first.
    pub drivers: Vec<DriverRow>,
    /// What Intel's compute runtime says about it.
    pub compute: Option<ComputeRow>,
}

/// The table's answer for device `id`.
pub fn lookup(device_id: u16) -> IntelGpu {
    let t = tables();
    // An id the project's pciids.h copy no longer has (d744) is still the platform's where a
    // release read lists it.
    let macro_name = t
        .macro_of(device_id)
        .or_else(|| kernels::reads().macro_of(device_id));
    let platform = macro_name.and_then(|m| t.platform(m));
    IntelGpu {
        device_id,
        macro_name,
        platform: platform.map(|p| p.name),
        discrete: platform.map(|p| p.discrete),
        drivers: macro_name
            .map(|m| t.drivers_of(m).into_iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|d| with_device_releases(d, device_id))
            .collect(),
        compute: macro_name.and_then(|m| t.compute_of(m)).cloned(),
    }
}

/// The platform's driver row made the device's own: the first kernel a release's drm pull
/// settles for the id (id-pulls.tsv), and where i915's release data has the id, its first
/// kernel and the release from which i915 binds it with no parameter. An id still gated in
/// every release read keeps the platform's later source for that (DG1: 6.17).
fn with_device_releases(mut d: DriverRow, device_id: u16) -> DriverRow {
    if let Some(first) = tables().id_pull(d.driver, device_id) {
        d.first_kernel = Some(first);
    }
    if d.driver == "i915" {
        d = with_i915_releases(d, device_id);
    }
    with_reads(d, device_id)
}

/// The row with what the kernel releases read from Debian settle (kernels.rs): a first
/// release where the release-line sources give none, the last release of an id a newer read
/// dropped, and force_probe as the newest read asks it; a device no read lists is marked so.
fn with_reads(mut d: DriverRow, device_id: u16) -> DriverRow {
    let reads = kernels::reads();
    let Some(f) = reads.facts(d.driver, device_id) else {
        if reads.has_driver(d.driver) {
            d.unlisted_through = reads.newest(d.driver);
        }
        return d;
    };
    if d.first_kernel.is_none() {
        // Listed by the driver's oldest read and dated by no other source: that read is the
        // floor, a conservative one (an older release may list it too), never no floor, which
        // would let any kernel drive it (xe itself came in 6.8).
        d.first_kernel = f.first.or_else(|| {
            (d.driver == "xe")
                .then(|| reads.releases.get("xe").and_then(|r| r.first()).copied())
                .flatten()
        });
    }
    d.last_kernel = f.last;
    if f.gated {
        d.force_probe = Some(true);
        d.parameter = "force_probe";
        d.default_from = None;
    } else {
        d.force_probe = Some(false);
        if d.default_from.is_none() {
            d.default_from = f.unasked_from;
        }
    }
    d
}

/// The row with i915's release data (i915-releases.tsv, i915-legacy.tsv) for the id.
fn with_i915_releases(mut d: DriverRow, device_id: u16) -> DriverRow {
    if let Some(rel) = tables().i915_release(device_id) {
        // An id 4.12 already lists keeps no first kernel: its first release was not read.
        if !tables().i915_before_oldest.contains(&device_id) {
            d.first_kernel = Some(rel.first_listed);
        }
        match rel.gate {
            None => d.default_from = None,
            Some(gate) => {
                d.parameter = gate;
                if rel.first_default.is_some() {
                    d.default_from = rel.first_default;
                }
            }
        }
    }
    d
}

/// The note for an xe-only id whose first release no source read names: the release of its
/// platform's first ids, where a pull settles those, bounds it from below.
fn xe_release_unsettled(macro_name: &str) -> String {
    let t = tables();
    let platform_first = t
        .id_pulls
        .iter()
        .filter(|(d, id, _)| *d == "xe" && t.macro_of(*id) == Some(macro_name))
        .map(|(_, _, v)| *v)
        .min();
    match platform_first {
        Some(v) => format!(
            "xe lists it (pciids.h of 2026); the Linux release that added this id is not settled by the sources read (its platform's first ids came in Linux {v})"
        ),
        None => "xe lists it (pciids.h of 2026); the Linux release that added it is not settled by the sources read".to_string(),
    }
}

/// The compute runtime's word on a platform: the versions it documents, under the legacy1
/// packages' name for Gen8 to Gen11.
fn compute_note(c: &ComputeRow) -> String {
    let versions = match (c.opencl, c.level_zero) {
        ("-", "-") => None,
        (cl, "-") => Some(format!("OpenCL {cl}, no Level Zero")),
        (cl, ze) => Some(format!("OpenCL {cl}, Level Zero {ze}")),
    };
    match (c.legacy, versions) {
        (true, None) => {
            "compute runtime: the legacy1 packages (Gen8, Gen9 and Gen11 devices)".to_string()
        }
        (true, Some(v)) => {
            format!("compute runtime: the legacy1 packages (Gen8, Gen9 and Gen11 devices): {v}")
        }
        (false, Some(v)) => format!("compute runtime: {v}"),
        (false, None) => "compute runtime: no version documented".to_string(),
    }
}

impl IntelGpu {
    /// The module settings, in kernel command-line form, with which driver `d` binds this
    /// device where it needs one: its own `force_probe` for the id and, where the other driver
    /// would bind it unasked, that driver's `force_probe=!<id>`; `i915.alpha_support=1` where
    /// the gated releases predate Linux 5.3. The requirement's notes and doctor's hints both
    /// read them here.
    pub fn settings(&self, d: &DriverRow) -> Vec<String> {
        let id = self.device_id;
        let other = if d.driver == "xe" { "i915" } else { "xe" };
        let pair = vec![
            format!("{}.force_probe={id:04x}", d.driver),
            format!("{other}.force_probe=!{id:04x}"),
        ];
        // xe gated: i915 may bind the device unasked, so it is kept off too. i915 gated (ATS-M
        // in every release read) falls through: xe is kept off only where it binds unasked.
        if d.force_probe == Some(true) && d.driver == "xe" {
            return pair;
        }
        if d.parameter == "alpha_support" {
            // Before Linux 5.3 the parameter was a switch for every gated device.
            return vec!["i915.alpha_support=1".to_string()];
        }
        // i915 only has to keep xe off the device where xe would bind it unasked; where xe
        // itself needs force_probe (or does not list the platform), i915's own flag is all it
        // takes.
        let xe_binds_unasked = self
            .drivers
            .iter()
            .any(|o| o.driver == "xe" && o.force_probe == Some(false));
        if d.driver == "i915" && !xe_binds_unasked {
            vec![format!("i915.force_probe={id:04x}")]
        } else {
            pair
        }
    }

    /// How driver `d` stands toward this device on kernel `kernel`.
    pub fn binding(&self, d: &DriverRow, kernel: Version) -> Binding {
        // A driver row with no first release still lists the platform today: judged as listed.
        match d.first_kernel {
            Some(first) if kernel < first => Binding::ListedFrom(first),
            _ if d.force_probe == Some(true) => Binding::Asked {
                settings: self.settings(d),
                until: None,
            },
            _ => match d.default_from {
                Some(from) if kernel < from => Binding::Asked {
                    settings: self.settings(d),
                    until: Some(from),
                },
                _ => Binding::Unasked,
            },
        }
    }

    /// The GPU's requirement: a kernel driver among those that bind it, each with the kernel
    /// it needs beyond the GPU's own floor and its `force_probe` note; the kernel floor itself
    /// when every binding driver's first release is known.
    pub fn requirement(&self) -> Requirement {
        let id = self.device_id;
        let mut r = Requirement::new("Intel", INTEL_VENDOR_ID).with_device_id(id);
        if let Some(p) = self.platform {
            r = r.with_label(p);
        }
        r = match &self.compute {
            Some(c) => r.with_note(compute_note(c)),
            None => r,
        };
        if self.drivers.is_empty() {
            return r.with_unknown(UNKNOWN_DEVICE);
        }
        // A driver no release read lists the id in is no alternative: which release brings it
        // is not known, and no read release binds it.
        let (unlisted, listed): (Vec<&DriverRow>, Vec<&DriverRow>) = self
            .drivers
            .iter()
            .partition(|d| d.unlisted_through.is_some());
        for d in &unlisted {
            if let Some(newest) = d.unlisted_through {
                r = r.with_note(format!(
                    "{} lists it in no Linux release read (through {newest}); pciids.h of 2026 has it",
                    d.driver
                ));
            }
        }
        for d in &listed {
            let stable = d
                .first_kernel
                .map(|first| kernels::reads().listed_before(d.driver, id, first))
                .unwrap_or_default();
            if let (Some(first), false) = (d.first_kernel, stable.is_empty()) {
                r = r.with_note(format!(
                    "{}: Linux {} (read) lists it too, a stable update of an older release line; \
                     its release line's first is {first}",
                    d.driver,
                    stable.join(", ")
                ));
            }
        }
        if listed.is_empty() {
            let newest = unlisted.iter().filter_map(|d| d.unlisted_through).max();
            return r.with_unknown(match newest {
                Some(v) => format!(
                    "no Linux release read (through {v}) lists it, so none can be said to drive it"
                ),
                None => UNKNOWN_DEVICE.to_string(),
            });
        }
        if tables().i915_before_oldest.contains(&id) {
            r = r.with_note(
                "i915 binds it in every Linux release read (4.12 on); its first release is older",
            );
        }
        if let Some(xe) = listed.iter().find(|d| d.driver == "xe")
            && listed.len() == 1
        {
            if xe.first_kernel.is_none() {
                r = r.with_note(xe_release_unsettled(xe.macro_name));
            }
            if xe.force_probe.is_none() {
                r = r.with_note(
                    "whether xe needs force_probe for it is not settled by the sources read",
                );
            }
        }
        let firsts: Option<Vec<Version>> = listed.iter().map(|d| d.first_kernel).collect();
        let floor = firsts.and_then(|f| f.into_iter().min());
        let alternatives = listed
            .iter()
            .map(|d| {
                let mut alt = Alternative::plain(d.driver);
                let first = d.first_kernel.filter(|f| Some(*f) != floor);
                if (first.is_some() || d.last_kernel.is_some())
                    && let Ok(c) = Constraint::range(LINUX_KERNEL, first, d.last_kernel)
                {
                    alt.needs.push(c);
                }
                let settings = self.settings(d);
                let flags = settings.join(" and ");
                // What the note says is also what the verdict asks of the stack: a stock
                // kernel sets none of it, so it does not bind the device.
                let unasked_from = if d.force_probe == Some(true) {
                    alt.note = Some(format!("needs {flags}"));
                    None
                } else if let Some(from) = d.default_from {
                    alt.note = Some(format!("before Linux {from} needs {flags}"));
                    Some(from)
                } else {
                    return alt;
                };
                let when = unasked_from
                    .map(|from| format!("before Linux {from}, "))
                    .unwrap_or_default();
                alt.asks = Some(Asks {
                    why: format!(
                        "{when}{} binds {id:04x} only with {flags}, which a stock kernel does \
                         not set: add it to the kernel command line",
                        d.driver
                    ),
                    settings,
                    unasked_from,
                });
                alt
            })
            .collect();
        r = r.with_constraint(Constraint::choice(KERNEL_DRIVER, alternatives));
        if let Some(floor) = floor
            && let Ok(c) = Constraint::range(LINUX_KERNEL, Some(floor), None)
        {
            r = r.with_constraint(c);
        }
        r
    }
}
