//! [`NodeVendor`]: a vendor made of data whose devices are character nodes its driver numbers,
//! `/dev/<prefix>N` per device, next to shared nodes every device needs and a variable naming
//! the visible devices. Huawei Ascend NPUs are this shape (`/dev/davinciN` beside
//! `/dev/davinci_manager`, `/dev/devmm_svm`, `/dev/hisi_hdc`, and `ASCEND_VISIBLE_DEVICES`;
//! docs/plugin-guide.md): `vendor:N` is the driver's own number N. A vendor whose devices are DRM
//! render nodes (AMD, Intel) is the same struct with [`RENDER_NODE`] as its device node
//! (render.rs): found through `/sys/class/drm`, numbered in PCI-address order. Either way a
//! node is granted only when sysfs shows it belongs to one of the vendor's PCI functions, and
//! the vendor's identity and words are one [`VendorFacts`].

use crate::backend::{CdiTooling, Diagnostics, GpuBackend, Grant, Requirements};
use crate::detect::VendorReport;
use crate::error::GpuError;
use crate::plan::Tier;
use crate::plan::{Need, VendorPlan};
use crate::probe::Probe;
use crate::render_recipe::{best_effort_warning_numbered, cdi_devices_of};

mod capability;
mod cdi;
mod facts;
pub(crate) mod families;
mod layout;
mod nodes;
mod render;
mod report;
pub use facts::VendorFacts;
pub use layout::{ACCEL_CLASS, NodeLayout, PciFunction, active_layout, layout_nodes, pci_function};
pub use nodes::{NumberedNode, numbered_nodes, vet_bind, vet_shared};
pub use render::RENDER_NODE;

/// A vendor made of data: its facts ([`VendorFacts`]) and how its devices are laid out. Write
/// it as a literal that ends in `..NodeVendor::DEFAULT`, so that a field added later takes its
/// default instead of breaking the literal.
#[derive(Debug, Clone, Copy)]
pub struct NodeVendor {
    /// Who the vendor is and what it says: identity, words, hooks.
    pub facts: VendorFacts,
    /// Every device's node without its number (`/dev/davinci`: `/dev/davinci0`, ...), or
    /// [`RENDER_NODE`] for a vendor whose devices are DRM render nodes (AMD, Intel), which
    /// `vendor:N` names in PCI-address order rather than by the driver's number.
    pub device_node: &'static str,
    /// The sysfs class of `device_node` (`accel`): a node is granted only when
    /// `/sys/class/<class>/<node>/device` is one of the vendor's PCI functions
    /// ([`NodeLayout::sysfs_class`]; `accel` when `None` and the node is under `/dev/accel`;
    /// render nodes are always read from `/sys/class/drm`).
    pub sysfs_class: Option<&'static str>,
    /// Nodes the driver makes beside each device's node, without the number
    /// (`/dev/accel/accel_controlD`), passed with the device.
    pub companions: &'static [&'static str],
    /// Other layouts the vendor's drivers make (an older driver's `/dev/hlN`), tried in order
    /// after `device_node`'s: the first with any of the vendor's nodes on the host is used.
    pub alt_layouts: &'static [NodeLayout],
    /// Nodes every device needs, passed first and required for the raw tier (`/dev/kfd`).
    pub shared_nodes: &'static [&'static str],
    /// What to do when the vendor's render nodes exist but a shared node does not (`load amdgpu
    /// with KFD`), for `detect`.
    pub shared_node_hint: &'static str,
    /// Host files and directories of the driver that the vendor's software in a container
    /// needs (its libraries, its version file), bound read-only at the same path on the raw
    /// tier; an absent one or a symbolic link is left out with a warning.
    pub driver_binds: &'static [&'static str],
    /// The variable the vendor's software reads for the devices it may use
    /// (`ASCEND_VISIBLE_DEVICES`): a raw grant sets it to the granted numbers, comma-separated.
    pub visible_devices: Option<&'static str>,
    /// The groups doctor's `render-groups` check names for the nodes
    /// ([`GpuBackend::node_groups`]); by default none named: a render-node vendor's are render
    /// nodes' `render` or `video`, another's the group the driver gives them (`node_group`),
    /// never `render`.
    pub node_groups: crate::check::NodeGroups,
}

impl NodeVendor {
    /// Every field empty or off, order 100: the base of a vendor literal. The empty name is not
    /// a vendor name, so the registry refuses the base itself.
    pub const DEFAULT: NodeVendor = NodeVendor {
        facts: VendorFacts::DEFAULT,
        device_node: "",
        sysfs_class: None,
        companions: &[],
        alt_layouts: &[],
        shared_nodes: &[],
        shared_node_hint: "",
        driver_binds: &[],
        visible_devices: None,
        node_groups: crate::check::NodeGroups::Named(&[]),
    };
}

impl NodeVendor {
    /// The vendor's layouts: `device_node`'s, then `alt_layouts`.
    pub fn layouts(&self) -> Vec<NodeLayout> {
        let main = NodeLayout {
            device_node: self.device_node,
            sysfs_class: self.sysfs_class,
            companions: self.companions,
        };
        std::iter::once(main)
            .chain(self.alt_layouts.iter().copied())
            .collect()
    }

    /// The layout the host's driver made and the vendor's nodes in it ([`active_layout`]).
    pub fn nodes(
        &self,
        host: &crate::host::Host,
    ) -> Result<(NodeLayout, Vec<NumberedNode>), GpuError> {
        active_layout(host, &self.layouts(), self.facts.pci_vendor_id)
    }
}

impl GpuBackend for NodeVendor {
    fn vendor(&self) -> &'static str {
        self.facts.vendor
    }

    fn display_name(&self) -> &'static str {
        self.facts.name()
    }

    fn device_noun(&self) -> &'static str {
        self.facts.device_noun
    }

    fn pci_vendor_id(&self) -> u16 {
        self.facts.pci_vendor_id
    }

    fn pci_classes(&self) -> &'static [u8] {
        self.facts.pci_classes
    }

    fn cdi_kind(&self) -> &'static str {
        self.facts.kind
    }

    fn cdi_kinds(&self) -> Vec<&'static str> {
        self.facts.cdi_kinds()
    }

    fn order(&self) -> u32 {
        self.facts.order
    }

    fn missing_summary(&self) -> &'static str {
        self.facts.missing_summary
    }

    /// CDI when a valid spec declares one of the kinds; raw when every shared node and at least
    /// one grantable device node exist (shared nodes alone are no device).
    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        if self.is_render() {
            return self.render_tier(probe);
        }
        if self.declared_kind(probe).is_some() {
            return Ok(Some(Tier::Cdi));
        }
        if !self.missing_shared(probe)?.is_empty() {
            return Ok(None);
        }
        let (_, nodes) = self.nodes(probe.host())?;
        Ok(nodes
            .iter()
            .any(|n| n.left_out.is_none())
            .then_some(Tier::Raw))
    }

    fn plan(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
        grant: &Grant,
    ) -> Result<VendorPlan, GpuError> {
        let vendor = self.facts.vendor;
        let Some(tier) = tier else {
            if self.is_render() {
                return Err(self.render_unusable(probe, grant));
            }
            return Err(self.unusable(probe)?);
        };
        let mut plan = VendorPlan::new(vendor, tier);
        match tier {
            Tier::Cdi => {
                cdi_devices_of(probe, &self.cdi_kinds(), grant, &mut plan)?;
                plan.add(Need::KeepGroups, None);
            }
            Tier::Raw if self.is_render() => self.render_plan(probe, grant, &mut plan)?,
            Tier::Raw => {
                let host = probe.host();
                let (_, nodes) = self.nodes(host)?;
                let fixed = (self.shared_nodes, self.driver_binds);
                let selected = nodes::select(host, vendor, fixed, &nodes, grant)?;
                if selected.devices.is_empty() {
                    return Err(GpuError::Unserved {
                        vendor: vendor.to_string(),
                        message: format!(
                            "not granted: {} — only the device nodes the {} driver makes are passed; check the host's /dev",
                            selected.left_out.join(", "),
                            self.facts.name()
                        ),
                    });
                }
                if grant.indexes.is_some() {
                    plan.notice(best_effort_warning_numbered(vendor, &self.numbering(), ""));
                }
                nodes::add_needs(&mut plan, &selected, self.visible_devices);
            }
            other => return Err(GpuError::tier_unsupported(vendor, other)),
        }
        Ok(plan)
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        let tier = probe.tier_of(self)?;
        if self.is_render() {
            return self.render_report(probe, tier);
        }
        self.report(probe, tier)
    }

    fn diagnostics(&self) -> &dyn Diagnostics {
        self
    }

    fn requirements(&self) -> &dyn Requirements {
        &self.facts
    }

    fn cdi_tooling(&self) -> &dyn CdiTooling {
        self
    }

    /// The vendor's group; DRM render nodes are group render, card nodes video, unless the
    /// vendor says otherwise.
    fn node_group(&self) -> Option<&'static str> {
        match self.facts.node_group {
            None if self.is_render() => Some("render or video"),
            group => group,
        }
    }

    fn node_groups(&self) -> crate::check::NodeGroups {
        match self.node_groups {
            crate::check::NodeGroups::Named(g) if g.is_empty() && self.is_render() => {
                crate::check::NodeGroups::Render
            }
            other => other,
        }
    }
}
