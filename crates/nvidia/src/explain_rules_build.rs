//! Issue 31, round 7: the NVIDIA kernel module where it is built or not loaded at boot, and
//! the video decoder's capability check. Each string is the emitter's own, named beside its
//! rule; docs/explain.md ("Round 7") has the table.
//!
//! - The kernel's scripts/mod/modpost.c: "GPL-incompatible module %s.ko uses GPL-only symbol
//!   '%s'": a module built against a kernel that exports a symbol it uses as GPL-only. For
//!   nvidia.ko that is a driver release older than the kernel (NVIDIA/gpu-operator#751, fixed
//!   in a later driver release).
//! - RPM Fusion's nvidia-fallback.service (Fedora's xorg-x11-drv-nvidia): at boot, with no
//!   nvidia module loaded, it loads nouveau and logs "NVIDIA kernel module missing. Falling
//!   back to nouveau." The akmod not yet built for a new kernel, or refused by Secure Boot.
//! - nvidia-installer (NVIDIA's .run installer): "Unable to find the kernel source tree for the
//!   currently running kernel" (no headers for it) and "An error occurred while performing
//!   the step: \"Building kernel modules\"" (the build failed; /var/log/nvidia-installer.log).
//! - DKMS: "Error! Bad return status for module build on kernel: %s (%s)" then "Consult
//!   /var/lib/dkms/<module>/<version>/build/make.log", and "Module build for the currently
//!   running kernel was skipped since the kernel headers for this kernel does not seem to be
//!   installed", read where the module is NVIDIA's.
//! - Jetson (L4T): libnvrm's "NvRmMemInitNvmap failed with Permission denied": the process may
//!   not open /dev/nvmap, which belongs to the video group (a container user without it, or no
//!   NVIDIA runtime to pass the Tegra nodes).
//! - dnf's "Unable to find a match: kernel-headers-%s kernel-devel-%s" and apt's "Unable to
//!   locate package linux-headers-%s" where the text builds NVIDIA's driver (the GPU
//!   operator's driver container, NVIDIA/gpu-driver-container#793: on RHEL 9 EUS the headers
//!   are in AppStream EUS, which the container did not enable).
//! - The GPU operator's driver container (NVIDIA/gpu-driver-container, nvidia-driver's
//!   _resolve_kernel_version): "Could not resolve Linux kernel version" when its repositories
//!   hold no kernel-headers package for the node's running kernel (the operator's docs: an
//!   older kernel than the repositories keep). The engines' mount propagation check (moby
//!   daemon/oci_linux.go and containerd's ensureShared: "path %q is mounted on %q but it is not
//!   a shared mount") on the driver container's /run/nvidia/driver.
//! - FFmpeg libavcodec/nvdec.c: "Hardware is lacking required capabilities" when
//!   cuvidGetDecoderCaps says the GPU's NVDEC does not decode this codec, profile, bit depth
//!   or chroma format.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RULE};

/// Where a build of NVIDIA's module is DKMS's (its tree, the package, the command).
const NVIDIA_DKMS: &[&str] = &[
    "dkms/nvidia",
    "nvidia-dkms",
    "dkms install nvidia",
    "dkms build nvidia",
];

/// What to check when NVIDIA's kernel module did not build.
const BUILD_CHECK: &str = "the build log names the first error (/var/log/nvidia-installer.log, or DKMS's make.log); install the headers of the running kernel ('linux-headers-$(uname -r)', 'kernel-devel-$(uname -r)'), build with the compiler the kernel was built with ('cat /proc/version' names it), or install a driver release whose notes support this kernel";

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "kernel-module-build",
        who: "the kernel's module build (modpost)",
        line: &[&["GPL-incompatible module nvidia", "uses GPL-only symbol"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("GPL-incompatible module "),
        cause: "the NVIDIA driver release being built is older than the running kernel: {object} uses a kernel symbol that this kernel exports to GPL modules only, so the module cannot be built or loaded for it (a driver container, DKMS or akmods building an old release against a newer kernel).",
        check: "install a driver release whose notes support this kernel (NVIDIA's release notes name the newest kernel each supports; the GPU operator's driver.version), or boot a kernel that release supports; 'uname -r' names the running kernel",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-fallback",
        who: "RPM Fusion's nvidia-fallback service",
        line: &[&["NVIDIA kernel module missing", "Falling back to nouveau"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "at boot no nvidia module was loaded, so the service loaded nouveau instead: the module is not built for the running kernel (akmods had not finished, or failed, after a kernel update), Secure Boot refused the unsigned module, or the installed branch does not drive this GPU.",
        check: "'modinfo -F version nvidia' and 'uname -r' (a module for this kernel?), 'sudo akmods --force --kernels $(uname -r)' and its log under /var/cache/akmods/nvidia, 'mokutil --sb-state' (enrol the akmods key with 'sudo mokutil --import /etc/pki/akmods/certs/public_key.der')",
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-installer",
        who: "NVIDIA's installer",
        line: &[&["Unable to find the kernel source tree for the currently running"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the running kernel's headers"),
        cause: "the installer must build the kernel module and found no headers (kernel source tree) for the running kernel: the headers package of this exact kernel is not installed, or the system was upgraded to a kernel it has not booted yet.",
        check: "install the headers of the running kernel ('sudo apt install linux-headers-$(uname -r)', 'sudo dnf install kernel-devel-$(uname -r)', Proxmox's 'proxmox-headers-$(uname -r)'), or reboot into the newest kernel first; then run the installer again",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-installer",
        who: "NVIDIA's installer",
        line: &[&[
            "An error occurred while performing the step",
            "Building kernel modules",
        ]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the kernel module"),
        cause: "the NVIDIA kernel module did not build against the running kernel: its headers are missing or incomplete, the compiler is not the one the kernel was built with (a gcc older or newer than /proc/version's), or the driver release is older than the kernel (a symbol or interface the newer kernel changed).",
        check: BUILD_CHECK,
        ..RULE
    },
    EmitterRule {
        emitter: "dkms",
        who: "DKMS",
        line: &[&["Bad return status for module build on kernel: "]],
        needs: NVIDIA_DKMS,
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the NVIDIA module to the kernel"),
        cause: "DKMS could not build the NVIDIA kernel module for the kernel the line names: its headers are missing or incomplete, the compiler is not the one the kernel was built with, or the driver release is older than that kernel; until it builds, that kernel boots without the NVIDIA driver.",
        check: BUILD_CHECK,
        ..RULE
    },
    EmitterRule {
        emitter: "dkms",
        who: "DKMS",
        line: &[&[
            "Module build for the currently running kernel was skipped",
            "does not seem to be installed",
        ]],
        needs: NVIDIA_DKMS,
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the running kernel's headers"),
        cause: "DKMS skipped building the NVIDIA module for the running kernel because that kernel's headers are not installed: the driver is not loaded until they are and the module is built.",
        check: "install 'linux-headers-$(uname -r)' (or 'kernel-devel-$(uname -r)'), then 'sudo dkms autoinstall' and 'sudo modprobe nvidia'",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "package-manager",
        who: "the package manager",
        line: &[
            &["Unable to find a match: kernel-"],
            &["Unable to locate package linux-headers-"],
            &["Unable to locate package kernel-"],
        ],
        needs: &["nvidia", "NVIDIA"],
        operation: Operation::Install,
        object: ObjectAt::Is("the running kernel's headers"),
        cause: "the NVIDIA driver (a driver container, DKMS, the installer) is built against the running kernel's headers, and the repositories enabled where it runs do not hold them for this kernel: a kernel newer than the mirror's, an extended-support or otherwise pinned kernel whose headers live in a repository that is not enabled (RHEL's AppStream EUS for an EUS kernel), or a kernel of its own build.",
        check: "'uname -r' on the node and 'dnf list --showduplicates kernel-devel' (or 'apt-cache policy linux-headers-$(uname -r)') where the driver builds; enable the repository that holds them (for the GPU operator, the driver container's repository configuration), use a precompiled driver image for the kernel, or move the node to a kernel whose headers are published",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "driver-container",
        who: "the GPU operator's driver container",
        line: &[&["Could not resolve Linux kernel version"]],
        operation: Operation::Install,
        object: ObjectAt::Is("the running kernel's headers"),
        cause: "the driver container found no kernel-headers package for the node's running kernel in its repositories, so it cannot build the driver: the node runs a kernel older than the repositories still carry (they drop superseded kernels) or newer than they have yet, or the container cannot reach them (a proxy, DNS).",
        check: "'uname -r' on the node; update the node to the distribution's current kernel, add the archived repositories that keep its packages to the driver container (the GPU operator's custom repository configuration), or use a precompiled driver image for that kernel",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "driver-container",
        who: "the container engine, starting the GPU operator's driver container",
        line: &[&["/run/nvidia/driver", "but it is not a shared mount"]],
        operation: Operation::Mount,
        object: ObjectAt::Is("/run/nvidia/driver"),
        cause: "the driver container publishes the driver to the node at /run/nvidia/driver by mount propagation, which needs the mount it sits on (usually /) to be shared, and on this node it is private or slave: the engine's service runs in its own mount namespace (MountFlags in docker.service), or the OS mounts / private.",
        check: "'findmnt -o TARGET,PROPAGATION /' on the node; 'sudo mount --make-rshared /' (and make it last: a systemd unit, or drop MountFlags from the engine's service), then restart the driver pod",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "tegra",
        who: "the Jetson GPU driver's user space (libnvrm)",
        line: &[&["NvRmMemInitNvmap failed with Permission denied"]],
        operation: Operation::Open,
        object: ObjectAt::Is("/dev/nvmap"),
        cause: "the process may not open Jetson's GPU memory node /dev/nvmap (and /dev/nvhost-*), which belong to the video group: the container's user is not in that group (a '--user' drops it; the host's video GID must be added by number), or the container was not started with the NVIDIA runtime that passes the Tegra nodes.",
        check: "'ls -ln /dev/nvmap /dev/nvhost-*' and 'id' inside the container; start it with '--runtime nvidia' (or the CDI spec's devices) and '--group-add $(getent group video | cut -d: -f3)'",
        ..RULE
    },
    EmitterRule {
        emitter: "ffmpeg-nvdec",
        who: "FFmpeg's NVDEC decoder",
        line: &[&["Hardware is lacking required capabilities"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU's video decoder"),
        cause: "the driver answered that this GPU's NVDEC cannot decode the stream: its codec, profile, bit depth or chroma format is not one this GPU generation decodes (HEVC before Maxwell's second generation, AV1 before Ampere, 10-bit or 4:4:4 on older GPUs), so FFmpeg falls back to the CPU or fails; the GPU set-up is not at fault.",
        check: "NVIDIA's Video Encode and Decode GPU Support Matrix lists what each GPU decodes; 'ffprobe' names the stream's codec, profile and pixel format; decode on the CPU or on a GPU that supports it",
        ..RULE
    },
];
