//! gpuctl's AMD backend: CDI (`amd.com/gpu`, written by amd-ctk), otherwise ROCm's documented
//! recipe: `/dev/kfd` plus the AMD render nodes (PCI vendor 0x1002), never all of `/dev/dri`.

use std::path::Path;

use gpuctl_core::explain::{ErrorPattern, PRIORITY_GROUPS};
use gpuctl_core::recipe::{
    KEEP_GROUPS, cdi_device_args, cdi_reason, render_node_args, render_node_devices,
};
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// AMD's CDI kind.
pub const KIND: &str = "amd.com/gpu";
/// AMD's PCI vendor id, as sysfs writes it.
pub const PCI_VENDOR: &str = "0x1002";
/// The compute node every AMD GPU shares.
pub const KFD: &str = "/dev/kfd";

const PATTERNS: &[ErrorPattern] = &[ErrorPattern {
    all_of: &["Unable to open /dev/kfd"],
    priority: PRIORITY_GROUPS,
    diagnosis: "the container may not open /dev/kfd: its user lacks the host's render (or video) group.",
    hint: "Hint: run podman with '--group-add keep-groups' under crun (gpuctl adds it), and make sure\nthe invoking user is in the group that owns /dev/kfd ('stat -c %G /dev/kfd').",
}];

/// The AMD backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Amd;

gpuctl_core::register_backend!(Amd);

fn has_kfd(probe: &Probe) -> Result<bool, GpuError> {
    probe
        .host()
        .exists(Path::new(KFD))
        .map_err(|e| GpuError::host(e, "check the host's /dev".to_string()))
}

impl GpuBackend for Amd {
    fn vendor(&self) -> &'static str {
        "amd"
    }

    fn pci_vendor_id(&self) -> u16 {
        0x1002
    }

    fn cdi_kind(&self) -> &'static str {
        KIND
    }

    fn order(&self) -> u32 {
        1
    }

    fn missing_summary(&self) -> &'static str {
        "no /dev/kfd"
    }

    /// `/dev/kfd` alone is not an AMD GPU: a render node must exist too.
    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        Ok(if probe.cdi().kind_declared(KIND) {
            Some(Tier::Cdi)
        } else if has_kfd(probe)? && !probe.drm()?.of_vendor(PCI_VENDOR).is_empty() {
            Some(Tier::Raw)
        } else {
            None
        })
    }

    fn run_args(&self, probe: &Probe, grant: &Grant) -> Result<RunArgs, GpuError> {
        if probe.cdi().kind_declared(KIND) {
            let mut args = cdi_device_args(probe, self.vendor(), KIND, grant)?;
            args.extend(KEEP_GROUPS.map(str::to_string));
            return Ok(RunArgs {
                args,
                warnings: Vec::new(),
            });
        }
        if has_kfd(probe)? {
            return render_node_args(probe, self.vendor(), PCI_VENDOR, grant, &[KFD]);
        }
        Err(GpuError::Unserved {
            vendor: self.vendor().to_string(),
            message: format!(
                "the selection requests 'amd' but this host has neither an '{KIND}' CDI spec nor {KFD} — is the amdgpu kernel driver loaded?  For CDI, install the AMD Container Toolkit ('amd-ctk cdi generate')."
            ),
        })
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        let tier = probe.tier_of(self)?;
        let devices = render_node_devices(probe, PCI_VENDOR)?;
        let kfd = has_kfd(probe)?;
        let reason = match (tier, kfd, devices.len()) {
            (Some(Tier::Cdi), ..) => cdi_reason(probe, KIND),
            (Some(_), _, n) => format!(
                "raw device nodes: {KFD} and {n} AMD render node(s) under /sys/class/drm (no valid CDI spec declares {KIND})"
            ),
            (None, true, _) => format!(
                "{KFD} exists but no AMD render node is under /sys/class/drm, and no valid CDI spec declares {KIND}"
            ),
            (None, false, 0) => format!(
                "no AMD GPU: no valid CDI spec declares {KIND}, no {KFD}, no AMD render node"
            ),
            (None, false, n) => format!(
                "{n} AMD render node(s) but no {KFD}: load amdgpu with KFD (ROCm needs it), or generate a CDI spec with 'amd-ctk cdi generate'"
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

    fn error_patterns(&self) -> &'static [ErrorPattern] {
        PATTERNS
    }
}
