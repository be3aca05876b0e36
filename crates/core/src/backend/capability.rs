//! What a vendor offers beyond identity and passthrough, as capability objects a
//! [`GpuBackend`](super::GpuBackend) hands out: [`Diagnostics`] (failure families, words,
//! doctor's and explain's checks), [`Requirements`] (the driver stack its devices need, what is
//! loaded) and [`CdiTooling`] (its CDI generator). Each method has a default that says "nothing
//! of the kind", and a vendor without the capability hands out [`NoCapability`], so a caller asks
//! `backend.diagnostics().families()` of any backend without asking first whether it has them.

use crate::cdi_tool::generate::{CdiDraft, GenerateError};
use crate::check::{Check, CheckCode, DoctorContext};
use crate::family::{Family, FamilyCode};
use crate::image_env::ImageEnv;
use crate::pci::PciDevice;
use crate::probe::Probe;
use crate::requirement::{Requirement, RequirementModel};

/// How a vendor's failures are recognised and diagnosed: for `gpuctl explain`, `gpuctl doctor`
/// and `gpuctl run`.
#[cfg_attr(test, mockall::automock)]
pub trait Diagnostics: Send + Sync {
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

    /// The vendor's component vocabulary (its driver's libraries, programs, kernel modules,
    /// nodes, variables, resource names, runtime words), each with its kind and, for a word that
    /// prints, its emitter: the structured fallback reads a failure line that names one when no
    /// family or rule claims the text (docs/explain.md#fallback). None by default; a plug-in's
    /// [`Diagnostics::gpu_words`] are read as components of a kind told by their shape.
    fn components(&self) -> &'static [crate::reading::vocabulary::Component] {
        &[]
    }

    /// The vendor's emitters read by structure (NVML, its hook, its runtimes, its Kubernetes
    /// plug-in): who printed a line, doing what, on what ([`crate::commands::reading`]). None by default.
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

    /// The code of every check [`Diagnostics::host_checks`] can return, on any host: a family
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
}

/// What driver stack a vendor's devices need, and what the host has loaded: for `gpuctl
/// requirement`, `gpuctl report` and doctor's driver fit.
#[cfg_attr(test, mockall::automock)]
pub trait Requirements: Send + Sync {
    /// The driver stack this device needs, when the vendor has a table (NVIDIA, AMD, Intel).
    fn driver_requirement(&self, _device: &PciDevice) -> Option<Requirement> {
        None
    }

    /// The vendor's own requirement model, when [`Requirements::driver_requirement`] alone is
    /// not all it has to say (ids and `--driver` forms of its own, a site table, GPUs left out
    /// of the host's line, sections of its own, its own combination and wording: NVIDIA's
    /// generation table).
    fn requirement_model(&self) -> Option<&'static dyn RequirementModel> {
        None
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
}

/// The vendor's CDI generator: how its spec is written and rewritten, for `gpuctl cdi generate`,
/// doctor's remedy for a stale spec and explain's CDI hint.
#[cfg_attr(test, mockall::automock)]
pub trait CdiTooling: Send + Sync {
    /// How to rewrite the vendor's CDI spec at `spec_path` for the host as it is now, in one
    /// sentence (`sudo nvidia-ctk cdi generate --output=/var/run/cdi/nvidia.yaml`), naming any
    /// service of the host's that does it; `None` gives a neutral sentence. The output must be
    /// `spec_path` itself: a spec written elsewhere would not replace the stale one.
    fn cdi_regenerate(&self, _probe: &Probe, _spec_path: &str) -> Option<String> {
        None
    }

    /// The vendor's CDI spec as `gpuctl cdi generate` writes it, for a vendor whose nodes
    /// gpuctl knows as data; `None`: its own generator must write it (NVIDIA's adds the driver's
    /// libraries and hooks), and `cdi generate` names [`CdiTooling::cdi_generator`].
    fn cdi_draft(&self, _probe: &Probe) -> Option<Result<CdiDraft, GenerateError>> {
        None
    }

    /// The command that writes the vendor's CDI spec, without its `--output=` (`sudo amd-ctk cdi
    /// generate`): doctor names it for a spec of the vendor's kinds that podman would skip, and
    /// lists every vendor's when it cannot tell whose a broken spec is. `None`: none is known.
    fn cdi_generator(&self) -> Option<&'static str> {
        None
    }

    /// How the vendor's generator is told where to write, after [`CdiTooling::cdi_generator`]'s
    /// command: `{path}` stands for the spec's path and `{dir}` for its directory (a generator
    /// that writes one file per device into a directory: `--output-dir {dir}`). By default
    /// `--output={path}`, as nvidia-ctk and amd-ctk take it.
    fn cdi_output_args(&self) -> &'static str {
        "--output={path}"
    }

    /// The program of the vendor's container toolkit that writes its CDI specs, as the hint for
    /// a CDI failure names it (`nvidia-ctk`, `intel-cdi-specs-generator`); by default the
    /// program of [`CdiTooling::cdi_generator`]. `None`: none is known, and the hint says so in
    /// the vendor's words.
    fn cdi_tool(&self) -> Option<&'static str> {
        self.cdi_generator().map(super::program_of)
    }
}

/// The capability a vendor does not have: every method its default, "nothing of the kind".
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCapability;

impl Diagnostics for NoCapability {}
impl Requirements for NoCapability {}
impl CdiTooling for NoCapability {}
