//! The typed finding a vendor's driver check makes of one GPU, and the checks doctor prints
//! for it: a vendor (AMD, Intel, a render-node plug-in) decides from its own tables what one GPU
//! needs, reading the kernel's facts through [`super::kernel`]; turning the finding into a
//! [`Check`] with its facts and its own `Hint: ` happens here and nowhere else
//! (docs/explain.md#driver-checks).

use std::fmt;

use super::kernel::{KernelRelease, MODULES, OSRELEASE};
use crate::check::{Check, CheckCode, Status};
use crate::host::HostError;
use crate::pci::{PCI_DEVICES, PciDevice};
use crate::requirement::{Constraint, Known, LINUX_KERNEL, Requirement, Scope, Stack, Version};

/// One GPU as a driver check names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuName {
    /// The PCI address.
    pub address: String,
    /// `vendor:device` in lowercase hex (`8086:56a0`).
    pub id: String,
    /// What the vendor's table calls it (`Alchemist`, `Radeon RX 7900 XTX`), when it knows.
    pub label: Option<String>,
}

impl GpuName {
    /// The name of a PCI device, with the vendor's label for it.
    pub fn of(device: &PciDevice, label: Option<String>) -> GpuName {
        GpuName {
            address: device.address.clone(),
            id: format!("{:04x}:{:04x}", device.vendor_id, device.device_id),
            label,
        }
    }
}

impl fmt::Display for GpuName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.label {
            Some(l) => write!(f, "{} ({}, {l})", self.address, self.id),
            None => write!(f, "{} ({})", self.address, self.id),
        }
    }
}

/// Why a GPU has no driver bound: one cause each, most decisive first.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unbound {
    /// The running kernel is older than the GPU's floor: no driver of it knows the device.
    KernelTooOld {
        /// The release (`5.15.0-91-generic`).
        release: String,
        /// The requirement's words (`kernel 5.15 is older than 6.0`).
        reason: String,
        /// The floor, when the requirement has one.
        floor: Option<Version>,
    },
    /// The running kernel's release cannot be read, so whether its driver binds the device is
    /// not known.
    KernelUnknown {
        /// What the GPU needs, in the requirement's words.
        needs: String,
    },
    /// A driver that would bind it is not loaded.
    ModuleNotLoaded {
        /// The module (`amdgpu`).
        module: String,
    },
    /// A driver lists the device on this kernel but binds it only with module settings that
    /// are not in place (`i915.force_probe=56a0`).
    SettingNeeded {
        /// The driver.
        driver: String,
        /// The kernel release it was judged for.
        release: String,
        /// Every setting it takes, in kernel command-line form.
        settings: Vec<String>,
        /// The parameter that gates it and its value now (`i915.force_probe`, `""`); the value
        /// is `None` when it cannot be read.
        parameter: (String, Option<String>),
        /// The release from which the driver binds it with no setting, when known.
        unasked_from: Option<Version>,
    },
    /// A module parameter keeps the driver off the device (`i915.force_probe=!56a0`).
    Blocked {
        /// The parameter (`i915.force_probe`).
        parameter: String,
        /// Its value now.
        value: String,
    },
    /// A driver the kernel has does not list the device before a later release.
    ListedFrom {
        /// The driver.
        driver: String,
        /// The first release listing it.
        from: Version,
    },
    /// No driver's id list in the vendor's sources names the device.
    NotInTables,
    /// Everything gpuctl can read fits, yet nothing is bound.
    Unexplained {
        /// The drivers that should have bound it.
        drivers: Vec<String>,
    },
}

/// What a driver check found for one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DriverState {
    /// Bound to a driver that serves containers.
    Bound {
        /// The driver.
        driver: String,
    },
    /// Bound to another driver (`vfio-pci` for a VM, `radeon`).
    Other {
        /// The driver bound.
        driver: String,
        /// The drivers that would serve containers.
        wanted: Vec<String>,
    },
    /// No driver bound, and why.
    Unbound(Vec<Unbound>),
    /// The `driver` link cannot be read.
    Unreadable(HostError),
}

/// One GPU's driver finding, with the check code it is reported under (`amd-driver`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverFinding {
    /// The stable check code.
    pub code: CheckCode,
    /// The GPU.
    pub gpu: GpuName,
    /// What was found.
    pub state: DriverState,
}

impl DriverFinding {
    /// The finding as doctor prints it: the one place its words are made.
    pub fn check(&self) -> Check {
        let c = Check::new(self.code, self.gpu.to_string(), Status::Ok);
        match &self.state {
            DriverState::Bound { driver } => c.fact(format!("bound to {driver}")),
            DriverState::Other { driver, wanted } => {
                let wanted = wanted.join(" or ");
                let mut c = c
                    .fact(format!("bound to {driver}, not {wanted}: containers cannot use it"))
                    .remedy(hint(&format!(
                        "unless it is given to a VM on purpose, unbind it ('echo {} | sudo tee /sys/bus/pci/drivers/{driver}/unbind') and load {wanted}.",
                        self.gpu.address
                    )));
                c.status = Status::Warning;
                c
            }
            DriverState::Unreadable(e) => {
                let mut c = c.fact(format!("cannot tell which driver is bound: {e}"));
                c.status = Status::Warning;
                c
            }
            DriverState::Unbound(why) => unbound(c, &self.gpu, why),
        }
    }
}

/// The findings of one vendor's GPUs as checks: the GPUs bound as they should be in one `ok`
/// check (one fact each), every other GPU in a check of its own. No GPU: one skipped check.
pub fn driver_checks(code: CheckCode, display: &str, findings: &[DriverFinding]) -> Vec<Check> {
    if findings.is_empty() {
        return vec![
            Check::new(code, display, Status::Skipped)
                .fact(format!("no {display} GPU under {PCI_DEVICES}")),
        ];
    }
    let (bound, other): (Vec<&DriverFinding>, Vec<&DriverFinding>) = findings
        .iter()
        .partition(|f| matches!(f.state, DriverState::Bound { .. }));
    let mut out = Vec::new();
    if !bound.is_empty() {
        let mut c = Check::new(
            code,
            format!("{} {display} GPU(s)", bound.len()),
            Status::Ok,
        );
        for f in bound {
            if let DriverState::Bound { driver } = &f.state {
                c = c.fact(format!("{}: bound to {driver}", f.gpu));
            }
        }
        out.push(c);
    }
    out.extend(other.into_iter().map(DriverFinding::check));
    out
}

fn unbound(mut c: Check, gpu: &GpuName, why: &[Unbound]) -> Check {
    c.status = Status::Problem;
    c = c.fact("no kernel driver is bound to it");
    let id = gpu.id.split(':').nth(1).unwrap_or(&gpu.id);
    let mut hints: Vec<String> = Vec::new();
    for u in why {
        match u {
            Unbound::KernelTooOld {
                release,
                reason,
                floor,
            } => {
                c = c.fact(format!("Linux {release}: {reason}"));
                // A new kernel is the fix; loading modules on this one cannot help.
                hints = vec![match floor {
                    Some(f) => format!("boot Linux {f} or newer (a newer distribution kernel, or its hardware-enablement kernel)"),
                    None => "boot a newer kernel".to_string(),
                }];
                break;
            }
            Unbound::KernelUnknown { needs } => c = c.fact(format!(
                "{OSRELEASE} cannot be read, so whether this kernel's driver binds it is unknown; it needs: {needs}"
            )),
            Unbound::ModuleNotLoaded { module } => {
                c = c.fact(format!("the {module} module is not loaded (no {MODULES}/{module})"));
                hints.push(format!("load it: 'sudo modprobe {module}' (if modprobe cannot find it, install your distribution's kernel modules and linux-firmware packages, then reboot)"));
            }
            Unbound::SettingNeeded {
                driver,
                release,
                settings,
                parameter: (param, value),
                unasked_from,
            } => {
                let now = match value {
                    Some(v) if v.is_empty() => format!("{param} is empty"),
                    Some(v) => format!("{param} is '{v}'"),
                    None => format!("{param} cannot be read (it is root's)"),
                };
                c = c.fact(format!(
                    "on Linux {release}, {driver} binds {id} only with {}; {now}",
                    settings.join(" and ")
                ));
                let mut h = format!(
                    "add '{}' to the kernel command line (or {} in /etc/modprobe.d/ and rebuild the initramfs), then reboot",
                    settings.join(" "),
                    options_lines(settings)
                );
                if let Some(from) = unasked_from {
                    h.push_str(&format!("; from Linux {from} {driver} binds it with no setting"));
                }
                hints.push(h);
            }
            Unbound::Blocked { parameter, value } => {
                c = c.fact(format!("{parameter}='{value}' keeps the driver off {id}"));
                hints.push(format!(
                    "remove the blocking '!' entry from {parameter} (kernel command line or /etc/modprobe.d/), then reboot"
                ));
            }
            Unbound::ListedFrom { driver, from } => {
                c = c.fact(format!("{driver} lists {id} only from Linux {from}"))
            }
            Unbound::NotInTables => {
                c = c.fact(format!("no kernel driver's id list in gpuctl's tables names {id}"))
            }
            Unbound::Unexplained { drivers } => {
                let d = drivers.join(" and ");
                c = c.fact(format!(
                    "{d} is loaded and this kernel lists {id}, yet nothing is bound"
                ));
                hints.push(format!(
                    "read why in 'sudo dmesg | grep -i {}' (missing firmware is common: install linux-firmware)",
                    drivers.first().map(String::as_str).unwrap_or("drm")
                ));
            }
        }
    }
    if !hints.is_empty() {
        c = c.remedy(hint(&format!("{}.", hints.join("; then "))));
    }
    c
}

/// `i915.force_probe=56a0` as modprobe.d writes it: `'options i915 force_probe=56a0'`, one
/// quoted line per setting.
fn options_lines(settings: &[String]) -> String {
    settings
        .iter()
        .map(|s| match s.split_once('.') {
            Some((module, rest)) => format!("'options {module} {rest}'"),
            None => format!("'{s}'"),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A remedy as every driver finding carries it: `Hint: ` and the text, broken into lines of at
/// most 100 columns at spaces, as the failure families write theirs.
pub fn hint(text: &str) -> String {
    let mut out = String::from("Hint:");
    let mut col = out.len();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if col + 1 + word.len() > 100 {
            out.push('\n');
            col = 0;
        } else {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
    out
}

/// Why the running kernel cannot drive a GPU with this requirement: its kernel constraints
/// (the floor, and the kernel each device-chosen driver needs) judged against the release, in
/// the requirement's own words. `None` when the kernel is new enough.
pub fn kernel_too_old(req: &Requirement, kernel: &KernelRelease) -> Option<Unbound> {
    let mut only_kernel = Requirement::new(req.vendor().to_string(), req.vendor_id());
    let mut floor = None;
    for c in req.constraints() {
        let key = c.component().key;
        // The settings a driver asks for are doctor's own finding (which one, and what the
        // parameter is now), never a kernel too old.
        if key == LINUX_KERNEL.key || c.component().scope == Scope::Device {
            only_kernel = only_kernel.with_constraint(c.without_asks());
        }
        if let Constraint::Range { min, .. } = c
            && key == LINUX_KERNEL.key
        {
            floor = *min;
        }
    }
    let stack = Stack::new().with_version(LINUX_KERNEL.key, Known::Exact(kernel.version));
    only_kernel
        .why_not(&stack)
        .map(|reason| Unbound::KernelTooOld {
            release: kernel.release.clone(),
            reason,
            floor,
        })
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;
