//! Level Zero's `ze_result_t` as data (issue 31): every value of oneapi-src/level-zero
//! `include/ze_api.h`, in one class per cause. A status is read by its name (the loader's
//! `to_string`, the validation layer, oneAPI programs and PyTorch's XPU backend print it), or by
//! its number on a line of Level Zero's: the loader's `Unknown ze_result_t value: %d`
//! (decimal, oneapi-src/level-zero#93), xpumd's `zeInit error: %x` (hex without `0x`,
//! intel/xpumanager#2), `0x78000001`. The family `intel-level-zero-no-device` keeps the texts
//! it claims (ZE_RESULT_ERROR_UNINITIALIZED, `zeInit error: 78000001`).

use gpuctl_core::plugin::{
    EmitterRule, NumberAt, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, decimal_after,
    hex_after, status,
};

/// Level Zero's line shapes (a number reads only on one) and its numbers.
const ZE: EmitterRule = EmitterRule {
    emitter: "level-zero",
    who: "Level Zero",
    line: &[
        &["zeInit"],
        &["ze_result"],
        &["Level Zero"],
        &["level_zero"],
        &["level-zero"],
        &["ZE_RESULT"],
        &["zeDevice"],
        &["zeDriver"],
        &["zesInit"],
    ],
    numbers: NUMBERS,
    hex: true,
    ..RULE
};

/// Where Level Zero's callers print a status's number.
const NUMBERS: &[NumberAt] = &[
    decimal_after("ze_result_t value: "),
    hex_after("zeInit error: "),
    hex_after("0x"),
    decimal_after("returned "),
    decimal_after("error code: "),
    decimal_after("error code "),
];

/// ze_api.h: "device hung, reset, was removed, or driver update occurred", "device requires a
/// reset", "device currently in low power state", "device is in survivability mode, firmware
/// update needed".
pub(crate) const DEVICE_LOST: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_DEVICE_LOST", 0x70000001, ""),
        status("ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET", 0x70000006, ""),
        status("ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE", 0x70000007, ""),
        status(
            "ZE_RESULT_ERROR_SURVIVABILITY_MODE_DETECTED",
            0x78000020,
            "",
        ),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU was lost under the program: it hung and was reset by the i915/xe driver, was removed or suspended, or (survivability mode) its firmware needs an update before it runs anything; not a setting of the container.",
    check: "'sudo dmesg | grep -i -e hang -e reset -e wedged -e survivability' on the host; update the kernel driver, the GPU firmware (linux-firmware) and the compute runtime",
    rank: RANK_VAGUE,
    ..ZE
};

/// ze_api.h: ZE_RESULT_ERROR_UNINITIALIZED "driver is not initialized": zeInit found no driver
/// that could start on a GPU it can open; ZE_RESULT_ERROR_UNKNOWN "unknown or internal error".
pub(crate) const UNINITIALIZED: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_UNINITIALIZED", 0x78000001, ""),
        status("ZE_RESULT_ERROR_UNKNOWN", 0x7ffffffe, ""),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("a Level Zero GPU driver"),
    cause: "{status}: no Level Zero driver initialised on a GPU: the container has no render node of an Intel GPU (/dev/dri not given), its user may not open it (the render group), or the image has no compute runtime (libze_intel_gpu) for this GPU.",
    check: "'ls -l /dev/dri' and 'sycl-ls' (or 'clinfo') in the container; pass '--device /dev/dri' with '--group-add keep-groups' under crun, and install intel-level-zero-gpu in a release that supports the GPU",
    ..ZE
};

/// ze_api.h: "external required dependency is unavailable or missing", "generic error code
/// for unsupported versions": the loader found no GPU driver it can use.
pub(crate) const DEPENDENCY: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE", 0x70020000, ""),
        status("ZE_RESULT_ERROR_UNSUPPORTED_VERSION", 0x78000002, ""),
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("a Level Zero driver"),
    cause: "{status}: the Level Zero loader found no GPU driver it can use: the image has no compute runtime (libze_intel_gpu from intel-level-zero-gpu / intel-compute-runtime), or one older than the loader asks.",
    check: "install the compute runtime in the image (intel-level-zero-gpu or libze-intel-gpu1, with intel-opencl-icd) in a release that supports the GPU",
    ..ZE
};

/// ze_api.h: "generic error code for unsupported features", "native binary is not supported
/// by the device": the driver or GPU lacks what the program was built for.
pub(crate) const UNSUPPORTED: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_UNSUPPORTED_FEATURE", 0x78000003, ""),
        status("ZE_RESULT_ERROR_INVALID_NATIVE_BINARY", 0x7800000f, ""),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU and its compute runtime"),
    cause: "{status}: the GPU or its compute runtime does not have what the program asks for: a kernel binary built for another GPU generation, a compute runtime older than the program (or the GPU), or (for Sysman's calls) ZES_ENABLE_SYSMAN=1 not set.",
    check: "'sycl-ls' or 'clinfo' in the container names the GPU and the runtime's version; use a compute runtime that supports the GPU, and build (or pick) the program's kernels for its generation",
    rank: RANK_VAGUE,
    ..ZE
};

/// ze_api.h (Sysman): "access denied due to permission level", "resource already in use and
/// simultaneous access not allowed or resource was removed".
pub(crate) const PERMISSION: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS", 0x70010000, ""),
        status("ZE_RESULT_ERROR_NOT_AVAILABLE", 0x70010001, ""),
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU's management interface (Sysman)"),
    cause: "{status}: Level Zero's Sysman was refused the GPU's management interface: the process lacks the permission it needs (root, or read access to the GPU's files under /sys and /dev/dri), or another process holds it.",
    check: "run the monitoring tool (xpu-smi, the device plugin's monitor) with the privileges its documentation names, and with the GPU's render node and /sys/class/drm visible",
    rank: RANK_VAGUE,
    ..ZE
};

/// The workload's own: memory it asked for, kernels it built, arguments and handles it used.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", 0x70000002, ""),
        status("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", 0x70000003, ""),
        status("ZE_RESULT_ERROR_MODULE_BUILD_FAILURE", 0x70000004, ""),
        status("ZE_RESULT_ERROR_MODULE_LINK_FAILURE", 0x70000005, ""),
        status("ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX", 0x7ff00001, ""),
        status("ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE", 0x7ff00002, ""),
        status("ZE_RESULT_EXP_ERROR_REMOTE_DEVICE", 0x7ff00003, ""),
        status("ZE_RESULT_EXP_ERROR_OPERANDS_INCOMPATIBLE", 0x7ff00004, ""),
        status("ZE_RESULT_EXP_RTAS_BUILD_RETRY", 0x7ff00005, ""),
        status("ZE_RESULT_EXP_RTAS_BUILD_DEFERRED", 0x7ff00006, ""),
        status("ZE_RESULT_WARNING_DROPPED_DATA", 0x70020001, ""),
        status("ZE_RESULT_ERROR_INVALID_ARGUMENT", 0x78000004, ""),
        status("ZE_RESULT_ERROR_INVALID_NULL_HANDLE", 0x78000005, ""),
        status("ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE", 0x78000006, ""),
        status("ZE_RESULT_ERROR_INVALID_NULL_POINTER", 0x78000007, ""),
        status("ZE_RESULT_ERROR_INVALID_SIZE", 0x78000008, ""),
        status("ZE_RESULT_ERROR_UNSUPPORTED_SIZE", 0x78000009, ""),
        status("ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT", 0x7800000a, ""),
        status(
            "ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT",
            0x7800000b,
            "",
        ),
        status("ZE_RESULT_ERROR_INVALID_ENUMERATION", 0x7800000c, ""),
        status("ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION", 0x7800000d, ""),
        status("ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT", 0x7800000e, ""),
        status("ZE_RESULT_ERROR_INVALID_GLOBAL_NAME", 0x78000010, ""),
        status("ZE_RESULT_ERROR_INVALID_KERNEL_NAME", 0x78000011, ""),
        status("ZE_RESULT_ERROR_INVALID_FUNCTION_NAME", 0x78000012, ""),
        status(
            "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION",
            0x78000013,
            "",
        ),
        status(
            "ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION",
            0x78000014,
            "",
        ),
        status(
            "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX",
            0x78000015,
            "",
        ),
        status(
            "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE",
            0x78000016,
            "",
        ),
        status(
            "ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE",
            0x78000017,
            "",
        ),
        status("ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED", 0x78000018, ""),
        status("ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE", 0x78000019, ""),
        status("ZE_RESULT_ERROR_OVERLAPPING_REGIONS", 0x7800001a, ""),
        status("ZE_RESULT_WARNING_ACTION_REQUIRED", 0x7800001b, ""),
        status("ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE", 0x7800001c, ""),
        status("ZE_RESULT_EXT_RTAS_BUILD_RETRY", 0x7800001d, ""),
        status("ZE_RESULT_EXT_RTAS_BUILD_DEFERRED", 0x7800001e, ""),
        status("ZE_RESULT_EXT_ERROR_OPERANDS_INCOMPATIBLE", 0x7800001f, ""),
        status("ZE_RESULT_ERROR_ADDRESS_NOT_FOUND", 0x78000021, ""),
        status("ZE_RESULT_QUERY_TRUE", 0x78000022, ""),
        status("ZE_RESULT_QUERY_FALSE", 0x78000023, ""),
        status("ZE_RESULT_ERROR_INVALID_GRAPH", 0x78000024, ""),
        status("ZE_RESULT_ERROR_GRAPH_CAPTURE_UNSUPPORTED", 0x78000025, ""),
        status("ZE_RESULT_ERROR_GRAPH_CAPTURE_INVALIDATED", 0x78000026, ""),
        status(
            "ZE_RESULT_ERROR_GRAPH_CAPTURE_MERGE_ATTEMPT",
            0x78000027,
            "",
        ),
        status("ZE_RESULT_ERROR_COMMAND_LIST_NOT_CAPTURING", 0x78000028, ""),
        status("ZE_RESULT_ERROR_GRAPH_UNJOINED_FORKS", 0x78000029, ""),
        status("ZE_RESULT_ERROR_GRAPH_INTERNAL_EVENT", 0x7800002a, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the GPU was reached and the program asked for more memory than it has, built a kernel that did not compile, or used the Level Zero API in a way it does not accept; no container or driver setting causes it.",
    check: "for memory, 'xpu-smi stats -d 0' and a smaller batch or model; otherwise report it to the program with its compute runtime's version (a line naming a GPU failure is read before this one)",
    rank: RANK_NOTE,
    ..ZE
};
