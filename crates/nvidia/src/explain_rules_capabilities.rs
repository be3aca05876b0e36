//! The driver's libraries by the capability that brings them (issue 31, round 9). The legacy
//! runtime and hook mount a library of the host's driver only when the container asks for its
//! capability (NVIDIA_DRIVER_CAPABILITIES, whose default in NVIDIA's CUDA images is
//! `compute,utility`): libnvidia-container's src/nvc_info.c lists them as utility_libs,
//! compute_libs, video_libs, graphics_libs and graphics_libs_glvnd. So a container given the
//! GPU can still lack a library, and the remedy is the capability, not the GPU: set P's
//! threads (NVIDIA/pyxis#103: OptiX without 'graphics'; AbdBarho/stable-diffusion-webui-docker
//! #348: libcuda without 'compute'; Lixsp11/sekai-codebase#5: NVENC without 'video'). A CDI
//! spec from `nvidia-ctk cdi generate` holds every library whatever the capabilities.

use gpuctl_core::plugin::{EmitterRule, LOADER, ObjectAt, Operation, RANK_REASON, RULE};

use crate::explain_rules_libs::leak;
use crate::explain_rules_loaders::FAILED_TO_LOAD;

/// A capability and the libraries it brings (as prefixes of their file names).
struct Capability {
    name: &'static str,
    libs: &'static [&'static str],
    /// What the libraries are for, in a few words.
    what: &'static str,
}

const CAPABILITIES: &[Capability] = &[
    Capability {
        name: "video",
        libs: &[
            "libnvidia-encode",
            "libnvcuvid",
            "libnvidia-opticalflow",
            "libvdpau_nvidia",
        ],
        what: "NVENC, NVDEC, optical flow and VDPAU",
    },
    Capability {
        name: "graphics",
        libs: &[
            "libnvidia-glcore",
            "libnvidia-eglcore",
            "libnvidia-glsi",
            "libnvidia-tls",
            "libnvidia-fbc",
            "libnvidia-ifr",
            "libnvidia-rtcore",
            "libnvoptix",
            "libGLX_nvidia",
            "libEGL_nvidia",
            "libGLESv2_nvidia",
            "libGLESv1_CM_nvidia",
            "libnvidia-glvkspirv",
            "libnvidia-cbl",
        ],
        what: "OpenGL, EGL, Vulkan and OptiX",
    },
    Capability {
        name: "compute",
        libs: &[
            "libnvidia-ptxjitcompiler",
            "libnvidia-nvvm",
            "libnvidia-opencl",
            "libnvidia-compiler",
            "libnvidia-fatbinaryloader",
            "libnvidia-gpucomp",
            "libcudadebugger",
        ],
        what: "CUDA's JIT and OpenCL",
    },
];

/// Each capability's two rules: glibc's own sentence and any loader's words.
pub(crate) fn rules() -> impl Iterator<Item = EmitterRule> {
    CAPABILITIES.iter().flat_map(|c| {
        let cause = leak(format!(
            "{{object}} is the host driver's library for {}, which the GPU stack mounts into a container given the GPU with the '{}' capability: this container was not given the GPU (no CDI device, '--gpus' or NVIDIA runtime), it was given it without '{}' (NVIDIA_DRIVER_CAPABILITIES, whose default in the CUDA images is compute,utility, so a container given the GPU still lacks these), or the host's driver lacks it (a distribution that packages it apart: Debian's and Ubuntu's libnvidia-encode, libnvidia-decode, libnvidia-gl packages).",
            c.what, c.name, c.name
        ));
        let check = leak(format!(
            "run with NVIDIA_DRIVER_CAPABILITIES including {} ('-e NVIDIA_DRIVER_CAPABILITIES=compute,utility,{}', or all; a CDI spec from 'nvidia-ctk cdi generate' holds every library); on the host, 'ldconfig -p | grep {{object}}' must find it",
            c.name, c.name
        ));
        let by_glibc = EmitterRule {
            objects: c.libs,
            cause,
            check,
            rank: RANK_REASON - 1,
            ..LOADER
        };
        let by_any = EmitterRule {
            emitter: "dynamic-loader",
            who: "the program loading the driver's library",
            line: FAILED_TO_LOAD,
            operation: Operation::LoadLibrary,
            object: ObjectAt::Named,
            objects: c.libs,
            cause,
            check,
            rank: RANK_REASON,
            ..RULE
        };
        [by_glibc, by_any]
    })
}
