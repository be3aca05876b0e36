//! CUDA's errors read as a class by what each return means (issue 31), from NVIDIA's CUDA
//! Runtime API reference (`cudaError_t`, the strings `cudaGetErrorString` prints) and Driver
//! API reference (`CUresult`, `cuGetErrorString`): each rule lists the runtime's name, the
//! driver's name, the message and the number frameworks print alone ("Error 802:",
//! "cudaGetDeviceCount returned 802"). A number counts only on a line that names CUDA, and only
//! the three-digit codes of this list (no CUDA code extends them: 8020 is none). Sources in
//! docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_VAGUE};

use crate::explain_rules_cuda::CUDA;

/// The codes read by number here and in [`crate::explain_rules_cuda`].
pub(crate) const RULES: &[EmitterRule] = &[
    // cudaErrorSystemNotReady / CUDA_ERROR_SYSTEM_NOT_READY (802): "system not yet
    // initialized"; the reference: "the system is not yet ready to start any CUDA work ...
    // verify that the system is set up correctly (e.g. the fabric manager)". ggml prints
    // `failed to initialize CUDA: system not yet initialized` (ollama/ollama#12136).
    EmitterRule {
        line: &[
            &["CUDA_ERROR_SYSTEM_NOT_READY"],
            &["cudaErrorSystemNotReady"],
            &["CUDA", "system not yet initialized"],
            &["cuda", "system not yet initialized"],
            &["CUDA", "Error 802"],
            &["cuda", "Error 802"],
            &["CUDA error: 802"],
            &["cuda", "returned 802"],
            &["CUDA failure 802"],
            // numba: `[802] Call to cuInit results in UNKNOWN_CUDA_ERROR` (numba/numba#7187).
            &["cuInit", "[802]"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPUs' NVLink fabric"),
        cause: "CUDA will start no work until the system is ready: on an NVSwitch system (HGX or DGX boards with 4 or 8 GPUs) the fabric manager (nvidia-fabricmanager) is not running, failed, or is not exactly the driver's release, so the NVLink fabric was never trained.",
        check: "'systemctl status nvidia-fabricmanager' and 'nvidia-smi -q | grep -A2 -i fabric' on the host; install the nvidia-fabricmanager package of exactly the driver's version, enable it and restart the workload",
        ..CUDA
    },
    // cudaErrorDeviceNotLicensed / CUDA_ERROR_DEVICE_NOT_LICENSED (102): "the device doesn't
    // have a valid Grid License".
    EmitterRule {
        line: &[
            &["cudaErrorDeviceNotLicensed"],
            &["CUDA_ERROR_DEVICE_NOT_LICENSED"],
            &["doesn't have valid Grid license"],
            &["doesn't have a valid Grid License"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "this is an NVIDIA vGPU without a valid licence: the guest driver restricts CUDA once the unlicensed grace period ends.",
        check: "'nvidia-smi -q | grep -i -A2 licen' in the VM; point the guest's /etc/nvidia/gridd.conf at the licence server (or install the client configuration token) and restart nvidia-gridd",
        ..CUDA
    },
    // cudaErrorOperatingSystem / CUDA_ERROR_OPERATING_SYSTEM (304): "OS call failed or
    // operation not supported on this OS".
    EmitterRule {
        line: &[
            &["OS call failed or operation not supported on this OS"],
            &["cudaErrorOperatingSystem"],
            &["CUDA_ERROR_OPERATING_SYSTEM"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "a system call CUDA needs failed: in a container, most often a device node CUDA opens (/dev/nvidia-uvm, /dev/nvidiactl) is not allowed by its device cgroup or not passed; under WSL, a call the paravirtual GPU does not support.",
        check: "'ls -l /dev/nvidia*' in the container against the host; pass the GPU by CDI ('gpuctl args nvidia'), which lists every node CUDA needs",
        rank: RANK_VAGUE,
        ..CUDA
    },
    // cudaErrorInitializationError (3) / CUDA_ERROR_NOT_INITIALIZED (3): "initialization
    // error"; the message alone is too common a phrase, so the names only.
    EmitterRule {
        line: &[
            &["CUDA_ERROR_NOT_INITIALIZED"],
            &["cudaErrorInitializationError"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the CUDA driver"),
        cause: "CUDA's driver did not initialise and does not say why: the driver libraries in the process and the host's kernel module disagree or are missing, the process may not open a node CUDA needs and nvidia-smi does not (/dev/nvidia-uvm, /dev/nvidia-caps: a rootless engine's user namespace, a device cgroup that lacks them), or the process forked after CUDA started (a 'fork' worker of a CUDA parent).",
        check: "'nvidia-smi' in the same container must work; compare its driver version with the host's ('cat /proc/driver/nvidia/version'); if it works, 'ls -l /dev/nvidia-uvm* /dev/nvidia-caps' in the container (pass the GPU by CDI, 'gpuctl args nvidia', which lists every node; under rootless podman try it rootful), and start worker processes with the 'spawn' method",
        rank: RANK_VAGUE,
        ..CUDA
    },
];
