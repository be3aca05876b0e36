//! gpuctl's Intel backend: CDI (`intel.com/gpu`, written by intel-cdi-specs-generator),
//! otherwise the Intel render nodes (PCI vendor 0x8086) — the oneAPI/NEO stack needs nothing
//! else.

use gpuctl_core::render_vendor::RenderNodeVendor;

/// Intel's CDI kind (`intel.com/gpu-mei` is another kind).
pub const KIND: &str = "intel.com/gpu";

/// The Intel backend: gpuctl's render-node mechanism with Intel's facts and words.
pub const INTEL: RenderNodeVendor = RenderNodeVendor {
    vendor: "intel",
    display: "Intel",
    kind: KIND,
    pci_vendor_id: 0x8086,
    order: 2,
    missing_summary: "no Intel render node",
    unserved: "the selection requests 'intel' but this host has neither an 'intel.com/gpu' CDI spec nor an Intel render node under /sys/class/drm — is the i915/xe kernel driver loaded?",
    ..RenderNodeVendor::DEFAULT
};

gpuctl_core::register_backend!(INTEL);
