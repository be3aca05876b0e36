//! What `detect` says about one vendor: its devices and why it is usable or not.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::finding::Finding;
use crate::plan::Tier;
use crate::probe::Probe;
use crate::reason::Reason;
use gpuctl_requirement::FactValue;

/// One device of a vendor, as `detect` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    /// The position `vendor:N` selects on raw tiers (PCI bus-address order).
    pub index: usize,
    /// The PCI bus address, when known.
    pub pci_address: Option<String>,
    /// On the CDI tier, the names of the CDI devices that are this device alone (`vendor:NAME`
    /// selects it), in the CDI library's order; empty on other tiers, and where no declared
    /// device's nodes are this device's.
    pub cdi_names: Vec<String>,
    /// What the vendor knows about the device (`render_node`, `device_id`, `generation`, ...),
    /// in the order `detect` text shows them.
    pub facts: Vec<Fact>,
}

impl Device {
    /// A device with no facts yet.
    pub fn new(index: usize, pci_address: Option<String>) -> Self {
        Device {
            index,
            pci_address,
            cdi_names: Vec::new(),
            facts: Vec::new(),
        }
    }

    /// Adds one fact after the others.
    pub fn with(mut self, fact: Fact) -> Self {
        self.facts.push(fact);
        self
    }

    /// Adds facts after the others.
    pub fn with_all(mut self, facts: impl IntoIterator<Item = Fact>) -> Self {
        self.facts.extend(facts);
        self
    }

    /// The fact with this JSON key.
    pub fn fact(&self, key: &str) -> Option<&Fact> {
        self.facts.iter().find(|f| f.key == key)
    }

    /// What `detect` text shows after the index and address: each shown fact, in order.
    pub fn shown_facts(&self) -> impl Iterator<Item = &str> {
        self.facts.iter().filter_map(|f| f.text.as_deref())
    }
}

// JSON: index and address first, then every fact flat under its key, keys in byte order (as
// the map of details that came before typed facts printed them).
impl Serialize for Device {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut facts: Vec<&Fact> = self.facts.iter().collect();
        facts.sort_by_key(|f| f.key);
        facts.dedup_by_key(|f| f.key);
        let mut map = serializer.serialize_map(Some(facts.len() + 3))?;
        map.serialize_entry("index", &self.index)?;
        map.serialize_entry("pci_address", &self.pci_address)?;
        map.serialize_entry("cdi_names", &self.cdi_names)?;
        for f in facts {
            map.serialize_entry(f.key, &f.value)?;
        }
        map.end()
    }
}

/// One thing a vendor knows about a device: its JSON key and value, and how `detect` text shows
/// it. `detect` renders facts without knowing them, so a plug-in's facts show with no change
/// to the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// The key in `detect --format json` (`render_node`).
    pub key: &'static str,
    /// The value in JSON.
    pub value: FactValue,
    /// The words in `detect` text (`device 2704`), or `None` when only JSON carries it.
    pub text: Option<String>,
}

impl Fact {
    /// A fact only JSON carries.
    pub fn new(key: &'static str, value: impl Into<FactValue>) -> Self {
        Fact {
            key,
            value: value.into(),
            text: None,
        }
    }

    /// A fact `detect` text shows as its value; an unknown value shows nothing.
    pub fn shown(key: &'static str, value: impl Into<FactValue>) -> Self {
        let value = value.into();
        let text = value.text();
        Fact { key, value, text }
    }

    /// The same fact, shown in `detect` text as `text`.
    pub fn shown_as(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }
}

/// What one vendor offers on this host, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorReport {
    /// The vendor's selector name.
    pub vendor: String,
    /// True when a grant of this vendor would succeed.
    pub usable: bool,
    /// The tier a grant would use.
    pub tier: Option<Tier>,
    /// Why: which spec file, hook file or node decided it, or what is missing.
    pub reason: Reason,
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
        reason: impl Into<Reason>,
        devices: Vec<Device>,
    ) -> Self {
        let cdi_devices: Vec<String> = probe
            .cdi()
            .device_names(kind)
            .into_iter()
            .map(str::to_string)
            .collect();
        let mut devices = devices;
        if tier == Some(Tier::Cdi) {
            name_cdi_devices(probe, kind, &cdi_devices, &mut devices);
        }
        VendorReport {
            vendor: vendor.to_string(),
            usable: tier.is_some(),
            tier,
            reason: reason.into(),
            devices,
            cdi_devices,
            warnings: Vec::new(),
        }
    }

    /// The report with the CDI device names of every one of `kinds` (a vendor with several
    /// kinds), each name once, in kind order.
    pub fn with_cdi_kinds(mut self, probe: &Probe, kinds: &[&str]) -> Self {
        let mut names: Vec<String> = Vec::new();
        // A set beside the list: a search of it per name was quadratic in a spec's devices.
        let mut seen: HashSet<String> = HashSet::new();
        for kind in kinds {
            for n in probe.cdi().device_names(kind) {
                if seen.insert(n.to_string()) {
                    names.push(n.to_string());
                }
            }
        }
        self.cdi_devices = names;
        self
    }
}

/// Gives each device the CDI names that select it alone: a declared device (never `all`) whose
/// spec creates one of the device's nodes (a `/dev` path among its facts: the render node, the
/// NVIDIA node) and no node of another listed device. The names come from the spec, so they are
/// what `vendor:NAME` accepts, in the spec's case.
fn name_cdi_devices(probe: &Probe, kind: &str, names: &[String], devices: &mut [Device]) {
    // Which listed devices each `/dev` path belongs to: one look-up per node of a spec device,
    // not a search of every device (on a host of 4096 GPUs that search was quadratic).
    let mut owners: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, d) in devices.iter().enumerate() {
        for f in &d.facts {
            if let FactValue::Text(t) = &f.value
                && t.starts_with("/dev/")
            {
                let o = owners.entry(t.clone()).or_default();
                if o.last() != Some(&i) {
                    o.push(i);
                }
            }
        }
    }
    let mut matched: Vec<usize> = Vec::new();
    for name in names.iter().filter(|n| *n != "all") {
        let Some(edits) = probe.cdi().device_edits(kind, name) else {
            continue;
        };
        matched.clear();
        for n in &edits.device_nodes {
            matched.extend(owners.get(n.host_path()).into_iter().flatten());
        }
        matched.sort_unstable();
        matched.dedup();
        if let [only] = matched[..] {
            devices[only].cdi_names.push(name.clone());
        }
    }
}
