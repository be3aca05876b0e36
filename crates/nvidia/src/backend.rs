//! The NVIDIA backend: CDI (`nvidia.com/gpu`), then the legacy OCI hook, then raw nodes. Every
//! tier carries `NVIDIA_DRIVER_CAPABILITIES`, and `NVIDIA_VISIBLE_DEVICES` except behind a CDI
//! spec that does not set it to `void` (there it would bring the legacy hook back:
//! docs/vendors.md#the-cdi-tier-the-environment-and-the-legacy-hook).

use gpuctl_core::plugin::pci;
use gpuctl_core::plugin::{
    CdiTooling, Device, Diagnostics, Fact, Finding, GpuBackend, GpuError, Grant, Need, Probe,
    Reason, Requirements, Tier, VendorPlan, VendorReport,
};
use gpuctl_core::plugin::{best_effort_warning, cdi_devices};

use crate::model::RexFacts;
use crate::nodes::{self, NVIDIA_CTL};
use crate::numbering::{self, Numbering};
use crate::table::builtin_requirement;
use crate::tier::{HOOK_FILE, KIND, hook_file};

/// NVIDIA's PCI vendor id.
pub const PCI_VENDOR: u16 = 0x10de;

/// The NVIDIA backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nvidia;

gpuctl_core::plugin::register_backend!(Nvidia);

/// `NVIDIA_VISIBLE_DEVICES` and `NVIDIA_DRIVER_CAPABILITIES`, for the grant.
fn env_pair(grant: &Grant) -> [Need; 2] {
    let visible = match grant.cdi_names() {
        None => "all".to_string(),
        Some(names) => names.join(","),
    };
    [
        Need::Env {
            name: "NVIDIA_VISIBLE_DEVICES".to_string(),
            value: visible,
        },
        Need::Env {
            name: "NVIDIA_DRIVER_CAPABILITIES".to_string(),
            value: "all".to_string(),
        },
    ]
}

/// True when every granted CDI device's spec leaves `NVIDIA_VISIBLE_DEVICES=void` as the
/// value the container sees: podman 4.3.1 appends the spec's environment after gpuctl's `-e`,
/// so `void` wins and the legacy hook, which reads the last value, does nothing. Where a spec
/// does not set `void`, gpuctl's value would be the last and would switch the hook on.
fn spec_keeps_hook_out(plan: &VendorPlan) -> bool {
    plan.items()
        .iter()
        .filter(|i| matches!(i.need, Need::CdiDevice(_)))
        .all(|i| {
            i.cdi_edits
                .as_ref()
                .and_then(|e| e.env_value("NVIDIA_VISIBLE_DEVICES"))
                == Some("void")
        })
}

impl Nvidia {
    fn unserved() -> GpuError {
        GpuError::Unserved {
            vendor: "nvidia".to_string(),
            message: format!(
                "the selection requests 'nvidia' but this host has no CDI spec declaring '{KIND}', no legacy '{HOOK_FILE}' OCI hook, and no {NVIDIA_CTL} — is the nvidia kernel driver loaded?  Install the NVIDIA Container Toolkit and generate a CDI spec ('nvidia-ctk cdi generate')."
            ),
        }
    }

    /// The GPUs in index order (PCI bus-address order), each with its minor: the one
    /// numbering `detect` and `args nvidia:N` share.
    fn numbering(probe: &Probe) -> Result<Numbering, GpuError> {
        numbering::read(probe, PCI_VENDOR)
    }
}

impl GpuBackend for Nvidia {
    fn vendor(&self) -> &'static str {
        "nvidia"
    }

    fn display_name(&self) -> &'static str {
        "NVIDIA"
    }

    fn pci_vendor_id(&self) -> u16 {
        PCI_VENDOR
    }

    fn cdi_kind(&self) -> &'static str {
        KIND
    }

    fn order(&self) -> u32 {
        0
    }

    fn missing_summary(&self) -> &'static str {
        "no NVIDIA hook or /dev/nvidia*"
    }

    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        crate::tier::tier(probe)
    }

    fn plan(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
        grant: &Grant,
    ) -> Result<VendorPlan, GpuError> {
        let Some(tier) = tier else {
            return Err(Self::unserved());
        };
        let mut plan = VendorPlan::new(self.vendor(), tier);
        match tier {
            Tier::Cdi => {
                cdi_devices(probe, KIND, grant, &mut plan)?;
            }
            Tier::Hook => {}
            Tier::Raw => {
                let found = match &grant.indexes {
                    None => nodes::dev_nodes(probe.host())?,
                    Some(ix) => {
                        let n =
                            numbering::indexed_nodes(probe.host(), &Self::numbering(probe)?, ix)?;
                        plan.notice(best_effort_warning(
                            self.vendor(),
                            " (which also lifts the baked-driver requirement)",
                        ));
                        n
                    }
                };
                for w in found.warnings {
                    plan.notice(w);
                }
                for d in found.nodes {
                    plan.add(Need::DeviceNode(d), None);
                }
            }
            other => return Err(GpuError::tier_unsupported(self.vendor(), other)),
        }
        let [visible, capabilities] = env_pair(grant);
        if tier != Tier::Cdi || spec_keeps_hook_out(&plan) {
            plan.add(visible, None);
        }
        plan.add(capabilities, None);
        Ok(plan)
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        let tier = probe.tier_of(self)?;
        let hook = hook_file(probe)?;
        let numbering = Self::numbering(probe)?;
        let mut warnings = numbering.pci_warnings.clone();
        let pci_count = numbering.gpus.iter().filter(|g| g.pci.is_some()).count();
        let reason: Reason = match tier {
            Some(Tier::Cdi) => {
                if let Some(h) = &hook {
                    warnings.push(Finding::vendor(
                        self.vendor(),
                        "nvidia-hook-beside-cdi",
                        vec![("path", h.clone())],
                        format!(
                            "{h} (the legacy NVIDIA hook) is installed next to a CDI spec: NVIDIA says the two conflict — delete the hook file"
                        ),
                    ));
                }
                Reason::cdi(probe, KIND)
            }
            Some(Tier::Hook) => Reason::Vendor(format!(
                "legacy OCI hook: {} is installed and no valid CDI spec declares {KIND}; the hook injects the GPUs named in NVIDIA_VISIBLE_DEVICES",
                hook.as_deref().unwrap_or(HOOK_FILE)
            )),
            Some(Tier::Raw) => Reason::Vendor(format!(
                "raw device nodes: {NVIDIA_CTL} exists, but no valid CDI spec declares {KIND} and no legacy hook is installed; the image must carry the NVIDIA userland of the host's driver"
            )),
            Some(other) => Reason::Vendor(format!("the {} tier", other.as_str())),
            None if pci_count == 0 => Reason::Vendor(format!(
                "no NVIDIA GPU, no CDI spec declaring {KIND}, no legacy hook, no {NVIDIA_CTL}"
            )),
            None => Reason::Vendor(format!(
                "{} NVIDIA GPU(s) on the PCI bus, but no CDI spec declaring {KIND}, no legacy hook and no {NVIDIA_CTL}: load the NVIDIA driver and run 'nvidia-ctk cdi generate'",
                pci_count
            )),
        };
        if tier == Some(Tier::Raw) {
            warnings.extend(numbering.warnings(probe.host()));
        }
        let ids: Vec<u16> = numbering
            .gpus
            .iter()
            .filter_map(|g| g.pci.as_ref().map(|d| d.device_id))
            .collect();
        let names = pci::device_names(probe.host(), PCI_VENDOR, &ids);
        let mut devices = Vec::new();
        for (index, gpu) in numbering.gpus.iter().enumerate() {
            // In the order detect text shows them: id, name, node, generation, driver.
            let mut d = Device::new(index, Some(gpu.address.clone()));
            let req = gpu
                .pci
                .as_ref()
                .map(|dev| builtin_requirement(dev.device_id));
            if let Some(dev) = &gpu.pci {
                let id = dev.device_id_hex();
                d = d
                    .with(Fact::new("device_id", id.as_str()).shown_as(format!("device {id}")))
                    .with(Fact::shown("name", names.get(&dev.device_id).cloned()));
            }
            if let Some(minor) = numbering.minor(gpu) {
                d = d
                    .with(Fact::new("minor", minor))
                    .with(Fact::shown("node", format!("/dev/nvidia{minor}")));
            }
            if let Some(req) = req {
                let compute = req.compute();
                let mut generation = Fact::new("generation", req.generation());
                if let Some(g) = req.generation() {
                    generation = generation.shown_as(match compute {
                        Some(true) => format!("[{g}, compute]"),
                        Some(false) => format!("[{g}, not compute]"),
                        None => format!("[{g}]"),
                    });
                }
                let describe = req.describe();
                d = d.with(generation).with(Fact::new("compute", compute)).with(
                    Fact::new("requirement", describe.as_str())
                        .shown_as(format!("driver: {describe}")),
                );
            }
            devices.push(d);
        }
        let mut report = VendorReport::new(probe, self.vendor(), KIND, tier, reason, devices);
        report.warnings = warnings;
        Ok(report)
    }

    fn diagnostics(&self) -> &dyn Diagnostics {
        self
    }

    fn requirements(&self) -> &dyn Requirements {
        self
    }

    fn cdi_tooling(&self) -> &dyn CdiTooling {
        self
    }

    /// The runtime the NVIDIA Container Toolkit's install guide registers with docker
    /// ("Configuring Docker": `sudo nvidia-ctk runtime configure --runtime=docker`).
    fn hook_runtime(&self) -> Option<gpuctl_core::plugin::HookRuntime> {
        Some(gpuctl_core::plugin::HookRuntime {
            name: "nvidia",
            setup: "nvidia-ctk runtime configure --runtime=docker",
        })
    }
}
