//! NVIDIA's component vocabulary for the structured fallback (docs/explain.md#fallback): the
//! words a failure line names when it is about NVIDIA's stack, each with its kind and, for a
//! word that prints, its emitter. The lists come from NVIDIA's own:
//!
//! - the driver's libraries and programs: libnvidia-container's `src/nvc_info.c` (the
//!   `utility_bins`, `compute_bins`, `utility_libs`, `compute_libs`, `video_libs`,
//!   `graphics_libs`, `graphics_libs_glvnd`, `ngx_libs` and `dxcore_libs` lists: what the
//!   toolkit mounts into a container), and the driver README's "Installed Components" chapter
//!   (download.nvidia.com/XFree86/Linux-x86_64/<release>/README/installedcomponents.html: the
//!   kernel modules nvidia.ko, nvidia-uvm.ko, nvidia-modeset.ko, nvidia-drm.ko,
//!   nvidia-peermem.ko, the Vulkan ICD `nvidia_icd.json`, the EGL vendor file `10_nvidia.json`,
//!   the GSP firmware `gsp_*.bin`);
//! - the device nodes: the README's "/dev/nvidia*" (nvidia0…, nvidiactl, nvidia-uvm,
//!   nvidia-modeset, nvidia-caps);
//! - the container toolkit's binaries and variables: NVIDIA/nvidia-container-toolkit
//!   (`nvidia-container-runtime`, `nvidia-container-runtime-hook`, `nvidia-ctk`,
//!   `nvidia-cdi-hook`; `NVIDIA_VISIBLE_DEVICES`, `NVIDIA_DRIVER_CAPABILITIES`,
//!   `NVIDIA_REQUIRE_CUDA`, `NVIDIA_DISABLE_REQUIRE`, `NVIDIA_MIG_CONFIG_DEVICES`; its
//!   docs/ "Specialized Configurations" page), libnvidia-container's `nvidia-container-cli`;
//! - Kubernetes: NVIDIA/k8s-device-plugin's resource names `nvidia.com/gpu` and
//!   `nvidia.com/mig-<profile>`;
//! - CUDA and NVML as a user sees them: the CUDA Driver and Runtime API references (`cuInit`,
//!   `CUresult`, `CUDA_ERROR_*`, `cudaError*`, `cudaGetDeviceCount`; `CUDA_VISIBLE_DEVICES` in
//!   the CUDA C Programming Guide's "CUDA Environment Variables"), PyTorch's `torch.cuda`, the
//!   NVML API reference (`nvmlInit`, `NVML`, pynvml's `NVMLError`), the kernel module's `NVRM:`
//!   log prefix, NVENC/NVDEC (the Video Codec SDK).
//!
//! The libraries the image ships (cuDNN, cuBLAS, the CUDA runtime library) are listed as the
//! image's: their absence is never claimed.

use gpuctl_core::plugin::{Component, ComponentKind, component_words};

use ComponentKind::{
    ContainerRuntime, DeviceNode, DriverFile, DriverLibrary, Flag, ImageLibrary, KernelModule,
    Program, Resource, Runtime, Variable,
};

const fn lib(word: &'static str) -> Component {
    Component::of(DriverLibrary, word)
}
const fn file(word: &'static str) -> Component {
    Component::of(DriverFile, word)
}
const fn image(word: &'static str) -> Component {
    Component::of(ImageLibrary, word).prefix()
}
const fn var(word: &'static str) -> Component {
    Component::of(Variable, word)
}
/// A program that prints its own name first: its own emitter.
const fn prog(word: &'static str, emitter: &'static str) -> Component {
    Component::of(Program, word).emits(emitter, word)
}
const fn cuda(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("cuda", "the CUDA runtime")
}
const fn nvml(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("nvml", "NVML")
}
const fn module(word: &'static str) -> Component {
    Component::of(KernelModule, word).emits("nvidia-kernel-module", "the NVIDIA kernel module")
}

/// NVIDIA's components.
pub(crate) const COMPONENTS: &[Component] = &[
    // nvc_info.c's utility_libs, compute_libs, video_libs, graphics_libs(_glvnd), ngx, dxcore.
    lib("libcuda"),
    lib("libcudadebugger"),
    lib("libnvidia-ml"),
    lib("libnvidia-cfg"),
    lib("libnvidia-nscq"),
    lib("libnvidia-opencl"),
    lib("libnvidia-gpucomp"),
    lib("libnvidia-ptxjitcompiler"),
    lib("libnvidia-fatbinaryloader"),
    lib("libnvidia-allocator"),
    lib("libnvidia-compiler"),
    lib("libnvidia-pkcs11"),
    lib("libnvidia-nvvm"),
    lib("libnvidia-tileiras"),
    lib("libvdpau_nvidia"),
    lib("libnvidia-encode"),
    lib("libnvidia-opticalflow"),
    lib("libnvcuvid"),
    lib("libnvidia-eglcore"),
    lib("libnvidia-glcore"),
    lib("libnvidia-tls"),
    lib("libnvidia-glsi"),
    lib("libnvidia-fbc"),
    lib("libnvidia-ifr"),
    lib("libnvidia-rtcore"),
    lib("libnvoptix"),
    lib("libGLX_nvidia"),
    lib("libEGL_nvidia"),
    lib("libGLESv2_nvidia"),
    lib("libGLESv1_CM_nvidia"),
    lib("libnvidia-glvkspirv"),
    lib("libnvidia-cbl"),
    lib("libnvidia-ngx"),
    lib("libnvidia-egl-wayland"),
    lib("libnvidia-egl-gbm"),
    lib("libdxcore"),
    lib("libnvidia-container"),
    lib("libnvidia-").prefix(),
    // The README's Installed Components: driver files a loader reads.
    file("nvidia_icd.json"),
    file("nvidia_layers.json"),
    file("10_nvidia.json"),
    file("nvidia-drm_gbm.so"),
    file("gsp_ga10x.bin"),
    file("gsp_tu10x.bin"),
    file("/lib/firmware/nvidia").prefix(),
    // nvc_info.c's utility_bins and compute_bins, the toolkit's binaries.
    prog("nvidia-smi", "nvidia-smi"),
    prog("NVIDIA-SMI", "nvidia-smi"),
    prog("nvidia-debugdump", "nvidia-debugdump"),
    prog("nvidia-persistenced", "nvidia-persistenced"),
    prog("nv-fabricmanager", "nvidia-fabricmanager"),
    prog("nvidia-fabricmanager", "nvidia-fabricmanager"),
    prog("nvidia-cuda-mps-control", "nvidia-cuda-mps"),
    prog("nvidia-cuda-mps-server", "nvidia-cuda-mps"),
    prog("nvidia-modprobe", "nvidia-modprobe"),
    prog("nvidia-container-cli", "nvidia-container-cli"),
    prog("nvidia-ctk", "nvidia-ctk"),
    prog("nvidia-cdi-hook", "nvidia-ctk"),
    prog("nvidia-container-toolkit", "nvidia-ctk"),
    prog(
        "nvidia-container-runtime-hook",
        "nvidia-container-runtime-hook",
    ),
    prog("nvidia-docker", "nvidia-docker"),
    prog("nvidia-device-plugin", "device-plugin"),
    Component::of(ContainerRuntime, "nvidia-container-runtime")
        .emits("nvidia-container-runtime", "NVIDIA's container runtime"),
    Component::of(Program, "nvidia-container").prefix(),
    // The engine's flag that runs NVIDIA's runtime, whose hooks are the toolkit's: a hook's
    // stderr that names no hook is theirs.
    Component::of(Flag, "--runtime=nvidia")
        .emits("nvidia-ctk", "the NVIDIA Container Toolkit's hook"),
    // The README's kernel modules and the module's log prefix.
    module("NVRM:"),
    module("nvidia_uvm"),
    module("nvidia-uvm"),
    module("nvidia_drm"),
    module("nvidia-drm"),
    module("nvidia_modeset"),
    module("nvidia-modeset"),
    module("nvidia_peermem"),
    module("nvidia-peermem"),
    module("nvidia.ko"),
    module("/sys/module/nvidia").prefix(),
    Component::of(DeviceNode, "/dev/nvidia").prefix(),
    // The toolkit's and CUDA's variables.
    var("NVIDIA_VISIBLE_DEVICES"),
    var("NVIDIA_DRIVER_CAPABILITIES"),
    var("NVIDIA_REQUIRE_CUDA"),
    var("NVIDIA_DISABLE_REQUIRE"),
    var("NVIDIA_MIG_CONFIG_DEVICES"),
    var("NVIDIA_MIG_MONITOR_DEVICES"),
    var("CUDA_VISIBLE_DEVICES"),
    // k8s-device-plugin's resources.
    Component::of(Resource, "nvidia.com/gpu").prefix(),
    Component::of(Resource, "nvidia.com/mig-").prefix(),
    // CUDA, NVML and the video engines as a user sees them.
    cuda("CUDA"),
    cuda("cuda error"),
    cuda("CUDA_ERROR_").prefix(),
    cuda("cudaError").prefix(),
    cuda("CUresult"),
    cuda("cuInit"),
    cuda("cuDevice").prefix(),
    cuda("cuCtx").prefix(),
    cuda("cudaGetDevice").prefix(),
    cuda("cudaSetDevice"),
    cuda("torch.cuda"),
    // A PyTorch traceback's frames: torch/cuda/__init__.py, torch._C._cuda_init().
    cuda("torch/cuda/").prefix(),
    cuda("_cuda_init"),
    nvml("NVML"),
    nvml("nvml error"),
    nvml("nvml:"),
    nvml("nvmlInit").prefix(),
    nvml("pynvml"),
    Component::of(Runtime, "NVENC").emits("nvenc", "NVENC (the driver's video encoder)"),
    Component::of(Runtime, "NVDEC").emits("nvdec", "NVDEC (the driver's video decoder)"),
    Component::of(Runtime, "CUVID").emits("nvdec", "NVDEC (the driver's video decoder)"),
    // What the image ships: the CUDA toolkit's and NVIDIA's SDKs' libraries.
    image("libcudnn"),
    image("cuDNN"),
    image("libcublas"),
    image("cuBLAS"),
    image("libcudart"),
    image("libnccl"),
    image("NCCL"),
    image("TensorRT"),
    image("libnvinfer"),
    // The GPU by NVIDIA's own names, as programs print it when they find none or not this one
    // (NVIDIA's product pages: GeForce).
    Component::of(ComponentKind::Device, "NVIDIA GPU").prefix(),
    Component::of(ComponentKind::Device, "GeForce").prefix(),
];

/// The words of [`COMPONENTS`]: NVIDIA's `gpu_words`.
pub(crate) const WORDS: [&str; COMPONENTS.len()] = component_words(COMPONENTS);
