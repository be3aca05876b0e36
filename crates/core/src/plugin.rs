//! Everything a vendor plug-in needs, in one place: `use gpuctl_core::plugin::{...}`.
//!
//! This is the plug-in's import path, and the only one (docs/plugins.md#import-paths): core's
//! modules move when core is re-laid, this list does not. Types are flat; the helper libraries
//! a vendor's checks and parsers call (`codes`, `kernel`, `driver`, `nodes`, `evidence`, `text`,
//! `pci`, `devnode`) and the requirement model (`requirement`, the crate `gpuctl_requirement`)
//! stay modules, because their functions are named for their module.

// The plug-in trait, its capability objects and the registry it is handed to.
pub use crate::__register_backend as register_backend;
pub use crate::backend::{
    CdiTooling, Diagnostics, GpuBackend, Grant, NoCapability, RESERVED_NAMES, Registry,
    Requirements, valid_vendor_name,
};
pub use gpuctl_requirement::register_components;

// What a probe sees and what a plan grants.
pub use crate::detect::{Device, Fact, FactValue, VendorReport};
pub use crate::plan::{HookRuntime, HookWords, Item, Need, Notice, Plan, Tier, VendorPlan};
pub use crate::probe::Probe;

// The "why" types: an error that stops a command, a finding that does not, a reason it is said.
pub use crate::error::GpuError;
pub use crate::reason::Reason;
pub use gpuctl_host::finding::Finding;

// Data recipes: the device-class recipe and the render-node recipe's parts.
pub use crate::cdi_tool::generate::CdiNaming;
pub use crate::node_vendor::{
    ACCEL_CLASS, NodeLayout, NodeVendor, NumberedNode, PciFunction, RENDER_NODE, VendorFacts,
    active_layout, layout_nodes, numbered_nodes, pci_function, vet_bind, vet_shared,
};
pub use crate::render_recipe::{
    ExplainDetails, HostChecks, RequirementHook, best_effort_warning, best_effort_warning_numbered,
    cdi_devices, cdi_devices_of, cdi_reason,
};

// Diagnostics: the failure catalogue, doctor's checks, and how podman's stderr is read.
pub use crate::check::{Check, CheckCode, DoctorContext, NodeGroups, Status};
pub use crate::check::{codes, driver, evidence, kernel, nodes};
pub use crate::explain::STRUCTURED;
pub use crate::families::{
    Family, FamilyCode, PRIORITY_CDI, PRIORITY_CDI_SPECIFIC, PRIORITY_GROUPS, PRIORITY_HOOK,
    PRIORITY_KEEP_GROUPS, PRIORITY_NOTHING_INJECTED, PRIORITY_PRECISE, UNRECOGNISED,
};
pub use crate::reading::{
    EmitterRule, EmitterStatus, LOADER, NumberAt, ObjectAt, Operation, Owner, RANK_DECISIVE,
    RANK_NOTE, RANK_REASON, RANK_VAGUE, RANK_WRAPPER, RULE, decimal_after, hex_after, status,
};
// The component vocabulary of the structured fallback.
pub use crate::reading::vocabulary::{Component, ComponentKind, words as component_words};

// The requirement model, and its answer for the registered vendors.
pub use gpuctl_requirement as requirement;
pub use gpuctl_requirement::image_env::ImageEnv;

// Host access: the root every read stays under, and the helpers a vendor's parsers share.
pub use crate::input::{open_regular, shorten_quotes};
pub use gpuctl_host::pci::{PCI_DEVICES, PciDevice};
pub use gpuctl_host::{Host, HostError, devnode, pci, text};

/// THE verdict on a vendor's loaded stack, added to doctor's driver check.
pub mod driver_fit {
    pub use crate::driver_fit::*;
}

/// The requirement model answered for the registered vendors (`gpuctl requirement`).
pub mod requirement_answer {
    pub use crate::requirement_answer::*;
}
