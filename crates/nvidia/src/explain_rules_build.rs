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
//! - FFmpeg libavcodec/nvdec.c: "Hardware is lacking required capabilities" when
//!   cuvidGetDecoderCaps says the GPU's NVDEC does not decode this codec, profile, bit depth
//!   or chroma format.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RULE};

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
