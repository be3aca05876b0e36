//! The vendor plug-in interface: what a vendor crate implements and registers.

use crate::check::{Check, DoctorContext};
use crate::error::GpuError;
use crate::pattern::{ErrorPattern, Family};
use crate::pci::PciDevice;
use crate::plan::VendorPlan;
use crate::requirement::Requirement;

// The types a backend works with live in the modules that own them; these names stay here so
// `gpuctl_core::backend::Probe` and friends keep working for plug-ins.
pub use crate::device::{Device, VendorReport};
pub use crate::plan::Tier;
pub use crate::probe::Probe;

/// What is granted of one vendor: everything, or some devices by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// `None` for the whole vendor; otherwise the indexes in ascending order, without duplicates.
    pub indexes: Option<Vec<u32>>,
}

impl Grant {
    /// The whole vendor.
    pub fn whole() -> Self {
        Grant { indexes: None }
    }

    /// Some devices by index.
    pub fn indexes(indexes: Vec<u32>) -> Self {
        Grant {
            indexes: Some(indexes),
        }
    }
}

/// A GPU vendor: how to detect its devices and hand them to a container.
///
/// Implement it in a crate of your own and register it with [`crate::register_backend!`];
/// the vendor's name becomes a selector token with no change to gpuctl's core.
#[cfg_attr(test, mockall::automock)]
pub trait GpuBackend: Send + Sync {
    /// The selector name (`nvidia`): lowercase ASCII letters, digits, `-` or `_`.
    fn vendor(&self) -> &'static str;

    /// The PCI vendor id (`0x10de`).
    fn pci_vendor_id(&self) -> u16;

    /// The CDI kind the vendor's toolkit declares (`nvidia.com/gpu`).
    fn cdi_kind(&self) -> &'static str;

    /// Position in the canonical vendor order (NVIDIA 0, AMD 1, Intel 2; plug-ins 100 or more).
    fn order(&self) -> u32;

    /// What the host lacks when this vendor is unusable, for the "no usable GPU" sentence
    /// (`no NVIDIA hook or /dev/nvidia*`).
    fn missing_summary(&self) -> &'static str;

    /// The tier a whole-vendor grant would use now, or `None` when unusable. Cheap: it runs on
    /// every `gpuctl args all`.
    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError>;

    /// What the vendor offers, with devices and reasons, for `gpuctl detect`.
    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError>;

    /// The PCI addresses of the vendor's devices in index order.
    fn device_addresses(&self, probe: &Probe) -> Result<Vec<String>, GpuError>;

    /// The plan for a grant on `tier`, the tier [`GpuBackend::tier`] decided (`None`: the
    /// vendor is unusable; answer with the error that says what is missing). Must fail rather
    /// than return part of a plan.
    fn plan(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
        grant: &Grant,
    ) -> Result<VendorPlan, GpuError>;

    /// Substrings of podman's stderr that point at this vendor's misconfiguration (the form
    /// before failure families; prefer [`GpuBackend::families`]).
    fn error_patterns(&self) -> &'static [ErrorPattern] {
        &[]
    }

    /// The vendor's failure families: the texts its tools print, the diagnosis, the remedy and
    /// the doctor checks that find the cause.
    fn families(&self) -> &'static [Family] {
        &[]
    }

    /// The vendor's `gpuctl doctor` checks (driver loaded and fitting the GPUs, nodes, its
    /// toolkit's configuration), read through the probe's host.
    fn host_checks(&self, _probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
        Vec::new()
    }

    /// The driver stack this device needs, when the vendor has a table (NVIDIA, AMD, Intel).
    fn driver_requirement(&self, _device: &PciDevice) -> Option<Requirement> {
        None
    }
}

// Beside the trait rather than in `probe`, so that the probe need not know the trait.
impl Probe {
    /// `backend.tier(self)`, asked once per vendor and remembered: the one place a tier is
    /// decided, for `args` (which hands it to [`GpuBackend::plan`]) and `detect` alike.
    pub fn tier_of(&self, backend: &dyn GpuBackend) -> Result<Option<Tier>, GpuError> {
        self.cached_tier(backend.vendor(), || backend.tier(self))
    }
}
