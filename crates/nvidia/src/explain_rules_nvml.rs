//! NVML's return codes read as a class (issue 31): a caller prints NVML's failure as
//! `nvml: <ErrorString>` (go-nvml's callers: the device plugin, nvidia-ctk, the GPU feature
//! discovery), `Failed to initialize NVML: <ErrorString>` (nvidia-smi), `nvml error: <string>`
//! lower-cased (libnvidia-container), go-nvml's `ERROR_<NAME>` or pynvml's `NVMLError_<Name>`. What each return means is
//! nvml.h's own comment on `nvmlReturn_t` (NVIDIA's NVML API reference, "Error reporting");
//! what it means for a container is said beside it. Sources in docs/explain.md#emitters.
//!
//! The call that failed decides the operation where the code alone does not: an `Unknown
//! Error` while NVML initialises is the device cgroup or the driver, while getting one GPU's
//! handle (`nvml.Device N`, nvidia-smi's "Unable to determine the device handle") it is that GPU.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_VAGUE, RULE};

/// NVML's lines.
const NVML: EmitterRule = EmitterRule {
    emitter: "nvml",
    who: "NVML",
    ..RULE
};

/// What to look at when a GPU does not come up under a loaded driver.
const GPU_STATE_CHECK: &str = "'nvidia-smi' and 'dmesg | grep -i -e NVRM -e Xid -e GSP' on the node name the failing GPU and step; a GSP firmware failure needs the proprietary kernel module with NVreg_EnableGpuFirmware=0 or another driver branch, a GPU in a bad state a reset ('nvidia-smi -r') or a reboot";

/// NVML's return codes, by what each means.
pub(crate) const RULES: &[EmitterRule] = &[
    // NVML_ERROR_NO_PERMISSION (4), "The current user does not have permission for operation";
    // nvmlErrorString: "Insufficient Permissions". Device-plugin builds of 2019-2020 print it
    // misspelt "Insufficient Pemmissions" (NVIDIA/k8s-device-plugin#399). nvidia-smi's own
    // "Failed to initialize NVML: Insufficient Permissions" is the family
    // nvidia-nvml-insufficient-permissions (SELinux, no-cgroups).
    EmitterRule {
        line: &[
            &["nvml: Insufficient Permissions"],
            &["Insufficient Pemmissions"],
            &["ERROR_NO_PERMISSION"],
            // go-nvml's callers: `error getting <what>: <ErrorString>`, on a device (the device
            // plugin's "device memory info") or a MIG device ("parent memory info",
            // NVIDIA/k8s-device-plugin#1683); a bare "Insufficient Permissions" is no NVML's.
            &["error getting device", ": Insufficient Permissions"],
            &["MIG device", ": Insufficient Permissions"],
            &["nvml", ": Insufficient Permissions"],
            // pynvml's exception class for the code (NVIDIA/nvidia-container-toolkit#842).
            &["NVMLError_NoPermission"],
            &["nvml.Device", "Insufficient Permissions"],
            &["/dev/nvidia-caps", "Insufficient Permissions"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("the GPU's device nodes"),
        cause: "NVML was refused a GPU query for lack of permission on a device node it needs: on a MIG-enabled GPU the MIG capability nodes (/dev/nvidia-caps/nvidia-cap*), which a container gets only when asked for (a device plugin with a MIG strategy runs privileged or with NVIDIA_MIG_MONITOR_DEVICES=all); otherwise a non-root user without the nodes' group, or SELinux labels.",
        check: "'ls -l /dev/nvidia-caps' and 'nvidia-smi -L' on the node and in the container; deploy the device plugin with the chart's MIG settings (privileged, or NVIDIA_MIG_MONITOR_DEVICES=all), or give a non-root user the group that owns /dev/nvidia*",
        host_path: Some("/dev/nvidia-caps"),
        ..NVML
    },
    // NVML_ERROR_OPERATING_SYSTEM (17), "The GPU control device has been blocked by the
    // operating system/cgroups"; nvmlErrorString: "GPU access blocked by the operating system"
    // (staralt/dxgkrnl-dkms#7, a WSL-style GPU-P guest).
    EmitterRule {
        line: &[
            &["GPU access blocked by the operating system"],
            &["nvml error: gpu access blocked by the operating system"],
            &["The operating system has blocked the request"],
            &["ERROR_OPERATING_SYSTEM"],
            &["NVMLError_OperatingSystem"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU's control device"),
        cause: "the operating system blocked NVML's access to the GPU's control device: under WSL 2 or a Hyper-V GPU-P guest the paravirtual GPU (/dev/dxg, the dxgkrnl module) is missing or wedged (a Windows NVIDIA driver too old, a sandbox without /dev/dxg, a session that needs 'wsl --shutdown'); on Linux, the device cgroup does not allow /dev/nvidiactl.",
        check: "'ls -l /dev/dxg' under WSL or a GPU-P guest, 'ls -l /dev/nvidiactl' elsewhere, where it ran; under WSL update the Windows NVIDIA driver and run 'wsl --shutdown'; in a container pass the GPU by CDI ('gpuctl args nvidia')",
        ..NVML
    },
    // NVML_ERROR_UNKNOWN (999), "An internal driver error occurred", while getting a GPU's
    // handle: the device plugin's `error creating nvml.Device 0: nvml: Unknown Error`
    // (awslabs/amazon-eks-ami#1523, GSP firmware), nvidia-smi's `Unable to determine the device
    // handle for GPU<bus id>: Unknown Error`, and libnvidia-container's detection stage
    // (`detection error: nvml error: unknown error` while "requesting device information",
    // NVIDIA/nvidia-docker#1280, whose nvidia-smi shows the GPU as ERR!).
    EmitterRule {
        line: &[
            &["detection error: nvml error: unknown error"],
            &["nvml.Device", "Unknown Error"],
            &["nvml.Device", "ERROR_UNKNOWN"],
            &["device handle for GPU", "Unknown Error"],
            &["device handle for GPU", "ERROR_UNKNOWN"],
            &["DeviceGetHandleByIndex", "Unknown Error"],
            &["DeviceGetHandleByIndex", "ERROR_UNKNOWN"],
        ],
        operation: Operation::FindDevice,
        cause: "NVML started but the driver failed to open one GPU with an internal error: that GPU did not come up (its GSP firmware failed to boot, common with the open kernel modules or a branch whose firmware it does not take; an Xid; a GPU in a bad state, one that fell off the bus (Xid 79: its seating, riser or power connector; reseat it), or one that shut itself off overheating or short of power: a passively cooled data-center card in a chassis without its airflow), and tools that list every GPU stop at it.",
        check: GPU_STATE_CHECK,
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_VAGUE,
        ..NVML
    },
    // NVML_ERROR_UNKNOWN while NVML initialises, as libnvidia-container (lower-cased) and
    // go-nvml's callers print it; nvidia-smi's `Failed to initialize NVML: Unknown Error` is
    // the family nvidia-nvml-unknown-error (the device cgroup after a daemon-reload).
    EmitterRule {
        line: &[
            &["initialization error: nvml error: unknown error"],
            &["failed to initialize NVML: ERROR_UNKNOWN"],
            &["failed to initialize NVML: Unknown Error"],
            &["error initializing NVML: Unknown Error"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("NVML"),
        cause: "the driver answered NVML's initialisation with an internal error: in a container, most often its device cgroup no longer allows the NVIDIA nodes (a 'systemctl daemon-reload' under runc with the systemd cgroup driver drops them); on a host, a GPU or driver in a bad state.",
        check: "'nvidia-smi' on the host first; if it works there, recreate the container and create the /dev/char links ('sudo nvidia-ctk system create-dev-char-symlinks --create-all'); if not, 'dmesg | grep -i -e NVRM -e Xid'",
        rank: RANK_VAGUE,
        ..NVML
    },
    // NVML_ERROR_RESET_REQUIRED (16), "The GPU requires a reset before it can be used again".
    EmitterRule {
        line: &[
            &["ERROR_RESET_REQUIRED"],
            &["NVMLError_ResetRequired"],
            &["nvml error: gpu requires reset"],
            &["nvml", ": GPU requires reset"],
            &["NVML", ": GPU requires reset"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "the GPU must be reset before it can be used again (after an Xid, an uncorrectable ECC error, or a MIG or mode change that needs one); no container setting causes or cures it.",
        check: "'nvidia-smi -q -d ECC,RESET' names why; reset the GPU ('sudo nvidia-smi -r -i <index>') once nothing uses it, or reboot",
        ..NVML
    },
    // NVML_ERROR_IN_USE (19), "An operation cannot be performed because the GPU is currently in
    // use": MIG mode or instance changes with processes on the GPU.
    EmitterRule {
        line: &[
            &["ERROR_IN_USE"],
            &["NVMLError_InUse"],
            &["nvml error: in use by another client"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the GPU"),
        cause: "NVML refused to change the GPU (MIG mode, instances, a reset) because processes hold it: the device plugin, DCGM, nvidia-persistenced or a workload.",
        check: "'nvidia-smi' lists the processes on the GPU; stop them (on Kubernetes, the GPU operator's MIG manager does this when it applies a MIG config) and retry",
        ..NVML
    },
];
