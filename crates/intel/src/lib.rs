//! gpuctl's Intel backend: CDI (`intel.com/gpu`, written by intel-cdi-specs-generator),
//! otherwise the Intel render nodes (PCI vendor 0x8086) — the oneAPI/NEO stack needs nothing
//! else.

use gpuctl_core::recipe::{
    KEEP_GROUPS, cdi_device_args, cdi_reason, render_node_args, render_node_devices,
};
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// Intel's CDI kind (`intel.com/gpu-mei` is another kind).
pub const KIND: &str = "intel.com/gpu";
/// Intel's PCI vendor id, as sysfs writes it.
pub const PCI_VENDOR: &str = "0x8086";

/// The Intel backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Intel;

gpuctl_core::register_backend!(Intel);

impl GpuBackend for Intel {
    fn vendor(&self) -> &'static str {
        "intel"
    }

    fn pci_vendor_id(&self) -> u16 {
        0x8086
    }

    fn cdi_kind(&self) -> &'static str {
        KIND
    }

    fn order(&self) -> u32 {
        2
    }

    fn missing_summary(&self) -> &'static str {
        "no Intel render node"
    }

    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        Ok(if probe.cdi().kind_declared(KIND) {
            Some(Tier::Cdi)
        } else if !probe.drm()?.of_vendor(PCI_VENDOR).is_empty() {
            Some(Tier::Raw)
        } else {
            None
        })
    }

    fn run_args(&self, probe: &Probe, grant: &Grant) -> Result<RunArgs, GpuError> {
        match probe.tier_of(self)? {
            Some(Tier::Cdi) => {
                let mut args = cdi_device_args(probe, self.vendor(), KIND, grant)?;
                args.extend(KEEP_GROUPS.map(str::to_string));
                Ok(RunArgs {
                    args,
                    warnings: Vec::new(),
                })
            }
            Some(_) => render_node_args(probe, self.vendor(), PCI_VENDOR, grant, &[]),
            None => Err(GpuError::Unserved {
                vendor: self.vendor().to_string(),
                message: format!(
                    "the selection requests 'intel' but this host has neither an '{KIND}' CDI spec nor an Intel render node under {} — is the i915/xe kernel driver loaded?",
                    gpuctl_core::drm::DRM_SYSFS
                ),
            }),
        }
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        let tier = probe.tier_of(self)?;
        let devices = render_node_devices(probe, PCI_VENDOR)?;
        let reason = match tier {
            Some(Tier::Cdi) => cdi_reason(probe, KIND),
            Some(_) => format!(
                "raw device nodes: {} Intel render node(s) under /sys/class/drm (no valid CDI spec declares {KIND})",
                devices.len()
            ),
            None => format!(
                "no Intel GPU: no valid CDI spec declares {KIND} and no Intel render node is under /sys/class/drm"
            ),
        };
        Ok(VendorReport {
            vendor: self.vendor().to_string(),
            usable: tier.is_some(),
            tier,
            reason,
            devices,
            cdi_devices: probe
                .cdi()
                .device_names(KIND)
                .into_iter()
                .map(str::to_string)
                .collect(),
            warnings: Vec::new(),
        })
    }

    fn device_addresses(&self, probe: &Probe) -> Result<Vec<String>, GpuError> {
        Ok(probe
            .drm()?
            .of_vendor(PCI_VENDOR)
            .iter()
            .map(|n| n.address.clone())
            .collect())
    }
}
