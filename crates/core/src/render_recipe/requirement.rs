//! A render-node vendor's driver requirements: the hook a vendor crate fills in, and the
//! details `detect` shows for each device (id, name, label, requirement).

use std::collections::HashMap;

use crate::detect::Device;
use crate::detect::Fact;
use crate::pci::PciDevice;
use crate::probe::Probe;
use crate::requirement::Requirement;

/// How a render-node vendor gives driver requirements.
#[derive(Debug, Clone, Copy)]
pub struct RequirementHook {
    /// The detail key `detect` shows the requirement's label under (`target`, `platform`).
    pub label_key: &'static str,
    /// The requirement of one of the vendor's PCI devices.
    pub requirement: fn(&PciDevice) -> Option<Requirement>,
}

/// `devices` of the vendor with PCI id `pci_vendor_id`, with, for each one whose PCI function
/// the vendor's table (`hook`) knows, its device id, name, label and requirement as facts.
/// Sysfs that cannot be read only costs the facts, never the device. A free function rather
/// than a method of `NodeVendor`, so that this module need not import `node_vendor`.
pub(crate) fn with_requirements(
    hook: Option<RequirementHook>,
    pci_vendor_id: u16,
    probe: &Probe,
    devices: Vec<Device>,
) -> Vec<Device> {
    let Some(hook) = hook else {
        return devices;
    };
    let (pci, _) = probe.pci().gpus_of_vendor(pci_vendor_id);
    let by_address: HashMap<&str, &PciDevice> =
        pci.iter().map(|d| (d.address.as_str(), d)).collect();
    // Where the vendor's table names no GPU (Intel's), the host's pci.ids may.
    let ids: Vec<u16> = pci.iter().map(|d| d.device_id).collect();
    let pci_names = crate::pci::device_names(probe.host(), pci_vendor_id, &ids);
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
            // detect text shows the id and name before the node, the label and the
            // requirement after it.
            let id = dev.device_id_hex();
            let mut facts =
                vec![Fact::new("device_id", id.as_str()).shown_as(format!("device {id}"))];
            if let Some(name) = req
                .name()
                .map(str::to_string)
                .or_else(|| pci_names.get(&dev.device_id).cloned())
            {
                facts.push(Fact::shown("name", name));
            }
            let mut d = d;
            facts.append(&mut d.facts);
            d.facts = facts;
            if let Some(label) = req.label() {
                d = d.with(Fact::new(hook.label_key, label).shown_as(format!("[{label}]")));
            }
            let describe = req.describe();
            d.with(
                Fact::new("requirement", describe.as_str()).shown_as(format!("driver: {describe}")),
            )
        })
        .collect()
}
