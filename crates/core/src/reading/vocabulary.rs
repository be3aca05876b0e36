//! The GPU stack's own component names, as data: what a failure line must name for the
//! structured fallback ([`super::fallback`]) to read it as a GPU failure (issue 31). Each vendor
//! lists its components from its own published lists (the driver's installed files, its
//! toolkit's binaries, its runtime's API and status names) through
//! [`crate::backend::Diagnostics::components`]; core lists the vendor-neutral ones (DRM nodes,
//! the graphics loaders, the engines' GPU flags). The sources are named beside each list and in
//! docs/explain.md#fallback.
//!
//! A word matches as a token, never inside a longer word: the character before it is no letter
//! or digit, and (unless the component is a prefix, `/dev/nvidia` of `/dev/nvidia0`) the
//! character after it is no lower-case letter or digit, so `xe` is not found in `exec`, `CUDA`
//! is in `CUDA-capable` and `NVML` in `NVMLError`.

/// What kind of thing a component is: the class of object a failure of it is about, which
/// decides what the failure means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ComponentKind {
    /// A library of the host's driver that the GPU stack (a CDI spec, a hook) mounts into a
    /// container given the GPU (`libcuda.so`, `libnvidia-ml`).
    DriverLibrary,
    /// A library the image ships itself (cuDNN, rocBLAS, the Level Zero loader): its absence is
    /// the image's packaging, never claimed.
    ImageLibrary,
    /// A driver file a loader reads (a Vulkan ICD's JSON, a VA-API driver, firmware).
    DriverFile,
    /// A program of the stack (`nvidia-smi`, `rocminfo`, `nvidia-container-cli`).
    Program,
    /// A kernel module, or the kernel log's name for it (`nvidia_uvm`, `amdgpu`, `NVRM:`).
    KernelModule,
    /// A device node (`/dev/nvidiactl`, `/dev/kfd`, `/dev/dri/renderD128`).
    DeviceNode,
    /// An environment variable that selects or grants devices (`CUDA_VISIBLE_DEVICES`).
    Variable,
    /// A Kubernetes extended resource or a CDI kind (`nvidia.com/gpu`, `gpu.intel.com/i915`).
    Resource,
    /// A user-space runtime's own name, API call or status prefix (`CUDA`, `cuInit`,
    /// `hipError`, `ZE_RESULT_`): the runtime is the emitter of a line that names it.
    Runtime,
    /// A container runtime an engine runs by name (`nvidia-container-runtime`).
    ContainerRuntime,
    /// An engine's GPU flag (`--gpus`).
    Flag,
    /// The GPU itself, by a generic word (`GPU`, `gpus`) or a vendor's product name
    /// (`Radeon`, `Intel Arc`): a program's own words that it found none, or not this one. A
    /// line is read for such a word only when the word is its only component and the failure
    /// is the GPU's finding, model or start (`no GPU found`, `unsupported GPU`), never its
    /// memory or a file: every other GPU word is more specific.
    Device,
}

/// One component word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// The word as the stack prints it (case-sensitive).
    pub word: &'static str,
    /// What it is.
    pub kind: ComponentKind,
    /// The emitter a line is read as when this word says who printed it (`nvml`, `cuda`), as
    /// docs/explain.md#emitters names them; empty: the word names an object only.
    pub emitter: &'static str,
    /// That emitter in a sentence (`NVML`, `the CUDA runtime`).
    pub who: &'static str,
    /// The word may run on into more letters or digits (`/dev/nvidia` of `/dev/nvidia0`,
    /// `hipError` of `hipErrorNoDevice`).
    pub prefix: bool,
}

impl Component {
    /// A component that names an object only: a library, a node, a variable.
    pub const fn of(kind: ComponentKind, word: &'static str) -> Self {
        Component {
            word,
            kind,
            emitter: "",
            who: "",
            prefix: false,
        }
    }

    /// The same component as a prefix of longer names.
    pub const fn prefix(self) -> Self {
        Component {
            prefix: true,
            ..self
        }
    }

    /// The same component as the emitter of the lines that name it.
    pub const fn emits(self, emitter: &'static str, who: &'static str) -> Self {
        Component {
            emitter,
            who,
            ..self
        }
    }
}

/// The words of `components`, for a vendor's [`crate::backend::Diagnostics::gpu_words`]: one
/// list, the vocabulary, is both (`gpu_words: &vocabulary::words::<N>(COMPONENTS)`).
pub const fn words<const N: usize>(components: &[Component]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N && i < components.len() {
        out[i] = components[i].word;
        i += 1;
    }
    out
}

use ComponentKind::{Device, DeviceNode, DriverFile, Flag, Program, Runtime, Variable};

const VAAPI: (&str, &str) = ("vaapi", "VA-API (libva)");
const VULKAN: (&str, &str) = ("vulkan", "the Vulkan loader");
const MESA: (&str, &str) = ("mesa-loader", "Mesa's loader");
const OPENCL: (&str, &str) = ("opencl-icd", "the OpenCL ICD loader");

const fn va(kind: ComponentKind, word: &'static str) -> Component {
    Component::of(kind, word).emits(VAAPI.0, VAAPI.1)
}
const fn vk(kind: ComponentKind, word: &'static str) -> Component {
    Component::of(kind, word).emits(VULKAN.0, VULKAN.1)
}
const fn mesa(kind: ComponentKind, word: &'static str) -> Component {
    Component::of(kind, word).emits(MESA.0, MESA.1)
}
const fn cl(kind: ComponentKind, word: &'static str) -> Component {
    Component::of(kind, word).emits(OPENCL.0, OPENCL.1)
}

/// Core's components: every vendor's.
///
/// - DRM nodes: the kernel's DRM documentation (docs.kernel.org/gpu/drm-uapi.html, "Render
///   nodes": `/dev/dri/renderD<num>`, `/dev/dri/card<num>`); WSL's `/dev/dxg` (Microsoft's
///   "GPU acceleration in WSL" and the dxgkrnl driver).
/// - VA-API: libva's `va/va.c` (`vaInitialize`, `va_openDriver`, the `libva error:` prefix),
///   `LIBVA_DRIVER_NAME` and `LIBVA_DRIVERS_PATH` (libva's README), drivers named
///   `<name>_drv_video.so`; `vainfo` (libva-utils).
/// - Vulkan: KhronosGroup/Vulkan-Loader's loader interface document
///   (LoaderInterfaceArchitecture: `vkCreateInstance`, the `VK_ERROR_` results, ICD
///   manifests `<name>_icd.<arch>.json` under `icd.d`, `VK_ICD_FILENAMES`,
///   `VK_DRIVER_FILES`); `vulkaninfo` (Vulkan-Tools).
/// - Mesa: the loader's `MESA-LOADER:` prefix (src/loader/loader.c), GLX's `libGL error:`,
///   EGL and GBM entry points (`eglInitialize`, `gbm_create_device`), DRI2/DRI3 screens.
/// - OpenCL: the Khronos ICD loader (`clGetPlatformIDs`, `CL_PLATFORM_NOT_FOUND_KHR`, the
///   `/etc/OpenCL/vendors` registry); `clinfo`.
/// - The engines' GPU flag: docker's `--gpus` (docs.docker.com, "docker container run").
/// - The GPU by its generic name, as programs print it when they find none (`GPU`, `GPUs`,
///   `gpu`, `gpus`); a vendor's own product names are in its crate.
pub const CORE_COMPONENTS: &[Component] = &[
    Component::of(DeviceNode, "/dev/dri").prefix(),
    Component::of(DeviceNode, "renderD").prefix(),
    Component::of(DeviceNode, "/dev/dxg"),
    va(Runtime, "libva error"),
    va(Runtime, "libva"),
    va(Runtime, "vaInitialize"),
    va(Runtime, "va_openDriver"),
    va(Runtime, "vaGetDriverName").prefix(),
    va(Runtime, "VA-API"),
    va(Runtime, "VAAPI"),
    va(Program, "vainfo"),
    va(Variable, "LIBVA_DRIVER_NAME"),
    va(Variable, "LIBVA_DRIVERS_PATH"),
    Component::of(DriverFile, "_drv_video.so").prefix(),
    vk(Runtime, "vkCreateInstance"),
    vk(Runtime, "vkEnumeratePhysicalDevices"),
    vk(Runtime, "VK_ERROR_").prefix(),
    vk(Runtime, "Vulkan"),
    vk(Program, "vulkaninfo"),
    vk(Variable, "VK_ICD_FILENAMES"),
    vk(Variable, "VK_DRIVER_FILES"),
    Component::of(DriverFile, "_icd.json"),
    Component::of(DriverFile, "_icd.x86_64.json"),
    Component::of(DriverFile, "_icd.aarch64.json"),
    Component::of(DriverFile, "/vulkan/icd.d").prefix(),
    mesa(Runtime, "MESA-LOADER"),
    mesa(Runtime, "libGL error"),
    mesa(Runtime, "eglInitialize"),
    mesa(Runtime, "gbm_create_device"),
    mesa(Runtime, "dri2 screen"),
    mesa(Runtime, "dri3 screen"),
    cl(Runtime, "clGetPlatformIDs"),
    cl(Runtime, "CL_PLATFORM_NOT_FOUND_KHR"),
    cl(Runtime, "CL_DEVICE_NOT_FOUND"),
    cl(Program, "clinfo"),
    Component::of(DriverFile, "/etc/OpenCL/vendors").prefix(),
    Component::of(Flag, "--gpus"),
    cl(Runtime, "OpenCL"),
    Component::of(Device, "GPU"),
    Component::of(Device, "GPUs"),
    Component::of(Device, "gpu"),
    Component::of(Device, "gpus"),
];
