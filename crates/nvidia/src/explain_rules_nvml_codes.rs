//! The rest of `nvmlReturn_t` (issue 31, round 4), so that every code of the enum is read:
//! [`crate::explain_rules`] and [`crate::explain_rules_nvml`] hold the codes with more than one
//! cause to tell apart (driver not loaded, library not found, GPU lost, version mismatch,
//! function not found, no permission, operating system, unknown, reset required, in use, MIG's
//! insufficient resources); this table holds the others, one row each. A row lists the code's
//! names and texts as its printers show them: go-nvml's `ERROR_<NAME>` (NVIDIA/go-nvml
//! pkg/nvml/return.go, the fallback `ErrorString` when libnvidia-ml is absent), pynvml's
//! `NVMLError_<Name>` class, libnvidia-container's `nvml error: <text>` (src/error.c
//! `error_set_nvml`, lower-cased by src/error_generic.c), and `nvml: <text>` / `NVML: <text>`
//! for the library's `nvmlErrorString`, whose texts are NVIDIA/DCGM
//! sdk/nvidia/nvml/nvml_error_strings.h's. What each code means is nvml.h's comment on it
//! (NVIDIA/go-nvml pkg/nvml/nvml.h); what it means for a container is said beside it.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

/// Lines where `ERROR_<NAME>` is another library's status (CUDA's `CUDA_ERROR_NOT_FOUND`,
/// Level Zero's, HSA's, Vulkan's), not NVML's.
const NOT_NVML: &[&str] = &[
    "CUDA_ERROR_",
    "ZE_RESULT_ERROR_",
    "HSA_STATUS_ERROR_",
    "VK_ERROR_",
    "hipError",
    "MFX_ERR",
];

/// One row of the table: codes 24 to 30 have no text in DCGM's table (nvml.h names them only),
/// so they are read by name; 22's text is pynvml's own (`_errcode_to_string`). (go-nvml's bare `ERROR_<NAME>` counts only beside a word of NVML's
/// subject, so that another API's `ERROR_NOT_FOUND` is not read): the go-nvml name (after `ERROR_`), the pynvml class (after
/// `NVMLError_`), the `nvmlErrorString` text, its lower-cased form, and the reading.
macro_rules! nvml_code {
    ($name:literal, $class:literal, [$($text:literal, $lower:literal)?], $op:expr, $rank:expr,
     $cause:literal, $check:literal) => {
        EmitterRule {
            emitter: "nvml",
            who: "NVML",
            line: &[
                &[concat!("ERROR_", $name), "nvml"],
                &[concat!("ERROR_", $name), "NVML"],
                &[concat!("ERROR_", $name), "device"],
                &[concat!("ERROR_", $name), "GPU"],
                &[concat!("ERROR_", $name), "MIG"],
                &[concat!("NVMLError_", $class)],
                $(
                    &[concat!("nvml error: ", $lower)],
                    &["nvml", concat!(": ", $text)],
                    &["NVML", concat!(": ", $text)],
                    // nvidia-smi's `Unable to determine the device handle for GPU<bus id>: <text>`.
                    &["device handle for GPU", concat!(": ", $text)],
                )?
            ],
            unless: NOT_NVML,
            operation: $op,
            object: ObjectAt::Is(concat!("NVML_ERROR_", $name)),
            cause: $cause,
            check: $check,
            rank: $rank,
            ..RULE
        }
    };
}

/// The codes read here, in nvml.h's order.
pub(crate) const RULES: &[EmitterRule] = &[
    nvml_code!(
        "UNINITIALIZED",
        "Uninitialized",
        ["Uninitialized", "uninitialized"],
        Operation::Initialise,
        RANK_VAGUE,
        "NVML was called before it initialised (nvml.h: 'NVML was not first initialized with nvmlInit()'): the program's own initialisation failed earlier (an earlier line says why: driver not loaded, library not found) or it shut NVML down too early.",
        "the lines before this one for NVML's initialisation error; 'nvidia-smi' where it ran"
    ),
    nvml_code!(
        "INVALID_ARGUMENT",
        "InvalidArgument",
        ["Invalid Argument", "invalid argument"],
        Operation::MatchVersion,
        RANK_VAGUE,
        "NVML rejected an argument the caller passed (nvml.h: 'A supplied argument is invalid'): a device index, UUID, MIG profile or placement that does not exist on this GPU, or a tool built for another driver branch passing a structure this NVML does not take.",
        "'nvidia-smi -L' and 'nvidia-smi mig -lgip' for what this GPU offers; use the tool release that matches the driver"
    ),
    nvml_code!(
        "NOT_SUPPORTED",
        "NotSupported",
        ["Not Supported", "not supported"],
        Operation::FindDevice,
        RANK_VAGUE,
        "this GPU or driver does not offer the operation asked (nvml.h: 'The requested operation is not available on target device'): MIG on a GPU without MIG (only A100, A30, H100, H200, B200 class GPUs have it), a query a consumer GPU, a vGPU guest or WSL does not answer, or a feature of a newer driver branch.",
        "'nvidia-smi -q' on the node shows what the GPU supports (MIG Mode, Product Name); 'gpuctl requirement' names the branches for it"
    ),
    nvml_code!(
        "ALREADY_INITIALIZED",
        "AlreadyInitialized",
        ["Already Initialized", "already initialized"],
        Operation::Initialise,
        RANK_VAGUE,
        "the program initialised NVML twice (nvml.h: deprecated, multiple initialisations are counted): a program bug, not the host's setup.",
        "update the tool; the lines around this one name the real failure"
    ),
    nvml_code!(
        "NOT_FOUND",
        "NotFound",
        ["Not Found", "not found"],
        Operation::FindDevice,
        RANK_VAGUE,
        "NVML found no object by the name asked (nvml.h: 'A query to find an object was unsuccessful'): a GPU UUID, PCI bus id or MIG device that is not on this node (a device list or checkpoint from another node or from before a MIG change), or one that fell off the bus.",
        "'nvidia-smi -L' on the node lists the UUIDs it has; compare NVIDIA_VISIBLE_DEVICES, the pod's device assignment or the plug-in's config with it"
    ),
    nvml_code!(
        "INSUFFICIENT_SIZE",
        "InsufficientSize",
        ["Insufficient Size", "insufficient size"],
        Operation::Initialise,
        RANK_VAGUE,
        "the program passed NVML a buffer too small for the answer (nvml.h: 'An input argument is not large enough'): a tool built for another driver branch.",
        "use the tool release that matches the driver ('nvidia-smi' prints the driver version)"
    ),
    nvml_code!(
        "INSUFFICIENT_POWER",
        "InsufficientPower",
        ["Insufficient External Power", "insufficient external power"],
        Operation::Initialise,
        RANK_DECISIVE,
        "the GPU's external power cables are not properly attached (nvml.h: 'A device's external power cables are not properly attached'): a hardware fault of the node, not a software setting.",
        "power the node down and seat the GPU's auxiliary power connectors; check the power supply's rating"
    ),
    nvml_code!(
        "TIMEOUT",
        "Timeout",
        ["Timeout", "timeout"],
        Operation::Initialise,
        RANK_VAGUE,
        "the driver did not answer NVML in time (nvml.h: 'User provided timeout passed'): a GPU that is hung, busy resetting or still initialising (many GPUs without the persistence daemon).",
        "'nvidia-smi' and 'dmesg | grep -i -e NVRM -e Xid' on the node; enable the persistence daemon ('sudo systemctl enable --now nvidia-persistenced')"
    ),
    nvml_code!(
        "IRQ_ISSUE",
        "IrqIssue",
        ["Interrupt Request Issue", "interrupt request issue"],
        Operation::Initialise,
        RANK_DECISIVE,
        "the kernel driver saw no interrupts from the GPU (nvml.h: 'NVIDIA Kernel detected an interrupt issue with a GPU'): MSI or interrupt routing broken for it (a passthrough VM or IOMMU setting, a BIOS option, a failing GPU or riser).",
        "'dmesg | grep -i -e NVRM -e irq' on the node; try NVreg_EnableMSI=0, the VM's passthrough interrupt settings, or another slot"
    ),
    nvml_code!(
        "CORRUPTED_INFOROM",
        "CorruptedInforom",
        ["Corrupted infoROM", "corrupted inforom"],
        Operation::Initialise,
        RANK_DECISIVE,
        "the GPU's infoROM (its on-board configuration store) is corrupted (nvml.h: 'infoROM is corrupted'): a fault of the GPU itself; the driver may refuse features or the GPU.",
        "'nvidia-smi -q | grep -i -A3 inforom' on the node; the GPU needs an infoROM update from its vendor or service"
    ),
    nvml_code!(
        "MEMORY",
        "Memory",
        ["Insufficient Memory", "insufficient memory"],
        Operation::Allocate,
        RANK_VAGUE,
        "the driver ran out of host memory for NVML's request (nvml.h: 'Insufficient memory'): the node or the container's memory limit is exhausted.",
        "'free -m' on the node and the container's memory limit; 'dmesg | grep -i -e oom -e NVRM'"
    ),
    nvml_code!(
        "NO_DATA",
        "NoData",
        ["No data", "no data"],
        Operation::FindDevice,
        RANK_VAGUE,
        "NVML has no data for the query (nvml.h: 'No data'): samples or statistics not collected yet on this GPU, or not collected by this driver.",
        "retry once the GPU has run work; check the tool's support for this GPU and driver"
    ),
    nvml_code!(
        "VGPU_ECC_NOT_SUPPORTED",
        "VgpuEccNotSupported",
        [
            "Requested vgpu operation not available with ECC enabled",
            "requested vgpu operation not available with ecc enabled"
        ],
        Operation::Allocate,
        RANK_DECISIVE,
        "the vGPU operation is refused because ECC is enabled on the physical GPU (nvml.h: 'not available on target device, because ECC is enabled'): this vGPU profile needs ECC off on the host GPU.",
        "'nvidia-smi -q -d ECC' on the vGPU host; disable ECC ('sudo nvidia-smi -e 0') and reboot, or use a profile that supports ECC"
    ),
    nvml_code!(
        "INSUFFICIENT_RESOURCES",
        "InsufficientResources",
        ["Insufficient Resources", "insufficient resources"],
        Operation::Allocate,
        RANK_VAGUE,
        "the GPU ran out of a resource other than memory for the request (nvml.h: 'Ran out of critical resources, other than memory'): for MIG, no free slice for that profile; for vGPU, no room for another vGPU of that type.",
        "'nvidia-smi mig -lgi' (and 'nvidia-smi vgpu') list what is already placed on the GPU; free it or choose a profile that fits"
    ),
    nvml_code!(
        "FREQ_NOT_SUPPORTED",
        "FreqNotSupported",
        [],
        Operation::Allocate,
        RANK_VAGUE,
        "the clock or frequency asked is not one this GPU supports (nvml.h: ERROR_FREQ_NOT_SUPPORTED).",
        "'nvidia-smi -q -d SUPPORTED_CLOCKS' lists the clocks the GPU takes"
    ),
    nvml_code!(
        "ARGUMENT_VERSION_MISMATCH",
        "ArgumentVersionMismatch",
        [],
        Operation::MatchVersion,
        RANK_VAGUE,
        "the tool passed a structure version this NVML does not know (nvml.h: 'The provided version is invalid/unsupported'): the tool was built for a newer driver branch than the node's.",
        "upgrade the node's driver, or use the tool release that matches it ('nvidia-smi' prints the driver version)"
    ),
    nvml_code!(
        "DEPRECATED",
        "Deprecated",
        [],
        Operation::MatchVersion,
        RANK_VAGUE,
        "the tool called an NVML function this driver no longer supports (nvml.h: 'The requested functionality has been deprecated'): the tool is older than the driver.",
        "update the tool to a release for this driver branch"
    ),
    nvml_code!(
        "NOT_READY",
        "NotReady",
        [],
        Operation::Initialise,
        RANK_VAGUE,
        "the system is not ready for the request (nvml.h: 'The system is not ready for the request'): on an NVSwitch system the fabric manager has not finished (or failed) training the NVLink fabric, or the GPU is still initialising.",
        "'systemctl status nvidia-fabricmanager' and 'nvidia-smi -q | grep -i -A2 fabric' on the node"
    ),
    nvml_code!(
        "GPU_NOT_FOUND",
        "GpuNotFound",
        [],
        Operation::FindDevice,
        RANK_VAGUE,
        "NVML found no GPUs (nvml.h: 'No GPUs were found'): the driver is loaded but brought up none (the kernel log says why), or the caller was given none.",
        "'nvidia-smi -L' and 'dmesg | grep -i nvrm' on the node"
    ),
    nvml_code!(
        "INVALID_STATE",
        "InvalidState",
        [],
        Operation::Initialise,
        RANK_VAGUE,
        "the GPU is not in the state the operation needs (nvml.h: 'Resource not in correct state to perform requested operation'): a MIG or mode change pending a reset, or an operation started twice.",
        "'nvidia-smi -q' shows pending modes (MIG Mode Pending); reset the GPU ('sudo nvidia-smi -r -i <index>') or reboot, then retry"
    ),
    nvml_code!(
        "RESET_TYPE_NOT_SUPPORTED",
        "ResetTypeNotSupported",
        [],
        Operation::Initialise,
        RANK_VAGUE,
        "the GPU does not support the reset asked (nvml.h: 'Reset not supported for given device/parameters'): a GPU in a passthrough VM or behind an NVSwitch needs another reset (or a reboot).",
        "reboot the node (or the VM) to reset the GPU"
    ),
];
