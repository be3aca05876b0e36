//! Issue 31, round 7: installing the GPU stack, and a binary of another architecture. Each
//! rule's wording is the emitter's own (sources beside each; docs/explain.md "Round 7").
//!
//! - apt (apt-pkg's cachefile and apt-get): "Unable to locate package %s", "Package '%s' has
//!   no installation candidate"; dnf: "Unable to find a match: %s". Read only for a package of
//!   a GPU stack (its name says whose): a driver, NVIDIA's container toolkit, ROCm, Intel's
//!   compute and media runtimes, Mesa.
//! - The kernel's exec (ENOEXEC, strerror "Exec format error", Go's lower-case `exec format
//!   error`) on a binary of a GPU stack: built for another CPU architecture (an amd64 image
//!   on an arm64 host such as a Jetson or Grace), or an empty or truncated file.

use super::{EmitterRule, ObjectAt, Operation, RULE};

/// The names a GPU stack's packages start with (Debian's, Ubuntu's, Fedora's, RPM Fusion's,
/// and the vendors' own repositories).
const GPU_PACKAGES: &[&str] = &[
    "nvidia",
    "libnvidia",
    "cuda",
    "libcuda",
    "xserver-xorg-video-nvidia",
    "kmod-nvidia",
    "akmod-nvidia",
    "xorg-x11-drv-nvidia",
    "amdgpu",
    "rocm",
    "hip-",
    "hipcc",
    "rocminfo",
    "intel-opencl",
    "intel-media",
    "intel-level-zero",
    "intel-gpu",
    "libze",
    "level-zero",
    "libmfx",
    "libvpl",
    "mesa",
    "libgl1-mesa",
    "vulkan",
];

/// What an install that found no package means.
const NOT_IN_SOURCES: &str = "the package sources this machine uses do not hold {object}: the vendor's repository that carries it (NVIDIA's CUDA or container toolkit repository, AMD's amdgpu and ROCm repository, Intel's graphics repository) was not added or its lists were not refreshed, the distribution's component that carries it is not enabled (Ubuntu's restricted or multiverse, Debian's contrib and non-free, RPM Fusion), or the repository does not serve this distribution release or CPU architecture.";

/// What to check for [`NOT_IN_SOURCES`].
const SOURCES_CHECK: &str = "'apt-cache policy {object}' or 'dnf list --showduplicates {object}' shows where it could come from; add the vendor's repository as its install guide says (NVIDIA's container toolkit guide for nvidia-container-toolkit, AMD's amdgpu-install for ROCm), refresh the lists ('apt-get update'), and check the release it serves against /etc/os-release";

/// A package manager that found no GPU stack's package by the name asked for.
const NOT_FOUND: EmitterRule = EmitterRule {
    emitter: "package-manager",
    operation: Operation::Install,
    objects: GPU_PACKAGES,
    cause: NOT_IN_SOURCES,
    check: SOURCES_CHECK,
    ..RULE
};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        who: "the package manager (apt)",
        line: &[&["Unable to locate package "]],
        object: ObjectAt::After("Unable to locate package "),
        ..NOT_FOUND
    },
    EmitterRule {
        who: "the package manager (apt)",
        line: &[&["Package '", "' has no installation candidate"]],
        object: ObjectAt::After("Package '"),
        ..NOT_FOUND
    },
    EmitterRule {
        who: "the package manager (dnf)",
        line: &[&["Unable to find a match: "]],
        object: ObjectAt::After("Unable to find a match: "),
        ..NOT_FOUND
    },
    EmitterRule {
        emitter: "exec",
        who: "the kernel (exec)",
        line: &[&["exec format error"], &["Exec format error"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Named,
        objects: &[
            "nvidia",
            "nvidia-smi",
            "nvidia-container",
            "nvidia-ctk",
            "rocm",
            "rocminfo",
            "amd-smi",
            "clinfo",
            "vainfo",
            "vulkaninfo",
            "xpu-smi",
        ],
        cause: "{object} is built for another CPU architecture than the machine running it: an amd64 image or binary on an arm64 host (a Jetson, a Grace or Ampere server), or the host's aarch64 driver tools the toolkit mounts into an amd64 image; or the file is empty or cut short.",
        check: "'uname -m' on the host and 'file' on the binary; run the image built for the host's architecture ('--platform linux/arm64', or the vendor's L4T or sbsa image)",
        ..RULE
    },
];
