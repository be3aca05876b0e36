//! [`NodeVendor`]: a vendor made of data whose devices are character nodes its driver numbers,
//! `/dev/<prefix>N` per device, next to shared nodes every device needs and a variable naming
//! the visible devices. Huawei Ascend NPUs are this shape (`/dev/davinciN` beside
//! `/dev/davinci_manager`, `/dev/devmm_svm`, `/dev/hisi_hdc`, and `ASCEND_VISIBLE_DEVICES`;
//! docs/plugin-guide.md). It is the sibling of
//! [`RenderNodeVendor`](crate::render_node::RenderNodeVendor), whose devices are DRM render nodes
//! found through sysfs: the CDI tier is the same recipe, the raw tier lists `/dev` instead, and
//! `vendor:N` is the driver's own number N.

use crate::backend::{GpuBackend, Grant};
use crate::check::{Check, CheckCode, DoctorContext};
use crate::detect::VendorReport;
use crate::detect::{Device, Fact};
use crate::error::GpuError;
use crate::families::Family;
use crate::pattern::FamilyCode;
use crate::pci::PciDevice;
use crate::plan::Tier;
use crate::plan::{Need, VendorPlan};
use crate::probe::Probe;
use crate::render_node::{
    ExplainDetails, HostChecks, RequirementHook, best_effort_warning_numbered, cdi_devices_of,
};
use crate::requirement::Requirement;

mod cdi;
pub(crate) mod families;
mod layout;
mod nodes;
mod report;
pub use layout::{ACCEL_CLASS, NodeLayout, PciFunction, active_layout, layout_nodes, pci_function};
pub use nodes::{NumberedNode, numbered_nodes, vet_bind, vet_shared};

/// The facts and words of one node vendor. Write it as a literal that ends in
/// `..NodeVendor::DEFAULT`, so that a field added later takes its default instead of breaking
/// the literal.
#[derive(Debug, Clone, Copy)]
pub struct NodeVendor {
    /// The selector name (`ascend`).
    pub vendor: &'static str,
    /// The name in sentences (`Ascend`); the selector name when empty.
    pub display: &'static str,
    /// What one device is called in sentences (`NPU`).
    pub device_noun: &'static str,
    /// The main CDI kind, the one sentences name.
    pub kind: &'static str,
    /// Further CDI kinds the vendor's toolkits may declare; any of them makes the CDI tier.
    pub extra_kinds: &'static [&'static str],
    /// The PCI vendor id (`0x19e5`), for `requirement` and for counting devices on the bus.
    pub pci_vendor_id: u16,
    /// Position in the canonical vendor order (plug-ins 100 or more).
    pub order: u32,
    /// Every device's node without its number (`/dev/davinci`: `/dev/davinci0`, ...).
    pub device_node: &'static str,
    /// The sysfs class of `device_node` (`accel`): a node is granted only when
    /// `/sys/class/<class>/<node>/device` is one of the vendor's PCI functions
    /// ([`NodeLayout::sysfs_class`]; `accel` when `None` and the node is under `/dev/accel`).
    pub sysfs_class: Option<&'static str>,
    /// Nodes the driver makes beside each device's node, without the number
    /// (`/dev/accel/accel_controlD`), passed with the device.
    pub companions: &'static [&'static str],
    /// Other layouts the vendor's drivers make (an older driver's `/dev/hlN`), tried in order
    /// after `device_node`'s: the first with any of the vendor's nodes on the host is used.
    pub alt_layouts: &'static [NodeLayout],
    /// Nodes every device needs, passed first and required for the raw tier.
    pub shared_nodes: &'static [&'static str],
    /// Host files and directories of the driver that the vendor's software in a container
    /// needs (its libraries, its version file), bound read-only at the same path on the raw
    /// tier; an absent one or a symbolic link is left out with a warning.
    pub driver_binds: &'static [&'static str],
    /// The variable the vendor's software reads for the devices it may use
    /// (`ASCEND_VISIBLE_DEVICES`): a raw grant sets it to the granted numbers, comma-separated.
    pub visible_devices: Option<&'static str>,
    /// What the host lacks when the vendor is unusable (`no /dev/davinci_manager`).
    pub missing_summary: &'static str,
    /// The sentence when neither CDI nor the raw tier is available; empty: a sentence built from
    /// the kinds and nodes.
    pub unserved: &'static str,
    /// The vendor's CDI generator, run with `cdi_output_args` to rewrite a stale spec.
    pub cdi_generator: Option<&'static str>,
    /// How the generator is told where to write ([`GpuBackend::cdi_output_args`]: `{path}`,
    /// `{dir}`); by default `--output={path}`.
    pub cdi_output_args: &'static str,
    /// The program that writes the vendor's CDI specs when it is not `cdi_generator`'s, for the
    /// CDI hint ([`GpuBackend::cdi_tool`]); `None`: the program of `cdi_generator`.
    pub cdi_tool: Option<&'static str>,
    /// How `gpuctl cdi generate` names the vendor's devices: `CdiNaming::AmdCtk` (`0`, `1`, ...
    /// by the driver's numbers, each its node then the shared nodes, and `all`); `None`: gpuctl
    /// writes no spec for it and names `cdi_generator`. The PCI-address form needs a render
    /// node's PCI function, which numbered nodes lack, so `cdi generate` refuses it.
    pub cdi_naming: Option<crate::cdi_tool::generate::CdiNaming>,
    /// The group the driver gives its nodes (`HwHiAiUser`), for what docker and doctor say.
    pub node_group: Option<&'static str>,
    /// The groups doctor's `render-groups` check names for the nodes
    /// ([`GpuBackend::node_groups`]); by default none named (never `render`: these are not
    /// render nodes), so the check says the group the driver gives them, or `node_group`.
    pub node_groups: crate::check::NodeGroups,
    /// The vendor's own failure families; a `<vendor>-node-missing` and a `<vendor>-node-denied`
    /// family in the vendor's words (its nodes, its group) follow them without being written.
    pub families: &'static [Family],
    /// Words that name the vendor's components ([`GpuBackend::gpu_words`]).
    pub gpu_words: &'static [&'static str],
    /// This host's facts about a failure of one of the vendor's families.
    pub explain_details: Option<ExplainDetails>,
    /// The vendor's own `gpuctl doctor` checks.
    pub host_checks: Option<HostChecks>,
    /// The code of every check `host_checks` can return ([`GpuBackend::check_codes`]).
    pub check_codes: &'static [CheckCode],
    /// The vendor's driver requirement of its PCI devices (`gpuctl requirement`).
    pub requirement: Option<RequirementHook>,
    /// What the host's files say of the vendor's loaded driver
    /// ([`GpuBackend::loaded_driver`]); `None`: only the kernel is checked.
    pub loaded_driver: Option<crate::requirement::LoadedDriverHook>,
    /// Facts of the vendor's own about one device, shown by `detect` after its node.
    pub device_facts: Option<fn(&Probe, &Device) -> Vec<Fact>>,
}

impl NodeVendor {
    /// Every field empty or off, order 100: the base of a vendor literal. The empty name is not
    /// a vendor name, so the registry refuses the base itself.
    pub const DEFAULT: NodeVendor = NodeVendor {
        vendor: "",
        display: "",
        device_noun: "GPU",
        kind: "",
        extra_kinds: &[],
        pci_vendor_id: 0,
        order: 100,
        device_node: "",
        sysfs_class: None,
        companions: &[],
        alt_layouts: &[],
        shared_nodes: &[],
        driver_binds: &[],
        visible_devices: None,
        missing_summary: "",
        unserved: "",
        cdi_generator: None,
        cdi_output_args: "--output={path}",
        cdi_tool: None,
        cdi_naming: None,
        node_group: None,
        node_groups: crate::check::NodeGroups::Named(&[]),
        families: &[],
        gpu_words: &[],
        explain_details: None,
        host_checks: None,
        check_codes: &[],
        requirement: None,
        loaded_driver: None,
        device_facts: None,
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
        active_layout(host, &self.layouts(), self.pci_vendor_id)
    }
}

impl GpuBackend for NodeVendor {
    fn vendor(&self) -> &'static str {
        self.vendor
    }

    fn display_name(&self) -> &'static str {
        self.name()
    }

    fn device_noun(&self) -> &'static str {
        self.device_noun
    }

    fn pci_vendor_id(&self) -> u16 {
        self.pci_vendor_id
    }

    fn cdi_kind(&self) -> &'static str {
        self.kind
    }

    fn cdi_kinds(&self) -> Vec<&'static str> {
        std::iter::once(self.kind)
            .chain(self.extra_kinds.iter().copied())
            .collect()
    }

    fn order(&self) -> u32 {
        self.order
    }

    fn missing_summary(&self) -> &'static str {
        self.missing_summary
    }

    /// CDI when a valid spec declares one of the kinds; raw when every shared node and at least
    /// one grantable `/dev/<prefix>N` exist (shared nodes alone are no device).
    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
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
        let Some(tier) = tier else {
            return Err(self.unusable(probe)?);
        };
        let mut plan = VendorPlan::new(self.vendor, tier);
        match tier {
            Tier::Cdi => {
                cdi_devices_of(probe, &self.cdi_kinds(), grant, &mut plan)?;
                plan.add(Need::KeepGroups, None);
            }
            Tier::Raw => {
                let host = probe.host();
                let (_, nodes) = self.nodes(host)?;
                let fixed = (self.shared_nodes, self.driver_binds);
                let selected = nodes::select(host, self.vendor, fixed, &nodes, grant)?;
                if selected.devices.is_empty() {
                    return Err(GpuError::Unserved {
                        vendor: self.vendor.to_string(),
                        message: format!(
                            "not granted: {} — only the device nodes the {} driver makes are passed; check the host's /dev",
                            selected.left_out.join(", "),
                            self.name()
                        ),
                    });
                }
                if grant.indexes.is_some() {
                    plan.notice(best_effort_warning_numbered(
                        self.vendor,
                        &self.numbering(),
                        "",
                    ));
                }
                nodes::add_needs(&mut plan, &selected, self.visible_devices);
            }
            other => return Err(GpuError::tier_unsupported(self.vendor, other)),
        }
        Ok(plan)
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        self.report(probe, probe.tier_of(self)?)
    }

    /// The vendor's own families, then the node-missing and node-denied families built from
    /// its nodes and group.
    fn families(&self) -> &'static [Family] {
        families::of(self)
    }

    fn gpu_words(&self) -> &'static [&'static str] {
        self.gpu_words
    }

    fn explain_details(&self, code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
        self.explain_details
            .map(|f| f(code, text, probe))
            .unwrap_or_default()
    }

    fn host_checks(&self, probe: &Probe, ctx: &DoctorContext) -> Vec<Check> {
        self.host_checks.map(|f| f(probe, ctx)).unwrap_or_default()
    }

    fn check_codes(&self) -> &'static [CheckCode] {
        self.check_codes
    }

    fn cdi_regenerate(&self, _probe: &Probe, spec_path: &str) -> Option<String> {
        crate::backend::cdi_generate_command(self, spec_path).map(|c| format!("'{c}'"))
    }

    fn cdi_output_args(&self) -> &'static str {
        self.cdi_output_args
    }

    fn cdi_draft(
        &self,
        probe: &Probe,
    ) -> Option<Result<crate::cdi_tool::generate::CdiDraft, crate::cdi_tool::generate::GenerateError>>
    {
        Some(self.draft(probe, self.cdi_naming?))
    }

    fn cdi_generator(&self) -> Option<&'static str> {
        self.cdi_generator
    }

    fn cdi_tool(&self) -> Option<&'static str> {
        self.cdi_tool
            .or(self.cdi_generator.map(crate::backend::program_of))
    }

    fn node_group(&self) -> Option<&'static str> {
        self.node_group
    }

    fn node_groups(&self) -> crate::check::NodeGroups {
        self.node_groups
    }

    fn loaded_driver(
        &self,
        host: &crate::host::Host,
        kernel: Option<crate::requirement::Version>,
        gpus: &[crate::requirement::GpuOnHost],
    ) -> Option<crate::requirement::LoadedDriver> {
        self.loaded_driver.map(|f| f(host, kernel, gpus))
    }

    fn driver_requirement(&self, device: &PciDevice) -> Option<Requirement> {
        self.requirement.and_then(|h| (h.requirement)(device))
    }
}
