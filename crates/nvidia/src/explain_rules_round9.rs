//! Issue 31, round 9: NVIDIA's lines whose reason earlier rules did not read. Each string is the
//! emitter's own, named beside its rule; docs/explain.md ("Round 9") has the table.
//!
//! - The NVIDIA container library crashing: its driver service runs as a child process named
//!   `nvc:[driver]` (libnvidia-container src/driver.c sets the name with prctl), so the kernel's
//!   crash line (`nvc:[driver][PID]: segfault at …`, arch/x86/mm/fault.c show_signal_msg) and
//!   the audit record of an abnormal end (`type=1701 … comm="nvc:[driver]" … sig=11`,
//!   AUDIT_ANOM_ABEND) name it. The hook then prints only `driver error: failed to process
//!   request`, which alone reads as a GPU that did not answer; with the crash beside it the
//!   cause is the library's build on this host (OE4T/tegra-demo-distro#177: an old meta-tegra
//!   revision's libnvidia-container, fixed by updating the layer).
//! - OptiX's optixInit: OPTIX_ERROR_LIBRARY_NOT_FOUND (7801, "Library not found") when the
//!   driver's OptiX library (libnvoptix.so.1) cannot be loaded; the NVIDIA runtime and CDI
//!   mount it only with the graphics capability (NVIDIA/pyxis#103: NVIDIA_DRIVER_CAPABILITIES
//!   with graphics fixed it).
//! - The Video Codec SDK's NvEncoder helper: "m_nvenc.nvEncOpenEncodeSessionEx(...) returned
//!   error %d" (NvEncoder.cpp NVENC_API_CALL): the driver refused the session; in a container
//!   the driver's encoder library comes only with the video capability
//!   (Lixsp11/sekai-codebase#5: NVIDIA_DRIVER_CAPABILITIES=all fixed it).
//! - kmod's modprobe on the UVM module: "could not find module by name='nvidia_331_uvm'": CUDA needs /dev/nvidia-uvm, which only the loaded
//!   module creates; some distributions package it apart from the driver (Ubuntu's
//!   nvidia-331-uvm: NVlabs/nvbio-gpl#7), and CUDA then fails with its unknown error (999, or
//!   30 in CUDA before 7).
//! - CUDA samples' deviceQuery: "cudaGetDeviceCount returned %d\n-> %s" with "unknown error".
//! - nvidia-ctk's `cdi generate`: "Could not locate %s: pattern %s not found" for a library of
//!   the driver: the spec it writes leaves that library out (NVIDIA/nvidia-container-toolkit
//!   #1739: libdxcore.so on WSL2, where it sits in /usr/lib/wsl/lib). Its optional files
//!   (the fabric manager's socket, MPS's pipe directory) are no failure (core's fallback).
//! - A kernel module load refused with EPERM ("Kernel module load error: Operation not
//!   permitted", "could not insert 'nvidia': Operation not permitted"): the kernel's lockdown
//!   under Secure Boot refuses an unsigned module (NVIDIA/gpu-operator#1142: the driver
//!   container built one unsigned), or the process lacks CAP_SYS_MODULE.
//! - libnvidia-container's "driver rpc error: failed to process request" pasted without the
//!   hook's prefix (NVIDIA/nvidia-container-toolkit#236: a Citrix client had replaced
//!   nvidia-persistenced).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    CLI_CRASH,
    OPTIX,
    NVENC_SDK,
    UVM_MODULE,
    DEVICE_QUERY,
    CTK_LOCATE,
    MODULE_EPERM,
    RPC_BARE,
];

/// The container library's driver service crashed.
const CLI_CRASH: EmitterRule = EmitterRule {
    emitter: "nvidia-container-cli",
    who: "nvidia-container-cli (the legacy hook)",
    line: &[
        &["nvc:[driver]", "segfault at"],
        &["nvc:[driver]", "sig=11"],
        &["nvc:[driver]", "sig=6"],
        &["nvidia-container-cli[", "segfault at"],
        &["libnvidia-container", "segfault at"],
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("its driver service"),
    cause: "the NVIDIA container library itself crashed (its driver service, nvc:[driver], died of a signal) rather than report an error: a libnvidia-container build that does not work with this host's driver or system libraries (an old Jetson BSP layer such as meta-tegra's, a toolkit far older or newer than the driver, a library built for another distribution), so the hook's 'driver error: failed to process request' is that crash, not a GPU that did not answer.",
    check: "'nvidia-container-cli -k -d /dev/tty info' on the host reproduces it; update libnvidia-container and nvidia-container-toolkit to a release made for the installed driver (on Jetson, the BSP layer's current revision or JetPack's packages); 'journalctl -k | grep -e segfault -e nvc' shows the crash",
    rank: RANK_DECISIVE,
    ..RULE
};

/// OptiX could not load the driver's OptiX library.
const OPTIX: EmitterRule = EmitterRule {
    emitter: "optix",
    who: "OptiX",
    line: &[
        &["OPTIX_ERROR_LIBRARY_NOT_FOUND"],
        &["Optix", "Library not found"],
        &["OptiX", "Library not found"],
        &["optixInit", "7801"],
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("libnvoptix.so.1"),
    cause: "optixInit could not load the driver's OptiX library (libnvoptix.so.1): in a container the NVIDIA runtime and a CDI spec mount it only with the graphics capability (NVIDIA_DRIVER_CAPABILITIES without 'graphics': compute and utility are the CUDA images' default), or the host's driver lacks it (a driver older than the OptiX SDK the program was built with, or packaged without its OptiX library).",
    check: "run with NVIDIA_DRIVER_CAPABILITIES=compute,utility,graphics (or all) and check 'ls /usr/lib/x86_64-linux-gnu/libnvoptix.so.1' in the container; on the host, 'nvidia-smi' names the driver, which must be at least the one the OptiX SDK's release notes name",
    rank: RANK_DECISIVE,
    ..RULE
};

/// NVENC refused a session the Video Codec SDK's helper asked for.
const NVENC_SDK: EmitterRule = EmitterRule {
    emitter: "nvenc",
    who: "NVENC (the Video Codec SDK's encoder)",
    line: &[&["nvEncOpenEncodeSessionEx", "returned error"]],
    operation: Operation::Initialise,
    object: ObjectAt::Is("an encode session"),
    cause: "the driver refused to open an NVENC session: in a container the driver's encoder library (libnvidia-encode) and its video support come only with the video capability (NVIDIA_DRIVER_CAPABILITIES without 'video'), the GPU has no encoder (a data-center or MIG profile without NVENC), or a consumer GPU's concurrent-session limit is reached.",
    check: "run with NVIDIA_DRIVER_CAPABILITIES=compute,utility,video (or all) and check 'ls /usr/lib/x86_64-linux-gnu/libnvidia-encode.so.1' in the container; 'nvidia-smi -q | grep -i -A3 encoder' on the host",
    rank: RANK_DECISIVE,
    ..RULE
};

/// modprobe could not load the UVM module.
const UVM_MODULE: EmitterRule = EmitterRule {
    emitter: "nvidia-kernel-module",
    who: "the NVIDIA kernel module",
    // Only the module kmod cannot find: an insert that fails has its errno's own reading
    // (EINVAL: a UVM module of another build than nvidia.ko).
    line: &[&["could not find module by name='nvidia", "uvm'"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the nvidia_uvm kernel module"),
    cause: "the NVIDIA UVM module (nvidia_uvm) is not installed or not built for the running kernel, so /dev/nvidia-uvm is never created and CUDA fails to start (its 'unknown error'): a distribution that packages it apart from the driver (Ubuntu's nvidia-NNN-uvm), a DKMS build without it, or a kernel upgraded since the build.",
    check: "'modinfo nvidia_uvm' and 'dkms status' on the host; install the driver's UVM package (or rebuild the driver for this kernel), then 'sudo modprobe nvidia_uvm' and 'ls -l /dev/nvidia-uvm'",
    host_path: Some("/dev/nvidia-uvm"),
    rank: RANK_DECISIVE,
    ..RULE
};

/// deviceQuery's count failing with CUDA's unknown error.
const DEVICE_QUERY: EmitterRule = EmitterRule {
    emitter: "cuda",
    who: "the CUDA runtime",
    line: &[&["-> unknown error"]],
    needs: &["cudaGetDeviceCount returned"],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU"),
    cause: "CUDA could not start on the GPU for a reason the driver does not name: most often /dev/nvidia-uvm is missing (nvidia_uvm not loaded or not installed, or the node not given to the container), or the host was suspended and resumed.",
    check: "'ls -l /dev/nvidia-uvm' on the host and in the container ('sudo modprobe nvidia_uvm' creates it; 'modinfo nvidia_uvm' says whether it is installed)",
    host_path: Some("/dev/nvidia-uvm"),
    rank: RANK_VAGUE,
    ..RULE
};

/// nvidia-ctk's CDI generator could not find a library of the driver.
const CTK_LOCATE: EmitterRule = EmitterRule {
    emitter: "nvidia-ctk",
    who: "nvidia-ctk's CDI generator",
    line: &[&["Could not locate lib", ".so"]],
    operation: Operation::Stat,
    object: ObjectAt::After("Could not locate "),
    cause: "the CDI spec nvidia-ctk wrote leaves out {object}, which it did not find where it looks for the driver's libraries: a toolkit release that does not search that driver's layout (on WSL2 the libraries are in /usr/lib/wsl/lib: libdxcore.so there was missed by some releases), a driver root it was not pointed at (--driver-root for a driver container), or a driver installed without it; a container given the GPU by that spec lacks the library.",
    check: "'ldconfig -p | grep {object}' on the host shows where it is; update nvidia-container-toolkit and regenerate ('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml', with --driver-root for a driver container), then 'grep {object} /etc/cdi/nvidia.yaml'",
    rank: RANK_VAGUE,
    ..RULE
};

/// A kernel module load refused with EPERM.
const MODULE_EPERM: EmitterRule = EmitterRule {
    emitter: "nvidia-kernel-module",
    who: "the NVIDIA kernel module",
    line: &[
        &["Kernel module load error: Operation not permitted"],
        &["could not insert 'nvidia", "Operation not permitted"],
        &["could not insert 'nvidia", "Key was rejected by service"],
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the nvidia kernel module"),
    cause: "the kernel refused to load the NVIDIA module (EPERM): with Secure Boot on, the kernel's lockdown refuses a module not signed by a key it trusts (one built unsigned, by an installer, DKMS without an enrolled MOK, or a driver container), or the process loading it lacks CAP_SYS_MODULE (an unprivileged container).",
    check: "'mokutil --sb-state' and 'dmesg | grep -i -e lockdown -e \"module verification\"' on the host; sign the module with an enrolled key (or use the distribution's signed driver, or the GPU operator's signed precompiled driver), or turn Secure Boot off; a driver container must run privileged",
    host_path: Some("/sys/module/nvidia"),
    rank: RANK_DECISIVE,
    ..RULE
};

/// The driver service's error without the hook's prefix.
const RPC_BARE: EmitterRule = EmitterRule {
    emitter: "nvidia-container-cli",
    who: "nvidia-container-cli (the legacy hook)",
    line: &[&["driver rpc error: failed to process request"]],
    operation: Operation::Initialise,
    object: ObjectAt::Is("its driver service"),
    cause: "the hook's driver service could not query the driver: it timed out or failed on a GPU that is hung, in a bad state or still initialising (many GPUs without the persistence daemon, or with it replaced or broken: a Citrix client's citrix-nvidia-persistenced), or on a kernel module it could not use.",
    check: "'nvidia-smi' and 'dmesg | grep -i -e NVRM -e Xid' on the host; 'systemctl status nvidia-persistenced' (the driver's, not another package's), then enable it ('sudo systemctl enable --now nvidia-persistenced'); a GPU in a bad state needs a reset or a reboot",
    rank: RANK_VAGUE,
    ..RULE
};
