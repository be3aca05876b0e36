//! Issue 31, round 5: NVIDIA strings round 4's enumeration did not reach, and readings that
//! change with the environment the text shows. Each rule names its emitter's source; the
//! sources are listed in docs/explain.md#emitters.
//!
//! - The open kernel module's refusal of a GPU that is not a data-center one
//!   (NVIDIA/open-gpu-kernel-modules src/nvidia/arch/nvalloc/unix/src/osinit.c, RmInitAdapter;
//!   the driver README's "Open Linux Kernel Modules" chapter names
//!   NVreg_OpenRmEnableUnsupportedGpus), and RmInitAdapter's own failure line, which only says
//!   that an earlier step failed.
//! - The fabric manager finding no NVSwitch (NV_WARN_NOTHING_TO_DO: NVIDIA's Fabric Manager
//!   User Guide, which says it is only for NVSwitch systems).
//! - libnvidia-container's debug log of the container's ldconfig not starting
//!   (NVIDIA/libnvidia-container src/nvc_ldcache.c, "could not start %s") and its eBPF devices
//!   filter query (src/cgroup.c / src/nvcgo: bpf_prog_query on cgroup v2).
//! - The GPU operator's toolkit validation on CRI-O, whose OCI hook the operator installs in
//!   /run/containers/oci/hooks.d (NVIDIA/gpu-operator validator/main.go
//!   "error validating toolkit installation"; the operator's CRI-O docs: hooks_dir).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

use crate::explain_rules_cli::{CLI, HOOK};

/// A decisive line that names why a later decisive line (RmInitAdapter's failure, the fabric
/// manager service's exit) failed: the later line only wraps it, so the reason must outrank it.
const RANK_NAMES_WHY: u8 = RANK_DECISIVE - 1;

/// The kernel module's lines.
const NVRM: EmitterRule = EmitterRule {
    emitter: "nvidia-kernel-module",
    who: "the NVIDIA kernel module",
    object: ObjectAt::Is("the GPU"),
    ..RULE
};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // osinit.c: "Open nvidia.ko is only ready for use on Data Center GPUs." then "To force use
    // of Open nvidia.ko on other GPUs, see the 'OpenRmEnableUnsupportedGpus' kernel module
    // parameter described in the README." (printed with and without the NVRM: prefix).
    EmitterRule {
        line: &[
            &["Open nvidia.ko is only ready for use on Data Center GPUs"],
            &["OpenRmEnableUnsupportedGpus", "kernel module parameter"],
        ],
        operation: Operation::MatchVersion,
        cause: "the open kernel module of this release drives only data-center GPUs by default, and this GPU is a GeForce or workstation one: it refuses the GPU (RmInitAdapter fails) unless the module parameter NVreg_OpenRmEnableUnsupportedGpus=1 is set.",
        check: "set 'options nvidia NVreg_OpenRmEnableUnsupportedGpus=1' in /etc/modprobe.d (or on the kernel command line: nvidia.NVreg_OpenRmEnableUnsupportedGpus=1) and reload the module, or install the proprietary kernel module flavour; only releases 515 to 535 print this refusal: from 545 on the parameter is no longer needed (kernel-open/nvidia/nv-reg.h), so upgrading the driver also ends it",
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_NAMES_WHY,
        ..NVRM
    },
    // osinit.c: "GPU %04x:%02x:%02x.%x: RmInitAdapter failed! (0x%x:0x%x:%d)": the step that
    // failed is printed before it.
    EmitterRule {
        line: &[&["GPU ", ": RmInitAdapter failed!"]],
        operation: Operation::Initialise,
        cause: "the kernel module is loaded but could not initialise the GPU; the module's lines before this one name the step that failed (the open module on a GPU it does not drive, GSP firmware, a BAR the firmware did not assign).",
        check: "'sudo dmesg | grep NVRM' on the host: the lines before 'RmInitAdapter failed' say why",
        rank: RANK_VAGUE,
        ..NVRM
    },
    // The fabric manager's "request to query NVSwitch device information from NVSwitch driver
    // failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]": it found no NVSwitch.
    // Ahead of the service's own failure line and the fabric rule in explain_rules_kernel.rs.
    EmitterRule {
        emitter: "nvidia-fabricmanager",
        who: "the NVIDIA fabric manager",
        line: &[&["NV_WARN_NOTHING_TO_DO"]],
        needs: &["NVSwitch", "fabricmanager", "fabric manager"],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an NVSwitch"),
        cause: "the fabric manager found no NVSwitch on this machine, so it had nothing to manage and exited: it is only for NVSwitch systems (HGX and DGX boards); GPUs joined by an NVLink bridge, or with no NVLink, need no fabric manager.",
        check: "'nvidia-smi nvlink --status' and 'lspci -d 10de: | grep -i bridge'; on a machine without NVSwitch disable the service ('sudo systemctl disable --now nvidia-fabricmanager') and remove the package",
        rank: RANK_NAMES_WHY,
        ..RULE
    },
    // nvc_ldcache.c (debug log, `-d` or config.toml's debug file): "executing %s from host at
    // %s", then "could not start %s: process execution failed: <strerror>" when the ldconfig
    // config.toml names cannot be run. The user-visible line after it is only that the
    // container has no driver libraries, so this line is decisive.
    EmitterRule {
        line: &[&["nvc_ldcache.c", "could not start ", "ldconfig"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("could not start "),
        cause: "the hook mounted the driver's libraries but could not start the ldconfig it is configured with ({object}) to add them to the container's linker cache, so programs in the container do not find them: config.toml's 'ldconfig' names a binary this host (a leading '@') or the image does not have — '@/sbin/ldconfig.real' exists only on Debian-family hosts that divert ldconfig, '@/sbin/ldconfig' only where the host has it.",
        check: "the 'ldconfig' line of /etc/nvidia-container-runtime/config.toml and 'ls -l /sbin/ldconfig*' on the host; name a host binary that exists ('@/sbin/ldconfig' or '@/sbin/ldconfig.real'), or the image's own ('/sbin/ldconfig')",
        rank: RANK_DECISIVE,
        ..CLI
    },
    // src/cgroup.c: on cgroup v2 the hook lists the eBPF device programs attached to the
    // container's cgroup before adding its own; the kernel refused the query. The line is
    // also wrapped mid-word by a log (slurmd's), so it is read by its stage and the call.
    EmitterRule {
        line: &[&[HOOK, "failed to add device rules: ", "bpf_prog_query"]],
        operation: Operation::Mount,
        object: ObjectAt::Is("the container's devices cgroup"),
        cause: "the hook could not read the eBPF device filters attached to the container's cgroup (cgroup v2): the kernel refused bpf_prog_query (operation not permitted), because the hook runs without the privilege in that namespace — an enroot/pyxis, rootless or nested container, or a toolkit release whose cgroup handling changed (1.17.7 under enroot) where the one before worked.",
        check: "'nvidia-container-cli --version' and the toolkit's package version on the node; under enroot/pyxis or a rootless engine set 'no-cgroups = true' in /etc/nvidia-container-runtime/config.toml (the engine grants the device nodes), or install the toolkit release before or after the one that broke",
        // It names the stage and the call, and says more than nvidia-hook-no-cgroups (whose
        // sign is the same call): decisive, so the wrapped and the unwrapped line agree.
        rank: RANK_DECISIVE,
        ..CLI
    },
    // The GPU operator's validator on CRI-O: the operator installs the NVIDIA OCI hook in
    // /run/containers/oci/hooks.d, which CRI-O reads only when its hooks_dir lists it.
    EmitterRule {
        emitter: "gpu-operator-validator",
        who: "the GPU operator's validator",
        line: &[
            &["toolkit is not ready"],
            &["error validating toolkit installation"],
        ],
        needs: &["oci/hooks.d", "hooks_dir"],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("the NVIDIA OCI hook"),
        cause: "the node runs CRI-O, where the operator gives containers the driver through the NVIDIA OCI hook it installs in /run/containers/oci/hooks.d; CRI-O runs hooks only from the directories its hooks_dir lists, so without that directory no pod gets the driver and nvidia-smi is not found.",
        check: "'crio config | grep -A3 hooks_dir' and 'ls /run/containers/oci/hooks.d' on the node; add \"/run/containers/oci/hooks.d\" to hooks_dir in /etc/crio/crio.conf (or a crio.conf.d file) and 'sudo systemctl restart crio'",
        rank: RANK_DECISIVE,
        ..RULE
    },
];

/// PyTorch's torch/cuda/__init__.py warning "<GPU> with CUDA capability sm_<N> is not
/// compatible with the current PyTorch installation. The current PyTorch install supports CUDA
/// capabilities ...": the image's build, said and not claimed (as `no kernel image`).
pub(crate) const TORCH_ARCH: &[EmitterRule] = &[EmitterRule {
    emitter: "cuda",
    who: "PyTorch",
    line: &[&[
        "with CUDA capability sm_",
        "is not compatible with the current PyTorch installation",
    ]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("PyTorch's CUDA architectures"),
    owner: gpuctl_core::plugin::Owner::Image,
    cause: "the image's PyTorch was built without kernels for this GPU's architecture (the warning lists the ones it has): the image's build, not the host's driver or the container set-up.",
    check: "install a PyTorch build whose CUDA release supports the GPU (for sm_120, Blackwell, a cu128 or later wheel) in the image",
    ..RULE
}];
