//! The rest of CUDA's error enums (issue 31, round 4): the `cudaError_t` and `CUresult` codes
//! whose cause is the host, its driver, its GPU or a daemon beside them, each read by the
//! runtime's name (`cudaError...`), the driver API's name (`CUDA_ERROR_...`), the message
//! `cudaGetErrorString` prints where it is distinctive, and for three-digit codes the number
//! on a line naming CUDA (`CUDA error 805`, `returned 805`). Names, numbers and meanings are
//! NVIDIA's CUDA Runtime API reference (docs.nvidia.com/cuda/cuda-runtime-api, "Data types
//! used by CUDA Runtime": enum cudaError) and Driver API reference (cuda-driver-api, "Data
//! types": enum cudaError_enum), also listed by NVIDIA's cuda-python (cuda.bindings
//! driver.Result / runtime.cudaError_t). [`crate::explain_rules_cuda`] and
//! [`crate::explain_rules_cuda_codes`] hold the codes read before; the workload's own errors
//! (out of memory, an illegal address, a device-side assert, a launch out of resources) are
//! the program's and stay unclaimed.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE};

use crate::explain_rules_cuda::CUDA;
use crate::explain_rules_libs::{leak, leak_shapes};

/// One code: its names (the runtime's `cudaError...`, the driver API's `CUDA_ERROR_...`), the
/// message on a line naming CUDA when the message is distinctive, the number when it has three
/// digits, and the reading. Rows are data, expanded into rules once ([`rules`]), so that the
/// binary holds a few pointers per code rather than a rule's every word.
struct Code {
    names: &'static [&'static str],
    message: Option<&'static str>,
    number: Option<&'static str>,
    op: Operation,
    rank: u8,
    cause: &'static str,
    check: &'static str,
}

impl Code {
    /// The rule: each name alone; the message beside `CUDA` or `cuda`; the number as
    /// frameworks print it (`CUDA error 805`, `Error 805:`, `CUDA error: 805`, `returned 805`,
    /// onnxruntime's `CUDA failure 805`) on a line naming CUDA.
    fn rule(&self) -> EmitterRule {
        let mut shapes: Vec<Vec<&'static str>> = self.names.iter().map(|n| vec![*n]).collect();
        if let Some(m) = self.message {
            shapes.push(vec!["CUDA", m]);
            shapes.push(vec!["cuda", m]);
        }
        if let Some(n) = self.number {
            let error = leak(format!("rror {n}"));
            shapes.push(vec!["CUDA", error]);
            shapes.push(vec!["cuda", error]);
            shapes.push(vec![leak(format!("CUDA error: {n}"))]);
            shapes.push(vec!["cuda", leak(format!("returned {n}"))]);
            shapes.push(vec![leak(format!("CUDA failure {n}"))]);
        }
        EmitterRule {
            line: leak_shapes(shapes),
            operation: self.op,
            object: ObjectAt::None,
            cause: self.cause,
            check: self.check,
            rank: self.rank,
            ..CUDA
        }
    }
}

/// The rules of [`CODES`], built once by [`crate::explain_rules::ALL`].
pub(crate) fn rules() -> impl Iterator<Item = EmitterRule> {
    CODES.iter().map(Code::rule)
}

/// The codes, by number.
const CODES: &[Code] = &[
    Code {
        names: &["cudaErrorCudartUnloading", "CUDA_ERROR_DEINITIALIZED"],
        message: Some("driver shutting down"),
        number: None,
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "CUDA was called while the driver was shutting down in this process (code 4: the program's exit path, or a CUDA call after the driver was unloaded): the earlier error in the log is the cause.",
        check: "the first CUDA error before this one in the log",
    },
    Code {
        names: &[
            "cudaErrorCallRequiresNewerDriver",
            "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
        ],
        message: Some("API call is not supported in the installed CUDA driver"),
        number: None,
        op: Operation::MatchVersion,
        rank: RANK_DECISIVE,
        cause: "the program calls a CUDA API the host driver is too old for (code 36: it needs a newer driver): the image's CUDA is newer than the driver's, and the feature it uses is not covered by minor-version compatibility.",
        check: "'nvidia-smi' on the host prints the highest CUDA the driver runs; upgrade the driver ('gpuctl requirement' names the branch) or use an image built for that CUDA",
    },
    Code {
        names: &["cudaErrorSoftwareValidityNotEstablished"],
        message: None,
        number: Some("103"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the GPU is not ready for CUDA (code 103, confidential computing: the GPU's software validity is not established, the GPU was not attested or is not in the ready state the CC mode needs).",
        check: "'nvidia-smi conf-compute -f' and '-grs' in the VM; attest the GPU and set it ready ('nvidia-smi conf-compute -srs 1') per NVIDIA's confidential computing guide",
    },
    Code {
        names: &["cudaErrorStartupFailure"],
        message: None,
        number: Some("127"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the CUDA runtime failed to start (code 127: an internal startup failure): the driver libraries in the process and the kernel module disagree, or the process lacks a device node CUDA opens.",
        check: "'nvidia-smi' in the same container; 'ls -l /dev/nvidia*' there against the host",
    },
    Code {
        names: &["cudaErrorDeviceUninitialized", "CUDA_ERROR_INVALID_CONTEXT"],
        message: Some("invalid device context"),
        number: Some("201"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "CUDA has no valid context on the device (code 201): the device was reset or lost under the process (an Xid, a GPU reset, MIG reconfigured), or the program uses a context after an earlier error destroyed it.",
        check: "'dmesg | grep -i xid' on the host for a reset or a lost GPU; the first CUDA error before this one in the log",
    },
    Code {
        names: &["cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE"],
        message: Some("uncorrectable ECC error encountered"),
        number: Some("214"),
        op: Operation::Allocate,
        rank: RANK_DECISIVE,
        cause: "the GPU reported an uncorrectable ECC memory error (code 214): a hardware fault of that GPU's memory; it needs a reset for page retirement or row remapping to take effect.",
        check: "'nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER' and 'dmesg | grep -i xid' on the host; drain and reset the GPU ('sudo nvidia-smi -r -i <index>'), and have it serviced if it recurs",
    },
    Code {
        names: &[
            "cudaErrorDeviceAlreadyInUse",
            "CUDA_ERROR_CONTEXT_ALREADY_IN_USE",
        ],
        message: Some("exclusive-thread device already in use by a different thread"),
        number: Some("216"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the GPU is in an exclusive compute mode and another process or thread holds it (code 216): the compute mode lets one context at a time.",
        check: "'nvidia-smi -q -d COMPUTE' shows the compute mode and 'nvidia-smi' the process holding the GPU; 'sudo nvidia-smi -c DEFAULT' to share it",
    },
    Code {
        names: &[
            "cudaErrorNvlinkUncorrectable",
            "CUDA_ERROR_NVLINK_UNCORRECTABLE",
        ],
        message: Some("uncorrectable NVLink error"),
        number: Some("220"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "an NVLink link of the GPU reported an uncorrectable error (code 220): a fault of the GPUs' links or NVSwitches, not of the container.",
        check: "'nvidia-smi nvlink -s' and 'nvidia-smi nvlink -e', 'dmesg | grep -i xid' (Xid 74) on the host; reset the GPUs or reboot, and have the link serviced if it recurs",
    },
    Code {
        names: &[
            "cudaErrorJitCompilerNotFound",
            "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
        ],
        message: Some("PTX JIT compiler library not found"),
        number: Some("221"),
        op: Operation::LoadLibrary,
        rank: RANK_DECISIVE,
        cause: "CUDA needs the driver's PTX JIT compiler (libnvidia-ptxjitcompiler.so, code 221) and the container does not have it: the GPU was given without the 'compute' driver capability (NVIDIA_DRIVER_CAPABILITIES), or a CDI spec or image that left the driver's JIT library out.",
        check: "'ls /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler*' in the container; set NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all) or regenerate the CDI spec ('sudo nvidia-ctk cdi generate')",
    },
    Code {
        names: &[
            "cudaErrorJitCompilationDisabled",
            "CUDA_ERROR_JIT_COMPILATION_DISABLED",
        ],
        message: None,
        number: Some("223"),
        op: Operation::MatchVersion,
        rank: RANK_DECISIVE,
        cause: "the program carries only PTX for this GPU and JIT compilation is disabled (code 223: CUDA_DISABLE_PTX_JIT or the driver's setting): no binary code for the GPU, and none may be compiled.",
        check: "unset CUDA_DISABLE_PTX_JIT, or use a build with code for the GPU's compute capability ('nvidia-smi --query-gpu=compute_cap --format=csv')",
    },
    Code {
        names: &[
            "cudaErrorSharedObjectInitFailed",
            "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
        ],
        message: Some("shared object initialization failed"),
        number: Some("303"),
        op: Operation::LoadLibrary,
        rank: RANK_VAGUE,
        cause: "a shared object CUDA loads failed to initialise (code 303): the driver's libraries in the container are of another release than the kernel module, or a library of the image built for another CUDA.",
        check: "compare 'ls /usr/lib/x86_64-linux-gnu/libcuda.so.*' in the container with 'cat /proc/driver/nvidia/version' on the host; remove driver libraries the image ships",
    },
    Code {
        names: &["cudaErrorNotPermitted", "CUDA_ERROR_NOT_PERMITTED"],
        message: None,
        number: Some("800"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the driver refused the CUDA operation as not permitted (code 800): a GPU in a mode that forbids it (MIG without a MIG device, an MPS client asking for what only the server may, a vGPU or confidential-computing restriction), or the process's privileges.",
        check: "'nvidia-smi -q' for MIG, compute mode and CC mode; with MIG on, request a MIG device",
    },
    Code {
        names: &["cudaErrorNotSupported", "CUDA_ERROR_NOT_SUPPORTED"],
        message: Some("error: operation not supported"),
        number: Some("801"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "the operation is not supported on this system or GPU (code 801): a feature this GPU, its mode (MIG, vGPU, WSL) or the driver branch does not offer.",
        check: "'nvidia-smi -q' for the GPU and its modes; the framework's notes on the feature for this GPU and platform",
    },
    Code {
        names: &[
            "cudaErrorMpsConnectionFailed",
            "CUDA_ERROR_MPS_CONNECTION_FAILED",
        ],
        message: Some("MPS client failed to connect to the MPS control daemon"),
        number: Some("805"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the process could not connect to the MPS control daemon or server (code 805): CUDA_MPS_PIPE_DIRECTORY points at a daemon that is not running or not shared with this container, or the daemon runs as another user without multi-user mode.",
        check: "'echo get_server_list | nvidia-cuda-mps-control' where the daemon runs; the container must share the pipe directory (/tmp/nvidia-mps or CUDA_MPS_PIPE_DIRECTORY) and IPC with it; unset CUDA_MPS_PIPE_DIRECTORY to run without MPS",
    },
    Code {
        names: &["cudaErrorMpsRpcFailure", "CUDA_ERROR_MPS_RPC_FAILURE"],
        message: None,
        number: Some("806"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the call between the MPS client and server failed (code 806): the MPS server died or was restarted under the process.",
        check: "'journalctl' or the MPS log directory (/var/log/nvidia-mps) for the server's exit; restart the MPS daemon, then the clients",
    },
    Code {
        names: &[
            "cudaErrorMpsServerNotReady",
            "CUDA_ERROR_MPS_SERVER_NOT_READY",
        ],
        message: None,
        number: Some("807"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the MPS server is not ready for new clients (code 807): it is recovering from a fatal client error, still initialising (slow without the persistence daemon), or a client of another user is waiting for the server to hand over (no -multiuser).",
        check: "the MPS control log (/var/log/nvidia-mps/control.log); enable nvidia-persistenced; retry once the server is up",
    },
    Code {
        names: &[
            "cudaErrorMpsMaxClientsReached",
            "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED",
        ],
        message: None,
        number: Some("808"),
        op: Operation::Allocate,
        rank: RANK_DECISIVE,
        cause: "the MPS server has no room for another client (code 808: the hardware's client limit is reached).",
        check: "'echo get_server_list | nvidia-cuda-mps-control' and the clients of each server; lower the number of processes sharing the GPU",
    },
    Code {
        names: &[
            "cudaErrorMpsMaxConnectionsReached",
            "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED",
        ],
        message: None,
        number: Some("809"),
        op: Operation::Allocate,
        rank: RANK_DECISIVE,
        cause: "the MPS server has no room for another device connection (code 809: the hardware's connection limit is reached).",
        check: "lower the number of MPS clients or the devices each uses (CUDA_VISIBLE_DEVICES)",
    },
    Code {
        names: &[
            "cudaErrorMpsClientTerminated",
            "CUDA_ERROR_MPS_CLIENT_TERMINATED",
        ],
        message: None,
        number: Some("810"),
        op: Operation::Initialise,
        rank: RANK_DECISIVE,
        cause: "the MPS server terminated this client (code 810), after a fatal error of this or another client or an operator's terminate_client: the process must restart.",
        check: "the MPS server log for the fault that ended it; restart the process",
    },
    Code {
        names: &["cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED"],
        message: Some("unspecified launch failure"),
        number: Some("719"),
        op: Operation::Initialise,
        rank: RANK_VAGUE,
        cause: "a kernel faulted on the GPU (code 719: an exception while it ran): a bug of the program or its libraries, or a fault of the GPU itself, which the kernel log shows as an Xid at that moment.",
        check: "'dmesg | grep -i xid' on the host at the time (an Xid 79, 48, 94, 95, 119 is the GPU's; 13, 31, 43 the program's); rerun with CUDA_LAUNCH_BLOCKING=1 for the failing kernel",
    },
];
