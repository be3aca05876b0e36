//! Issue 31, round 6 (applications): the wrappers of the applications people run in GPU
//! containers, which print the NVIDIA stack's failure in their own words. Each string is read
//! from the application's source, named beside its rule; docs/explain.md ("Round 6:
//! applications") has the table. A string about the application's own build (a CPU-only
//! wheel) is the image's and is not claimed.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, Owner, RANK_REASON, RANK_VAGUE, RULE};

use crate::explain_rules_libs::DRIVER_CHECK;

/// What to check when an application's CUDA build is newer than the host's driver.
const DRIVER_TOO_OLD_CHECK: &str = "'nvidia-smi' on the host prints the driver and the newest CUDA it supports; upgrade the host's driver, or run the application's build (wheel, image tag) for that CUDA or an older one";

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // pytorch/pytorch c10/cuda/CUDAFunctions.cpp (and torch/cuda/__init__.py's
    // "CUDA initialization:" warning that repeats it): "The NVIDIA driver on your system is too
    // old (found version %d)", the number cudaDriverGetVersion gives (12080 is CUDA 12.8).
    EmitterRule {
        emitter: "pytorch",
        who: "PyTorch",
        line: &[&["The NVIDIA driver on your system is too old (found version "]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the CUDA runtime"),
        cause: "the host's NVIDIA driver supports an older CUDA than the one this PyTorch build was compiled with: the found version is the newest CUDA the driver supports, times 1000 plus the minor times 10 (12080 is CUDA 12.8).",
        check: DRIVER_TOO_OLD_CHECK,
        ..RULE
    },
    // pytorch/pytorch torch/cuda/__init__.py (_lazy_init): "Torch not compiled with CUDA
    // enabled": the wheel in the image is a CPU-only build.
    EmitterRule {
        emitter: "pytorch",
        who: "PyTorch",
        line: &[&["Torch not compiled with CUDA enabled"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the CUDA runtime"),
        owner: Owner::Image,
        cause: "the image's PyTorch is a CPU-only build: no GPU set-up of the host can give it CUDA.",
        check: "install a CUDA build of PyTorch in the image (the index URL that names the CUDA version, e.g. https://download.pytorch.org/whl/cu121)",
        ..RULE
    },
    // tensorflow/tensorflow and openxla/xla xla/stream_executor/cuda/cuda_diagnostics.cc:
    // "kernel driver does not appear to be running on this host (%s): %s does not exist"
    // (/proc/driver/nvidia/version).
    EmitterRule {
        emitter: "tensorflow",
        who: "TensorFlow's stream executor",
        line: &[&["kernel driver does not appear to be running on this host"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("/proc/driver/nvidia/version"),
        cause: "/proc/driver/nvidia/version does not exist where the program runs: the NVIDIA kernel module is not loaded on the host (the file is the module's), so no CUDA device can be found.",
        check: DRIVER_CHECK,
        host_path: Some("/proc/driver/nvidia/version"),
        ..RULE
    },
    // cuda_diagnostics.cc (Diagnostician::LogDriverVersionInformation): "kernel version %s does
    // not match DSO version %s -- cannot find working devices in this configuration": the
    // kernel module's release against the loaded libcuda.so's.
    EmitterRule {
        emitter: "tensorflow",
        who: "TensorFlow's stream executor",
        line: &[&["does not match DSO version", "cannot find working devices"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("libcuda.so"),
        cause: "the libcuda.so the program loaded (the DSO) is of another driver release than the kernel module: the image ships its own libcuda (a driver package or a copied library that shadows the one the GPU stack mounts), or the host's driver was upgraded and the old kernel module is still loaded.",
        check: "'cat /proc/driver/nvidia/version' against 'ls -l $(ldconfig -p | grep libcuda.so.1 | head -1 | cut -d\" \" -f4)' in the container; remove the driver libraries from the image, or reboot the host (or reload the nvidia modules) after a driver upgrade",
        ..RULE
    },
    // FFmpeg/FFmpeg libavcodec/nvenc.c (nvenc_print_driver_requirement): "The minimum required
    // Nvidia driver for nvenc is %s or newer", printed after "Driver does not support the
    // required nvenc API version. Required: %d.%d Found: %d.%d" (nvenc_load_libraries).
    EmitterRule {
        emitter: "ffmpeg",
        who: "FFmpeg's NVENC encoder",
        line: &[
            &["The minimum required Nvidia driver for nvenc is "],
            &["Driver does not support the required nvenc API version"],
        ],
        // nvenc_load_libraries prints the same requirement after "Cannot load
        // libnvidia-encode.so.1": then the library is missing (no `video` capability given to
        // the container: corpus 211), not too old, and the loader's reading answers.
        absent: &["Cannot load libnvidia-encode"],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("libnvidia-encode.so.1"),
        cause: "this FFmpeg was built against nv-codec-headers whose NVENC API is newer than the host's driver provides: the host's driver is older than the release FFmpeg names.",
        check: "'nvidia-smi' on the host prints the driver; upgrade it to the release FFmpeg names, or use an FFmpeg built against older nv-codec-headers",
        ..RULE
    },
    // libavcodec/nvenc.c (nvenc_setup_device): "No capable devices found" once no CUDA device
    // passed nvenc_check_device (compute capability 3.0 or later and an NVENC session opened).
    EmitterRule {
        emitter: "ffmpeg",
        who: "FFmpeg's NVENC encoder",
        line: &[&["No capable devices found"]],
        needs: &["nvenc"],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an NVENC-capable GPU"),
        cause: "none of the GPUs the container sees can encode with NVENC: the GPU has no NVENC engine (A100, H100 and other compute-only GPUs have none) or is older than compute capability 3.0, or the container was given no GPU.",
        check: "'nvidia-smi -L' in the container lists the GPUs it has; NVIDIA's Video Encode and Decode GPU Support Matrix lists which have NVENC",
        rank: RANK_VAGUE,
        ..RULE
    },
    // ollama/ollama discover/gpu_info_cudart.c / gpu_info_nvcuda.c: "cuda driver library init
    // failure: %d", the CUresult cuInit returned (999 CUDA_ERROR_UNKNOWN, 100 no device, 35
    // insufficient driver, 3 not initialized); the library itself was loaded.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["cuda driver library init failure: "]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("libcuda.so"),
        cause: "libcuda.so was loaded but cuInit failed with the CUresult ollama prints: 999 (CUDA_ERROR_UNKNOWN) most often means the nvidia_uvm module is missing or wedged (after suspend) or /dev/nvidia-uvm is not in the container; 100 means no GPU is visible; 35 means the driver is older than the CUDA ollama needs.",
        check: "'ls -l /dev/nvidia*' in the container must list nvidia-uvm; 'lsmod | grep nvidia_uvm' on the host (reload it: 'sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm')",
        // The loader's reading of the same line's library= is wrong: the library loaded.
        rank: RANK_REASON - 1,
        ..RULE
    },
    // ollama/ollama discover/gpu_info_nvml.c: "nvml vram init failure: %d", the nvmlReturn_t
    // nvmlInit_v2 returned (9 NVML_ERROR_DRIVER_NOT_LOADED, 18 NVML_ERROR_LIB_RM_VERSION_MISMATCH);
    // the library itself was loaded.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["nvml vram init failure: "]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("libnvidia-ml.so"),
        cause: "libnvidia-ml.so was loaded but nvmlInit failed with the NVML return code ollama prints: 9 (NVML_ERROR_DRIVER_NOT_LOADED) means the NVIDIA kernel module is not loaded on the host; 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH) means the library is of another driver release than the kernel module (the image ships its own, or the host's driver was upgraded without a reboot).",
        check: DRIVER_CHECK,
        host_path: Some("/sys/module/nvidia"),
        // The loader's reading of the same line's library= is wrong: the library loaded.
        rank: RANK_REASON - 1,
        ..RULE
    },
    // ollama/ollama discover/gpu.go: "no compatible GPUs were discovered", after every
    // library it tried failed (their own lines name why).
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["no compatible GPUs were discovered"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a GPU"),
        cause: "ollama found no GPU it can use and runs on the CPU: the container was given no GPU (no '--gpus' or CDI device), or each GPU library it tried failed on an earlier line of its log.",
        check: "'nvidia-smi' in the container; run it with the GPU as 'gpuctl args' prints it, and set OLLAMA_DEBUG=1 to see each library ollama tries",
        rank: RANK_VAGUE,
        ..RULE
    },
    // FFmpeg libavcodec/nvenc.c (nvenc_open_session, nvenc_print_error): "OpenEncodeSessionEx
    // failed: %s (%d)", the text of nvenc_errors[] for the NVENCSTATUS (nvEncodeAPI.h): 10
    // out of memory and 21 incompatible client key are what a GeForce driver answers past its
    // concurrent-session limit (NVIDIA's Video Encode and Decode GPU Support Matrix: a limit per
    // system on GeForce); 1 and 2 a GPU without an encoder; 15 an API newer than the driver.
    EmitterRule {
        emitter: "nvenc",
        who: "NVENC (the driver's video encoder)",
        line: &[
            &["OpenEncodeSessionEx failed: out of memory"],
            &["OpenEncodeSessionEx failed: incompatible client key"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("an encode session"),
        cause: "the driver refused a new NVENC session: on a GeForce or other consumer GPU the driver allows only a few concurrent encode sessions per system, and other encoders (another container, a second transcode, a desktop recorder) hold them; or the GPU's memory is exhausted.",
        check: "'nvidia-smi --query-gpu=encoder.stats.sessionCount --format=csv' on the host counts the open sessions; lower the number of simultaneous transcodes, or use a driver release with a higher limit (NVIDIA's support matrix gives it per release) or a GPU without one",
        ..RULE
    },
    EmitterRule {
        emitter: "nvenc",
        who: "NVENC (the driver's video encoder)",
        line: &[
            &["OpenEncodeSessionEx failed: unsupported device"],
            &["OpenEncodeSessionEx failed: no encode device"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the GPU's video encoder"),
        cause: "the driver will not open an NVENC session on this device: the GPU has no encoder (GT 1030, most MX and some data-center GPUs, a MIG or vGPU profile without NVENC), or its encoder is not available to this process right now.",
        check: "NVIDIA's Video Encode and Decode GPU Support Matrix lists the GPUs with NVENC; 'nvidia-smi -q | grep -i -A3 encoder' on the host; encode on the CPU or on a GPU with an encoder",
        ..RULE
    },
    EmitterRule {
        emitter: "nvenc",
        who: "NVENC (the driver's video encoder)",
        line: &[&["OpenEncodeSessionEx failed: invalid version"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the NVENC API"),
        cause: "FFmpeg was built for a newer NVENC API than the host's driver provides: the driver is older than the nv-codec-headers FFmpeg was built with.",
        check: DRIVER_TOO_OLD_CHECK,
        ..RULE
    },
    // jax-ml/jax jax/_src/xla_bridge.py: "An NVIDIA GPU may be present on this machine, but a
    // CUDA-enabled jaxlib is not installed. Falling back to cpu.": the image's jax has no CUDA
    // plugin.
    EmitterRule {
        emitter: "jax",
        who: "JAX",
        line: &[&["a CUDA-enabled jaxlib is not installed"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("jax-cuda-plugin"),
        owner: Owner::Image,
        cause: "the image's JAX has no CUDA plugin installed (a CPU-only jaxlib): no GPU set-up of the host can give it CUDA.",
        check: "install JAX with its CUDA plugin in the image ('pip install \"jax[cuda12]\"')",
        ..RULE
    },
];
