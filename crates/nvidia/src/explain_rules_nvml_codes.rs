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

use crate::explain_rules_libs::{leak, leak_shapes};

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

/// One row of the table: the go-nvml name (after `ERROR_`), the pynvml class (after
/// `NVMLError_`), the `nvmlErrorString` text when a public table gives one (codes 24 to 30 have
/// none in DCGM's, nvml.h names them only; 21's and 22's are pynvml's own `_errcode_to_string`),
/// and the reading. Rows are data, expanded into rules once ([`rules`]), so that the binary
/// holds a few pointers per code rather than a rule's every word (each is a relocation every
/// `gpuctl` start pays for).
struct Code {
    name: &'static str,
    class: &'static str,
    text: Option<&'static str>,
    op: Operation,
    rank: u8,
    cause: &'static str,
    check: &'static str,
}

/// The words of NVML's subject that go-nvml's bare `ERROR_<NAME>` must stand beside on its
/// line, so that another API's `ERROR_NOT_FOUND` is not read.
const BESIDE: &[&str] = &["nvml", "NVML", "device", "GPU ", "GPU:", "vGPU", "MIG"];

impl Code {
    /// The rule: `ERROR_<NAME>` beside a word of [`BESIDE`], `NVMLError_<Class>`, and with a
    /// text, libnvidia-container's lower-cased `nvml error: <text>`, `nvml: <text>`,
    /// `NVML: <text>` and nvidia-smi's `device handle for GPU<bus id>: <text>`.
    fn rule(&self) -> EmitterRule {
        let error = leak(format!("ERROR_{}", self.name));
        let mut shapes: Vec<Vec<&'static str>> = BESIDE.iter().map(|w| vec![error, *w]).collect();
        shapes.push(vec![leak(format!("NVMLError_{}", self.class))]);
        if let Some(text) = self.text {
            let after = leak(format!(": {text}"));
            shapes.push(vec![leak(format!("nvml error: {}", text.to_lowercase()))]);
            shapes.push(vec!["nvml", after]);
            shapes.push(vec!["NVML", after]);
            shapes.push(vec!["device handle for GPU", after]);
        }
        EmitterRule {
            emitter: "nvml",
            who: "NVML",
            line: leak_shapes(shapes),
            unless: NOT_NVML,
            operation: self.op,
            object: ObjectAt::Is(leak(format!("NVML_ERROR_{}", self.name))),
            cause: self.cause,
            check: self.check,
            rank: self.rank,
            ..RULE
        }
    }
}

/// The rules of [`CODES`], built once by [`crate::explain_rules::ALL`].
pub(crate) fn rules() -> impl Iterator<Item = EmitterRule> {
    CODES.iter().map(Code::rule)
}

/// The codes read here, in nvml.h's order.
const CODES: &[Code] = &[
    Code {
        name: "UNINITIALIZED",
        class: "Uninitialized",
        text: Some("Uninitialized"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "NVML was called before it initialised (nvml.h: 'NVML was not first initialized with nvmlInit()'): the program's own initialisation failed earlier (an earlier line says why: driver not loaded, library not found) or it shut NVML down too early.",
        check: "the lines before this one for NVML's initialisation error; 'nvidia-smi' where it ran",
    },
    Code {
        name: "INVALID_ARGUMENT",
        class: "InvalidArgument",
        text: Some("Invalid Argument"),
        op: Operation::MatchVersion,
        rank: RANK_VAGUE,
        cause: "NVML rejected an argument the caller passed (nvml.h: 'A supplied argument is invalid'): a device index, UUID, MIG profile or placement that does not exist on this GPU, or a tool built for another driver branch passing a structure this NVML does not take.",
        check: "'nvidia-smi -L' and 'nvidia-smi mig -lgip' for what this GPU offers; use the tool release that matches the driver",
    },
    Code {
        name: "NOT_SUPPORTED",
        class: "NotSupported",
        text: Some("Not Supported"),
        op: Operation::FindDevice,
        rank: RANK_VAGUE,
        cause: "this GPU or driver does not offer the operation asked (nvml.h: 'The requested operation is not available on target device'): MIG on a GPU without MIG (only A100, A30, H100, H200, B200 class GPUs have it), a query a consumer GPU, a vGPU guest or WSL does not answer, or a feature of a newer driver branch.",
        check: "'nvidia-smi -q' on the node shows what the GPU supports (MIG Mode, Product Name); 'gpuctl requirement' names the branches for it",
    },
    Code {
        name: "ALREADY_INITIALIZED",
        class: "AlreadyInitialized",
        text: Some("Already Initialized"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the program initialised NVML twice (nvml.h: deprecated, multiple initialisations are counted): a program bug, not the host's setup.",
        check: "update the tool; the lines around this one name the real failure",
    },
    Code {
        name: "NOT_FOUND",
        class: "NotFound",
        text: Some("Not Found"),
        op: Operation::FindDevice,
        rank: RANK_VAGUE,
        cause: "NVML found no object by the name asked (nvml.h: 'A query to find an object was unsuccessful'): a GPU UUID, PCI bus id or MIG device that is not on this node (a device list or checkpoint from another node or from before a MIG change), or one that fell off the bus.",
        check: "'nvidia-smi -L' on the node lists the UUIDs it has; compare NVIDIA_VISIBLE_DEVICES, the pod's device assignment or the plug-in's config with it",
    },
    Code {
        name: "INSUFFICIENT_SIZE",
        class: "InsufficientSize",
        text: Some("Insufficient Size"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the program passed NVML a buffer too small for the answer (nvml.h: 'An input argument is not large enough'): a tool built for another driver branch.",
        check: "use the tool release that matches the driver ('nvidia-smi' prints the driver version)",
    },
    Code {
        name: "INSUFFICIENT_POWER",
        class: "InsufficientPower",
        text: Some("Insufficient External Power"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the GPU's external power cables are not properly attached (nvml.h: 'A device's external power cables are not properly attached'): a hardware fault of the node, not a software setting.",
        check: "power the node down and seat the GPU's auxiliary power connectors; check the power supply's rating",
    },
    Code {
        name: "TIMEOUT",
        class: "Timeout",
        text: Some("Timeout"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the driver did not answer NVML in time (nvml.h: 'User provided timeout passed'): a GPU that is hung, busy resetting or still initialising (many GPUs without the persistence daemon).",
        check: "'nvidia-smi' and 'dmesg | grep -i -e NVRM -e Xid' on the node; enable the persistence daemon ('sudo systemctl enable --now nvidia-persistenced')",
    },
    Code {
        name: "IRQ_ISSUE",
        class: "IrqIssue",
        text: Some("Interrupt Request Issue"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the kernel driver saw no interrupts from the GPU (nvml.h: 'NVIDIA Kernel detected an interrupt issue with a GPU'): MSI or interrupt routing broken for it (a passthrough VM or IOMMU setting, a BIOS option, a failing GPU or riser).",
        check: "'dmesg | grep -i -e NVRM -e irq' on the node; try NVreg_EnableMSI=0, the VM's passthrough interrupt settings, or another slot",
    },
    Code {
        name: "CORRUPTED_INFOROM",
        class: "CorruptedInforom",
        text: Some("Corrupted infoROM"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the GPU's infoROM (its on-board configuration store) is corrupted (nvml.h: 'infoROM is corrupted'): a fault of the GPU itself; the driver may refuse features or the GPU.",
        check: "'nvidia-smi -q | grep -i -A3 inforom' on the node; the GPU needs an infoROM update from its vendor or service",
    },
    Code {
        name: "MEMORY",
        class: "Memory",
        text: Some("Insufficient Memory"),
        op: Operation::Allocate,
        rank: RANK_VAGUE,
        cause: "the driver ran out of host memory for NVML's request (nvml.h: 'Insufficient memory'): the node or the container's memory limit is exhausted.",
        check: "'free -m' on the node and the container's memory limit; 'dmesg | grep -i -e oom -e NVRM'",
    },
    Code {
        name: "NO_DATA",
        class: "NoData",
        text: Some("No data"),
        op: Operation::FindDevice,
        rank: RANK_VAGUE,
        cause: "NVML has no data for the query (nvml.h: 'No data'): samples or statistics not collected yet on this GPU, or not collected by this driver.",
        check: "retry once the GPU has run work; check the tool's support for this GPU and driver",
    },
    Code {
        name: "VGPU_ECC_NOT_SUPPORTED",
        class: "VgpuEccNotSupported",
        text: Some("Requested vgpu operation not available with ECC enabled"),
        op: Operation::Allocate,
        rank: RANK_DECISIVE,
        cause: "the vGPU operation is refused because ECC is enabled on the physical GPU (nvml.h: 'not available on target device, because ECC is enabled'): this vGPU profile needs ECC off on the host GPU.",
        check: "'nvidia-smi -q -d ECC' on the vGPU host; disable ECC ('sudo nvidia-smi -e 0') and reboot, or use a profile that supports ECC",
    },
    Code {
        name: "INSUFFICIENT_RESOURCES",
        class: "InsufficientResources",
        text: Some("Insufficient Resources"),
        op: Operation::Allocate,
        rank: RANK_VAGUE,
        cause: "the GPU ran out of a resource other than memory for the request (nvml.h: 'Ran out of critical resources, other than memory'): for MIG, no free slice for that profile; for vGPU, no room for another vGPU of that type.",
        check: "'nvidia-smi mig -lgi' (and 'nvidia-smi vgpu') list what is already placed on the GPU; free it or choose a profile that fits",
    },
    Code {
        name: "FREQ_NOT_SUPPORTED",
        class: "FreqNotSupported",
        text: None,
        op: Operation::Allocate,
        rank: RANK_VAGUE,
        cause: "the clock or frequency asked is not one this GPU supports (nvml.h: ERROR_FREQ_NOT_SUPPORTED).",
        check: "'nvidia-smi -q -d SUPPORTED_CLOCKS' lists the clocks the GPU takes",
    },
    Code {
        name: "ARGUMENT_VERSION_MISMATCH",
        class: "ArgumentVersionMismatch",
        text: None,
        op: Operation::MatchVersion,
        rank: RANK_VAGUE,
        cause: "the tool passed a structure version this NVML does not know (nvml.h: 'The provided version is invalid/unsupported'): the tool was built for a newer driver branch than the node's.",
        check: "upgrade the node's driver, or use the tool release that matches it ('nvidia-smi' prints the driver version)",
    },
    Code {
        name: "DEPRECATED",
        class: "Deprecated",
        text: None,
        op: Operation::MatchVersion,
        rank: RANK_VAGUE,
        cause: "the tool called an NVML function this driver no longer supports (nvml.h: 'The requested functionality has been deprecated'): the tool is older than the driver.",
        check: "update the tool to a release for this driver branch",
    },
    Code {
        name: "NOT_READY",
        class: "NotReady",
        text: None,
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the system is not ready for the request (nvml.h: 'The system is not ready for the request'): on an NVSwitch system the fabric manager has not finished (or failed) training the NVLink fabric, or the GPU is still initialising.",
        check: "'systemctl status nvidia-fabricmanager' and 'nvidia-smi -q | grep -i -A2 fabric' on the node",
    },
    Code {
        name: "GPU_NOT_FOUND",
        class: "GpuNotFound",
        text: None,
        op: Operation::FindDevice,
        rank: RANK_VAGUE,
        cause: "NVML found no GPUs (nvml.h: 'No GPUs were found'): the driver is loaded but brought up none (the kernel log says why), or the caller was given none.",
        check: "'nvidia-smi -L' and 'dmesg | grep -i nvrm' on the node",
    },
    Code {
        name: "INVALID_STATE",
        class: "InvalidState",
        text: None,
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the GPU is not in the state the operation needs (nvml.h: 'Resource not in correct state to perform requested operation'): a MIG or mode change pending a reset, or an operation started twice.",
        check: "'nvidia-smi -q' shows pending modes (MIG Mode Pending); reset the GPU ('sudo nvidia-smi -r -i <index>') or reboot, then retry",
    },
    Code {
        name: "RESET_TYPE_NOT_SUPPORTED",
        class: "ResetTypeNotSupported",
        text: None,
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the GPU does not support the reset asked (nvml.h: 'Reset not supported for given device/parameters'): a GPU in a passthrough VM or behind an NVSwitch needs another reset (or a reboot).",
        check: "reboot the node (or the VM) to reset the GPU",
    },
];
