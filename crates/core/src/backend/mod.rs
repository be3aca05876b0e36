//! The vendor plug-in interface: the trait a vendor crate implements, how it registers, and the
//! registry (`registry.rs`) that turns a selection into one [`Plan`](crate::plan::Plan): each
//! granted vendor's plan in canonical order, on the tier decided once per vendor
//! ([`Probe::tier_of`]).
//!
//! Vendor crates register with [`register_backend!`](crate::register_backend); the registry is
//! built once per process from what the linker kept. Iteration order of `inventory` is
//! unspecified, so the registry sorts by each backend's `order()` and then by name.

use crate::cdi_tool::generate::{CdiDraft, GenerateError};
use crate::check::{Check, CheckCode, DoctorContext};
use crate::error::GpuError;
use crate::image_env::ImageEnv;
use crate::pattern::{Family, FamilyCode};
use crate::pci::PciDevice;
use crate::plan::VendorPlan;
use crate::requirement::{Requirement, RequirementModel};

use crate::detect::VendorReport;
use crate::plan::Tier;
use crate::probe::Probe;
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
/// Implement it in a crate of your own and register it with [`crate::register_backend!`];
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

    /// The vendor's failure families: the texts its tools print, the diagnosis, the remedy and
    /// the doctor checks that find the cause.
    fn families(&self) -> &'static [Family] {
        &[]
    }

    /// Words that name one of the vendor's GPU components in a failure text (device nodes,
    /// libraries, tools, error-code prefixes: `/dev/nvidia`, `hipError`), never an image name:
    /// `gpuctl explain` calls a failure no family knows GPU-related when it says one of them.
    fn gpu_words(&self) -> &'static [&'static str] {
        &[]
    }

    /// The vendor's emitters read by structure (NVML, its hook, its runtimes, its Kubernetes
    /// plug-in): who printed a line, doing what, on what ([`crate::reading`]). None by default.
    fn emitter_rules(&self) -> &'static [crate::reading::EmitterRule] {
        &[]
    }

    /// What this host says about a failure of one of the vendor's families (family `code`,
    /// matched in `text`): facts the family's static text cannot know, one sentence each, e.g.
    /// the GPU's LLVM target and the ROCm releases that list it. Empty when it has none.
    fn explain_details(&self, _code: FamilyCode, _text: &str, _probe: &Probe) -> Vec<String> {
        Vec::new()
    }

    /// This host's evidence on a failure of one of the vendor's families that the failure's
    /// own text makes checkable (the CUDA a hook's `unsatisfied condition: cuda>=13.0` asks
    /// for, against the CUDA the loaded driver runs): checks that stand beside doctor's in
    /// explain's "this host shows the cause". Their codes belong in the family's `checks`.
    fn explain_checks(&self, _code: FamilyCode, _text: &str, _probe: &Probe) -> Vec<Check> {
        Vec::new()
    }

    /// The vendor's `gpuctl doctor` checks (driver loaded and fitting the GPUs, nodes, its
    /// toolkit's configuration), read through the probe's host.
    fn host_checks(&self, _probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
        Vec::new()
    }

    /// The code of every check [`GpuBackend::host_checks`] can return, on any host: a family
    /// may name these or core's ([`crate::check::codes::CORE`]), and a test holds every
    /// registered family to that.
    fn check_codes(&self) -> &'static [CheckCode] {
        &[]
    }

    /// The vendor's checks of an image's environment against this host, for `gpuctl doctor
    /// --image` and before `gpuctl run` starts a container: an image declares the GPU user
    /// space it carries (NVIDIA's `NVIDIA_REQUIRE_CUDA`, a ROCm release), and a driver too old
    /// for it is a container that starts and fails. A [`crate::check::Status::Problem`] makes
    /// `run` refuse the image. Empty when the image declares nothing the vendor reads.
    fn image_checks(&self, _probe: &Probe, _image: &ImageEnv) -> Vec<Check> {
        Vec::new()
    }

    /// How to rewrite the vendor's CDI spec at `spec_path` for the host as it is now, in one
    /// sentence (`sudo nvidia-ctk cdi generate --output=/var/run/cdi/nvidia.yaml`), naming any
    /// service of the host's that does it; `None` gives a neutral sentence. The output must be
    /// `spec_path` itself: a spec written elsewhere would not replace the stale one.
    fn cdi_regenerate(&self, _probe: &Probe, _spec_path: &str) -> Option<String> {
        None
    }

    /// The vendor's CDI spec as `gpuctl cdi generate` writes it, for a vendor whose nodes
    /// gpuctl knows as data; `None`: its own generator must write it (NVIDIA's adds the driver's
    /// libraries and hooks), and `cdi generate` names [`GpuBackend::cdi_generator`].
    fn cdi_draft(&self, _probe: &Probe) -> Option<Result<CdiDraft, GenerateError>> {
        None
    }

    /// The command that writes the vendor's CDI spec, without its `--output=` (`sudo amd-ctk cdi
    /// generate`): doctor names it for a spec of the vendor's kinds that podman would skip, and
    /// lists every vendor's when it cannot tell whose a broken spec is. `None`: none is known.
    fn cdi_generator(&self) -> Option<&'static str> {
        None
    }

    /// How the vendor's generator is told where to write, after [`GpuBackend::cdi_generator`]'s
    /// command: `{path}` stands for the spec's path and `{dir}` for its directory (a generator
    /// that writes one file per device into a directory: `--output-dir {dir}`). By default
    /// `--output={path}`, as nvidia-ctk and amd-ctk take it.
    fn cdi_output_args(&self) -> &'static str {
        "--output={path}"
    }

    /// The program of the vendor's container toolkit that writes its CDI specs, as the hint for
    /// a CDI failure names it (`nvidia-ctk`, `intel-cdi-specs-generator`); by default the
    /// program of [`GpuBackend::cdi_generator`]. `None`: none is known, and the hint says so in
    /// the vendor's words.
    fn cdi_tool(&self) -> Option<&'static str> {
        self.cdi_generator().map(program_of)
    }

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

    /// What the host's files say of the vendor's loaded driver (`gpuctl report`): its state and
    /// release, and the component values the requirement's constraints are checked against.
    /// `kernel` is the running kernel's `major.minor`; `gpus` are the vendor's GPUs on the host.
    /// `None`: the vendor reads no driver file, and only the kernel is checked.
    fn loaded_driver(
        &self,
        _host: &crate::host::Host,
        _kernel: Option<crate::requirement::Version>,
        _gpus: &[crate::requirement::GpuOnHost],
    ) -> Option<crate::requirement::LoadedDriver> {
        None
    }

    /// The driver stack this device needs, when the vendor has a table (NVIDIA, AMD, Intel).
    fn driver_requirement(&self, _device: &PciDevice) -> Option<Requirement> {
        None
    }

    /// The vendor's own requirement model, when [`driver_requirement`] alone is not all it
    /// has to say (ids and `--driver` forms of its own, a site table, GPUs left out of the
    /// host's line, sections of its own, its own combination and wording: NVIDIA's generation
    /// table).
    ///
    /// [`driver_requirement`]: GpuBackend::driver_requirement
    fn requirement_model(&self) -> Option<&'static dyn RequirementModel> {
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
/// generator's own flags ([`GpuBackend::cdi_output_args`]): `sudo nvidia-ctk cdi generate
/// --output=/etc/cdi/nvidia.yaml`. `None`: the vendor names no generator.
pub fn cdi_generate_command(backend: &dyn GpuBackend, spec_path: &str) -> Option<String> {
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

mod detect;
mod registry;
#[cfg(test)]
mod tests;
