//! OpenCL's error codes as data (issue 31): every negative `cl_int` of KhronosGroup/OpenCL-Headers
//! `CL/cl.h`, `CL/cl_ext.h` and `CL/cl_gl.h`, in one class per cause. A code reads by its
//! name (`CL_DEVICE_NOT_FOUND`; pyopencl drops the `CL_`: `clGetPlatformIDs failed:
//! PLATFORM_NOT_FOUND_KHR`), or by its number on a line of OpenCL's (clinfo's
//! `clGetPlatformIDs(-1001)`, a program's `clGetDeviceIDs returned -1`, `OpenCL error -5`).
//! SYCL's `PI_ERROR_<name>` (the same values) is the intel crate's.

use super::status::{NumberAt, decimal_after, status};
use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE};

/// OpenCL's line shapes (a number or a bare name reads only on one) and its numbers.
const CL: EmitterRule = EmitterRule {
    emitter: "opencl",
    who: "the OpenCL runtime",
    line: &[
        &["OpenCL"],
        &["opencl"],
        &["clGet"],
        &["clCreate"],
        &["clBuild"],
        &["clEnqueue"],
        &["clLink"],
        &["clCompile"],
        &["cl_int"],
        &["CL error"],
        &["CL_"],
    ],
    numbers: NUMBERS,
    bare: "CL_",
    ..RULE
};

/// Where OpenCL's callers print a code.
const NUMBERS: &[NumberAt] = &[
    decimal_after("clGetPlatformIDs("),
    // FFmpeg libavutil/hwcontext_opencl.c: "Failed to get number of OpenCL platforms: %d."
    decimal_after("platforms: "),
    decimal_after("clGetDeviceIDs("),
    decimal_after("returned "),
    decimal_after("error "),
    decimal_after("error: "),
    decimal_after("Error "),
    decimal_after("Error: "),
    decimal_after("error code "),
    decimal_after("error code: "),
    decimal_after("err = "),
    decimal_after("err="),
    decimal_after("status "),
    decimal_after("code "),
];

/// cl_ext.h: CL_PLATFORM_NOT_FOUND_KHR (-1001), which the ICD loader returns from
/// clGetPlatformIDs when no vendor ICD loads (KhronosGroup/OpenCL-Guide#33: none in the image)
/// or when each loaded ICD reports no platform (intel/compute-runtime's ICD returns
/// CL_PLATFORM_NOT_FOUND_KHR when it found no device it supports; intel/compute-runtime#710:
/// early-2024 releases found none on Linux 6.8, fixed about 24.13 (linuxserver/docker-mods#871);
/// intel/compute-runtime#831: 25.18.33578.6 offered none where 25.13.33276.16 did).
pub(crate) const NO_PLATFORM: EmitterRule = EmitterRule {
    emitter: "opencl-icd",
    who: "the OpenCL ICD loader",
    statuses: &[status("CL_PLATFORM_NOT_FOUND_KHR", -1001, "")],
    operation: Operation::LoadLibrary,
    cause: "{status}: no OpenCL platform could be loaded: /etc/OpenCL/vendors holds no .icd file naming a library present in the container (NVIDIA's nvidia.icd comes with the compute capability; AMD's and Intel's ICDs must be installed in the image), or every vendor runtime it names found no GPU it supports and so offered no platform: Intel's compute runtime (NEO) offers none without a render node it may open, on a GPU newer than its release, on a host kernel its release does not work with (early-2024 releases, before about 24.13, find no GPU on Linux 6.8's i915 until NEOReadDebugKeys=1 OverrideGpuAddressSpace=48 is set), or in a release that regressed (25.18.33578.6: the one before works), ROCm's none without /dev/kfd.",
    check: "'ls /etc/OpenCL/vendors' and 'clinfo' in the container; OCL_ICD_ENABLE_TRACE=1 shows why each ICD is skipped; with the ICD there, pass the render node (and /dev/kfd for AMD) and compare the runtime's release with the GPU's generation (a newer intel-opencl-icd, or an image built for this GPU) and with the host's kernel ('uname -r'; on 6.8 try NEOReadDebugKeys=1 OverrideGpuAddressSpace=48)",
    ..CL
};

/// cl.h: CL_DEVICE_NOT_FOUND "no OpenCL devices that matched device_type were found",
/// CL_DEVICE_NOT_AVAILABLE "a device ... is currently not available".
pub(crate) const NO_DEVICE: EmitterRule = EmitterRule {
    statuses: &[
        status("CL_DEVICE_NOT_FOUND", -1, ""),
        status("CL_DEVICE_NOT_AVAILABLE", -2, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("a GPU"),
    cause: "{status}: an OpenCL platform loaded but offers no usable GPU: the GPU's device node is not in the container (/dev/dri, /dev/kfd, /dev/nvidia*), its user may not open it (the render or video group), or the platform's runtime does not support this GPU (a CPU-only platform such as PoCL is the only one present).",
    check: "'clinfo -l' in the container lists each platform's devices; pass the GPU's nodes with their group ('--group-add keep-groups' under crun) and install the GPU vendor's OpenCL runtime in the image",
    ..CL
};

/// cl.h: CL_COMPILER_NOT_AVAILABLE, CL_LINKER_NOT_AVAILABLE: the platform has no compiler.
pub(crate) const COMPILER: EmitterRule = EmitterRule {
    statuses: &[
        status("CL_COMPILER_NOT_AVAILABLE", -3, ""),
        status("CL_LINKER_NOT_AVAILABLE", -16, ""),
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the OpenCL runtime's kernel compiler"),
    cause: "{status}: the OpenCL runtime in the image has no kernel compiler: its compiler package is missing (Intel's intel-igc-opencl, Mesa's clang for rusticl or clover) or of another release than the runtime.",
    check: "install the runtime's compiler in the image from the same release as the runtime; 'clinfo' shows 'Compiler Available' per device",
    ..CL
};

/// cl.h: CL_OUT_OF_RESOURCES "failure to allocate resources required by the OpenCL
/// implementation on the device": two readings.
pub(crate) const RESOURCES: EmitterRule = EmitterRule {
    statuses: &[status("CL_OUT_OF_RESOURCES", -5, "")],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU's resources"),
    cause: "{status}, which has two readings: the workload asked for more memory or resources than the GPU has, or a kernel failed on the GPU and the runtime reports it this way (NVIDIA's OpenCL does so for a crashed kernel); it is not a setting of the container.",
    check: "run the program with a smaller problem size; 'dmesg' on the host shows a GPU fault or hang (NVRM Xid, i915 GPU HANG, amdgpu page fault)",
    rank: RANK_VAGUE,
    ..CL
};

/// cl.h: CL_INVALID_BINARY: a program binary for another device or driver.
pub(crate) const BINARY: EmitterRule = EmitterRule {
    statuses: &[status("CL_INVALID_BINARY", -42, "")],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the program's kernel binary"),
    cause: "{status}: the program loaded a kernel binary built for another GPU or driver release (a cache or a prebuilt binary from another host), which this device's runtime refuses.",
    check: "clear the program's kernel cache (or rebuild its binaries on this GPU and driver) and run it again",
    rank: RANK_VAGUE,
    ..CL
};

/// cl_ext.h: a context terminated by the device, a page, safety or general fault, an
/// uncorrectable ECC error, a command that terminated with a failure.
pub(crate) const LOST: EmitterRule = EmitterRule {
    statuses: &[
        status("CL_CONTEXT_TERMINATED_KHR", -1121, ""),
        status("CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM", -1108, ""),
        status("CL_PAGE_FAULT_IMG", -1127, ""),
        status("CL_SAFETY_FAULT_IMG", -1128, ""),
        status("CL_GENERAL_FAULT_IMG", -1129, ""),
        status("CL_ECC_UNRECOVERED_IMG", -1130, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU faulted or was lost while the program ran (a fault, an ECC error, a terminated context); the GPU had been reached, so it is not a setting of the container.",
    check: "'dmesg' on the host names the fault or reset; update the GPU's driver and firmware",
    rank: RANK_VAGUE,
    ..CL
};

/// Every other code: the workload's own (memory it asked for, a kernel that did not build, an
/// argument, object or size the API does not accept).
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("CL_MEM_OBJECT_ALLOCATION_FAILURE", -4, ""),
        status("CL_OUT_OF_HOST_MEMORY", -6, ""),
        status("CL_PROFILING_INFO_NOT_AVAILABLE", -7, ""),
        status("CL_MEM_COPY_OVERLAP", -8, ""),
        status("CL_IMAGE_FORMAT_MISMATCH", -9, ""),
        status("CL_IMAGE_FORMAT_NOT_SUPPORTED", -10, ""),
        status("CL_BUILD_PROGRAM_FAILURE", -11, ""),
        status("CL_MAP_FAILURE", -12, ""),
        status("CL_MISALIGNED_SUB_BUFFER_OFFSET", -13, ""),
        status("CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", -14, ""),
        status("CL_COMPILE_PROGRAM_FAILURE", -15, ""),
        status("CL_LINK_PROGRAM_FAILURE", -17, ""),
        status("CL_DEVICE_PARTITION_FAILED", -18, ""),
        status("CL_KERNEL_ARG_INFO_NOT_AVAILABLE", -19, ""),
        status("CL_INVALID_VALUE", -30, ""),
        status("CL_INVALID_DEVICE_TYPE", -31, ""),
        status("CL_INVALID_PLATFORM", -32, ""),
        status("CL_INVALID_DEVICE", -33, ""),
        status("CL_INVALID_CONTEXT", -34, ""),
        status("CL_INVALID_QUEUE_PROPERTIES", -35, ""),
        status("CL_INVALID_COMMAND_QUEUE", -36, ""),
        status("CL_INVALID_HOST_PTR", -37, ""),
        status("CL_INVALID_MEM_OBJECT", -38, ""),
        status("CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", -39, ""),
        status("CL_INVALID_IMAGE_SIZE", -40, ""),
        status("CL_INVALID_SAMPLER", -41, ""),
        status("CL_INVALID_BUILD_OPTIONS", -43, ""),
        status("CL_INVALID_PROGRAM", -44, ""),
        status("CL_INVALID_PROGRAM_EXECUTABLE", -45, ""),
        status("CL_INVALID_KERNEL_NAME", -46, ""),
        status("CL_INVALID_KERNEL_DEFINITION", -47, ""),
        status("CL_INVALID_KERNEL", -48, ""),
        status("CL_INVALID_ARG_INDEX", -49, ""),
        status("CL_INVALID_ARG_VALUE", -50, ""),
        status("CL_INVALID_ARG_SIZE", -51, ""),
        status("CL_INVALID_KERNEL_ARGS", -52, ""),
        status("CL_INVALID_WORK_DIMENSION", -53, ""),
        status("CL_INVALID_WORK_GROUP_SIZE", -54, ""),
        status("CL_INVALID_WORK_ITEM_SIZE", -55, ""),
        status("CL_INVALID_GLOBAL_OFFSET", -56, ""),
        status("CL_INVALID_EVENT_WAIT_LIST", -57, ""),
        status("CL_INVALID_EVENT", -58, ""),
        status("CL_INVALID_OPERATION", -59, ""),
        status("CL_INVALID_GL_OBJECT", -60, ""),
        status("CL_INVALID_BUFFER_SIZE", -61, ""),
        status("CL_INVALID_MIP_LEVEL", -62, ""),
        status("CL_INVALID_GLOBAL_WORK_SIZE", -63, ""),
        status("CL_INVALID_PROPERTY", -64, ""),
        status("CL_INVALID_IMAGE_DESCRIPTOR", -65, ""),
        status("CL_INVALID_COMPILER_OPTIONS", -66, ""),
        status("CL_INVALID_LINKER_OPTIONS", -67, ""),
        status("CL_INVALID_DEVICE_PARTITION_COUNT", -68, ""),
        status("CL_INVALID_PIPE_SIZE", -69, ""),
        status("CL_INVALID_DEVICE_QUEUE", -70, ""),
        status("CL_INVALID_SPEC_ID", -71, ""),
        status("CL_MAX_SIZE_RESTRICTION_EXCEEDED", -72, ""),
        status("CL_INVALID_COMMAND_BUFFER_KHR", -1138, ""),
        status("CL_INVALID_SYNC_POINT_WAIT_LIST_KHR", -1139, ""),
        status("CL_INCOMPATIBLE_COMMAND_QUEUE_KHR", -1140, ""),
        status("CL_INVALID_MUTABLE_COMMAND_KHR", -1141, ""),
        status("CL_DEVICE_PARTITION_FAILED_EXT", -1057, ""),
        status("CL_INVALID_PARTITION_COUNT_EXT", -1058, ""),
        status("CL_INVALID_PARTITION_NAME_EXT", -1059, ""),
        status("CL_INVALID_SEMAPHORE_KHR", -1142, ""),
        status("CL_INVALID_ACCELERATOR_INTEL", -1094, ""),
        status("CL_INVALID_ACCELERATOR_TYPE_INTEL", -1095, ""),
        status("CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL", -1096, ""),
        status("CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL", -1097, ""),
        status("CL_CANCELLED_IMG", -1126, ""),
        status("CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR", -1000, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the GPU was reached and the program asked for more memory than it has, built a kernel that did not compile, or passed an argument, object or size the OpenCL API does not accept; no container or driver setting causes it.",
    check: "report it to the program with its OpenCL runtime's version ('clinfo'); a line naming a GPU failure is read before this one",
    rank: RANK_NOTE,
    ..CL
};

/// Every class, in the order core reads them.
pub(crate) const RULES: &[EmitterRule] = &[
    NO_PLATFORM,
    NO_DEVICE,
    COMPILER,
    RESOURCES,
    BINARY,
    LOST,
    PROGRAM,
];
