//! The HSA runtime's (ROCr's) `hsa_status_t`, read by name and by number (issue 31): rocminfo
//! prints `Call returned 4104`, ROCclr `hsa_init failed with 1008` (hex without `0x`), HIP and
//! HCC `code: 0x1008` or `(0x1008)`. The values are ROCm/ROCR-Runtime src/inc/hsa.h's; the
//! names that a family already claims (`HSA_STATUS_ERROR_OUT_OF_RESOURCES`,
//! `HSA_STATUS_ERROR_INVALID_ISA`) keep it, and the numbers are read here as the same class.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_VAGUE, RULE};

/// The HSA runtime's rule shape: `emitter: "hsa"`.
const HSA: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the HSA runtime (ROCr)",
    ..RULE
};

/// HSA_STATUS_ERROR_OUT_OF_RESOURCES = 0x1008 (4104).
pub(crate) const OUT_OF_RESOURCES: EmitterRule = EmitterRule {
    line: &[
        &["hsa", "returned 4104"],
        &["hsa", "failed with 1008"],
        &["HSA_STATUS", "0x1008"],
        &["hsa", "code: 0x1008"],
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU agents' resources (HSA_STATUS_ERROR_OUT_OF_RESOURCES, 0x1008)"),
    cause: "the runtime reached /dev/kfd but could not set up every GPU it was shown: in a container, most often a render node of a GPU was not passed with /dev/kfd, or the user lacks the group that owns the nodes (render or video); on a bare host, an amdgpu driver without this GPU's compute support.",
    check: "pass every AMD render node with /dev/kfd ('podman run $(gpuctl args amd) ...'), add the user to the render group ('sudo usermod -aG render $USER') and keep it with '--group-add keep-groups'; 'sudo dmesg | grep kfd' on the host",
    ..HSA
};

/// HSA_STATUS_ERROR_NOT_INITIALIZED = 0x100B (4107), and HSA_STATUS_ERROR = 0x1000 (4096).
pub(crate) const NOT_INITIALIZED: EmitterRule = EmitterRule {
    line: &[
        &["HSA_STATUS_ERROR_NOT_INITIALIZED"],
        &["hsa", "returned 4107"],
        &["hsa", "failed with 100b"],
        &["hsa", "failed with 100B"],
        &["hsa", "code: 0x100b"],
        &["hsa", "code: 0x100B"],
    ],
    operation: Operation::Initialise,
    cause: "the HSA runtime did not start: it could not open /dev/kfd or found no supported GPU.",
    check: "'rocminfo' in the container; /dev/kfd and the render nodes must be given to it, and its user in their groups",
    rank: RANK_VAGUE,
    ..HSA
};

/// HSA_STATUS_ERROR = 0x1000 (4096): a generic error, the lines around it say more.
pub(crate) const GENERIC: EmitterRule = EmitterRule {
    line: &[
        &["hsa", "returned 4096"],
        &["hsa", "failed with 1000"],
        &["hsa", "code: 0x1000"],
    ],
    operation: Operation::Initialise,
    cause: "the HSA runtime reported a generic error (HSA_STATUS_ERROR, 0x1000) without a reason of its own; the lines before it, or 'dmesg | grep -e kfd -e amdgpu' on the host, name what failed.",
    check: "'rocminfo' in the container and 'sudo dmesg | grep -e kfd -e amdgpu' on the host",
    rank: RANK_VAGUE,
    ..HSA
};

/// HSA_STATUS_ERROR_INVALID_ISA = 0x100F (4111), INVALID_ISA_NAME = 0x1017 (4119),
/// INVALID_CODE_OBJECT = 0x1010 (4112): code for another GPU target.
pub(crate) const INVALID_ISA: EmitterRule = EmitterRule {
    line: &[
        &["hsa", "returned 4111"],
        &["hsa", "returned 4119"],
        &["hsa", "returned 4112"],
        &["HSA_STATUS_ERROR_INVALID_CODE_OBJECT"],
        &["HSA_STATUS_ERROR_INVALID_ISA_NAME"],
        &["hsa", "code: 0x100f"],
        &["hsa", "code: 0x1010"],
        &["hsa", "code: 0x1017"],
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "the code object the program loads was built for another GPU target (gfx…) than this GPU's: the image's ROCm build does not list the GPU, or HSA_OVERRIDE_GFX_VERSION names a target whose code does not run on it.",
    check: "'rocminfo | grep gfx' gives the GPU's target; 'gpuctl requirement' the ROCm releases that list it; set HSA_OVERRIDE_GFX_VERSION only to a target of the same family",
    ..HSA
};

/// ROCr's "Memory access fault by GPU node-%d (Agent handle: %p) on address %p. Reason: %s": a
/// GPU kernel faulted. Two readings: code for another target forced by
/// HSA_OVERRIDE_GFX_VERSION (ROCm/legacy-rocm-build#5238), or a bug of the program, the ROCm
/// release or the GPU firmware (#5616). Not a container set-up problem either way.
pub(crate) const MEMORY_FAULT: EmitterRule = EmitterRule {
    line: &[&["Memory access fault by GPU node"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "a GPU kernel touched memory it may not (a GPU page fault), which has two readings: code for another GPU target run through HSA_OVERRIDE_GFX_VERSION (or a ROCm build that does not list this GPU), or a bug of the program, the ROCm release or the GPU firmware. It is not a container set-up problem: the GPU was reached.",
    check: "'env | grep HSA_OVERRIDE_GFX_VERSION' in the container and 'rocminfo | grep gfx' (drop the override if it names another target); 'sudo dmesg | grep -i \"page fault\"' on the host names the faulting process",
    rank: RANK_VAGUE,
    ..HSA
};
