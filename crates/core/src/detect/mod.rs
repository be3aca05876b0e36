//! `gpuctl detect`'s typed report: every registered vendor, usable or not, with the reason, its
//! devices and their facts, plus every CDI spec file found and every warning. The registry
//! fills it in ([`crate::backend::Registry::detect`]); [`HostReport::render`] prints it.

use serde::Serialize;

use crate::finding::Finding;
use gpuctl_cdi::SpecReport;

mod device;
mod print;
pub use device::{Device, Fact, VendorReport};
pub use gpuctl_requirement::FactValue;

/// What the host offers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostReport {
    /// One entry per registered vendor, in canonical order.
    pub vendors: Vec<VendorReport>,
    /// Every CDI spec file found, valid or not.
    pub cdi_specs: Vec<SpecReport>,
    /// Everything that could not be read or was skipped, without repeats.
    pub warnings: Vec<Finding>,
}
