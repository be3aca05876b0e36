//! The typed answer to a grant: what a container needs, item by item, each knowing the vendor,
//! tier and device it came from. Backends build one [`VendorPlan`] per granted vendor; [`Plan`]
//! merges them in canonical vendor order and drops repeats. Rendering to podman, Quadlet,
//! compose or docker syntax is [`crate::render`]'s job, never the backend's.

use std::collections::HashSet;

use gpuctl_cdi::edits::Edits;
use serde::Serialize;

use crate::finding::Finding;

/// How a vendor's GPUs reach the container. Non-exhaustive: a plug-in that matches on it says
/// what it does with a tier it does not serve ([`crate::error::GpuError::TierUnsupported`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Tier {
    /// A valid CDI spec declares the vendor's kind: `--device <kind>=<name>`.
    Cdi,
    /// A runtime OCI hook injects the devices (NVIDIA's legacy hook): environment only.
    Hook,
    /// The vendor's documented raw device nodes: `--device /dev/...`.
    Raw,
}

impl Tier {
    /// The lowercase name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Cdi => "cdi",
            Tier::Hook => "hook",
            Tier::Raw => "raw",
        }
    }
}

/// One thing a container needs. Two equal values are one need: the merged plan keeps the first.
/// Non-exhaustive: a renderer outside core must say what it does with a need it does not know.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Need {
    /// A CDI device, fully qualified (`nvidia.com/gpu=all`).
    CdiDevice(String),
    /// A host device node, passed at the same path (`/dev/kfd`).
    DeviceNode(String),
    /// An environment variable.
    Env {
        /// The variable's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// A read-only bind mount of a host path at the same path (udev's by-path links).
    BindReadOnly(String),
    /// The invoking user's supplementary groups (render, video) kept in the container: podman's
    /// `--group-add keep-groups`.
    KeepGroups,
}

/// One item of a plan: a need and where it came from. Built by [`VendorPlan::add`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Item {
    /// What the container needs.
    pub need: Need,
    /// The vendor whose grant asked for it.
    pub vendor: &'static str,
    /// The tier the vendor's grant is served on.
    pub tier: Tier,
    /// The device it belongs to (a PCI address, a CDI device name), when it belongs to one.
    pub device: Option<String>,
    /// For a CDI device: the environment and device nodes its spec gives it (the spec's own
    /// edits, then the device's), which renderers that cannot read CDI themselves use (docker's
    /// groups) and which say what the device does to the container's environment.
    pub cdi_edits: Option<Edits>,
}

/// Something to tell the user once the whole call has succeeded (a best-effort order, a node
/// that could not be read): a typed finding, with its code and sentence.
pub type Notice = Finding;

/// One vendor's answer to its grant, on the tier decided for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorPlan {
    vendor: &'static str,
    tier: Tier,
    items: Vec<Item>,
    notices: Vec<Notice>,
    node_group: Option<&'static str>,
    hook_words: Option<HookWords>,
}

/// The runtime a vendor's container toolkit registers with docker for its hook tier
/// ([`crate::backend::GpuBackend::hook_runtime`]): docker's name for it and how it is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookRuntime {
    /// docker's name of the runtime, as `--runtime NAME` takes it (`nvidia`, `habana`).
    pub name: &'static str,
    /// The command of the vendor's toolkit that registers it with docker
    /// (`nvidia-ctk runtime configure --runtime=docker`).
    pub setup: &'static str,
}

/// What docker's note on a vendor's hook tier says, in the vendor's words: its name in
/// sentences, what one device is called, and its runtime when it has said one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookWords {
    /// The vendor's name in sentences (`NVIDIA`, `Gaudi`).
    pub display: &'static str,
    /// What one device is called (`GPU`, `accelerator`).
    pub noun: &'static str,
    /// The docker runtime; `None`: the note names none.
    pub runtime: Option<HookRuntime>,
}

impl VendorPlan {
    /// An empty plan of `vendor` on `tier`.
    pub fn new(vendor: &'static str, tier: Tier) -> Self {
        VendorPlan {
            vendor,
            tier,
            items: Vec::new(),
            notices: Vec::new(),
            node_group: None,
            hook_words: None,
        }
    }

    /// What docker's note on this vendor's hook tier says; the registry sets it from the
    /// backend, and a plan built by hand has the selector name, `GPU` and no runtime.
    pub fn hook_words(&self) -> HookWords {
        self.hook_words.unwrap_or(HookWords {
            display: self.vendor,
            noun: "GPU",
            runtime: None,
        })
    }

    /// Sets the hook words; the registry does it from the backend.
    pub fn set_hook_words(&mut self, words: HookWords) -> &mut Self {
        self.hook_words = Some(words);
        self
    }

    /// The group the vendor's nodes belong to, in words
    /// ([`crate::backend::GpuBackend::node_group`]).
    pub fn node_group(&self) -> Option<&'static str> {
        self.node_group
    }

    /// Sets the group words; the registry does it from the backend.
    pub fn set_node_group(&mut self, words: &'static str) -> &mut Self {
        self.node_group = Some(words);
        self
    }

    /// The vendor.
    pub fn vendor(&self) -> &'static str {
        self.vendor
    }

    /// The tier every item is served on.
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// The items, in the order the vendor added them.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The notices, in the order the vendor added them.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// Adds a need, belonging to `device` when given.
    pub fn add(&mut self, need: Need, device: Option<&str>) -> &mut Self {
        self.items.push(Item {
            need,
            vendor: self.vendor,
            tier: self.tier,
            device: device.map(str::to_string),
            cdi_edits: None,
        });
        self
    }

    /// Adds a CDI device (`kind=name`) with what its spec says it creates and sets.
    pub fn add_cdi(&mut self, qualified: String, device: Option<&str>, edits: Edits) -> &mut Self {
        self.add(Need::CdiDevice(qualified), device);
        if let Some(item) = self.items.last_mut() {
            item.cdi_edits = Some(edits);
        }
        self
    }

    /// Adds a notice.
    pub fn notice(&mut self, notice: Notice) -> &mut Self {
        self.notices.push(notice);
        self
    }
}

/// Every granted vendor's plan, in canonical vendor order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    vendors: Vec<VendorPlan>,
    noun: Option<String>,
}

impl Plan {
    /// A plan of these vendor plans, which the caller gives in canonical order.
    pub fn new(vendors: Vec<VendorPlan>) -> Self {
        Plan {
            vendors,
            noun: None,
        }
    }

    /// The plan with what its vendors' devices are called (`GPU`, `GPU or NPU`), for the
    /// words a rendering writes about them (compose's header).
    pub fn with_noun(mut self, noun: String) -> Self {
        self.noun = Some(noun);
        self
    }

    /// What the plan's devices are called: `GPU` unless [`Plan::with_noun`] said otherwise.
    pub fn noun(&self) -> &str {
        self.noun.as_deref().unwrap_or("GPU")
    }

    /// The vendor plans.
    pub fn vendors(&self) -> &[VendorPlan] {
        &self.vendors
    }

    /// The merged items: vendor after vendor, a need that an earlier item already asks for
    /// dropped (two render-node vendors each keep groups; podman needs it once).
    pub fn items(&self) -> Vec<&Item> {
        let mut seen: HashSet<&Need> = HashSet::new();
        self.vendors
            .iter()
            .flat_map(|v| v.items.iter())
            .filter(|i| seen.insert(&i.need))
            .collect()
    }

    /// Every vendor's notices, in vendor order, each once.
    pub fn notices(&self) -> Vec<&Notice> {
        let mut seen: HashSet<&Notice> = HashSet::new();
        self.vendors
            .iter()
            .flat_map(|v| v.notices.iter())
            .filter(|n| seen.insert(n))
            .collect()
    }

    /// True when nothing is granted.
    pub fn is_empty(&self) -> bool {
        self.vendors.iter().all(|v| v.items.is_empty())
    }
}
