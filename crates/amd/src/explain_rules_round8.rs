//! Issue 31, round 8 (set K's misses as classes): ROCm's lines whose reason earlier rules did
//! not read. Sources beside each; docs/explain.md ("Round 8") has the table.
//!
//! - rocminfo (ROCm/rocminfo rocminfo.cc) prints "WSL environment detected." when it runs
//!   under WSL, where ROCm reaches the GPU through the Windows driver (/dev/dxg) rather than
//!   /dev/kfd: only the ROCm releases AMD's "ROCm on WSL" guide names ship that path, with the
//!   Windows driver it names. An HSA failure beside it is that path's, not a render node's
//!   (ROCm/legacy-rocm-build#5106: ROCm 6.4.2 installed in WSL, which that release did not
//!   support; the guide's release fixed it).
//! - A segmentation fault inside libamdhip64 (a backtrace frame or the loader's crash line):
//!   the HIP runtime crashes rather than reporting an error on a GPU its ROCm release does not
//!   support, an APU's integrated GPU above all (ROCm/hip#3282: a Barcelo iGPU, which
//!   HSA_OVERRIDE_GFX_VERSION=9.0.0 made run).
//! - libdrm_amdgpu's "amdgpu: amdgpu_bo_cpu_map failed. (%d)" with -13 (EACCES): the render
//!   node opened, but mapping a buffer's memory was refused, which SELinux's confinement of a
//!   container does (podman#18497: VA-API on radeonsi worked with `--security-opt
//!   label=disable`).
//! - ggml's ROCm backend asking hipMemGetInfo for the device's memory ("ROCm error: invalid
//!   argument … in function ggml_backend_cuda_device_get_memory … hipMemGetInfo(free,
//!   total)"): the HIP runtime's query of KFD failed for a device it had found, which a host
//!   kernel's amdgpu does (ollama/ollama#9302: Ubuntu's 5.15.173 kernel, fixed by booting the
//!   one before; robertrosenbusch/gfx803_rocm#49: an old 5.x kernel for a gfx803 card).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

/// An HSA failure under WSL.
pub(crate) const WSL: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the HSA runtime (ROCr) under WSL",
    line: &[&["WSL environment detected"]],
    needs: &[
        "HSA_STATUS_ERROR",
        "hsa api call failure",
        "hsa_init failed",
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU through WSL"),
    cause: "rocminfo runs under WSL, where ROCm reaches the GPU through the Windows driver (/dev/dxg), not /dev/kfd, and the HSA runtime could not set it up: the ROCm release installed is not one AMD's ROCm-on-WSL guide supports (only the releases it names ship the WSL runtime), the Windows Adrenalin driver is not the one that guide names, the GPU is not on its WSL list, or the machine has no AMD GPU at all (under WSL the runtime reports no GPU as out of resources: ROCm/rocm-systems#1153).",
    check: "follow AMD's 'Install ROCm on WSL' guide for a release it names ('amdgpu-install -y --usecase=wsl,rocm --no-dkms'), with the Windows driver it names; 'ls -l /dev/dxg' in the distribution must show the paravirtual GPU; a native Linux recipe ('--device /dev/kfd') does not apply under WSL",
    rank: RANK_DECISIVE,
    ..RULE
};

/// A crash inside the HIP runtime.
pub(crate) const HIP_CRASH: EmitterRule = EmitterRule {
    emitter: "hip",
    who: "the HIP runtime",
    line: &[&["libamdhip64"]],
    needs: &[
        "SIGSEGV",
        "Segmentation fault",
        "segmentation fault",
        "signal 11",
        "core dumped",
    ],
    unless: &["cannot open shared object", "No such file", "not found"],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's LLVM target"),
    cause: "the HIP runtime itself crashed (a segmentation fault inside libamdhip64) rather than report an error, which ROCm does most often on a GPU its release does not support: an APU's integrated GPU, or a gfx target outside the release's list (HSA_OVERRIDE_GFX_VERSION set to a supported target of the same family is the usual workaround), or a ROCm user space that does not match the amdgpu kernel driver.",
    check: "'rocminfo | grep gfx' names the GPU's target and 'gpuctl requirement' the ROCm releases that list it; try HSA_OVERRIDE_GFX_VERSION with a supported target of the same family (9.0.0 for gfx90c, 10.3.0 for gfx103x, 11.0.0 for gfx110x); 'dmesg | grep -e amdgpu -e kfd' on the host",
    rank: RANK_VAGUE,
    ..RULE
};

/// A buffer mapping refused with EACCES.
pub(crate) const BO_MAP_DENIED: EmitterRule = EmitterRule {
    emitter: "libdrm",
    who: "libdrm (amdgpu)",
    line: &[&["amdgpu_bo_cpu_map failed", "(-13)"]],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU buffer's memory"),
    cause: "the render node opened, but mapping a buffer's memory was refused (EACCES): SELinux's confinement of the container (container_t without container_use_devices, a rootless podman on Fedora or RHEL) refuses it where the node's own permissions allow the open, or /dev is mounted noexec.",
    check: "'sudo ausearch -m avc -ts recent' on the host; run with '--security-opt label=disable' or 'sudo setsebool -P container_use_devices 1'; 'findmnt -no OPTIONS /dev'",
    host_mount: Some("/dev"),
    rank: RANK_DECISIVE,
    ..RULE
};

/// The device's memory query refused for a device HIP had found.
pub(crate) const MEM_INFO: EmitterRule = EmitterRule {
    emitter: "hip",
    who: "the HIP runtime's memory query",
    line: &[&["hipMemGetInfo"], &["ggml_backend_cuda_device_get_memory"]],
    needs: &["invalid argument"],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU's memory information"),
    cause: "the runtime found the GPU but its query of the GPU's memory (hipMemGetInfo, through KFD) was refused: the host's amdgpu kernel driver does not answer it for this GPU: a kernel too old for the GPU, or a kernel update that regressed (booting the kernel before works), not the program's argument.",
    check: "'uname -r' on the host, 'sudo dmesg | grep -e kfd -e amdgpu'; boot the kernel before the last update, or one new enough for the GPU ('gpuctl requirement' names the amdgpu floor); 'rocminfo' in the container",
    rank: RANK_DECISIVE,
    ..RULE
};
