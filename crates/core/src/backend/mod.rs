//! The vendor plug-in interface: the trait a vendor crate implements, how it registers, and the
//! registry (`registry.rs`) that turns a selection into one [`Plan`](crate::plan::Plan): each
//! granted vendor's plan in canonical order, on the tier decided once per vendor
//! ([`Probe::tier_of`]).
//!
//! Vendor crates register with [`register_backend!`](crate::plugin::register_backend); the registry is
//! built once per process from what the linker kept. Iteration order of `inventory` is
//! unspecified, so the registry sorts by each backend's `order()` and then by name.

use crate::error::GpuError;
use crate::plan::VendorPlan;

use crate::detect::VendorReport;
use crate::plan::Tier;
use crate::probe::Probe;
pub use capability::{CdiTooling, Diagnostics, NoCapability, Requirements};
#[cfg(test)]
pub use capability::{MockCdiTooling, MockDiagnostics};
pub use registry::{BackendRegistration, RESERVED_NAMES, Registry, valid_vendor_name};

/// What is granted of one vendor: everything, or some devices by index or by CDI name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// `None` for the whole vendor; otherwise the indexes in ascending order, without duplicates
    /// (empty when only names are granted).
    pub indexes: Option<Vec<u32>>,
    /// CDI device names that are not all digits (`GPU-e008...`), in byte order, as written.
    /// Only the CDI tier serves them: [`Registry::plan`] refuses them on any other tier before
    /// a backend sees them, so a raw or hook recipe can read `indexes` alone.
    pub names: Vec<String>,
}

impl Grant {
    /// The whole vendor.
    pub fn whole() -> Self {
        Grant {
            indexes: None,
            names: Vec::new(),
        }
    }

    /// Some devices by index.
    pub fn indexes(indexes: Vec<u32>) -> Self {
        Grant {
            indexes: Some(indexes),
            names: Vec::new(),
        }
    }

    /// Some devices by index and by CDI name.
    pub fn devices(indexes: Vec<u32>, names: Vec<String>) -> Self {
        Grant {
            indexes: Some(indexes),
            names,
        }
    }

    /// The CDI device names a device grant asks for (indexes as decimal, then names), or
    /// `None` for the whole vendor.
    pub fn cdi_names(&self) -> Option<Vec<String>> {
        let indexes = self.indexes.as_ref()?;
        Some(
            indexes
                .iter()
                .map(u32::to_string)
                .chain(self.names.iter().cloned())
                .collect(),
        )
    }
}

/// A GPU vendor: how to detect its devices and hand them to a container.
///
/// Required: who the vendor is and how its devices pass to a container (identity, tier, detect,
/// plan). What else it offers are capability objects with defaults: [`GpuBackend::diagnostics`],
/// [`GpuBackend::requirements`], [`GpuBackend::cdi_tooling`].
///
/// Implement it in a crate of your own and register it with [`crate::plugin::register_backend!`];
/// the vendor's name becomes a selector token with no change to gpuctl's core.
#[cfg_attr(test, mockall::automock)]
pub trait GpuBackend: Send + Sync {
    /// The selector name (`nvidia`): lowercase ASCII letters, digits, `-` or `_`.
    fn vendor(&self) -> &'static str;

    /// The name in sentences (`NVIDIA`, `Ascend`); by default the selector name.
    fn display_name(&self) -> &'static str {
        self.vendor()
    }

    /// What one device is called in sentences (`GPU`, `NPU`); by default `GPU`.
    fn device_noun(&self) -> &'static str {
        "GPU"
    }

    /// The PCI vendor id (`0x10de`).
    fn pci_vendor_id(&self) -> u16;

    /// The PCI base classes the vendor's GPUs enumerate as; every GPU-class function of the
    /// vendor by default ([`crate::pci::GPU_BASE_CLASSES`]). A vendor that makes other
    /// accelerators under the same PCI vendor id narrows it, so they are not counted, judged or
    /// granted as its GPUs (Intel: display controllers only; its NPU is a 0x12 function).
    fn pci_classes(&self) -> &'static [u8] {
        crate::pci::GPU_BASE_CLASSES
    }

    /// The CDI kind the vendor's toolkit declares (`nvidia.com/gpu`): its main kind, the one
    /// sentences name.
    fn cdi_kind(&self) -> &'static str;

    /// Every CDI kind the vendor's toolkits may declare, the main kind first (one kind per chip
    /// family, or a second kind for a device's companion function); a valid spec declaring any
    /// of them serves the vendor. By default the main kind alone.
    fn cdi_kinds(&self) -> Vec<&'static str> {
        vec![self.cdi_kind()]
    }

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

    /// The plan for a grant on `tier`, the tier [`GpuBackend::tier`] decided (`None`: the
    /// vendor is unusable; answer with the error that says what is missing). Must fail rather
    /// than return part of a plan.
    fn plan(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
        grant: &Grant,
    ) -> Result<VendorPlan, GpuError>;

    /// The group the vendor's driver (or udev) gives its device nodes, in words (`render or
    /// video`, `HwHiAiUser`): what to ask of udev when a node's group opens nothing. `None`:
    /// sentences say "the group the driver gives them".
    fn node_group(&self) -> Option<&'static str> {
        None
    }

    /// The runtime the vendor's container toolkit registers with docker for its hook tier
    /// (NVIDIA: `nvidia`, set up with `nvidia-ctk runtime configure --runtime=docker`), which
    /// docker's note on a hook-tier grant names. `None`: the note names no runtime.
    fn hook_runtime(&self) -> Option<crate::plan::HookRuntime> {
        None
    }

    /// The groups the vendor's device nodes need for a rootless user to open them, as doctor's
    /// `render-groups` check names them; by default DRM render nodes' `render` or `video`.
    fn node_groups(&self) -> crate::check::NodeGroups {
        crate::check::NodeGroups::Render
    }

    /// The vendor's diagnostics: failure families, words, doctor's and explain's checks
    /// ([`Diagnostics`]); none by default.
    fn diagnostics(&self) -> &dyn Diagnostics {
        &NoCapability
    }

    /// What driver stack the vendor's devices need and what the host has loaded
    /// ([`Requirements`]); none by default.
    fn requirements(&self) -> &dyn Requirements {
        &NoCapability
    }

    /// The vendor's CDI generator ([`CdiTooling`]); none by default.
    fn cdi_tooling(&self) -> &dyn CdiTooling {
        &NoCapability
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

/// What the devices of `vendors` are called together in sentences: their nouns, each once, in
/// the vendors' order (`GPU`; `GPU or NPU` once a plug-in's NPUs are linked in); `GPU` when
/// there are none. Sentences about every vendor at once (`all` with nothing usable, doctor's
/// remedy) use it, so a plug-in's accelerators are not called GPUs.
pub fn devices_noun<'a>(vendors: impl IntoIterator<Item = &'a dyn GpuBackend>) -> String {
    let mut nouns: Vec<&str> = Vec::new();
    for v in vendors {
        if !nouns.contains(&v.device_noun()) {
            nouns.push(v.device_noun());
        }
    }
    if nouns.is_empty() {
        return "GPU".to_string();
    }
    nouns.join(" or ")
}

/// The command that rewrites the CDI spec at `spec_path` with `backend`'s generator, with the
/// generator's own flags ([`CdiTooling::cdi_output_args`]): `sudo nvidia-ctk cdi generate
/// --output=/etc/cdi/nvidia.yaml`. `None`: the vendor names no generator.
pub fn cdi_generate_command(backend: &dyn GpuBackend, spec_path: &str) -> Option<String> {
    let backend = backend.cdi_tooling();
    let generator = backend.cdi_generator()?;
    let dir = match spec_path.rsplit_once('/') {
        Some(("", _)) => "/",
        Some((dir, _)) => dir,
        None => ".",
    };
    let args = backend
        .cdi_output_args()
        .replace("{path}", spec_path)
        .replace("{dir}", dir);
    Some(format!("{generator} {args}"))
}

/// The program a command runs (`nvidia-ctk` of `sudo nvidia-ctk cdi generate`).
pub fn program_of(command: &'static str) -> &'static str {
    let mut words = command.split_whitespace();
    let first = words.next().unwrap_or("");
    if first == "sudo" {
        words.next().unwrap_or("")
    } else {
        first
    }
}

mod capability;
mod detect;
mod registry;
#[cfg(test)]
mod tests;
