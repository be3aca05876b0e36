//! The SYCL runtime's statuses as data (issue 31): Unified Runtime's `ur_result_t` (every value
//! of oneapi-src/unified-runtime `include/ur_api.h`, now intel/llvm's `unified-runtime/`) and
//! the older Plugin Interface's `pi_result` (intel/llvm `sycl/include/sycl/detail/pi_error.def`:
//! `PI_ERROR_<name>` with the value of OpenCL's `CL_<name>`, KhronosGroup/OpenCL-Headers
//! `CL/cl.h`, and PI's own -996 to -999), in one class per cause. SYCL prints both as
//! `Native API failed. Native API returns: -1 (PI_ERROR_DEVICE_NOT_FOUND)` or `... returns: 39
//! (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)` (intel/llvm `sycl/source/detail/plugin.hpp`), so a
//! status reads by its name, or by the number after `Native API returns: `.

use gpuctl_core::plugin::{
    EmitterRule, NumberAt, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, decimal_after,
    status,
};

/// The SYCL runtime's line shape (a number reads only on one) and its numbers.
const SYCL: EmitterRule = EmitterRule {
    emitter: "sycl",
    who: "the SYCL runtime",
    line: &[&["Native API"], &["sycl"], &["SYCL"]],
    numbers: NUMBERS,
    ..RULE
};

/// Where SYCL prints a status's number.
const NUMBERS: &[NumberAt] = &[decimal_after("Native API returns: ")];

/// No GPU for the backend. The SYCL runtime throws DEVICE_NOT_FOUND when a selector finds no
/// device (the rule for `No device of requested type available` says more), but Unified
/// Runtime also maps UR_RESULT_ERROR_DEVICE_LOST to it, and `Native API returns: -1
/// (PI_ERROR_DEVICE_NOT_FOUND)` mid-run is a lost GPU (intel/llvm#8693, #10894): both
/// readings are said.
pub(crate) const NOT_FOUND: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_DEVICE_NOT_FOUND", 18, ""),
        status("UR_RESULT_ERROR_DEVICE_NOT_AVAILABLE", 69, ""),
        status("PI_ERROR_DEVICE_NOT_FOUND", -1, ""),
        status("PI_ERROR_DEVICE_NOT_AVAILABLE", -2, ""),
    ],
    unless: &["No device of requested type available"],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the SYCL backend has no GPU to run on, which has two readings: at start-up, no backend offers one (no render node in the container, no Level Zero or OpenCL GPU runtime in the image, or no permission on the node); after work already ran on it, the GPU was lost or hung (the runtime reports a lost device with this same code).",
    check: "'sycl-ls' in the container lists the devices it sees; if the GPU is listed, 'sudo dmesg | grep -i -e hang -e reset' on the host shows a GPU hang, and a newer kernel driver and compute runtime are the remedy",
    rank: RANK_VAGUE,
    ..SYCL
};

/// ur_api.h: "Device hung, reset, was removed, or adapter update occurred", "Device requires a
/// reset", "Device currently in low power state"; PI's COMMAND_EXECUTION_FAILURE (a kernel
/// that failed on the device).
pub(crate) const LOST: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_DEVICE_LOST", 20, ""),
        status("UR_RESULT_ERROR_DEVICE_REQUIRES_RESET", 21, ""),
        status("UR_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE", 22, ""),
        status("PI_ERROR_COMMAND_EXECUTION_FAILURE", -997, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU was lost or a kernel failed on it while the program ran (a GPU hang the i915/xe driver reset, a removed or suspended GPU); the GPU had been reached, so it is not a setting of the container.",
    check: "'sudo dmesg | grep -i -e hang -e reset -e wedged' on the host; update the kernel driver, the GPU firmware and the compute runtime",
    rank: RANK_VAGUE,
    ..SYCL
};

/// ur_api.h: "adapter is not initialized or specific entry-point is not implemented", "An
/// adapter specific warning/error has been reported", "Unknown or internal error"; PI's
/// PLUGIN_SPECIFIC_ERROR and UNKNOWN.
pub(crate) const INIT: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_UNINITIALIZED", 37, ""),
        status("UR_RESULT_ERROR_ADAPTER_SPECIFIC", 66, ""),
        status("UR_RESULT_ERROR_UNKNOWN", 0x7ffffffe, ""),
        status("PI_ERROR_PLUGIN_SPECIFIC_ERROR", -996, ""),
        status("PI_ERROR_UNKNOWN", -999, ""),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU backend (Level Zero or OpenCL)"),
    cause: "{status}: the backend under the SYCL runtime (Level Zero or OpenCL) failed without a reason of its own: most often the GPU's render node is missing in the container or not openable by its user, or the image's compute runtime does not support this GPU; the Level Zero or OpenCL line beside it says which.",
    check: "'sycl-ls' in the container, with SYCL_UR_TRACE=1 (or SYCL_PI_TRACE=2 before oneAPI 2024.1) to see the backend's own error; '--device /dev/dri' with '--group-add keep-groups' under crun",
    rank: RANK_VAGUE,
    ..SYCL
};

/// ur_api.h "Compiler not available"; cl.h's COMPILER / LINKER_NOT_AVAILABLE as PI names them.
pub(crate) const COMPILER: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_COMPILER_NOT_AVAILABLE", 16, ""),
        status("PI_ERROR_COMPILER_NOT_AVAILABLE", -3, ""),
        status("PI_ERROR_LINKER_NOT_AVAILABLE", -16, ""),
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the GPU's kernel compiler (IGC)"),
    cause: "{status}: the compute runtime in the image has no kernel compiler for the GPU: Intel's Graphics Compiler (libigc, intel-igc-core / intel-igc-opencl) is missing or of another release than the runtime.",
    check: "install the compute runtime together with its compiler in the image (intel-opencl-icd and intel-level-zero-gpu pull intel-igc-core), from one release",
    ..SYCL
};

/// ur_api.h "generic error code for unsupported versions / features", "Invalid binary",
/// "native binary is not supported by the device"; PI's INVALID_BINARY.
pub(crate) const VERSION: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_INVALID_BINARY", 7, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_VERSION", 43, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_FEATURE", 44, ""),
        status("UR_RESULT_ERROR_INVALID_NATIVE_BINARY", 56, ""),
        status("PI_ERROR_INVALID_BINARY", -42, ""),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU and its compute runtime"),
    cause: "{status}: the GPU or its compute runtime does not have what the program was built for: kernels compiled ahead of time for another GPU generation, or a compute runtime older than the program (or than the GPU).",
    check: "'sycl-ls' in the container names the GPU and the runtime; build the program's kernels for this GPU (or as SPIR-V), and use a compute runtime that supports it",
    rank: RANK_VAGUE,
    ..SYCL
};

/// ur_api.h "Out of resources"; cl.h's CL_OUT_OF_RESOURCES as PI names it: two readings.
pub(crate) const RESOURCES: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_OUT_OF_RESOURCES", 40, ""),
        status("PI_ERROR_OUT_OF_RESOURCES", -5, ""),
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU's resources"),
    cause: "{status}, which has two readings: the workload asked for more device memory or resources than the GPU has (a smaller batch or model is the remedy), or a kernel failed on the GPU and the runtime reports it this way (a GPU hang in the kernel log); it is not a setting of the container.",
    check: "'xpu-smi stats -d 0' shows the memory in use; 'sudo dmesg | grep -i -e hang -e reset' on the host shows a GPU hang",
    rank: RANK_VAGUE,
    ..SYCL
};

/// The workload's own: memory it asked for, kernels it built, arguments and handles it used
/// (every other value of both enums).
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("UR_RESULT_ERROR_INVALID_OPERATION", 1, ""),
        status("UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES", 2, ""),
        status("UR_RESULT_ERROR_INVALID_QUEUE", 3, ""),
        status("UR_RESULT_ERROR_INVALID_VALUE", 4, ""),
        status("UR_RESULT_ERROR_INVALID_CONTEXT", 5, ""),
        status("UR_RESULT_ERROR_INVALID_PLATFORM", 6, ""),
        status("UR_RESULT_ERROR_INVALID_PROGRAM", 8, ""),
        status("UR_RESULT_ERROR_INVALID_SAMPLER", 9, ""),
        status("UR_RESULT_ERROR_INVALID_BUFFER_SIZE", 10, ""),
        status("UR_RESULT_ERROR_INVALID_MEM_OBJECT", 11, ""),
        status("UR_RESULT_ERROR_INVALID_EVENT", 12, ""),
        status("UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST", 13, ""),
        status("UR_RESULT_ERROR_MISALIGNED_SUB_BUFFER_OFFSET", 14, ""),
        status("UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE", 15, ""),
        status("UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE", 17, ""),
        status("UR_RESULT_ERROR_INVALID_DEVICE", 19, ""),
        status("UR_RESULT_ERROR_DEVICE_PARTITION_FAILED", 23, ""),
        status("UR_RESULT_ERROR_INVALID_DEVICE_PARTITION_COUNT", 24, ""),
        status("UR_RESULT_ERROR_INVALID_WORK_ITEM_SIZE", 25, ""),
        status("UR_RESULT_ERROR_INVALID_WORK_DIMENSION", 26, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL_ARGS", 27, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL", 28, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL_NAME", 29, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX", 30, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE", 31, ""),
        status("UR_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE", 32, ""),
        status("UR_RESULT_ERROR_INVALID_IMAGE_SIZE", 33, ""),
        status("UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR", 34, ""),
        status("UR_RESULT_ERROR_MEM_OBJECT_ALLOCATION_FAILURE", 35, ""),
        status("UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE", 36, ""),
        status("UR_RESULT_ERROR_OUT_OF_HOST_MEMORY", 38, ""),
        status("UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", 39, ""),
        status("UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE", 41, ""),
        status("UR_RESULT_ERROR_PROGRAM_LINK_FAILURE", 42, ""),
        status("UR_RESULT_ERROR_INVALID_ARGUMENT", 45, ""),
        status("UR_RESULT_ERROR_INVALID_NULL_HANDLE", 46, ""),
        status("UR_RESULT_ERROR_HANDLE_OBJECT_IN_USE", 47, ""),
        status("UR_RESULT_ERROR_INVALID_NULL_POINTER", 48, ""),
        status("UR_RESULT_ERROR_INVALID_SIZE", 49, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_SIZE", 50, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT", 51, ""),
        status("UR_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT", 52, ""),
        status("UR_RESULT_ERROR_INVALID_ENUMERATION", 53, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION", 54, ""),
        status("UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT", 55, ""),
        status("UR_RESULT_ERROR_INVALID_GLOBAL_NAME", 57, ""),
        status("UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE", 58, ""),
        status("UR_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION", 59, ""),
        status("UR_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION", 60, ""),
        status("UR_RESULT_ERROR_PROGRAM_UNLINKED", 61, ""),
        status("UR_RESULT_ERROR_OVERLAPPING_REGIONS", 62, ""),
        status("UR_RESULT_ERROR_INVALID_HOST_PTR", 63, ""),
        status("UR_RESULT_ERROR_INVALID_USM_SIZE", 64, ""),
        status("UR_RESULT_ERROR_OBJECT_ALLOCATION_FAILURE", 65, ""),
        status("UR_RESULT_ERROR_LAYER_NOT_PRESENT", 67, ""),
        status("UR_RESULT_ERROR_IN_EVENT_LIST_EXEC_STATUS", 68, ""),
        status("UR_RESULT_ERROR_INVALID_SPEC_ID", 70, ""),
        status("UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP", 0x1000, ""),
        status(
            "UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP",
            0x1001,
            "",
        ),
        status(
            "UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_WAIT_LIST_EXP",
            0x1002,
            "",
        ),
        status(
            "UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP",
            0x1003,
            "",
        ),
        status("PI_ERROR_MEM_OBJECT_ALLOCATION_FAILURE", -4, ""),
        status("PI_ERROR_OUT_OF_HOST_MEMORY", -6, ""),
        status("PI_ERROR_PROFILING_INFO_NOT_AVAILABLE", -7, ""),
        status("PI_ERROR_MEM_COPY_OVERLAP", -8, ""),
        status("PI_ERROR_IMAGE_FORMAT_MISMATCH", -9, ""),
        status("PI_ERROR_IMAGE_FORMAT_NOT_SUPPORTED", -10, ""),
        status("PI_ERROR_BUILD_PROGRAM_FAILURE", -11, ""),
        status("PI_ERROR_MAP_FAILURE", -12, ""),
        status("PI_ERROR_MISALIGNED_SUB_BUFFER_OFFSET", -13, ""),
        status(
            "PI_ERROR_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
            -14,
            "",
        ),
        status("PI_ERROR_COMPILE_PROGRAM_FAILURE", -15, ""),
        status("PI_ERROR_LINK_PROGRAM_FAILURE", -17, ""),
        status("PI_ERROR_DEVICE_PARTITION_FAILED", -18, ""),
        status("PI_ERROR_KERNEL_ARG_INFO_NOT_AVAILABLE", -19, ""),
        status("PI_ERROR_INVALID_VALUE", -30, ""),
        status("PI_ERROR_INVALID_DEVICE_TYPE", -31, ""),
        status("PI_ERROR_INVALID_PLATFORM", -32, ""),
        status("PI_ERROR_INVALID_DEVICE", -33, ""),
        status("PI_ERROR_INVALID_CONTEXT", -34, ""),
        status("PI_ERROR_INVALID_QUEUE_PROPERTIES", -35, ""),
        status("PI_ERROR_INVALID_COMMAND_QUEUE", -36, ""),
        status("PI_ERROR_INVALID_HOST_PTR", -37, ""),
        status("PI_ERROR_INVALID_MEM_OBJECT", -38, ""),
        status("PI_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR", -39, ""),
        status("PI_ERROR_INVALID_IMAGE_SIZE", -40, ""),
        status("PI_ERROR_INVALID_SAMPLER", -41, ""),
        status("PI_ERROR_INVALID_BUILD_OPTIONS", -43, ""),
        status("PI_ERROR_INVALID_PROGRAM", -44, ""),
        status("PI_ERROR_INVALID_PROGRAM_EXECUTABLE", -45, ""),
        status("PI_ERROR_INVALID_KERNEL_NAME", -46, ""),
        status("PI_ERROR_INVALID_KERNEL_DEFINITION", -47, ""),
        status("PI_ERROR_INVALID_KERNEL", -48, ""),
        status("PI_ERROR_INVALID_ARG_INDEX", -49, ""),
        status("PI_ERROR_INVALID_ARG_VALUE", -50, ""),
        status("PI_ERROR_INVALID_ARG_SIZE", -51, ""),
        status("PI_ERROR_INVALID_KERNEL_ARGS", -52, ""),
        status("PI_ERROR_INVALID_WORK_DIMENSION", -53, ""),
        status("PI_ERROR_INVALID_WORK_GROUP_SIZE", -54, ""),
        status("PI_ERROR_INVALID_WORK_ITEM_SIZE", -55, ""),
        status("PI_ERROR_INVALID_GLOBAL_OFFSET", -56, ""),
        status("PI_ERROR_INVALID_EVENT_WAIT_LIST", -57, ""),
        status("PI_ERROR_INVALID_EVENT", -58, ""),
        status("PI_ERROR_INVALID_OPERATION", -59, ""),
        status("PI_ERROR_INVALID_GL_OBJECT", -60, ""),
        status("PI_ERROR_INVALID_BUFFER_SIZE", -61, ""),
        status("PI_ERROR_INVALID_MIP_LEVEL", -62, ""),
        status("PI_ERROR_INVALID_GLOBAL_WORK_SIZE", -63, ""),
        status("PI_ERROR_INVALID_PROPERTY", -64, ""),
        status("PI_ERROR_INVALID_IMAGE_DESCRIPTOR", -65, ""),
        status("PI_ERROR_INVALID_COMPILER_OPTIONS", -66, ""),
        status("PI_ERROR_INVALID_LINKER_OPTIONS", -67, ""),
        status("PI_ERROR_INVALID_DEVICE_PARTITION_COUNT", -68, ""),
        status("PI_ERROR_INVALID_PIPE_SIZE", -69, ""),
        status("PI_ERROR_INVALID_DEVICE_QUEUE", -70, ""),
        status("PI_ERROR_INVALID_SPEC_ID", -71, ""),
        status("PI_ERROR_MAX_SIZE_RESTRICTION_EXCEEDED", -72, ""),
        status("PI_ERROR_FUNCTION_ADDRESS_IS_NOT_AVAILABLE", -998, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the GPU was reached and the program asked for more memory than it has, named a kernel its build does not hold, or used the SYCL backend in a way it does not accept; no container or driver setting causes it.",
    check: "for memory, 'xpu-smi stats -d 0' and a smaller batch or model; otherwise report it to the program with its oneAPI release (a line naming a GPU failure is read before this one)",
    rank: RANK_NOTE,
    ..SYCL
};
