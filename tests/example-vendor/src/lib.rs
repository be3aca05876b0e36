//! A made-up vendor, "acme", added to gpuctl from outside its workspace crates: the whole of a
//! third-party backend. Acme accelerators are PCI vendor 0x1e5a (made up), enumerate as DRM
//! render nodes, need the shared control node `/dev/acme-ctl`, and have a CDI kind
//! `acme.example/npu` that a vendor toolkit could declare.
//!
//! Nothing in gpuctl's core names acme: registering is what makes `gpuctl args acme` work.

use gpuctl_core::pci::PciDevice;
use gpuctl_core::render_requirement::RequirementHook;
use gpuctl_core::render_vendor::RenderNodeVendor;
use gpuctl_core::requirement::{Component, Constraint, Requirement, Scope, Version};

/// Acme's CDI kind.
pub const KIND: &str = "acme.example/npu";
/// The control node every Acme device needs next to its render node.
pub const CTL: &str = "/dev/acme-ctl";

/// The Acme backend. Everything about its tiers is gpuctl's render-node mechanism; Acme
/// supplies its facts and words, and registers the constant.
pub const ACME: RenderNodeVendor = RenderNodeVendor {
    vendor: "acme",
    display: "Acme",
    kind: KIND,
    pci_vendor_id: 0x1e5a,
    shared_node: Some(CTL),
    missing_summary: "no /dev/acme-ctl",
    unserved: "the selection requests 'acme' but this host has neither an 'acme.example/npu' CDI spec nor /dev/acme-ctl — is the acme kernel driver loaded?",
    shared_node_hint: "load the acme driver, which creates it",
    requirement: Some(RequirementHook {
        label_key: "generation",
        requirement: acme_requirement,
    }),
    // The rest (order 100: after the built-in vendors; no error patterns) is the default, and
    // a field gpuctl adds later takes its default too.
    ..RenderNodeVendor::DEFAULT
};

gpuctl_core::register_backend!(ACME);

/// Acme's own stack component: the firmware bundle its driver loads. Registering it is what
/// makes `--driver acme-firmware:2.1` a spec gpuctl understands.
pub const FIRMWARE: Component = Component {
    key: "acme-firmware",
    noun: "Acme firmware",
    short: "firmware",
    values: &[],
    scope: Scope::Host,
};

gpuctl_core::register_components!("acme", &[FIRMWARE]);

/// Acme's table, all of it: device 0x0002 ("NPU2") needs firmware 2.0 or newer; others, any.
fn acme_requirement(device: &PciDevice) -> Option<Requirement> {
    if device.vendor_id != ACME.pci_vendor_id {
        return None;
    }
    let r = Requirement::new("Acme", ACME.pci_vendor_id).with_device_id(device.device_id);
    if device.device_id != 0x0002 {
        return Some(r);
    }
    let firmware = Constraint::range(FIRMWARE, Some(Version::new(2, 0)), None).ok()?;
    Some(r.with_label("NPU2").with_constraint(firmware))
}
