//! gpuctl's Intel backend: CDI (`intel.com/gpu`, written by intel-cdi-specs-generator),
//! otherwise the Intel render nodes (PCI vendor 0x8086) — the oneAPI/NEO stack needs nothing
//! else; and the Intel table behind `gpuctl requirement` (device id to platform and the kernel
//! drivers that bind it).

mod components;
pub mod doctor;
pub mod explain;
mod explain_rules;
mod explain_rules_environment;
mod explain_rules_frameworks;
mod explain_rules_kernel;
mod explain_rules_media;
mod explain_rules_sycl;
mod explain_rules_ze;
pub mod families;
pub mod kernels;
pub mod loaded;
pub mod requirement;
pub mod table;

use gpuctl_core::plugin::RequirementHook;
use gpuctl_core::plugin::pci::PciDevice;
use gpuctl_core::plugin::requirement::{KERNEL_PARAMETERS, LINUX_KERNEL, Requirement};
use gpuctl_core::plugin::{NodeVendor, RENDER_NODE, VendorFacts};
use requirement::INTEL_GPU_CLASSES;

/// Intel's CDI kind (`intel.com/gpu-mei` is another kind).
pub const KIND: &str = "intel.com/gpu";

/// The Intel backend: gpuctl's device-class recipe with Intel's facts and words: the render
/// nodes of Intel's display-class PCI functions (its NPU, a 0x12 function, is never one).
pub const INTEL: NodeVendor = NodeVendor {
    facts: FACTS,
    device_node: RENDER_NODE,
    ..NodeVendor::DEFAULT
};

/// Intel's identity, words and hooks.
pub const FACTS: VendorFacts = VendorFacts {
    pci_classes: INTEL_GPU_CLASSES,
    order: 2,
    missing_summary: "no Intel render node",
    unserved: "the selection requests 'intel' but this host has neither an 'intel.com/gpu' CDI spec nor an Intel render node under /sys/class/drm — is the i915/xe kernel driver loaded?",
    families: families::FAMILIES,
    emitter_rules: explain_rules::RULES,
    gpu_words: &components::WORDS,
    components: components::COMPONENTS,
    // intel-cdi-specs-generator writes into a directory (`--cdi-dir`), not to one named file, so
    // it is no `cdi_generator`; the CDI hint still names it (docs/vendors.md#intel-cdi-tier).
    cdi_tool: Some("intel-cdi-specs-generator"),
    cdi_naming: Some(gpuctl_core::plugin::CdiNaming::IntelGenerator),
    explain_details: Some(explain::details),
    requirement: Some(RequirementHook {
        label_key: "platform",
        requirement: device_requirement,
    }),
    loaded_driver: Some(loaded::read),
    host_checks: Some(doctor::checks),
    check_codes: doctor::CHECKS,
    ..VendorFacts::new("intel", "Intel", KIND, 0x8086)
};

gpuctl_core::plugin::register_backend!(INTEL);
gpuctl_core::plugin::register_components!(
    "intel",
    &[requirement::KERNEL_DRIVER, LINUX_KERNEL, KERNEL_PARAMETERS]
);

/// The requirement of an Intel PCI device, from the Intel table (any other vendor's: none).
pub fn device_requirement(device: &PciDevice) -> Option<Requirement> {
    (device.vendor_id == requirement::INTEL_VENDOR_ID)
        .then(|| requirement::lookup(device.device_id).requirement())
}
