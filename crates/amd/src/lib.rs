//! gpuctl's AMD backend: CDI (`amd.com/gpu`, written by amd-ctk), otherwise ROCm's documented
//! recipe: `/dev/kfd` plus the AMD render nodes (PCI vendor 0x1002), never all of `/dev/dri`.

use gpuctl_core::explain::{ErrorPattern, PRIORITY_GROUPS};
use gpuctl_core::render_vendor::RenderNodeVendor;
use gpuctl_core::{GpuBackend, GpuError, Grant, Probe, RunArgs, Tier, VendorReport};

/// AMD's CDI kind.
pub const KIND: &str = "amd.com/gpu";
/// AMD's PCI vendor id, as sysfs writes it.
pub const PCI_VENDOR: &str = "0x1002";
/// The compute node every AMD GPU shares.
pub const KFD: &str = "/dev/kfd";

const RECIPE: RenderNodeVendor = RenderNodeVendor {
    vendor: "amd",
    display: "AMD",
    kind: KIND,
    pci_vendor: PCI_VENDOR,
    shared_node: Some(KFD),
    unserved: "the selection requests 'amd' but this host has neither an 'amd.com/gpu' CDI spec nor /dev/kfd — is the amdgpu kernel driver loaded?  For CDI, install the AMD Container Toolkit ('amd-ctk cdi generate').",
    shared_node_hint: "load amdgpu with KFD (ROCm needs it), or generate a CDI spec with 'amd-ctk cdi generate'",
};

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

impl GpuBackend for Amd {
    fn vendor(&self) -> &'static str {
        RECIPE.vendor
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

    fn error_patterns(&self) -> &'static [ErrorPattern] {
        PATTERNS
    }
}
