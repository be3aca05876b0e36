//! Issue 31, round 6: the frameworks' own lines about NVIDIA's stack that held-out set G
//! (corpus 211-250) showed were read wrongly or not at all. Each rule names its source.
//!
//! - PyTorch's torch/utils/cpp_extension.py prints "No CUDA runtime is found, using
//!   CUDA_HOME='…'" when `torch.cuda.is_available()` is false: PyTorch sees no usable GPU
//!   (Thinklab-SJTU/ThinkMatch#51, corpus 244: a container started without the NVIDIA runtime).
//! - JAX's jax/_src/xla_bridge.py prints "CUDA backend failed to initialize: <why> (Set
//!   TF_CPP_MIN_LOG_LEVEL=0 …)"; with jaxlib/cuda/versions_helpers.cc's query failing on
//!   CUDA_ERROR_NOT_INITIALIZED the CUDA plug-in and jaxlib are not one build (jax-ml/jax#20722,
//!   corpus 249: "due to incorrect jax version"): the image's install, not the host's driver.
//! - PyTorch's torch/utils/cpp_extension.py raises "CUDA_HOME environment variable is not set.
//!   Please set it to your CUDA install root." when it builds a CUDA extension and finds no CUDA
//!   toolkit (nvcc): the image's, whatever the GPU set-up (a runtime or CPU-only image; the
//!   toolkit is never mounted from the host).
//! - Round 7, building CUDA code in an image, the image's: CMake's FindCUDAToolkit "Could NOT
//!   find CUDAToolkit", CMakeDetermineCUDACompiler's "No CMAKE_CUDA_COMPILER could be found",
//!   and nvcc's "nvcc fatal   : Unsupported gpu architecture 'compute_%s'" (the toolkit is
//!   older than the architecture asked for, or newer than one it dropped).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, Owner, RANK_DECISIVE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "cuda",
        who: "PyTorch",
        line: &[&["No CUDA runtime is found, using CUDA_HOME="]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a CUDA GPU"),
        cause: "PyTorch found no usable CUDA GPU (torch.cuda.is_available() is false; CUDA_HOME is only where the CUDA toolkit is): the container was not given the GPU (no '--gpus', CDI device or NVIDIA runtime), the host's driver is not loaded, or the image's PyTorch is a CPU-only build.",
        check: "run 'nvidia-smi' in the container: if it is missing, start it with '--device nvidia.com/gpu=all' (podman, CDI) or '--gpus all' (docker); if it works, check 'python -c \"import torch; print(torch.version.cuda)\"' (None is a CPU-only build)",
        ..RULE
    },
    EmitterRule {
        emitter: "cuda",
        who: "JAX",
        line: &[&[
            "CUDA backend failed to initialize",
            "CUDA_ERROR_NOT_INITIALIZED",
        ]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("JAX's CUDA plug-in"),
        owner: Owner::Image,
        cause: "JAX's CUDA plug-in queried the GPU before CUDA was initialised, which is what a jaxlib and CUDA plug-in of different releases (or a jaxlib that is not the CUDA build) do: the image's JAX install, not the host's driver.",
        check: "install matching wheels in the image ('pip install -U \"jax[cuda12]\"', so that jax, jaxlib and jax-cuda12-plugin agree); if they already match, run 'nvidia-smi' in the container",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "cmake",
        who: "CMake",
        line: &[
            &["Could NOT find CUDAToolkit"],
            &["provided by \"CUDAToolkit\""],
            &["No CMAKE_CUDA_COMPILER could be found"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the CUDA toolkit"),
        owner: Owner::Image,
        cause: "the build needs the CUDA toolkit (nvcc, its headers and libraries) where it runs and finds none: a 'base' or 'runtime' image, or a toolkit installed where CMake does not look; the GPU stack mounts only the driver.",
        check: "build on a CUDA 'devel' image (nvidia/cuda:<version>-devel-<os>) or install the toolkit, and point CMake at it (CUDAToolkit_ROOT, or /usr/local/cuda/bin on PATH)",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvcc",
        who: "nvcc",
        line: &[&["nvcc fatal", "Unsupported gpu architecture"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("Unsupported gpu architecture "),
        owner: Owner::Image,
        cause: "the CUDA toolkit in the build does not know the GPU architecture {object} it was asked to compile for: it is older than that architecture (compute_89 needs CUDA 11.8, compute_90 12.0) or newer than a release that dropped it (CUDA 12 dropped compute_35, CUDA 13 compute_70): the build's architecture list and its toolkit do not fit, whatever the host's GPU set-up.",
        check: "set the build's architectures (TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES, CUDA_ARCH) to ones the toolkit supports, or build on a toolkit release that supports the GPU ('nvcc --list-gpu-arch')",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "cuda",
        who: "PyTorch's extension builder",
        line: &[&["CUDA_HOME environment variable is not set"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the CUDA toolkit"),
        owner: Owner::Image,
        cause: "building a CUDA extension needs the CUDA toolkit (nvcc, its headers) in the image, and this image has none, or its PyTorch is a CPU-only build: the GPU stack mounts only the driver, never the toolkit.",
        check: "build on a CUDA 'devel' image (nvidia/cuda:<version>-devel, pytorch/pytorch:<tag>-devel) or install the toolkit in the image and set CUDA_HOME; 'python -c \"import torch; print(torch.version.cuda)\"' (None is a CPU-only build)",
        rank: RANK_DECISIVE,
        ..RULE
    },
];
