//! A made-up vendor, "acme", added to gpuctl from outside its workspace crates: the whole of a
//! third-party backend. Acme accelerators are PCI vendor 0x1e5a (made up), enumerate as DRM
//! render nodes, need the shared control node `/dev/acme-ctl`, and have a CDI kind
//! `acme.example/npu` that a vendor toolkit could declare.
//!
//! Nothing in gpuctl's core names acme: registering is what makes `gpuctl args acme` work.

use std::path::Path;

use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::RequirementHook;
use gpuctl_core::plugin::pci::PciDevice;
use gpuctl_core::plugin::requirement::{
    Component, Constraint, LINUX_KERNEL, Requirement, Scope, Version,
};
use gpuctl_core::plugin::{Device, Fact};
use gpuctl_core::plugin::{NodeVendor, RENDER_NODE, VendorFacts};

/// Acme's CDI kind.
pub const KIND: &str = "acme.example/npu";
/// The control node every Acme device needs next to its render node.
pub const CTL: &str = "/dev/acme-ctl";

/// The Acme backend: gpuctl's device-class recipe with Acme's facts and words (its render nodes,
/// after its control node), its driver table, and one fact of its own that `detect` shows (each
/// device's firmware version).
pub const ACME: NodeVendor = NodeVendor {
    facts: VendorFacts {
        device_noun: "NPU",
        missing_summary: "no /dev/acme-ctl",
        unserved: "the selection requests 'acme' but this host has neither an 'acme.example/npu' CDI spec nor /dev/acme-ctl — is the acme kernel driver loaded?",
        requirement: Some(RequirementHook {
            label_key: "generation",
            requirement: acme_requirement,
        }),
        device_facts: Some(firmware),
        // The rest, and any field gpuctl adds later, is the default (order 100, no families).
        ..VendorFacts::new("acme", "Acme", KIND, 0x1e5a)
    },
    device_node: RENDER_NODE,
    shared_nodes: &[CTL],
    shared_node_hint: "load the acme driver, which creates it",
    ..NodeVendor::DEFAULT
};

gpuctl_core::plugin::register_backend!(ACME);

/// The sysfs attribute with an Acme device's firmware version.
pub const FIRMWARE_ATTR: &str = "acme_firmware";

/// The device's firmware version, from the made-up sysfs attribute `acme_firmware` of its PCI
/// device; unknown when it cannot be read.
fn firmware(probe: &Probe, device: &Device) -> Vec<Fact> {
    let Some(address) = &device.pci_address else {
        return Vec::new();
    };
    let path = Path::new("/sys/bus/pci/devices")
        .join(address)
        .join(FIRMWARE_ATTR);
    let version = probe
        .host()
        .read_to_string(&path, 64)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    vec![match version {
        Some(v) => Fact::new("firmware", v.as_str()).shown_as(format!("firmware {v}")),
        None => Fact::new("firmware", None::<String>),
    }]
}

/// Acme's own stack component: the firmware bundle its driver loads. Registering it is what
/// makes `--driver acme-firmware:2.1` a spec gpuctl understands.
pub const FIRMWARE: Component = Component {
    key: "acme-firmware",
    noun: "Acme firmware",
    short: "firmware",
    values: &[],
    scope: Scope::Host,
};

// Acme's driver is out of tree, so the Linux kernel, shared with every in-kernel driver, is one
// of its components too: `--driver kernel:6.8` concerns Acme GPUs as well.
gpuctl_core::plugin::register_components!("acme", &[FIRMWARE, LINUX_KERNEL]);

/// Acme's table, all of it: device 0x0002 ("NPU2") needs firmware 2.0 or newer; device 0x0001
/// ("NPU1") has an out-of-tree driver that builds only up to Linux 4.19; of others Acme knows
/// nothing, which is `None` (gpuctl prints them as unknown), never a requirement with no
/// constraint (which would read as "any driver").
fn acme_requirement(device: &PciDevice) -> Option<Requirement> {
    if device.vendor_id != ACME.facts.pci_vendor_id {
        return None;
    }
    let r = Requirement::new("Acme", ACME.facts.pci_vendor_id).with_device_id(device.device_id);
    match device.device_id {
        0x0001 => {
            let kernel = Constraint::range(LINUX_KERNEL, None, Some(Version::new(4, 19))).ok()?;
            Some(r.with_label("NPU1").with_constraint(kernel))
        }
        0x0002 => {
            let firmware = Constraint::range(FIRMWARE, Some(Version::new(2, 0)), None).ok()?;
            Some(r.with_label("NPU2").with_constraint(firmware))
        }
        _ => None,
    }
}
