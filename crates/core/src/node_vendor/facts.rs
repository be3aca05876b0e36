//! [`VendorFacts`]: the identity and words of a vendor written as data, the part of a
//! [`NodeVendor`](super::NodeVendor) that does not depend on how its devices are laid out. One
//! struct, so that each fact is written once and read by the one recipe that implements
//! [`GpuBackend`](crate::backend::GpuBackend) for it.

use crate::check::CheckCode;
use crate::detect::{Device, Fact};
use crate::families::Family;
use crate::probe::Probe;
use crate::render_recipe::{ExplainDetails, HostChecks, RequirementHook};

/// Who a vendor is and what it says. Write it as a literal that ends in
/// `..VendorFacts::new(vendor, display, kind, pci_vendor_id)` (or `..VendorFacts::DEFAULT`), so
/// that a field added later takes its default instead of breaking the literal.
#[derive(Debug, Clone, Copy)]
pub struct VendorFacts {
    /// The selector name (`amd`, `ascend`).
    pub vendor: &'static str,
    /// The name in sentences (`AMD`, `Ascend`); the selector name when empty.
    pub display: &'static str,
    /// What one device is called in sentences (`GPU`; `NPU` for an accelerator).
    pub device_noun: &'static str,
    /// The main CDI kind, the one sentences name (`amd.com/gpu`).
    pub kind: &'static str,
    /// Further CDI kinds the vendor's toolkits may declare, after `kind` (one per chip family, or
    /// a companion function's); a valid spec declaring any of them makes the CDI tier.
    pub extra_kinds: &'static [&'static str],
    /// The PCI vendor id (`0x1002`): whose PCI functions the vendor's nodes must belong to, whose
    /// devices are counted on the bus, and the key of its table.
    pub pci_vendor_id: u16,
    /// The PCI base classes its devices enumerate as ([`GpuBackend::pci_classes`]); every
    /// GPU-class function of the vendor unless narrowed (Intel: display controllers only, so its
    /// NPU, a 0x12 function, is never counted or granted as a GPU).
    ///
    /// [`GpuBackend::pci_classes`]: crate::backend::GpuBackend::pci_classes
    pub pci_classes: &'static [u8],
    /// Position in the canonical vendor order (plug-ins 100 or more).
    pub order: u32,
    /// What the host lacks when the vendor is unusable (`no /dev/kfd`).
    pub missing_summary: &'static str,
    /// The sentence when neither CDI nor the raw tier is available; empty: a sentence built from
    /// the kinds and nodes.
    pub unserved: &'static str,
    /// The vendor's own failure families.
    pub families: &'static [Family],
    /// Words that name the vendor's components in a failure text
    /// ([`Diagnostics::gpu_words`](crate::backend::Diagnostics::gpu_words)).
    pub gpu_words: &'static [&'static str],
    /// The vendor's component vocabulary
    /// ([`Diagnostics::components`](crate::backend::Diagnostics::components)).
    pub components: &'static [crate::reading::vocabulary::Component],
    /// The vendor's emitters read by structure
    /// ([`Diagnostics::emitter_rules`](crate::backend::Diagnostics::emitter_rules)).
    pub emitter_rules: &'static [crate::reading::EmitterRule],
    /// This host's facts about a failure of one of the vendor's families: family code, failure
    /// text, probe.
    pub explain_details: Option<ExplainDetails>,
    /// The vendor's own `gpuctl doctor` checks (its driver, its nodes); `None`: core's only.
    pub host_checks: Option<HostChecks>,
    /// The code of every check `host_checks` can return.
    pub check_codes: &'static [CheckCode],
    /// The vendor's driver requirement of its PCI devices (`gpuctl requirement`), when it has a
    /// table.
    pub requirement: Option<RequirementHook>,
    /// What the host's files say of the vendor's loaded driver
    /// ([`Requirements::loaded_driver`](crate::backend::Requirements::loaded_driver)); `None`: only
    /// the kernel is checked.
    pub loaded_driver: Option<crate::requirement::LoadedDriverHook>,
    /// Facts of the vendor's own about one device (a firmware version), shown by `detect` after
    /// its node.
    pub device_facts: Option<fn(&Probe, &Device) -> Vec<Fact>>,
    /// The group the driver (or udev) gives the vendor's nodes, in words (`HwHiAiUser`); `None`:
    /// `render or video` for DRM render nodes, "the group the driver gives them" otherwise.
    pub node_group: Option<&'static str>,
    /// The command that writes the vendor's CDI spec to the file named after it with
    /// `--output=` (`sudo amd-ctk cdi generate`), for the stale-spec remedy.
    pub cdi_generator: Option<&'static str>,
    /// How the generator is told where to write ([`crate::backend::CdiTooling::cdi_output_args`]:
    /// `{path}`, `{dir}`); by default `--output={path}`.
    pub cdi_output_args: &'static str,
    /// The program that writes the vendor's CDI specs when it is not `cdi_generator`'s
    /// (`intel-cdi-specs-generator`, which takes no `--output=`), for the CDI hint.
    pub cdi_tool: Option<&'static str>,
    /// How the vendor's own CDI generator names and shapes its devices, for `gpuctl cdi
    /// generate`; `None`: gpuctl writes no spec for it and names `cdi_generator`.
    pub cdi_naming: Option<crate::cdi_tool::generate::CdiNaming>,
}

impl VendorFacts {
    /// Every field empty or off, order 100 (after the built-in vendors): the base of a literal.
    /// The empty name is not a vendor name, so the registry refuses the base itself.
    pub const DEFAULT: VendorFacts = VendorFacts::new("", "", "", 0);

    /// A vendor with its selector name, display name, main CDI kind and PCI vendor id, and
    /// defaults for the rest: a GPU, order 100, no families, no words of its own.
    pub const fn new(
        vendor: &'static str,
        display: &'static str,
        kind: &'static str,
        pci_vendor_id: u16,
    ) -> Self {
        VendorFacts {
            vendor,
            display,
            device_noun: "GPU",
            kind,
            extra_kinds: &[],
            pci_vendor_id,
            pci_classes: crate::pci::GPU_BASE_CLASSES,
            order: 100,
            missing_summary: "",
            unserved: "",
            families: &[],
            gpu_words: &[],
            components: &[],
            emitter_rules: &[],
            explain_details: None,
            host_checks: None,
            check_codes: &[],
            requirement: None,
            loaded_driver: None,
            device_facts: None,
            node_group: None,
            cdi_generator: None,
            cdi_output_args: "--output={path}",
            cdi_tool: None,
            cdi_naming: None,
        }
    }

    /// The name in sentences: `display`, or the selector name when it is empty.
    pub fn name(&self) -> &'static str {
        if self.display.is_empty() {
            self.vendor
        } else {
            self.display
        }
    }

    /// The main kind, then the extra kinds.
    pub fn cdi_kinds(&self) -> Vec<&'static str> {
        std::iter::once(self.kind)
            .chain(self.extra_kinds.iter().copied())
            .collect()
    }

    /// The vendor id as the sysfs `vendor` file writes it (`0x1002`).
    pub fn sysfs_vendor(&self) -> String {
        format!("0x{:04x}", self.pci_vendor_id)
    }
}
