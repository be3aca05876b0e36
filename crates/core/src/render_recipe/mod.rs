//! Plan recipes several vendors share.
//!
//! The recipes: the CDI tier (cdi.rs), and the raw render-node tier that AMD, Intel and
//! render-node plug-ins use (raw.rs). Each adds typed needs to a [`VendorPlan`] and is
//! parameterized by the vendor's CDI kind and PCI vendor id; nothing here knows a particular
//! vendor, and nothing here spells a podman flag. The vendor written as data that uses them is
//! [`NodeVendor`](crate::node_vendor::NodeVendor), with its device node
//! [`RENDER_NODE`](crate::node_vendor::RENDER_NODE) for DRM render nodes.
//!
//! [`VendorPlan`]: crate::plan::VendorPlan

use crate::check::{Check, DoctorContext};
use crate::family::FamilyCode;
use crate::probe::Probe;

mod cdi;
mod raw;
pub(crate) mod requirement;
pub use cdi::{
    best_effort_warning, best_effort_warning_numbered, cdi_devices, cdi_devices_of, cdi_reason,
};
pub use raw::{render_node_devices, render_nodes, select_render_nodes, vendor_render_nodes};
pub use requirement::RequirementHook;

/// A vendor's facts about one of its failure families on this host: family code, failure text,
/// probe ([`Diagnostics::explain_details`](crate::backend::Diagnostics::explain_details)).
pub type ExplainDetails = fn(FamilyCode, &str, &Probe) -> Vec<String>;

/// A vendor written as data's `gpuctl doctor` checks, read through the probe's host
/// ([`crate::check::driver`] reads the kernel's facts and words the driver findings).
pub type HostChecks = fn(&Probe, &DoctorContext) -> Vec<Check>;
