//! Plan recipes several vendors share, and a whole backend made of them.
//!
//! The recipes: the CDI tier (cdi.rs), and the raw render-node tier that AMD, Intel and render-node
//! plug-ins use. Each adds typed needs to a [`VendorPlan`] and is parameterized by the vendor's
//! CDI kind and PCI vendor id; nothing here knows a particular vendor, and nothing here spells a
//! podman flag.
//!
//! [`RenderNodeVendor`]: a vendor whose raw tier is the render nodes of one PCI vendor,
//! optionally next to a shared node every device needs (AMD's `/dev/kfd`). AMD, Intel and
//! render-node plug-ins differ only in their facts and words; the tiers, arguments and detection
//! are this one mechanism, and a `RenderNodeVendor` constant is itself the backend a vendor
//! crate registers.

use std::path::Path;

use crate::backend::{GpuBackend, Grant};
use crate::check::{Check, CheckCode, DoctorContext};
use crate::detect::VendorReport;
use crate::detect::{Device, Fact};
use crate::error::GpuError;
use crate::pattern::FamilyCode;
use crate::pci::PciDevice;
use crate::plan::Tier;
use crate::plan::{Need, VendorPlan};
use crate::probe::Probe;
use crate::requirement::Requirement;

mod cdi;
mod raw;
mod requirement;
pub use cdi::{
    best_effort_warning, best_effort_warning_numbered, cdi_devices, cdi_devices_of, cdi_reason,
};
pub use raw::{render_node_devices, render_nodes, select_render_nodes};
pub use requirement::RequirementHook;

/// The facts and words of one render-node vendor.
///
/// A vendor's facts about one of its failure families on this host: family code, failure text,
/// probe ([`GpuBackend::explain_details`]).
pub type ExplainDetails = fn(FamilyCode, &str, &Probe) -> Vec<String>;

/// Write a vendor as a literal that ends in `..RenderNodeVendor::DEFAULT`, so that a field
/// added later takes its default instead of breaking the literal.
#[derive(Debug, Clone, Copy)]
pub struct RenderNodeVendor {
    /// The selector name (`amd`).
    pub vendor: &'static str,
    /// The name in sentences (`AMD`).
    pub display: &'static str,
    /// What one device is called in sentences (`GPU`; `NPU` for an accelerator).
    pub device_noun: &'static str,
    /// The CDI kind (`amd.com/gpu`).
    pub kind: &'static str,
    /// Further CDI kinds the vendor's toolkits may declare, after `kind` (one per chip family, or
    /// a companion function's); a valid spec declaring any of them makes the CDI tier.
    pub extra_kinds: &'static [&'static str],
    /// The PCI vendor id (`0x1002`).
    pub pci_vendor_id: u16,
    /// The PCI base classes its GPUs enumerate as ([`GpuBackend::pci_classes`]); every
    /// GPU-class function of the vendor unless narrowed.
    pub pci_classes: &'static [u8],
    /// Position in the canonical vendor order.
    pub order: u32,
    /// What the host lacks when the vendor is unusable (`no /dev/kfd`).
    pub missing_summary: &'static str,
    /// The vendor's failure families.
    pub families: &'static [crate::families::Family],
    /// Facts of the vendor's own about one device (a firmware version), shown by `detect`
    /// after the render node and the requirement.
    pub device_facts: Option<fn(&Probe, &Device) -> Vec<Fact>>,
    /// A node every device needs, passed first and required for the raw tier (`/dev/kfd`).
    pub shared_node: Option<&'static str>,
    /// The sentence when neither CDI nor the raw tier is available.
    pub unserved: &'static str,
    /// What to do when render nodes exist but the shared node does not.
    pub shared_node_hint: &'static str,
    /// The vendor's driver requirement of its PCI devices, when it has a table.
    pub requirement: Option<RequirementHook>,
    /// What the host's files say of the vendor's loaded driver
    /// ([`GpuBackend::loaded_driver`]); `None`: only the kernel is checked.
    pub loaded_driver: Option<crate::requirement::LoadedDriverHook>,
    /// The group udev gives the vendor's nodes, in words (`render or video`, the default: DRM
    /// render nodes are group render, card nodes video).
    pub node_group: Option<&'static str>,
    /// The command that writes the vendor's CDI spec to the file named after it with
    /// `--output=` (`sudo amd-ctk cdi generate`), for the stale-spec remedy.
    pub cdi_generator: Option<&'static str>,
    /// The program that writes the vendor's CDI specs when it is not `cdi_generator`'s
    /// (`intel-cdi-specs-generator`, which takes no `--output=`), for the CDI hint
    /// ([`GpuBackend::cdi_tool`]).
    pub cdi_tool: Option<&'static str>,
    /// How the vendor's own CDI generator names and shapes its devices, for
    /// `gpuctl cdi generate`; `None`: gpuctl writes no spec for it.
    pub cdi_naming: Option<crate::cdi_tool::generate::CdiNaming>,
    /// Words that name the vendor's GPU components ([`GpuBackend::gpu_words`]).
    pub gpu_words: &'static [&'static str],
    /// The vendor's emitter rules ([`GpuBackend::emitter_rules`]).
    pub emitter_rules: &'static [crate::reading::EmitterRule],
    /// This host's facts about a failure of one of the vendor's families
    /// ([`GpuBackend::explain_details`]): family code, failure text, probe.
    pub explain_details: Option<ExplainDetails>,
    /// The vendor's own `gpuctl doctor` checks (its driver, its nodes), the same capability
    /// [`GpuBackend::host_checks`] gives any backend; `None`: core's checks only.
    pub host_checks: Option<HostChecks>,
    /// The code of every check `host_checks` can return ([`GpuBackend::check_codes`]).
    pub check_codes: &'static [CheckCode],
}

/// A render-node vendor's `gpuctl doctor` checks, read through the probe's host
/// ([`crate::check::driver`] reads the kernel's facts and words the driver findings).
pub type HostChecks = fn(&Probe, &DoctorContext) -> Vec<Check>;

impl RenderNodeVendor {
    /// Every field empty or off, order 100 (after the built-in vendors): the base of a vendor
    /// literal. The empty name is not a vendor name, so the registry refuses the base itself.
    pub const DEFAULT: RenderNodeVendor = RenderNodeVendor::new("", "", "", 0);

    /// A vendor with its name, display name, CDI kind and PCI vendor id, and defaults for the
    /// rest: no shared node, no families, no words of its own.
    pub const fn new(
        vendor: &'static str,
        display: &'static str,
        kind: &'static str,
        pci_vendor_id: u16,
    ) -> Self {
        RenderNodeVendor {
            vendor,
            display,
            device_noun: "GPU",
            kind,
            extra_kinds: &[],
            pci_vendor_id,
            pci_classes: crate::pci::GPU_BASE_CLASSES,
            order: 100,
            missing_summary: "",
            families: &[],
            device_facts: None,
            shared_node: None,
            unserved: "",
            shared_node_hint: "",
            requirement: None,
            loaded_driver: None,
            node_group: Some("render or video"),
            cdi_generator: None,
            cdi_tool: None,
            cdi_naming: None,
            gpu_words: &[],
            emitter_rules: &[],
            explain_details: None,
            host_checks: None,
            check_codes: &[],
        }
    }

    /// The first of the vendor's kinds that a valid spec declares.
    fn declared_kind(&self, probe: &Probe) -> Option<&'static str> {
        self.cdi_kinds()
            .into_iter()
            .find(|k| probe.cdi().kind_declared(k))
    }

    /// The vendor id as the sysfs `vendor` file writes it.
    fn sysfs_vendor(&self) -> String {
        format!("0x{:04x}", self.pci_vendor_id)
    }

    fn has_shared_node(&self, probe: &Probe) -> Result<bool, GpuError> {
        let Some(node) = self.shared_node else {
            return Ok(true);
        };
        probe
            .host()
            .exists(Path::new(node))
            .map_err(|e| GpuError::host(e, "check the host's /dev"))
    }

    /// CDI when a valid spec declares the kind; raw when the shared node (if any) and at least
    /// one render node exist (a shared node alone is no GPU).
    fn raw_or_cdi_tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        Ok(if self.declared_kind(probe).is_some() {
            Some(Tier::Cdi)
        } else if self.has_shared_node(probe)?
            && !probe.drm()?.of_vendor(&self.sysfs_vendor()).is_empty()
        {
            Some(Tier::Raw)
        } else {
            None
        })
    }

    /// Why an unusable vendor cannot be granted: with the shared node present but no render
    /// node, the recipe's "no render node" error; otherwise the vendor's own sentence.
    fn unusable(&self, probe: &Probe, grant: &Grant) -> GpuError {
        if self.shared_node.is_some() {
            match self.has_shared_node(probe) {
                Err(e) => return e,
                Ok(true) => {
                    if let Err(e) =
                        select_render_nodes(probe, self.vendor, &self.sysfs_vendor(), grant)
                    {
                        return e;
                    }
                }
                Ok(false) => {}
            }
        }
        GpuError::Unserved {
            vendor: self.vendor.to_string(),
            message: self.unserved.to_string(),
        }
    }

    /// The report for `detect`: the tier, why, and the render nodes in index order.
    fn report(&self, probe: &Probe, tier: Option<Tier>) -> Result<VendorReport, GpuError> {
        let mut devices = requirement::with_requirements(
            self.requirement,
            self.pci_vendor_id,
            probe,
            render_node_devices(probe, &self.sysfs_vendor())?,
        );
        if let Some(facts) = self.device_facts {
            for device in &mut devices {
                let more = facts(probe, device);
                device.facts.extend(more);
            }
        }
        let (d, kind, n) = (self.display, self.kind, devices.len());
        let noun = self.device_noun;
        let shared = self.shared_node.map(|s| (s, self.has_shared_node(probe)));
        // GPUs the bus lists but no driver serves are not "no GPU": doctor says why.
        let on_bus = match tier {
            None => {
                let pci = probe.pci();
                pci.gpus_of(self.pci_vendor_id, self.pci_classes).0.len()
            }
            Some(_) => 0,
        };
        let none = if on_bus > 0 {
            format!(
                "{on_bus} {d} {noun}(s) on the PCI bus but none usable ('gpuctl doctor' says why)"
            )
        } else {
            format!("no {d} {noun}")
        };
        let reason = match (tier, shared) {
            (Some(Tier::Cdi), _) => cdi_reason(probe, self.declared_kind(probe).unwrap_or(kind)),
            (Some(_), Some((s, _))) => format!(
                "raw device nodes: {s} and {n} {d} render node(s) under /sys/class/drm (no valid CDI spec declares {kind})"
            ),
            (Some(_), None) => format!(
                "raw device nodes: {n} {d} render node(s) under /sys/class/drm (no valid CDI spec declares {kind})"
            ),
            (None, Some((s, Ok(true)))) => format!(
                "{s} exists but no {d} render node is under /sys/class/drm, and no valid CDI spec declares {kind}"
            ),
            (None, Some((s, _))) if n > 0 => format!(
                "{n} {d} render node(s) but no {s}: {}",
                self.shared_node_hint
            ),
            (None, Some((s, _))) => {
                format!("{none}: no valid CDI spec declares {kind}, no {s}, no {d} render node")
            }
            (None, None) => format!(
                "{none}: no valid CDI spec declares {kind} and no {d} render node is under /sys/class/drm"
            ),
        };
        Ok(
            VendorReport::new(probe, self.vendor, kind, tier, reason, devices)
                .with_cdi_kinds(probe, &self.cdi_kinds()),
        )
    }
}

impl GpuBackend for RenderNodeVendor {
    fn vendor(&self) -> &'static str {
        self.vendor
    }

    fn display_name(&self) -> &'static str {
        self.display
    }

    fn device_noun(&self) -> &'static str {
        self.device_noun
    }

    fn pci_vendor_id(&self) -> u16 {
        self.pci_vendor_id
    }

    fn pci_classes(&self) -> &'static [u8] {
        self.pci_classes
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

    fn tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        self.raw_or_cdi_tier(probe)
    }

    /// CDI devices and kept groups, or the render-node recipe.
    fn plan(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
        grant: &Grant,
    ) -> Result<VendorPlan, GpuError> {
        let Some(tier) = tier else {
            return Err(self.unusable(probe, grant));
        };
        let mut plan = VendorPlan::new(self.vendor, tier);
        match tier {
            Tier::Cdi => {
                cdi_devices_of(probe, &self.cdi_kinds(), grant, &mut plan)?;
                plan.add(Need::KeepGroups, None);
            }
            Tier::Raw => {
                let leading: Vec<&str> = self.shared_node.into_iter().collect();
                render_nodes(probe, &self.sysfs_vendor(), grant, &leading, &mut plan)?;
            }
            // A wrapping plug-in whose `tier` decides one this recipe has no plan for.
            other => return Err(GpuError::tier_unsupported(self.vendor, other)),
        }
        Ok(plan)
    }

    fn detect(&self, probe: &Probe) -> Result<VendorReport, GpuError> {
        self.report(probe, probe.tier_of(self)?)
    }

    fn cdi_draft(
        &self,
        probe: &Probe,
    ) -> Option<Result<crate::cdi_tool::generate::CdiDraft, crate::cdi_tool::generate::GenerateError>>
    {
        let naming = self.cdi_naming?;
        let (vendor, kind, id) = (self.vendor, self.kind, self.pci_vendor_id);
        let draft = crate::cdi_tool::generate::render_node_draft;
        Some(draft(probe, vendor, kind, id, self.shared_node, naming))
    }

    fn families(&self) -> &'static [crate::families::Family] {
        self.families
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

    fn gpu_words(&self) -> &'static [&'static str] {
        self.gpu_words
    }

    fn emitter_rules(&self) -> &'static [crate::reading::EmitterRule] {
        self.emitter_rules
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
        self.cdi_generator
            .map(|g| format!("'{g} --output={spec_path}'"))
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
}
