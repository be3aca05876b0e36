//! The driver's own processes read by what failed (issue 31, round 4): the kernel module's
//! `NVRM:` log beyond [`crate::explain_rules`]'s (NVIDIA/open-gpu-kernel-modules:
//! kernel-open/nvidia/nv.c's probe summary and `rm_init_adapter failed`, nv-pci.c's BAR and
//! `request_mem_region` checks, src/nvidia/arch/nvalloc/unix/src/osapi.c's "not supported by
//! open nvidia.ko" and "not supported by the NVIDIA <version> driver release",
//! src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c's GSP-RM failures), modprobe loading the module
//! (kmod's `could not insert '<module>': <strerror>` and `Module <name> not found in directory`,
//! the kernel's `disagrees about version of symbol` and `Unknown symbol`), nvidia-smi's MIG,
//! persistence and reset refusals, nvidia-persistenced (NVIDIA/nvidia-persistenced
//! nvidia-persistenced.c) and the fabric manager. Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

use crate::explain_rules_libs::DRIVER_CHECK;

/// The kernel module's lines.
const NVRM: EmitterRule = EmitterRule {
    emitter: "nvidia-kernel-module",
    who: "the NVIDIA kernel module",
    object: ObjectAt::Is("the GPU"),
    ..RULE
};

/// nvidia-smi's lines.
const SMI: EmitterRule = EmitterRule {
    emitter: "nvidia-smi",
    who: "nvidia-smi",
    object: ObjectAt::Is("the GPU"),
    ..RULE
};

/// What to check when a GPU did not come up under a loaded module.
const GSP_CHECK: &str = "'dmesg | grep NVRM' shows the failing step; with the open kernel module on a GPU or branch that needs the proprietary one, install the proprietary flavour; try NVreg_EnableGpuFirmware=0 with the proprietary module, and check /lib/firmware/nvidia/<version>/ holds the GSP firmware of the loaded release";

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        line: &[
            &["NVRM: ", "rm_init_adapter failed"],
            &["NVRM: ", "GSP-RM unresponsive"],
            &["NVRM: ", "GSP RM heartbeat timed out"],
            &["NVRM: ", "Max GSP-RM boot attempts exceeded"],
            &["NVRM: ", "Error preparing GSP-RM image"],
            &["NVRM: ", "GSP-RM entered into ICD"],
        ],
        operation: Operation::Initialise,
        cause: "the driver loaded but could not bring the GPU up or keep it: its GSP firmware did not boot or stopped answering (an open kernel module on a GPU or driver that needs the proprietary one, GSP firmware files of another release, a GPU in a bad state).",
        check: GSP_CHECK,
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["NVRM: ", "is not supported by open"],
            &[
                "NVRM: ",
                "nvidia.ko because it does not include the required GPU",
            ],
        ],
        operation: Operation::MatchVersion,
        cause: "the GPU has no GSP (it is older than Turing) or is a vGPU setup the open kernel module does not drive, and the open nvidia.ko is the one loaded: this GPU needs the proprietary kernel module.",
        check: "install the driver's proprietary kernel module flavour (the 'nvidia-driver-<branch>' rather than '-open' package, or the .run installer's '-m=kernel'), then reboot; 'gpuctl requirement' names the flavours for this GPU",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["NVRM: ", "installed in this system is not supported by the"],
            &["NVRM: ", " driver release."],
        ],
        operation: Operation::MatchVersion,
        cause: "the installed driver branch does not drive this GPU (osapi.c: not supported by the NVIDIA <version> driver release): a GPU older than the branch supports (it needs a legacy branch) or newer than it.",
        check: "'gpuctl requirement' names the branches that support this GPU; install one of them",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["NVRM: The NVIDIA probe routine failed"],
            &["NVRM: None of the NVIDIA devices were initialized"],
        ],
        operation: Operation::Initialise,
        cause: "the driver's probe of the GPU failed, so no NVIDIA device was initialised: the GPU's PCI resources are not usable (BAR not assigned: enable 'Above 4G decoding' for large-BAR GPUs), the GPU is not supported by this branch, or it is in a bad state; the lines before say which.",
        check: "'dmesg | grep NVRM' for the lines before (an invalid BAR, 'not supported by'), 'lspci -vv -d 10de:' for the GPU's regions; enable Above 4G decoding / Resizable BAR in the firmware for large-memory GPUs",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[&["NVRM: This PCI I/O region assigned to your NVIDIA device is invalid"]],
        operation: Operation::Initialise,
        cause: "the firmware (BIOS/UEFI) or the hypervisor did not assign the GPU's PCI BARs (shown as 0M or invalid): common for large-memory GPUs without 'Above 4G decoding', or passthrough VMs with too small an MMIO window.",
        check: "enable 'Above 4G decoding' (and Resizable BAR) in the firmware; in a VM enlarge the 64-bit MMIO window (QEMU/libvirt, Hyper-V HighMemoryMappedIoSpace); 'lspci -vv -d 10de:' shows the regions",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[&["NVRM: request_mem_region failed for "]],
        operation: Operation::Initialise,
        cause: "another driver claimed the GPU's registers before nvidia (nv-pci.c: a framebuffer or display driver such as nouveau, nvidiafb, rivafb or simpledrm/efifb holding the region).",
        check: "'lspci -k -d 10de:' and 'cat /proc/iomem' on the host; blacklist nouveau and nvidiafb and rebuild the initramfs",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["NVRM: failed to allocate "],
            &["NVRM: ", "failed to allocate memory"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("kernel memory"),
        cause: "the kernel module could not allocate host memory it needs: the host is short of (contiguous) memory, or the vmalloc or DMA space is exhausted.",
        check: "'free -m' and 'dmesg | grep -i -e oom -e NVRM' on the host; free memory or reboot",
        rank: RANK_VAGUE,
        ..NVRM
    },
    // kmod (modprobe, insmod) loading the module: `could not insert '<module>': <strerror>`.
    EmitterRule {
        line: &[&["could not insert 'nvidia", "Key was rejected by service"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "the kernel refused the NVIDIA module because Secure Boot is on and the module is not signed with a key the kernel trusts (a DKMS-built module without an enrolled MOK).",
        check: "'mokutil --sb-state' on the host; enroll the DKMS signing key ('sudo mokutil --import /var/lib/dkms/mok.pub', then reboot and confirm in MOK manager), use the distribution's signed driver packages, or disable Secure Boot",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["Module nvidia", "not found in directory /lib/modules/"],
            &["nvidia", "disagrees about version of symbol"],
            &["nvidia", "Unknown symbol "],
            &["could not insert 'nvidia", "Exec format error"],
            &["could not insert 'nvidia", "Invalid module format"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        // NVIDIA/gpu-operator#2619: a driver pod restarted where the driver was loaded took
        // the user-space-only install and never filled its /lib/modules for the peermem one.
        cause: "there is no NVIDIA module built for the running kernel where it was looked for: the kernel was upgraded and DKMS did not rebuild the module (no headers for it, or a build failure), the module on disk was built for another kernel, or the module package for it is not installed (a separate nvidia-uvm or peermem package); in a driver container (the GPU operator's), its /lib/modules was not filled (a restart where the driver was already loaded takes the user-space-only install).",
        check: "'uname -r' against 'dkms status' on the host; install the headers for the running kernel and run 'sudo dkms autoinstall', or boot the kernel the module was built for",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[&["could not insert 'nvidia'", "No such device"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "the module found no GPU it can drive (ENODEV): no NVIDIA GPU on the bus, another driver (nouveau, vfio-pci) bound to it, or a GPU this branch does not support; the kernel log's NVRM lines say which.",
        check: DRIVER_CHECK,
        rank: RANK_DECISIVE,
        ..NVRM
    },
    EmitterRule {
        line: &[
            &["could not insert 'nvidia_uvm'"],
            &["could not insert 'nvidia_drm'"],
            &["could not insert 'nvidia_modeset'"],
        ],
        unless: &["Key was rejected"],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "a module that depends on nvidia.ko failed to load: nvidia.ko itself is not loaded (it failed first, or it is of another release than this module), so the lines for nvidia.ko say why.",
        check: "'lsmod | grep nvidia' and 'modinfo nvidia nvidia_uvm | grep ^version' on the host (one release for all); 'dmesg | grep -i nvrm'",
        rank: RANK_DECISIVE,
        ..NVRM
    },
    // nvidia-smi's refusals (NVIDIA's MIG user guide shows its MIG messages).
    EmitterRule {
        line: &[
            &["Unable to enable MIG Mode for GPU", "Not Supported"],
            &["-mig\" is not supported on this GPU"],
            &["MIG mode is not supported"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("MIG mode"),
        cause: "this GPU has no MIG: only data-center GPUs of the A100, A30, H100, H200 and B200 classes (and some RTX PRO Blackwell) offer it, with a driver of at least the branch NVIDIA's MIG guide lists for them.",
        check: "'nvidia-smi --query-gpu=name,mig.mode.current --format=csv' on the host; share the GPU by time-slicing or MPS instead",
        rank: RANK_DECISIVE,
        ..SMI
    },
    EmitterRule {
        line: &[
            &["MIG mode is in pending enable state"],
            &["MIG mode is in pending disable state"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("MIG mode"),
        cause: "the MIG mode change is recorded but not in effect: it takes a GPU reset, which processes holding the GPU (nvidia-persistenced, DCGM, the device plugin, a CUDA process) prevent, or a reboot where reset is unavailable (a VM).",
        check: "'nvidia-smi' and 'sudo fuser -v /dev/nvidia*' list the holders; stop them and 'sudo nvidia-smi -r -i <index>', or reboot",
        rank: RANK_DECISIVE,
        ..SMI
    },
    EmitterRule {
        line: &[
            &["Unable to enable MIG Mode", "Insufficient Permissions"],
            &["Unable to disable MIG Mode", "Insufficient Permissions"],
            &["Unable to set persistence mode", "Insufficient Permissions"],
            &["Unable to set the compute mode", "Insufficient Permissions"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the GPU's settings"),
        cause: "nvidia-smi changes GPU settings (MIG mode, persistence, compute mode) only as root: it ran as another user, or in a container without the privilege.",
        check: "run it with sudo on the host, or in a privileged container",
        rank: RANK_DECISIVE,
        ..SMI
    },
    EmitterRule {
        line: &[&["Unable to reset this GPU because it's being used by some other process"]],
        operation: Operation::Allocate,
        cause: "the GPU could not be reset because processes hold it: a CUDA or graphics process, a monitoring agent (DCGM, another nvidia-smi), nvidia-persistenced, the fabric manager, or a display server on nvidia_drm.",
        check: "'nvidia-smi' and 'sudo fuser -v /dev/nvidia*' list the holders; stop them, then reset",
        ..SMI
    },
    EmitterRule {
        line: &[&["WARNING: infoROM is corrupted at gpu"]],
        emitter: "nvml",
        who: "NVML",
        operation: Operation::Initialise,
        object: ObjectAt::Is("NVML_ERROR_CORRUPTED_INFOROM"),
        cause: "the GPU's infoROM (its on-board configuration store) is corrupted: a fault of the GPU itself, which may lose features (ECC, power settings) until its vendor updates the infoROM.",
        check: "'nvidia-smi -q | grep -i -A3 inforom' on the host; have the GPU's infoROM updated or the GPU serviced",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // NVIDIA/nvidia-persistenced nvidia-persistenced.c.
    EmitterRule {
        emitter: "nvidia-persistenced",
        who: "nvidia-persistenced",
        line: &[&["Failed to query NVIDIA devices. Please ensure that the NVIDIA device files"]],
        operation: Operation::Open,
        object: ObjectAt::Is("/dev/nvidia*"),
        cause: "the persistence daemon could not open the GPUs' device nodes: they do not exist (the module is not loaded, or the nodes were not created) or the user it runs as (its --user, often nvidia-persistenced) may not read and write them.",
        check: "'ls -l /dev/nvidia*' and 'lsmod | grep nvidia' on the host; the --user of the nvidia-persistenced unit and the nodes' group and mode",
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-persistenced",
        who: "nvidia-persistenced",
        line: &[
            &["nvidia-persistenced", "Unable to find any NVIDIA devices"],
            &["nvidia-persistenced", "Failed to open libnvidia-cfg"],
            &["nvidia-persistenced", "Failed to lock PID file"],
            &["nvidia-persistenced failed to initialize"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the persistence daemon"),
        cause: "the persistence daemon did not start: no NVIDIA GPU is driven on the host, the driver's libnvidia-cfg (installed with the driver) is missing or of another release than the daemon, or another instance already holds its PID file (/var/run/nvidia-persistenced).",
        check: "'journalctl -u nvidia-persistenced' (its syslog lines say which); 'nvidia-smi' and 'ls /usr/lib*/libnvidia-cfg.so*' on the host; 'pgrep -a nvidia-persiste'",
        rank: RANK_VAGUE,
        ..RULE
    },
    // The fabric manager (NVIDIA's Fabric Manager User Guide: its package must be exactly the
    // driver's version, and until it has trained the NVLink fabric CUDA reports 802).
    EmitterRule {
        emitter: "nvidia-fabricmanager",
        who: "the NVIDIA fabric manager",
        line: &[
            &["fabric manager", "don't match with driver version"],
            &["nvidia-fabricmanager", "version mismatch"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the driver's version"),
        cause: "the fabric manager is of another release than the loaded driver, which it must match exactly, so it did not start and the NVLink fabric was never trained (CUDA then reports 802, system not yet initialized).",
        check: "'nvidia-smi' and 'dpkg -l | grep -e fabricmanager -e nvidia-driver' (or 'rpm -qa') on the host; install nvidia-fabricmanager of exactly the driver's version and start it",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-fabricmanager",
        who: "the NVIDIA fabric manager",
        line: &[
            &["nvidia-fabricmanager.service", "failed"],
            &["nvidia-fabricmanager.service", "status=1/FAILURE"],
            &["NVSwitch", "failed with error"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the NVLink fabric"),
        cause: "the fabric manager failed, so the NVSwitch fabric of this HGX/DGX system is not trained and CUDA will start no work (802, system not yet initialized): its version differs from the driver's, the NVSwitch driver or devices are not up, or its configuration is wrong.",
        check: "'journalctl -u nvidia-fabricmanager' and /var/log/fabricmanager.log on the host; the fabric manager's version must be the driver's exactly",
        rank: RANK_DECISIVE,
        ..RULE
    },
];
