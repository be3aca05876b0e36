//! gpuctl's Intel backend: CDI (`intel.com/gpu`, written by intel-cdi-specs-generator),
//! otherwise the Intel render nodes (PCI vendor 0x8086) — the oneAPI/NEO stack needs nothing
//! else.

use gpuctl_core::render_vendor::RenderNodeVendor;
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// Intel's CDI kind (`intel.com/gpu-mei` is another kind).
pub const KIND: &str = "intel.com/gpu";
/// Intel's PCI vendor id, as sysfs writes it.
pub const PCI_VENDOR: &str = "0x8086";

const RECIPE: RenderNodeVendor = RenderNodeVendor {
    vendor: "intel",
    display: "Intel",
    kind: KIND,
    pci_vendor: PCI_VENDOR,
    shared_node: None,
    unserved: "the selection requests 'intel' but this host has neither an 'intel.com/gpu' CDI spec nor an Intel render node under /sys/class/drm — is the i915/xe kernel driver loaded?",
    shared_node_hint: "",
};

/// The Intel backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Intel;

gpuctl_core::register_backend!(Intel);

impl GpuBackend for Intel {
    fn vendor(&self) -> &'static str {
        RECIPE.vendor
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
