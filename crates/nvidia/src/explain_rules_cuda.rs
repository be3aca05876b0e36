//! The CUDA runtime and driver API read by structure (issue 31): cudaGetErrorString's strings
//! and the CUresult names, as programs print them. Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, Owner, RANK_VAGUE, RULE};

/// The CUDA runtime's lines (its error codes' rules, [`crate::explain_rules_cuda_codes`], too).
pub(crate) const CUDA: EmitterRule = EmitterRule {
    emitter: "cuda",
    who: "the CUDA runtime",
    ..RULE
};

/// CUDA's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // cudaGetErrorString's strings and the CUresult names.
    EmitterRule {
        line: &[
            &["system has unsupported display driver / cuda driver combination"],
            &["CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"],
            &["cudaErrorSystemDriverMismatch"],
            &["CUDA", "Error 803"],
            &["cuda", "Error 803"],
            &["CUDA error: 803"],
            &["cuda", "returned 803"],
            &["CUDA failure 803"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("libcuda and the kernel module"),
        cause: "the libcuda the program loaded is of another release than the host's kernel module: the image ships its own libcuda (a cuda-compat package or driver files) or LD_LIBRARY_PATH points at one.",
        check: "'ldconfig -p | grep libcuda' and 'ls /usr/local/cuda/compat' in the container against 'cat /proc/driver/nvidia/version' on the host; remove the image's copy",
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["forward compatibility was attempted on non supported HW"],
            &["CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"],
            &["cudaErrorCompatNotSupportedOnDevice"],
            &["CUDA", "Error 804"],
            &["cuda", "Error 804"],
            &["CUDA error: 804"],
            &["cuda", "returned 804"],
            // onnxruntime's `CUDA failure 804: ...` (microsoft/onnxruntime#21435).
            &["CUDA failure 804"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("CUDA forward compatibility"),
        cause: "the image uses CUDA forward compatibility (cuda-compat libraries newer than the host driver), which works only on data-center GPUs: this GPU needs a host driver as new as the image's CUDA.",
        check: "'gpuctl requirement' and 'nvidia-smi' give the driver the image needs; upgrade the host driver or use an image built for an older CUDA",
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["CUDA error: no kernel image is available"],
            &["cudaErrorNoKernelImageForDevice"],
            &["CUDA_ERROR_NO_BINARY_FOR_GPU"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU's compute capability"),
        // The binary the image ships lacks the GPU's architecture: its packaging, not the GPU
        // stack's (corpus 162, dusty-nv/jetson-containers#7: torchvision without kernels for
        // the GPU), so said but not claimed.
        owner: Owner::Image,
        cause: "the program carries no code for this GPU's compute capability: the framework build is too old for a new GPU or dropped an old one.",
        check: "compare the GPU's compute capability ('nvidia-smi --query-gpu=compute_cap --format=csv') with the architectures the framework was built for; use a build that lists it",
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["the provided PTX was compiled with an unsupported toolchain"],
            &["CUDA_ERROR_UNSUPPORTED_PTX_VERSION"],
            &["cudaErrorUnsupportedPtxVersion"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the host driver's CUDA version"),
        cause: "the program's PTX was built by a CUDA newer than the host driver supports.",
        check: "'nvidia-smi' shows the highest CUDA the driver supports; upgrade the driver or use an image built for that CUDA",
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["CUDA driver is a stub library"],
            &["CUDA_ERROR_STUB_LIBRARY"],
            &["cudaErrorStubLibrary"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("libcuda.so"),
        cause: "the program loaded the CUDA toolkit's stub libcuda (…/lib64/stubs) instead of the driver's: the container has no driver libraries (no GPU given to it) or LD_LIBRARY_PATH puts the stubs first.",
        check: "give the container the GPU ('--device nvidia.com/gpu=all', as 'gpuctl args' prints it) and drop the stubs directory from LD_LIBRARY_PATH",
        ..CUDA
    },
    // cudaErrorDevicesUnavailable / CUDA_ERROR_DEVICE_UNAVAILABLE (46); CUDA before 11 printed
    // "all CUDA-capable devices are busy or unavailable" (DDMAL/Rodan#1332, TensorFlow). It comes
    // from creating the context, so the operation is initialisation.
    EmitterRule {
        line: &[
            &["CUDA-capable device(s) is/are busy or unavailable"],
            &["all CUDA-capable devices are busy or unavailable"],
            &["cudaErrorDevicesUnavailable"],
            &["CUDA_ERROR_DEVICE_UNAVAILABLE"],
            &["CUDA_ERROR_DEVICES_UNAVAILABLE"],
            &["CUDA", "Error 46:"],
            &["cuda", "returned 46"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "CUDA could not create a context on any GPU it sees: each is in an exclusive compute mode held by another process or prohibited, a MIG-enabled GPU was given whole instead of a MIG device, or a vGPU without a valid licence (its guest driver refuses CUDA once the grace period ends).",
        check: "'nvidia-smi -q -d COMPUTE' shows the compute mode and 'nvidia-smi' the processes holding the GPU; with MIG enabled, request a MIG device; on a vGPU, 'nvidia-smi -q | grep -i -A2 licen' must show it licensed",
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["CUDA unknown error - this may be due to an incorrectly set up environment"],
            // PyTorch's `CUDA error: <cudaGetErrorString>` for cudaErrorUnknown (999).
            &["CUDA error: unknown error"],
            &["CUDA_ERROR_UNKNOWN"],
            &["cudaErrorUnknown"],
            // nccl-tests' CUDACHECK: "%s: Test CUDA failure %s:%d '%s'" (NVIDIA/pyxis#81: no
            // nvidia_uvm on the node).
            &["CUDA failure", "'unknown error'"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        // NVIDIA/nvidia-container-toolkit: 1.19.1 broke cuInit in containers where 1.19.0 worked.
        cause: "CUDA could not start on the GPU for a reason the driver does not name: most often /dev/nvidia-uvm is missing (nvidia_uvm not loaded, or the node not given to the container), the host was suspended and resumed, or a container-toolkit upgrade just before it regressed (1.19.1: the release before worked).",
        host_path: Some("/dev/nvidia-uvm"),
        check: "'ls -l /dev/nvidia-uvm' on the host and in the container ('sudo modprobe nvidia_uvm' creates it; 'gpuctl doctor' checks it); after a suspend, reload nvidia_uvm",
        rank: RANK_VAGUE,
        ..CUDA
    },
    EmitterRule {
        line: &[
            &["CUDA error: invalid device ordinal"],
            &["CUDA_ERROR_INVALID_DEVICE"],
            &["cudaErrorInvalidDevice"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the requested GPU"),
        cause: "the program asks for a GPU index the container does not have: CUDA_VISIBLE_DEVICES or the program's device number is beyond the GPUs given to it.",
        check: "'nvidia-smi -L' in the container lists the GPUs it has (numbered from 0); request that many, or give it more",
        ..CUDA
    },
    // CUDA's out of memory (cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY) is the
    // workload's, not the stack's: no rule reads it, so it stays unclaimed (a look-alike in
    // crates/cli/tests/explain_nvidia_stack.rs).
    // The program's own faults on a GPU it reached, by their cudaGetErrorString strings and
    // names (CUDA Runtime API reference, enum cudaError: cudaErrorIllegalAddress 700,
    // cudaErrorAssert 710, cudaErrorLaunchFailure 719, cudaErrorLaunchOutOfResources 701,
    // cudaErrorMisalignedAddress 716, cudaErrorIllegalInstruction 715, cudaErrorInvalidPc 718,
    // cudaErrorHardwareStackError 714): said to be the workload's, so that no reading of the
    // line's structure takes them for the stack's (the fallback, docs/explain.md#fallback).
    EmitterRule {
        line: &[
            &["CUDA", "an illegal memory access was encountered"],
            &["CUDA", "device-side assert triggered"],
            &["CUDA", "unspecified launch failure"],
            &["CUDA", "too many resources requested for launch"],
            &["CUDA", "misaligned address"],
            &["CUDA", "an illegal instruction was encountered"],
            &["CUDA", "invalid program counter"],
            &["CUDA", "hardware stack error"],
            // cudaErrorInvalidConfiguration (9): a launch whose grid or block the program sized
            // beyond the device's limits (set O: LostRuins/koboldcpp#490, fixed in the program).
            &["CUDA", "invalid configuration argument"],
            &["cudaErrorInvalidConfiguration"],
            &["cudaErrorIllegalAddress"],
            &["CUDA_ERROR_ILLEGAL_ADDRESS"],
            &["cudaErrorAssert"],
            &["CUDA_ERROR_ASSERT"],
            &["cudaErrorLaunchFailure"],
            &["CUDA_ERROR_LAUNCH_FAILED"],
            &["cudaErrorLaunchOutOfResources"],
            &["CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"],
            &["cudaErrorMisalignedAddress"],
            &["CUDA_ERROR_MISALIGNED_ADDRESS"],
            &["cudaErrorIllegalInstruction"],
            &["CUDA_ERROR_ILLEGAL_INSTRUCTION"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the program's kernel"),
        owner: gpuctl_core::plugin::Owner::Workload,
        cause: "the program's own kernel failed on a GPU it reached (a bad address, an assert, a launch it sized too large): no container or driver setting causes it.",
        check: "rerun with CUDA_LAUNCH_BLOCKING=1 (or compute-sanitizer) to find the kernel; report it to the program",
        rank: gpuctl_core::plugin::RANK_NOTE,
        ..CUDA
    },
    // PyTorch's torch/cuda/__init__.py `_lazy_init`: "No CUDA GPUs are available" when the
    // runtime counts no device (the torch.cuda API is also a ROCm build's, through HIP).
    EmitterRule {
        emitter: "cuda",
        who: "PyTorch's CUDA runtime",
        line: &[&["No CUDA GPUs are available"]],
        operation: Operation::FindDevice,
        cause: "the framework's GPU runtime counts no device where it runs: no GPU was given to the container (no CDI device, '--gpus' or device nodes), CUDA_VISIBLE_DEVICES (HIP_VISIBLE_DEVICES) hides them all, or on a ROCm build the process may not open /dev/kfd and the render nodes (not in their 'render' and 'video' groups).",
        check: "'nvidia-smi -L' (or 'rocminfo') in the container and 'echo $CUDA_VISIBLE_DEVICES'; give the container the GPU ('podman run $(gpuctl args) ...'); for ROCm add '--group-add keep-groups' or the render and video groups",
        ..RULE
    },
    // PyTorch's torch/cuda/__init__.py: "Found no NVIDIA driver on your system": a CUDA build
    // found no libcuda and no NVIDIA device. On a host whose GPU is another vendor's it is the
    // wrong build (NVIDIA/k8s-device-plugin#812); `explain` with a host says which it is.
    EmitterRule {
        emitter: "cuda",
        who: "PyTorch's CUDA runtime",
        line: &[&["Found no NVIDIA driver on your system"]],
        operation: Operation::FindDevice,
        // AbdBarho/stable-diffusion-webui-docker#348: nvidia-smi worked in the container,
        // which was given the utility capability only, so libcuda was not mounted.
        cause: "a CUDA build of the framework found no NVIDIA driver where it runs: the container was not given the GPU (the engine ignored or was not given the GPU request), it was given the GPU without the compute capability (NVIDIA_DRIVER_CAPABILITIES of 'utility' only: nvidia-smi works, but libcuda is not mounted), or the host's GPU is not NVIDIA's (an AMD or Intel GPU needs the framework's ROCm or XPU build).",
        check: "'lspci -nn | grep -i -e vga -e 3d' on the host says whose GPU it is; for an NVIDIA GPU give the container the GPU ('--device nvidia.com/gpu=all', as 'gpuctl args' prints it) and check 'nvidia-smi' inside it; for another vendor's, install the framework's build for it",
        host_path: Some("/sys/module/nvidia"),
        ..RULE
    },
];
