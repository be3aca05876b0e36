//! What `detect` says about one vendor: its devices and why it is usable or not.

use serde::Serialize;

use crate::finding::Finding;
use crate::probe::Probe;
use crate::tier::Tier;

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
    /// What could not be read while detecting (reported once, host-wide).
    #[serde(skip)]
    pub warnings: Vec<Finding>,
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
