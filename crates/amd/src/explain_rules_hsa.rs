//! The HSA runtime's (ROCr's) `hsa_status_t` as data (issue 31): every value of
//! ROCm/ROCR-Runtime `runtime/hsa-runtime/inc/hsa.h`, `hsa_ext_amd.h`, `hsa_ext_image.h` and
//! `hsa_ext_finalize.h`, in one class per cause. A status is read by its name (what
//! `hsa_status_string` prints first: `HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to
//! allocate ...`, `core/runtime/hsa.cpp`), or by its number on a line of the HSA runtime's own:
//! rocminfo's `Call returned %s` (`rocminfo.cc` RET_IF_HSA_ERR: the string, or `%#x` when
//! there is none; older releases printed `%d`, `Call returned 4104`), ROCclr's `hsa_init failed
//! with %x` (`rocclr/device/rocm/rocdevice.cpp`, hex without `0x`), HIP's and HCC's `code:
//! 0x1008`. The names a family already claims (OUT_OF_RESOURCES, INVALID_ISA,
//! MEMORY_APERTURE_VIOLATION) keep it; the numbers read here as the same class.

use gpuctl_core::plugin::{
    EmitterRule, NumberAt, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, decimal_after,
    hex_after, status,
};

/// The HSA runtime's line shapes (a number or a message reads only on one) and its numbers.
const HSA: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the HSA runtime (ROCr)",
    line: &[&["hsa"], &["HSA"], &["Call returned "]],
    numbers: NUMBERS,
    hex: true,
    ..RULE
};

/// Where the HSA runtime's callers print a status's number.
const NUMBERS: &[NumberAt] = &[
    decimal_after("Call returned "),
    hex_after("failed with "),
    hex_after("code: "),
    hex_after("status: "),
    hex_after("error code "),
];

/// HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa.h "the runtime failed to allocate the necessary
/// resources"; what it means in a container is ROCm/legacy-rocm-build#415's.
pub(crate) const OUT_OF_RESOURCES: EmitterRule = EmitterRule {
    statuses: &[status(
        "HSA_STATUS_ERROR_OUT_OF_RESOURCES",
        0x1008,
        "The runtime failed to allocate the necessary resources",
    )],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU agents' resources"),
    cause: "{status}: the runtime reached /dev/kfd but could not set up every GPU it was shown: in a container, most often a render node of a GPU was not passed with /dev/kfd, or the user lacks the group that owns the nodes (render or video); on a bare host, an amdgpu driver without this GPU's compute support.",
    check: "pass every AMD render node with /dev/kfd ('podman run $(gpuctl args amd) ...'), add the user to the render group ('sudo usermod -aG render $USER') and keep it with '--group-add keep-groups'; 'sudo dmesg | grep kfd' on the host",
    ..HSA
};

/// The runtime did not start: NOT_INITIALIZED (an API called while its reference count is
/// zero: hsa_init failed before), INVALID_RUNTIME_STATE, and the generic ERROR, which the
/// lines around it name.
pub(crate) const NOT_INITIALIZED: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "HSA_STATUS_ERROR_NOT_INITIALIZED",
            0x100B,
            "An API other than hsa_init has been invoked while the reference count of the HSA runtime is zero",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE",
            0x1025,
            "The HSA runtime is not in the configuration state",
        ),
        status("HSA_STATUS_ERROR", 0x1000, "A generic error has occurred"),
    ],
    operation: Operation::Initialise,
    cause: "{status}: the HSA runtime did not start (or said no more than that it failed): it could not open /dev/kfd or a render node, or found no GPU it supports; the lines before it, or 'dmesg | grep -e kfd -e amdgpu' on the host, name which.",
    check: "'rocminfo' in the container; /dev/kfd and the render nodes must be given to it ('--device /dev/kfd --device /dev/dri'), its user in their groups, and 'sudo dmesg | grep -e kfd -e amdgpu' on the host",
    rank: RANK_VAGUE,
    ..HSA
};

/// Code for another GPU target: the ISA, its name, a code object, an executable or a symbol
/// in it the GPU's agent cannot take.
pub(crate) const INVALID_ISA: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "HSA_STATUS_ERROR_INVALID_ISA",
            0x100F,
            "The instruction set architecture is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_ISA_NAME",
            0x1017,
            "The instruction set architecture name is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_CODE_OBJECT",
            0x1010,
            "The code object is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_EXECUTABLE",
            0x1011,
            "The executable is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER",
            0x1021,
            "The code object reader is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME",
            0x1013,
            "There is no symbol with the given name",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL",
            0x1018,
            "The code object symbol is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL",
            0x1019,
            "The executable symbol is invalid",
        ),
        status("HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE", 0x2002, ""),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "{status}: the code object the program loads was built for another GPU target (gfx…) than this GPU's: the image's ROCm build does not list the GPU, or HSA_OVERRIDE_GFX_VERSION names a target whose code does not run on it.",
    check: "'rocminfo | grep gfx' gives the GPU's target; 'gpuctl requirement' the ROCm releases that list it; set HSA_OVERRIDE_GFX_VERSION only to a target of the same family",
    ..HSA
};

/// ROCr's "Memory access fault by GPU node-%d (Agent handle: %p) on address %p. Reason: %s":
/// a GPU kernel faulted. Two readings: code for another target forced by
/// HSA_OVERRIDE_GFX_VERSION (ROCm/legacy-rocm-build#5238), or a bug of the program, the ROCm
/// release or the GPU firmware (#5616). Not a container set-up problem either way.
pub(crate) const MEMORY_FAULT: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the HSA runtime (ROCr)",
    line: &[&["Memory access fault by GPU node"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: FAULT_CAUSE,
    check: FAULT_CHECK,
    rank: RANK_VAGUE,
    ..RULE
};

/// What a GPU kernel's fault means.
const FAULT_CAUSE: &str = "a GPU kernel touched memory or ran an instruction it may not (a GPU fault), which has two readings: code for another GPU target run through HSA_OVERRIDE_GFX_VERSION (or a ROCm build that does not list this GPU), or a bug of the program, the ROCm release or the GPU firmware. It is not a container set-up problem: the GPU was reached.";

/// What to check for a GPU kernel's fault.
const FAULT_CHECK: &str = "'env | grep HSA_OVERRIDE_GFX_VERSION' in the container and 'rocminfo | grep gfx' (drop the override if it names another target); 'sudo dmesg | grep -i -e \"page fault\" -e amdgpu' on the host names the faulting process";

/// The same fault as a status: an address beyond the aperture, an illegal instruction, a page
/// fault, a hardware exception, a queue error (`hsa_ext_amd.h`, `hsa.h`).
pub(crate) const FAULT: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION",
            41,
            "The agent attempted to access memory beyond the largest legal address",
        ),
        status(
            "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION",
            42,
            "The agent attempted to execute an illegal shader instruction",
        ),
        status("HSA_STATUS_ERROR_MEMORY_FAULT", 43, ""),
        status(
            "HSA_STATUS_ERROR_EXCEPTION",
            0x1016,
            "An HSAIL operation resulted in a hardware exception",
        ),
        status(
            "HSA_STATUS_ERROR_FATAL",
            0x1026,
            "The queue received an error that may require process termination",
        ),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "{status}: a GPU kernel touched memory or ran an instruction it may not (a GPU fault), which has two readings: code for another GPU target run through HSA_OVERRIDE_GFX_VERSION (or a ROCm build that does not list this GPU), or a bug of the program, the ROCm release or the GPU firmware. It is not a container set-up problem: the GPU was reached.",
    check: FAULT_CHECK,
    rank: RANK_VAGUE,
    ..HSA
};

/// The runtime could not create a queue, or the resource it wants is busy: KFD gives out a
/// limited number of queues and doorbells per process and GPU.
pub(crate) const QUEUE: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION",
            0x1002,
            "The requested queue creation is not valid",
        ),
        status(
            "HSA_STATUS_ERROR_RESOURCE_BUSY",
            46,
            "Resource is busy or temporarily unavailable",
        ),
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("a GPU queue"),
    cause: "{status}: KFD would not give the process a GPU queue: the GPU is not one this ROCm release supports, its queues are used up by other processes, or the amdgpu driver is older than the runtime.",
    check: "'rocminfo' in the container and 'sudo dmesg | grep -e kfd -e amdgpu' on the host; 'gpuctl requirement' gives the ROCm releases for the GPU",
    rank: RANK_VAGUE,
    ..HSA
};

/// The program's own misuse of the API (hsa.h: an argument, a handle or an object that is not
/// valid), and allocations the workload asked for: no set-up causes these.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "HSA_STATUS_ERROR_INVALID_ARGUMENT",
            0x1001,
            "One of the actual arguments does not meet a precondition",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_ALLOCATION",
            0x1003,
            "The requested allocation is not valid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_AGENT",
            0x1004,
            "The agent is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_REGION",
            0x1005,
            "The memory region is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_SIGNAL",
            0x1006,
            "The signal is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_QUEUE",
            0x1007,
            "The queue is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT",
            0x1009,
            "The AQL packet is malformed",
        ),
        status(
            "HSA_STATUS_ERROR_RESOURCE_FREE",
            0x100A,
            "An error has been detected while releasing a resource",
        ),
        status("HSA_STATUS_ERROR_REFCOUNT_OVERFLOW", 0x100C, ""),
        status(
            "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS",
            0x100D,
            "The arguments passed to a functions are not compatible",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_INDEX",
            0x100E,
            "The index is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_FROZEN_EXECUTABLE",
            0x1012,
            "The executable is frozen",
        ),
        status("HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED", 0x1014, ""),
        status(
            "HSA_STATUS_ERROR_VARIABLE_UNDEFINED",
            0x1015,
            "The variable is undefined",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_FILE",
            0x1020,
            "The file descriptor is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_CACHE",
            0x1022,
            "The cache is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_WAVEFRONT",
            0x1023,
            "The wavefront is invalid",
        ),
        status(
            "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP",
            0x1024,
            "The signal group is invalid",
        ),
        status("HSA_STATUS_ERROR_INVALID_MEMORY_POOL", 40, ""),
        status("HSA_STATUS_ERROR_OUT_OF_REGISTERS", 45, ""),
        status("HSA_STATUS_CU_MASK_REDUCED", 44, ""),
        status("HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED", 0x3000, ""),
        status("HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED", 0x3001, ""),
        status("HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED", 0x3002, ""),
        status(
            "HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED",
            0x3003,
            "",
        ),
        status("HSA_EXT_STATUS_ERROR_INVALID_PROGRAM", 0x2000, ""),
        status("HSA_EXT_STATUS_ERROR_INVALID_MODULE", 0x2001, ""),
        status("HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED", 0x2003, ""),
        status("HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH", 0x2004, ""),
        status("HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED", 0x2005, ""),
        status("HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH", 0x2006, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the program's own use of the HSA API (an argument, handle or object the runtime does not accept, or a resource it asked too much of): the GPU was reached, and no container or driver setting causes it.",
    check: "report it to the program with its ROCm release; a line naming a GPU failure (rocminfo's, /dev/kfd's) is read before this one",
    rank: RANK_NOTE,
    ..HSA
};
