//! The vendor plug-in interface: what a vendor crate implements and registers.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;

use crate::cdi::{CdiRegistry, PodmanCeiling};
use crate::drm::{self, DrmScan};
use crate::error::GpuError;
use crate::explain::ErrorPattern;
use crate::host::Host;
use crate::pci::PciDevice;
use crate::plan::VendorPlan;
use crate::requirement::Requirement;

pub use crate::plan::Tier;

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

/// One device of a vendor, as `detect` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Device {
    /// The position `vendor:N` selects on raw tiers (PCI bus-address order).
    pub index: usize,
    /// The PCI bus address, when known.
    pub pci_address: Option<String>,
    /// Vendor-specific facts (`render_node`, `device_id`, `generation`, ...), serialized flat.
    #[serde(flatten)]
    pub details: serde_json::Map<String, serde_json::Value>,
}

impl Device {
    /// A device with no details yet.
    pub fn new(index: usize, pci_address: Option<String>) -> Self {
        Device {
            index,
            pci_address,
            details: serde_json::Map::new(),
        }
    }

    /// Adds one detail.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.details.insert(key.to_string(), value.into());
        self
    }

    /// A detail as text, when it is a string.
    pub fn detail_str(&self, key: &str) -> Option<&str> {
        self.details.get(key).and_then(|v| v.as_str())
    }
}

/// What one vendor offers on this host, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VendorReport {
    /// The vendor's selector name.
    pub vendor: String,
    /// True when a grant of this vendor would succeed.
    pub usable: bool,
    /// The tier a grant would use.
    pub tier: Option<Tier>,
    /// Why: which spec file, hook file or node decided it, or what is missing.
    pub reason: String,
    /// The devices, in index order.
    pub devices: Vec<Device>,
    /// The device names valid CDI specs declare for the vendor's kind, in the CDI library's
    /// order (on the CDI tier, `vendor:N` must name one of these).
    pub cdi_devices: Vec<String>,
    /// Sentences about what could not be read while detecting (reported once, host-wide).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl VendorReport {
    /// A report with the CDI device names of `kind` filled in from the probe's specs.
    pub fn new(
        probe: &Probe,
        vendor: &str,
        kind: &str,
        tier: Option<Tier>,
        reason: String,
        devices: Vec<Device>,
    ) -> Self {
        let cdi_devices = probe
            .cdi()
            .device_names(kind)
            .into_iter()
            .map(str::to_string)
            .collect();
        VendorReport {
            vendor: vendor.to_string(),
            usable: tier.is_some(),
            tier,
            reason,
            devices,
            cdi_devices,
            warnings: Vec::new(),
        }
    }
}

/// Everything a backend may look at while answering one call: the host and what was already
/// read from it, so two vendors never read the same files twice.
pub struct Probe {
    host: Host,
    cdi: CdiRegistry,
    drm: OnceLock<Result<DrmScan, GpuError>>,
    tiers: Mutex<Vec<(&'static str, Option<Tier>)>>,
}

impl Probe {
    /// Reads the CDI specs of `cdi_dirs` (in priority order) once, for every vendor; with a
    /// podman version, specs that podman cannot load count as invalid.
    pub fn new(host: &Host, cdi_dirs: &[PathBuf], podman: Option<&PodmanCeiling>) -> Self {
        let cdi = CdiRegistry::scan_for(host, cdi_dirs, podman);
        Probe::with_cdi(host, cdi)
    }

    /// A probe over an already-read CDI registry (tests, callers with their own specs).
    pub fn with_cdi(host: &Host, cdi: CdiRegistry) -> Self {
        Probe {
            host: host.clone(),
            cdi,
            drm: OnceLock::new(),
            tiers: Mutex::new(Vec::new()),
        }
    }

    /// The host.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The CDI specs found.
    pub fn cdi(&self) -> &CdiRegistry {
        &self.cdi
    }

    /// `backend.tier(self)`, asked once per vendor and remembered: the one place a tier is
    /// decided, for `args` (which hands it to [`GpuBackend::plan`]) and `detect` alike.
    pub fn tier_of(&self, backend: &dyn GpuBackend) -> Result<Option<Tier>, GpuError> {
        let vendor = backend.vendor();
        if let Ok(cache) = self.tiers.lock()
            && let Some((_, tier)) = cache.iter().find(|(v, _)| *v == vendor)
        {
            return Ok(*tier);
        }
        let tier = backend.tier(self)?;
        if let Ok(mut cache) = self.tiers.lock() {
            cache.push((vendor, tier));
        }
        Ok(tier)
    }

    /// The DRM render nodes under `/sys/class/drm`, read once on first use.
    pub fn drm(&self) -> Result<&DrmScan, GpuError> {
        self.drm
            .get_or_init(|| drm::scan(&self.host))
            .as_ref()
            .map_err(Clone::clone)
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

    /// Substrings of podman's stderr that point at this vendor's misconfiguration.
    fn error_patterns(&self) -> &'static [ErrorPattern] {
        &[]
    }

    /// The driver stack this device needs, when the vendor has a table (NVIDIA, AMD, Intel).
    fn driver_requirement(&self, _device: &PciDevice) -> Option<Requirement> {
        None
    }
}
