//! HIP's `hipError_t` as data (issue 31): every value of ROCm/HIP
//! `include/hip/hip_runtime_api.h` with the message `hipGetErrorString` gives it (ROCm/clr
//! `hipamd/src/hip_error.cpp`), in one class per cause. A status is read by its name
//! (`hipErrorNoDevice`, as `hipGetErrorName` and the runtime's own log print it), or by its
//! message or number on a line of HIP's: PyTorch's `HIP error: invalid device function`,
//! llama.cpp's `ROCm error: ...`, a `HIP_CHECK` macro's `hipError_t 100`, `returned 100`.
//! The names a family claims (`hipErrorNoDevice`, `hipErrorNoBinaryForGpu`) keep it.

use gpuctl_core::plugin::{
    EmitterRule, NumberAt, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, decimal_after,
    status,
};

/// HIP's line shapes (a number or a message reads only on one) and its numbers.
const HIP: EmitterRule = EmitterRule {
    emitter: "hip",
    who: "the HIP runtime",
    line: &[
        &["HIP error"],
        &["hip error"],
        &["HIP Error"],
        &["hipError"],
        &["ROCm error"],
        &["HIP_ERROR"],
        &["hipGetDeviceCount"],
        &["hipInit"],
        &["failed to initialize ROCm"],
        // PyTorch's torch.OutOfMemoryError on ROCm: "HIP out of memory. Tried to allocate".
        &["HIP out of memory"],
    ],
    numbers: NUMBERS,
    ..RULE
};

/// Where HIP's callers print a status's number.
const NUMBERS: &[NumberAt] = &[
    decimal_after("hipError_t "),
    decimal_after("HIP error "),
    decimal_after("returned "),
    decimal_after("error code "),
    decimal_after("error code: "),
    decimal_after("code="),
    decimal_after("code: "),
];

/// No GPU reached the runtime, or not the one asked for.
pub(crate) const NO_DEVICE: EmitterRule = EmitterRule {
    statuses: &[status(
        "hipErrorNoDevice",
        100,
        "no ROCm-capable device is detected",
    )],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("a ROCm GPU"),
    cause: "{status}: no GPU reached the HIP runtime: /dev/kfd or the GPU's render node was not given to the container, its user may not open them (render and video groups), HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES hide it, or this ROCm release does not support the GPU.",
    check: "'rocminfo' in the container lists the agents it sees; pass '--device /dev/kfd --device /dev/dri' (or the amd.com/gpu CDI device) with '--group-add keep-groups' under crun",
    ..HIP
};

/// A device ordinal beyond the GPUs the runtime sees.
pub(crate) const INVALID_DEVICE: EmitterRule = EmitterRule {
    statuses: &[status(
        "hipErrorInvalidDevice",
        101,
        "invalid device ordinal",
    )],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU the program asks for"),
    // ROCm/hip#337: HIP's sample got it (as 1010, an early HIP's number) where the user was
    // not in the video group and so saw no GPU at all; it ran with sudo.
    cause: "{status}: the program asks for a GPU index the runtime does not have: the runtime sees no GPU at all (its user may not open /dev/kfd and the render node: not in the render and video groups, so it works only as root), the container was given fewer GPUs than the program expects (one render node, or HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES naming fewer or other GPUs), or one of them is not supported by this ROCm release and is skipped.",
    check: "'rocminfo | grep -e gfx -e Marketing' as the same user lists the GPUs it sees (if sudo sees more, 'sudo usermod -aG render,video $USER'); pass every GPU's render node with /dev/kfd, and check the *_VISIBLE_DEVICES variables",
    ..HIP
};

/// The host's driver is older than the runtime.
pub(crate) const DRIVER: EmitterRule = EmitterRule {
    statuses: &[status(
        "hipErrorInsufficientDriver",
        35,
        "driver version is insufficient for runtime version",
    )],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the amdgpu driver"),
    cause: "{status}: the host's amdgpu/KFD driver is older than the image's ROCm release needs.",
    check: "'gpuctl requirement' gives the ROCm releases for this GPU; match the image's ROCm to the host's driver, or upgrade amdgpu-dkms",
    ..HIP
};

/// No code for this GPU's target in what the program loads.
pub(crate) const TARGET: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "hipErrorInvalidDeviceFunction",
            98,
            "invalid device function",
        ),
        status(
            "hipErrorNoBinaryForGpu",
            209,
            "no kernel image is available for execution on the device",
        ),
        status(
            "hipErrorInvalidImage",
            200,
            "device kernel image is invalid",
        ),
        status("hipErrorInvalidKernelFile", 218, "invalid kernel file"),
        status("hipErrorInvalidSource", 300, ""),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "{status}: the program has no kernel built for this GPU's LLVM target (gfx…): its ROCm build does not list the GPU, or HSA_OVERRIDE_GFX_VERSION names a target whose code does not run on it.",
    check: "'rocminfo | grep gfx' gives the GPU's target; 'gpuctl requirement' the ROCm releases that list it; set HSA_OVERRIDE_GFX_VERSION only to a target of the same family",
    ..HIP
};

/// The runtime (or the HSA runtime under it) did not start on the GPU.
pub(crate) const INIT: EmitterRule = EmitterRule {
    statuses: &[
        status("hipErrorNotInitialized", 3, "initialization error"),
        status("hipErrorInitializationError", 3, ""),
        status(
            "hipErrorSharedObjectInitFailed",
            303,
            "shared object initialization failed",
        ),
        status(
            "hipErrorOperatingSystem",
            304,
            "OS call failed or operation not supported on this OS",
        ),
        status(
            "hipErrorRuntimeOther",
            1053,
            "runtime call other than memory returned error",
        ),
        status(
            "hipErrorRuntimeMemory",
            1052,
            "runtime memory call returned error",
        ),
        status("hipErrorUnknown", 999, ""),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the HIP runtime could not start on the GPU, or a call into the HSA runtime under it failed: most often /dev/kfd or the render node is missing in the container or not openable by its user (render and video groups), the host's amdgpu driver does not fit this ROCm release, or the GPU is not one it supports; the HSA or rocminfo lines beside it say which.",
    check: "'rocminfo' in the container names the first failing step; 'ls -l /dev/kfd /dev/dri' there and 'sudo dmesg | grep -e kfd -e amdgpu' on the host",
    rank: RANK_VAGUE,
    ..HIP
};

/// A kernel crashed or a GPU fault: two readings (another target's code, or a bug), or the
/// hardware's own uncorrectable error.
pub(crate) const FAULT: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "hipErrorIllegalAddress",
            700,
            "an illegal memory access was encountered",
        ),
        status("hipErrorLaunchFailure", 719, "unspecified launch failure"),
        status(
            "hipErrorLaunchTimeOut",
            702,
            "the launch timed out and was terminated",
        ),
        status(
            "hipErrorECCNotCorrectable",
            214,
            "uncorrectable ECC error encountered",
        ),
    ],
    // hipErrorPriorLaunchFailure's message holds this class's "unspecified launch failure".
    unless: &["in prior launch"],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "{status}: a GPU kernel failed while it ran, which has readings the text alone cannot tell: code for another GPU target run through HSA_OVERRIDE_GFX_VERSION, a bug of the program or the ROCm release, or (an ECC error, a timeout) the GPU's own fault. The GPU was reached: it is not a container set-up problem.",
    check: "'env | grep HSA_OVERRIDE_GFX_VERSION' in the container (drop an override naming another target); 'sudo dmesg | grep -i -e amdgpu -e \"page fault\"' on the host names a GPU reset or fault",
    rank: RANK_VAGUE,
    ..HIP
};

/// The workload's own: memory it asked for, arguments, handles, streams and graphs it used.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("hipErrorOutOfMemory", 2, "out of memory"),
        status("hipErrorMemoryAllocation", 2, ""),
        status(
            "hipErrorLaunchOutOfResources",
            701,
            "too many resources requested for launch",
        ),
        status("hipErrorInvalidValue", 1, "invalid argument"),
        status("hipErrorDeinitialized", 4, "driver shutting down"),
        status("hipErrorProfilerDisabled", 5, ""),
        status("hipErrorProfilerNotInitialized", 6, ""),
        status("hipErrorProfilerAlreadyStarted", 7, ""),
        status("hipErrorProfilerAlreadyStopped", 8, ""),
        status(
            "hipErrorInvalidConfiguration",
            9,
            "invalid configuration argument",
        ),
        status("hipErrorInvalidPitchValue", 12, "invalid pitch argument"),
        status("hipErrorInvalidSymbol", 13, "invalid device symbol"),
        status("hipErrorInvalidDevicePointer", 17, "invalid device pointer"),
        status(
            "hipErrorInvalidMemcpyDirection",
            21,
            "invalid copy direction for memcpy",
        ),
        status("hipErrorMissingConfiguration", 52, ""),
        status(
            "hipErrorPriorLaunchFailure",
            53,
            "unspecified launch failure in prior launch",
        ),
        status("hipErrorInvalidContext", 201, "invalid device context"),
        status("hipErrorContextAlreadyCurrent", 202, ""),
        status("hipErrorMapFailed", 205, "mapping of buffer object failed"),
        status("hipErrorMapBufferObjectFailed", 205, ""),
        status("hipErrorUnmapFailed", 206, ""),
        status("hipErrorArrayIsMapped", 207, ""),
        status("hipErrorAlreadyMapped", 208, ""),
        status("hipErrorAlreadyAcquired", 210, ""),
        status("hipErrorNotMapped", 211, ""),
        status("hipErrorNotMappedAsArray", 212, ""),
        status("hipErrorNotMappedAsPointer", 213, ""),
        status("hipErrorUnsupportedLimit", 215, ""),
        status("hipErrorContextAlreadyInUse", 216, ""),
        status("hipErrorPeerAccessUnsupported", 217, ""),
        status("hipErrorInvalidGraphicsContext", 219, ""),
        status("hipErrorFileNotFound", 301, ""),
        status("hipErrorSharedObjectSymbolNotFound", 302, ""),
        status("hipErrorInvalidHandle", 400, "invalid resource handle"),
        status("hipErrorInvalidResourceHandle", 400, ""),
        status("hipErrorIllegalState", 401, ""),
        status("hipErrorNotFound", 500, "named symbol not found"),
        status("hipErrorNotReady", 600, ""),
        status("hipErrorPeerAccessAlreadyEnabled", 704, ""),
        status("hipErrorPeerAccessNotEnabled", 705, ""),
        status("hipErrorSetOnActiveProcess", 708, ""),
        status("hipErrorContextIsDestroyed", 709, ""),
        status("hipErrorAssert", 710, "device-side assert triggered"),
        status("hipErrorHostMemoryAlreadyRegistered", 712, ""),
        status("hipErrorHostMemoryNotRegistered", 713, ""),
        status("hipErrorCooperativeLaunchTooLarge", 720, ""),
        status("hipErrorNotSupported", 801, ""),
        status("hipErrorStreamCaptureUnsupported", 900, ""),
        status("hipErrorStreamCaptureInvalidated", 901, ""),
        status("hipErrorStreamCaptureMerge", 902, ""),
        status("hipErrorStreamCaptureUnmatched", 903, ""),
        status("hipErrorStreamCaptureUnjoined", 904, ""),
        status("hipErrorStreamCaptureIsolation", 905, ""),
        status("hipErrorStreamCaptureImplicit", 906, ""),
        status("hipErrorCapturedEvent", 907, ""),
        status("hipErrorStreamCaptureWrongThread", 908, ""),
        status("hipErrorGraphExecUpdateFailure", 910, ""),
        status("hipErrorInvalidChannelDescriptor", 911, ""),
        status("hipErrorInvalidTexture", 912, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the GPU was reached and the program asked for more memory or resources than it has, or used the HIP API in a way it does not accept (an argument, handle, stream or launch of its own); no container or driver setting causes it.",
    check: "for memory, 'rocm-smi --showmeminfo vram' and a smaller batch or model; otherwise report it to the program with its ROCm release (a line naming a GPU failure is read before this one)",
    rank: RANK_NOTE,
    ..HIP
};
