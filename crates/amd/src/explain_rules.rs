//! AMD's emitters read by structure (issue 31): rocminfo's ROCk module check, the HSA
//! runtime's and HIP's status strings, and the dynamic loader on the ROCm libraries (which the
//! image ships: AMD's GPU stack passes only /dev/kfd and the render nodes). Sources in
//! docs/explain.md#emitters.

use gpuctl_core::reading::{
    EmitterRule, LOADER, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_VAGUE, RULE,
};

/// The ROCm user-space libraries: the image's own.
const IMAGE_LIBS: &[&str] = &[
    "libamdhip64",
    "librocblas",
    "libhsa-runtime64",
    "libMIOpen",
    "librocm",
    "libhipblas",
    "librccl",
    "libroctx",
    "librocsolver",
    "librocfft",
    "libhiprand",
    "librocrand",
    "libhipsparse",
];

/// AMD's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // rocminfo.cc: "ROCk module is NOT loaded, possibly no GPU devices".
    EmitterRule {
        emitter: "rocminfo",
        who: "rocminfo",
        line: &[&["ROCk module is NOT loaded"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the amdgpu kernel module"),
        cause: "the amdgpu kernel driver (with KFD) is not loaded on this host, so ROCm has no GPU: not a permission problem of the render nodes.",
        check: "'lsmod | grep amdgpu' and 'dmesg | grep -i amdgpu' on the host; install or load amdgpu (the distribution kernel's, or amdgpu-dkms for the ROCm release)",
        host_path: Some("/sys/module/amdgpu"),
        rank: RANK_DECISIVE,
        ..RULE
    },
    // amdgpu's KFD in the kernel log: "kfd kfd: amdgpu: <ASIC> not supported in kfd".
    EmitterRule {
        emitter: "amdgpu-kernel-module",
        who: "the amdgpu kernel driver",
        line: &[&["kfd", "not supported in kfd"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("KFD (ROCm compute)"),
        cause: "this GPU has no ROCm compute support in the kernel (KFD refuses its ASIC), so no container setting makes ROCm see it.",
        check: "'gpuctl requirement' for the GPU; use a GPU that ROCm supports, or Vulkan / OpenCL through Mesa",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // HSA runtime: hsa_status_string values.
    EmitterRule {
        emitter: "hsa",
        who: "the HSA runtime (ROCr)",
        line: &[&["HSA_STATUS_ERROR_NOT_INITIALIZED"]],
        operation: Operation::Initialise,
        cause: "the HSA runtime did not start: it could not open /dev/kfd or found no supported GPU.",
        check: "'rocminfo' in the container; /dev/kfd and the render nodes must be given to it, and its user in their groups",
        rank: RANK_VAGUE,
        ..RULE
    },
    EmitterRule {
        emitter: "hip",
        who: "the HIP runtime",
        line: &[
            &["hipErrorOutOfMemory"],
            &["HIP out of memory"],
            &["HIP error: out of memory"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("device memory"),
        cause: "the GPU's memory is exhausted: the workload needs more than is free (or, on an APU, the carve-out the firmware gives the GPU is small) — not a configuration problem of the container.",
        check: "'rocm-smi --showmeminfo vram' shows the memory in use; use a smaller batch or model, or raise the APU's UMA size in the firmware",
        rank: RANK_VAGUE,
        ..RULE
    },
    // hipGetErrorString(hipErrorNoDevice): "no ROCm-capable device is detected".
    EmitterRule {
        emitter: "hip",
        who: "the HIP runtime",
        line: &[&["no ROCm-capable device is detected"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a ROCm GPU"),
        cause: "no GPU reached the HIP runtime: /dev/kfd or the GPU's render node was not given to the container, its user may not open them (render and video groups), or this ROCm release does not support the GPU.",
        check: "'rocminfo' in the container lists the agents it sees; pass '--device /dev/kfd --device /dev/dri' (or the amd.com/gpu CDI device) with '--group-add keep-groups' under crun",
        ..RULE
    },
    EmitterRule {
        emitter: "hip",
        who: "the HIP runtime",
        line: &[&["hipErrorInsufficientDriver"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the amdgpu driver"),
        cause: "the host's amdgpu/KFD driver is older than the image's ROCm release needs.",
        check: "'gpuctl requirement' gives the ROCm releases for this GPU; match the image's ROCm to the host's driver, or upgrade amdgpu-dkms",
        ..RULE
    },
    // HIP's hipErrorInvalidDeviceFunction, as PyTorch prints it: "HIP error: invalid device
    // function" (code for another LLVM target, often under HSA_OVERRIDE_GFX_VERSION).
    EmitterRule {
        emitter: "hip",
        who: "the HIP runtime",
        line: &[
            &["HIP error: invalid device function"],
            &["hipErrorInvalidDeviceFunction"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU's LLVM target"),
        cause: "the program has no kernel built for this GPU's LLVM target (gfx…): its ROCm build does not list the GPU, or HSA_OVERRIDE_GFX_VERSION names a target whose code does not run on it.",
        check: "'rocminfo | grep gfx' gives the GPU's target; 'gpuctl requirement' the ROCm releases that list it; set HSA_OVERRIDE_GFX_VERSION only to a target of the same family",
        ..RULE
    },
    // ollama's GPU discovery (discover/amd_linux.go): "amdgpu is not supported (supported
    // types:[...])" gpu_type=gfx1031.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu is not supported", "gpu_type="]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("gpu_type="),
        cause: "the GPU's LLVM target {object} is not among those ollama's ROCm build carries code for, so it runs on the CPU.",
        check: "'gpuctl requirement' gives the ROCm releases that list {object}; HSA_OVERRIDE_GFX_VERSION set to a supported target of the same family (10.3.0 for gfx103x) is ollama's documented override",
        ..RULE
    },
    EmitterRule {
        objects: IMAGE_LIBS,
        owner: Owner::Image,
        cause: "{object} is a ROCm library, which the image must ship: AMD's GPU stack passes only /dev/kfd and the render nodes, never libraries.",
        check: "install it in the image (a rocm/dev-* base image, or the ROCm packages of the release the framework was built for)",
        ..LOADER
    },
];
