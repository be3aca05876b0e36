//! NVIDIA's libraries read by what they are rather than by one loader's sentence (issue 31,
//! round 3): every program that loads or links a library says so in its own words (glibc's
//! `cannot open shared object file`, TensorFlow's dso_loader `Couldn't open CUDA library`, an
//! application's `Can't open shared object file`, GNU ld's `file not recognized`), but the
//! library names whose it is — the driver's (the GPU stack mounts it) or the image's (cuDNN,
//! cuBLAS: the image ships it). Also the toolkit's and nvidia-smi's lines whose object is the
//! driver's own state. Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, Owner, RANK_REASON, RULE};

use crate::explain_rules_libs::{DRIVER_LIBS, IMAGE_LIBS};

/// The words a loader, a framework or an application uses for a library it could not load,
/// each on a line that also names the library (ldd's `=> not found` too). The exact glibc wording has its own rule
/// (`LOADER` in core), which is more specific.
pub(crate) const FAILED_TO_LOAD: &[&[&str]] = &[
    &["an't open shared object"],
    &["ouldn't open CUDA library"],
    &["ould not open"],
    &["ould not load"],
    &["ouldn't load"],
    &["ailed to load"],
    &["nable to load"],
    &["annot load"],
    &["an't load"],
    &["=> not found"],
];

/// The loaders' rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // Any loader's sentence about one of the driver's libraries: TensorFlow 1.x's dso_loader
    // ("Couldn't open CUDA library libcuda.so.1", tensorflow/tensorflow#4931), an application's
    // "Can't open shared object file libcuda.so.1" (tensorflow/tensorflow#10642).
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the program loading the driver's library",
        line: FAILED_TO_LOAD,
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: DRIVER_LIBS,
        cause: "{object} is the host driver's, which the GPU stack mounts into a container given the GPU: this container was not given it (started without the NVIDIA runtime, '--gpus' or a CDI device), or the host has no driver.",
        check: "give the container the GPU ('podman run $(gpuctl args nvidia) ...', docker '--gpus all' or '--runtime=nvidia') and check 'nvidia-smi' inside it; on the host, 'ldconfig -p | grep libcuda'",
        rank: RANK_REASON + 1,
        ..RULE
    },
    // The same for the image's libraries: the image's packaging, not the GPU stack's.
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the program loading a CUDA library",
        line: FAILED_TO_LOAD,
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: IMAGE_LIBS,
        owner: Owner::Image,
        cause: "{object} belongs to the CUDA toolkit or an NVIDIA SDK (cuDNN, cuBLAS, NCCL, TensorRT), which the image must ship: the GPU stack mounts only the driver's libraries.",
        check: "install it in the image (a CUDA 'runtime' or 'cudnn' base image, or the pip wheels nvidia-cudnn-cu12 / nvidia-cublas-cu12) in the version the framework was built for",
        rank: RANK_REASON + 1,
        ..RULE
    },
    // GNU ld at build time: "/usr/lib/x86_64-linux-gnu/libcuda.so: file not recognized: File
    // truncated" (NVIDIA/nvidia-docker#1504): an image build is given no GPU, so the driver's
    // library there is an empty placeholder the runtime would bind over at run time.
    EmitterRule {
        emitter: "linker",
        who: "the linker (ld)",
        line: &[&["file not recognized"], &["file format not recognized"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: DRIVER_LIBS,
        cause: "the linker found {object}, the host driver's library, empty or unreadable: an image build (docker build, BuildKit, podman build) is given no GPU, so the driver's files in the image are placeholders the GPU stack binds over only when a container runs.",
        check: "link against the CUDA toolkit's stub instead ('-L/usr/local/cuda/lib64/stubs', or CMake's CUDA::cuda_driver), or run the step in a container given the GPU; do not copy the driver's libraries into the image",
        ..RULE
    },
    // libnvidia-container mounting the driver's /proc files: "nvidia-container-cli: mount error:
    // mount operation failed: <rootfs>/proc/driver/nvidia/...: no such file or directory"
    // (NVIDIA/nvidia-docker#1068, cleared by a reboot).
    EmitterRule {
        emitter: "nvidia-container-cli",
        who: "nvidia-container-cli (the legacy hook)",
        line: &[&["mount error", "/proc/driver/nvidia"]],
        operation: Operation::Mount,
        object: ObjectAt::Is("/proc/driver/nvidia"),
        cause: "the hook could not mount the driver's /proc/driver/nvidia files into the container: the files the loaded driver shows are not those the hook expects (a driver upgraded or reloaded under a running system, its kernel and user-space parts out of step), or the container's root lies where the hook cannot create them.",
        check: "'cat /proc/driver/nvidia/version' and 'nvidia-smi' on the host must agree on the release; reboot (or unload and reload the nvidia modules) after a driver change, then retry",
        rank: RANK_REASON - 1,
        ..RULE
    },
    // libnvidia-container's CUDA initialisation ("cuda error: initialization error", the CUDA
    // driver API's cuInit; NVIDIA/libnvidia-container#107). "no cuda-capable device is
    // detected" has a family of its own.
    EmitterRule {
        emitter: "nvidia-container-cli",
        who: "nvidia-container-cli (the legacy hook)",
        // CUDA's reason after "cuda error", however the comma is written (a full-width one in
        // the thread); the stage "initialization error: cuda error: unknown error" is not it.
        line: &[
            &["nvidia-container-cli", "cuda error: initialization error"],
            &["nvidia-container-cli", "cuda error, initialization error"],
            &[
                "nvidia-container-cli",
                "cuda error\u{ff0c}initialization error",
            ],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("CUDA"),
        cause: "the hook's own CUDA initialisation (cuInit) failed on the host: the driver's kernel module and user-space libraries differ, the GPU is in a bad state, or the host is short of memory for the driver's context.",
        check: "'nvidia-smi' and a CUDA sample on the host; 'dmesg | grep -i -e NVRM -e Xid'; 'free -m'; a toolkit older than the driver: upgrade libnvidia-container",
        ..RULE
    },
    // nvidia-smi's reset refusal: "GPU 00000000:01:00.0: In use by another client" (mig-parted
    // applying a MIG mode, NVIDIA/mig-parted#181; `nvidia-smi --gpu-reset`, NVIDIA/gpu-operator#118).
    EmitterRule {
        emitter: "nvidia-smi",
        who: "nvidia-smi",
        line: &[
            &["In use by another client"],
            &["is currently in use by another process"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the GPU"),
        cause: "the GPU could not be reset (a MIG mode change needs one) because something holds it: nvidia-persistenced, the fabric manager, DCGM or a monitoring agent, a CUDA or graphics process, or the nvidia_drm module (a display or DRM client).",
        check: "'nvidia-smi' and 'sudo fuser -v /dev/nvidia*' list the holders; stop them (nvidia-persistenced, nvidia-fabricmanager, dcgm), 'sudo rmmod nvidia_drm' if nothing needs a display, then apply the MIG configuration again",
        ..RULE
    },
];
