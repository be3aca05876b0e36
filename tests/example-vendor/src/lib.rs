//! A made-up vendor, "acme", added to gpuctl from outside its workspace crates: the whole of a
//! third-party backend. Acme accelerators are PCI vendor 0x1e5a (made up), enumerate as DRM
//! render nodes, need the shared control node `/dev/acme-ctl`, and have a CDI kind
//! `acme.example/npu` that a vendor toolkit could declare.
//!
//! Nothing in gpuctl's core names acme: registering is what makes `gpuctl args acme` work.

use gpuctl_core::render_vendor::RenderNodeVendor;
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// Acme's CDI kind.
pub const KIND: &str = "acme.example/npu";
/// Acme's PCI vendor id as sysfs writes it.
pub const PCI_VENDOR: &str = "0x1e5a";
/// The control node every Acme device needs next to its render node.
pub const CTL: &str = "/dev/acme-ctl";

/// Everything about Acme's tiers is gpuctl's render-node mechanism; Acme supplies its words.
const RECIPE: RenderNodeVendor = RenderNodeVendor {
    vendor: "acme",
    display: "Acme",
    kind: KIND,
    pci_vendor: PCI_VENDOR,
    shared_node: Some(CTL),
    unserved: "the selection requests 'acme' but this host has neither an 'acme.example/npu' CDI spec nor /dev/acme-ctl — is the acme kernel driver loaded?",
    shared_node_hint: "load the acme driver, which creates it",
};

/// The Acme backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Acme;

gpuctl_core::register_backend!(Acme);

impl GpuBackend for Acme {
    fn vendor(&self) -> &'static str {
        RECIPE.vendor
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
        RECIPE.tier(probe)
    }

    fn run_args(&self, probe: &Probe, grant: &Grant) -> Result<RunArgs, GpuError> {
        RECIPE.run_args(probe, grant)
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        RECIPE.detect(probe, probe.tier_of(self)?)
    }

    fn device_addresses(&self, probe: &Probe) -> Result<Vec<String>, GpuError> {
        RECIPE.device_addresses(probe)
    }
}
