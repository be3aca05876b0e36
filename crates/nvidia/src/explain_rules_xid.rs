//! The NVIDIA kernel module's Xid events read by number (issue 31): `NVRM: Xid (PCI:<bus id>):
//! <number>, ...`, with what each number means from NVIDIA's Xid catalog
//! (https://docs.nvidia.com/deploy/xid-errors/, "Analyzing Xid Errors with the Xid Catalog").
//! Only the numbers whose cause is the GPU, its firmware or its links are read; the ones an
//! application causes (13 graphics engine exception, 31 memory page fault, 43 stopped
//! processing, 45 preemptive cleanup) are no misconfiguration and no rule reads them. Xid 79
//! ("GPU has fallen off the bus") is the NVML rule of [`crate::explain_rules`], whose words its
//! line carries. vGPU licence state is nvidia-smi's and nvidia-gridd's. Sources in
//! docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RULE};

/// The kernel module's lines.
const NVRM: EmitterRule = EmitterRule {
    emitter: "nvidia-kernel-module",
    who: "the NVIDIA kernel module",
    object: ObjectAt::Is("the GPU"),
    ..RULE
};

/// What to do once a GPU reported a fault of its own.
const RESET_CHECK: &str = "'dmesg | grep -i xid' on the host names the GPU (its PCI address) and how often it recurs; drain it, reset it ('sudo nvidia-smi -r -i <index>') or reboot, and if it recurs the GPU needs service";

/// Xid rules, and the vGPU licence.
pub(crate) const RULES: &[EmitterRule] = &[
    // Xid 119 (GSP RPC timeout), 120 (GSP error).
    EmitterRule {
        line: &[&["NVRM: Xid", "): 119,"], &["NVRM: Xid", "): 120,"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU's GSP firmware"),
        cause: "the GPU's GSP firmware stopped answering the driver (Xid 119: a call to it timed out; Xid 120: it reported an error), so the GPU is hung and every process on it fails; nothing in the container causes it.",
        check: "reset the GPU ('sudo nvidia-smi -r -i <index>') or reboot; if it recurs, update the driver branch, or run the proprietary kernel module with GSP firmware off (NVreg_EnableGpuFirmware=0) where the GPU allows it",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    // Xid 48 (double-bit ECC), 94 (contained ECC), 95 (uncontained ECC), 63 and 64 (row
    // remapping / page retirement recorded or failed), 92 (high single-bit ECC rate).
    EmitterRule {
        line: &[
            &["NVRM: Xid", "): 48,"],
            &["NVRM: Xid", "): 94,"],
            &["NVRM: Xid", "): 95,"],
            &["NVRM: Xid", "): 63,"],
            &["NVRM: Xid", "): 64,"],
            &["NVRM: Xid", "): 92,"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the GPU's memory"),
        cause: "the GPU's memory reported an ECC error (Xid 48, 94, 95, 92) or a row it must remap (63, 64): a hardware fault of that GPU; the process that touched it fails, and the remapping takes effect only after a GPU reset.",
        check: RESET_CHECK,
        rank: RANK_DECISIVE,
        ..NVRM
    },
    // Xid 74 (NVLink error), 61 and 62 (internal micro-controller breakpoint and halt).
    EmitterRule {
        line: &[
            &["NVRM: Xid", "): 74,"],
            &["NVRM: Xid", "): 61,"],
            &["NVRM: Xid", "): 62,"],
        ],
        operation: Operation::Initialise,
        cause: "the GPU reported a fault of its own (Xid 74: an NVLink link failed; 61, 62: its internal micro-controller stopped): the GPU or its links are in a bad state until reset.",
        check: RESET_CHECK,
        rank: RANK_DECISIVE,
        ..NVRM
    },
    // An unlicensed vGPU: nvidia-smi -q's `License Status : Unlicensed (Restricted)`
    // (NVIDIA/gpu-operator#628, #220).
    EmitterRule {
        emitter: "nvidia-smi",
        who: "the vGPU guest driver",
        line: &[
            &["License Status", "Unlicensed (Restricted)"],
            &["nvidia-gridd", "Failed to acquire license"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("a vGPU licence"),
        cause: "this vGPU holds no licence: the guest's nvidia-gridd could not get one from the licence server (no client configuration token, /etc/nvidia/gridd.conf not pointing at it, the server unreachable), and once the grace period ends the driver restricts CUDA, which then reports its GPUs busy or unavailable.",
        check: "'nvidia-smi -q | grep -i -A2 licen' in the VM (or 'chroot /run/nvidia/driver nvidia-smi -q' under the GPU operator); 'journalctl -u nvidia-gridd' says why; give the guest the licence server's client configuration token and restart nvidia-gridd",
        ..RULE
    },
];
