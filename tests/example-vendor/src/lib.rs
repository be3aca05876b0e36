//! A made-up vendor, "acme", added to gpuctl from outside its workspace crates: the whole of a
//! third-party backend. Acme accelerators are PCI vendor 0x1e5a (made up), enumerate as DRM
//! render nodes, need the shared control node `/dev/acme-ctl`, and have a CDI kind
//! `acme.example/npu` that a vendor toolkit could declare.
//!
//! Nothing in gpuctl's core names acme: registering is what makes `gpuctl args acme` work.

use std::path::Path;

use gpuctl_core::recipe::{
    KEEP_GROUPS, cdi_device_args, cdi_reason, render_node_args, render_node_devices,
};
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// Acme's CDI kind.
pub const KIND: &str = "acme.example/npu";
/// Acme's PCI vendor id as sysfs writes it.
pub const PCI_VENDOR: &str = "0x1e5a";
/// The control node every Acme device needs next to its render node.
pub const CTL: &str = "/dev/acme-ctl";

/// The Acme backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Acme;

gpuctl_core::register_backend!(Acme);

fn has_ctl(probe: &Probe) -> Result<bool, GpuError> {
    probe
        .host()
        .exists(Path::new(CTL))
        .map_err(|e| GpuError::host(e, "check the host's /dev"))
}

impl GpuBackend for Acme {
    fn vendor(&self) -> &'static str {
        "acme"
    }

    fn pci_vendor_id(&self) -> u16 {
        0x1e5a
    }

    fn cdi_kind(&self) -> &'static str {
        KIND
    }

    /// After the built-in vendors.
    fn order(&self) -> u32 {
        100
    }

    fn missing_summary(&self) -> &'static str {
        "no /dev/acme-ctl"
    }

    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        Ok(if probe.cdi().kind_declared(KIND) {
            Some(Tier::Cdi)
        } else if has_ctl(probe)? && !probe.drm()?.of_vendor(PCI_VENDOR).is_empty() {
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
        if has_ctl(probe)? {
            return render_node_args(probe, self.vendor(), PCI_VENDOR, grant, &[CTL]);
        }
        Err(GpuError::Unserved {
            vendor: self.vendor().to_string(),
            message: format!(
                "the selection requests 'acme' but this host has neither an '{KIND}' CDI spec nor {CTL} — is the acme kernel driver loaded?"
            ),
        })
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        let tier = probe.tier_of(self)?;
        let reason = match tier {
            Some(Tier::Cdi) => cdi_reason(probe, KIND),
            Some(_) => format!("raw device nodes: {CTL} and Acme render nodes"),
            None => format!("no {KIND} CDI spec, no {CTL} with an Acme render node"),
        };
        Ok(VendorReport {
            vendor: self.vendor().to_string(),
            usable: tier.is_some(),
            tier,
            reason,
            devices: render_node_devices(probe, PCI_VENDOR)?,
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
