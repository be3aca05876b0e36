//! gpuctl's AMD backend: CDI (`amd.com/gpu`, written by amd-ctk), otherwise ROCm's documented
//! recipe: `/dev/kfd` plus the AMD render nodes (PCI vendor 0x1002), never all of `/dev/dri`;
//! and the AMD table behind `gpuctl requirement` (device id to name, LLVM target, ROCm releases).

mod components;
pub mod doctor;
pub mod explain;
mod explain_rules;
mod explain_rules_hip;
mod explain_rules_hsa;
mod explain_rules_kernel;
mod explain_rules_round8;
mod explain_rules_round9;
mod explain_rules_smi;
pub mod families;
pub mod kernels;
pub mod loaded;
pub mod requirement;
pub mod table;

use gpuctl_core::plugin::RequirementHook;
use gpuctl_core::plugin::pci::PciDevice;
use gpuctl_core::plugin::requirement::{LINUX_KERNEL, Requirement};
use gpuctl_core::plugin::{NodeVendor, RENDER_NODE, VendorFacts};

/// AMD's CDI kind.
pub const KIND: &str = "amd.com/gpu";
/// The compute node every AMD GPU shares.
pub const KFD: &str = "/dev/kfd";

/// The AMD backend: gpuctl's device-class recipe with AMD's facts and words: the render nodes of
/// AMD's PCI functions, after `/dev/kfd`.
pub const AMD: NodeVendor = NodeVendor {
    facts: FACTS,
    device_node: RENDER_NODE,
    shared_nodes: &[KFD],
    shared_node_hint: "load amdgpu with KFD (ROCm needs it), or generate a CDI spec with 'amd-ctk cdi generate'",
    ..NodeVendor::DEFAULT
};

/// AMD's identity, words and hooks.
pub const FACTS: VendorFacts = VendorFacts {
    order: 1,
    missing_summary: "no /dev/kfd",
    unserved: "the selection requests 'amd' but this host has neither an 'amd.com/gpu' CDI spec nor /dev/kfd — is the amdgpu kernel driver loaded?  For CDI, install the AMD Container Toolkit ('amd-ctk cdi generate').",
    families: families::FAMILIES,
    requirement: Some(RequirementHook {
        label_key: "target",
        requirement: device_requirement,
    }),
    cdi_generator: Some("sudo amd-ctk cdi generate"),
    cdi_naming: Some(gpuctl_core::plugin::CdiNaming::AmdCtk),
    emitter_rules: explain_rules::RULES,
    gpu_words: &components::WORDS,
    components: components::COMPONENTS,
    explain_details: Some(explain::details),
    loaded_driver: Some(loaded::read),
    host_checks: Some(doctor::checks),
    check_codes: doctor::CHECKS,
    ..VendorFacts::new("amd", "AMD", KIND, 0x1002)
};

gpuctl_core::plugin::register_backend!(AMD);
gpuctl_core::plugin::register_components!("amd", &[requirement::ROCM, LINUX_KERNEL]);

/// The requirement of an AMD PCI device, from the AMD table (any other vendor's: none).
pub fn device_requirement(device: &PciDevice) -> Option<Requirement> {
    (device.vendor_id == requirement::AMD_VENDOR_ID)
        .then(|| requirement::lookup(device.device_id, device.revision).requirement())
}
