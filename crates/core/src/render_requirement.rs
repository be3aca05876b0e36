//! A render-node vendor's driver requirements: the hook a vendor crate fills in, and the
//! details `detect` shows for each device (id, name, label, requirement).

use std::collections::HashMap;

use crate::backend::{Device, Probe};
use crate::pci::{self, PciDevice};
use crate::render_vendor::RenderNodeVendor;
use crate::requirement::Requirement;

/// How a render-node vendor gives driver requirements.
#[derive(Debug, Clone, Copy)]
pub struct RequirementHook {
    /// The detail key `detect` shows the requirement's label under (`target`, `platform`).
    pub label_key: &'static str,
    /// The requirement of one of the vendor's PCI devices.
    pub requirement: fn(&PciDevice) -> Option<Requirement>,
}

impl RenderNodeVendor {
    /// `devices` with, for each one whose PCI function the vendor's table knows, its device
    /// id, name, label and requirement as details. Sysfs that cannot be read only costs the
    /// details, never the device.
    pub(crate) fn with_requirements(&self, probe: &Probe, devices: Vec<Device>) -> Vec<Device> {
        let Some(hook) = self.requirement else {
            return devices;
        };
        let (pci, _) = pci::gpus_of_vendor(probe.host(), self.pci_vendor_id);
        let by_address: HashMap<&str, &PciDevice> =
            pci.iter().map(|d| (d.address.as_str(), d)).collect();
        devices
            .into_iter()
            .map(|d| {
                let found = d.pci_address.as_deref().and_then(|a| by_address.get(a));
                let Some(dev) = found else {
                    return d;
                };
                let Some(req) = (hook.requirement)(dev) else {
                    return d;
                };
                let mut d = d.with("device_id", dev.device_id_hex());
                if let Some(name) = req.name() {
                    d = d.with("name", name);
                }
                if let Some(label) = req.label() {
                    d = d.with(hook.label_key, label);
                }
                d.with("requirement", req.describe())
            })
            .collect()
    }
}
