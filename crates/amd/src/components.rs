//! AMD's component vocabulary for the structured fallback (docs/explain.md#fallback), from
//! AMD's own lists:
//!
//! - the kernel driver and its nodes: the kernel's amdgpu documentation
//!   (docs.kernel.org/gpu/amdgpu: `amdgpu`, KFD, `/dev/kfd`), ROCm's "Running ROCm Docker
//!   containers" page (rocm.docs.amd.com: `--device /dev/kfd --device /dev/dri`);
//! - the ROCm user space: ROCm/rocminfo, ROCm/rocm_smi_lib (`rocm-smi`, `librocm_smi64`),
//!   ROCm/amdsmi (`amd-smi`), ROCm/ROCR-Runtime (`libhsa-runtime64`, `hsa_status_t`'s
//!   `HSA_STATUS_*`, `ROCR_VISIBLE_DEVICES`, `HSA_OVERRIDE_GFX_VERSION`), ROCm/HIP
//!   (`libamdhip64`, `hipError_t`'s `hipError*`, `HIP_VISIBLE_DEVICES`; PyTorch's "No HIP GPUs
//!   are available"), ROCm/rocBLAS and its Tensile host, MIOpen;
//! - Kubernetes and CDI: ROCm/k8s-device-plugin's `amd.com/gpu`, the AMD Container Toolkit's
//!   `amd-ctk`.
//!
//! ROCm's libraries are the image's (AMD's GPU stack passes only the nodes): their absence is
//! never claimed.

use gpuctl_core::plugin::{Component, ComponentKind, component_words};

use ComponentKind::{
    DeviceNode, DriverFile, ImageLibrary, KernelModule, Program, Resource, Runtime, Variable,
};

const fn image(word: &'static str) -> Component {
    Component::of(ImageLibrary, word).prefix()
}
const fn prog(word: &'static str) -> Component {
    Component::of(Program, word).emits(word, word)
}
const fn module(word: &'static str) -> Component {
    Component::of(KernelModule, word).emits("amdgpu-kernel-module", "the amdgpu kernel module")
}
const fn hip(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("hip", "the HIP runtime")
}
const fn hsa(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("hsa", "ROCr (the HSA runtime)")
}
const fn rocblas(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("rocblas", "rocBLAS")
}

/// AMD's components.
pub(crate) const COMPONENTS: &[Component] = &[
    module("amdgpu"),
    module("amdkfd"),
    module("kfd kfd:"),
    module("amdgpu.ko"),
    module("/sys/module/amdgpu").prefix(),
    Component::of(DeviceNode, "/dev/kfd"),
    Component::of(DriverFile, "amdgpu.ids"),
    Component::of(DriverFile, "/lib/firmware/amdgpu").prefix(),
    prog("rocminfo"),
    prog("rocm-smi"),
    prog("amd-smi"),
    prog("amd-ctk"),
    prog("rocm_agent_enumerator"),
    hip("hipError").prefix(),
    hip("HIP error"),
    hip("HIP"),
    hip("hipGetDevice").prefix(),
    hip("hipInit"),
    hip("hipSetDevice"),
    Component::of(Runtime, "ROCm").emits("hip", "the ROCm runtime"),
    hsa("HSA_STATUS_").prefix(),
    hsa("hsa_init"),
    hsa("hsa_status_t"),
    hsa("HSA"),
    hsa("ROCr"),
    rocblas("rocBLAS"),
    rocblas("Tensile host"),
    Component::of(Variable, "HIP_VISIBLE_DEVICES"),
    Component::of(Variable, "ROCR_VISIBLE_DEVICES"),
    Component::of(Variable, "HSA_OVERRIDE_GFX_VERSION"),
    Component::of(Variable, "GPU_DEVICE_ORDINAL"),
    Component::of(Resource, "amd.com/gpu").prefix(),
    image("libamdhip64"),
    image("libhsa-runtime"),
    image("librocm_smi64"),
    image("librocblas"),
    image("libMIOpen"),
    image("MIOpen"),
    image("librccl"),
    image("libhipblas"),
    // The GPU by AMD's own names, as programs print it when they find none or not this one
    // (AMD's product pages: Radeon, Radeon PRO, Instinct).
    Component::of(ComponentKind::Device, "AMD GPU").prefix(),
    Component::of(ComponentKind::Device, "Radeon").prefix(),
];

/// The words of [`COMPONENTS`]: AMD's `gpu_words`.
pub(crate) const WORDS: [&str; COMPONENTS.len()] = component_words(COMPONENTS);
