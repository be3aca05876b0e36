//! Issue 31, round 9 (set S's misses as classes): ROCm's user space against the kernel and the
//! image. Sources beside each.
//!
//! - libdrm's libraries (libdrm.so.2, libdrm_amdgpu.so.1) that ROCm's runtime and amd-smi
//!   dlopen: user space the image or the program's package ships, not the host's driver; an
//!   image's unversioned link to a file that is not there (gpustack/gpustack's worker image) or
//!   a package that leaves them off its library path (NixOS/nixpkgs' amdsmi) fails the same way.
//! - The ROCm thunk (libhsakmt) against the kernel's KFD: an ioctl KFD refuses
//!   ("AMDKFD_IOC_ACQUIRE_VM failed", with HSAKMT_DEBUG_LEVEL) is a thunk of another release
//!   than the kernel's KFD (ROCm/ROCR-Runtime: ROCm 1.8's thunk on the upstream 4.18 KFD; a
//!   stale libhsakmt left by an older ROCm).
//! - Under WSL, librocdxg (the bridge to the Windows driver) missing an entry point the ROCm
//!   runtime asks for ("GetExportAddress failed: …librocdxg.so: undefined symbol:
//!   hsaKmtCreateQueueV2"): a librocdxg older than the ROCm release (ROCm/librocdxg's
//!   compatibility update).

use gpuctl_core::plugin::{EmitterRule, LOADER, ObjectAt, Operation, RANK_DECISIVE, RULE};

/// libdrm's libraries the image or package lacks.
pub(crate) const LIBDRM: EmitterRule = EmitterRule {
    objects: &["libdrm_amdgpu", "libdrm.so", "libdrm_radeon"],
    cause: "{object} is libdrm, user space the image (or the program's own package) must ship, not the host's driver: it is not installed there, its unversioned link points at a file that is not (a build step's broken symlink), or it is not on the library path the program uses (a package that leaves it off its runtime path).",
    check: "'ls -l' the library where the program looks and 'ldconfig -p | grep libdrm' in the container; install libdrm2 and libdrm-amdgpu1 (or the distribution's libdrm) in the image, fix the link, or add its directory to the program's library path",
    rank: RANK_DECISIVE,
    ..LOADER
};

/// The thunk refused by the kernel's KFD.
pub(crate) const THUNK: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the ROCm thunk (libhsakmt)",
    line: &[&["AMDKFD_IOC_", "failed"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the kernel's KFD interface"),
    cause: "the ROCm thunk (libhsakmt) asked the kernel's KFD for a call it refused: the thunk and the KFD are of different releases (a ROCm user space older or newer than the kernel's amdgpu: an upstream kernel with a ROCm that predates its KFD, or a stale libhsakmt left by an older ROCm ahead on the library path).",
    check: "'dmesg | grep kfd' and 'uname -r' on the host against the ROCm release's supported kernels; install the ROCm release made for this kernel (or the amdgpu-dkms of the ROCm release), and remove older libhsakmt copies ('ldconfig -p | grep hsakmt')",
    rank: RANK_DECISIVE,
    ..RULE
};

/// librocdxg older than the ROCm runtime under WSL.
pub(crate) const ROCDXG: EmitterRule = EmitterRule {
    emitter: "hsa",
    who: "the HSA runtime (ROCr) under WSL",
    line: &[&["librocdxg", "undefined symbol"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::After("undefined symbol: "),
    cause: "under WSL the ROCm runtime reaches the GPU through librocdxg, and the librocdxg given to it lacks {object}: a librocdxg older than the ROCm release in the container (or the host's one bind-mounted into a newer image).",
    check: "use the librocdxg released for that ROCm (AMD's ROCm-on-WSL guide), or the ROCm image release that matches the host's librocdxg",
    rank: RANK_DECISIVE,
    ..RULE
};
