//! Issue 31, round 8: what sets K (corpus 350-389) and L (390-429), each read once it was
//! scored, showed explain reading wrongly or not at all, fixed as classes. Lines are composed
//! from each emitter's own format string (named beside it), not copied from the threads; the
//! look-alikes share the rules' words and are not the GPU stack's.

use gpuctl_core::commands::explain::{explain, not_claimed_because};
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::{assert_names, assert_read_by_emitter, read};

#[rstest]
// intel/llvm sycl-ls: a listing of CPU and FPGA emulation devices only (before 2023's shape)
#[case("sycl-ls", "find-device", "intel-opencl-icd", "$ sycl-ls\n[opencl:0] ACC : Intel(R) FPGA Emulation Platform for OpenCL(TM) 1.2 [2021.12.9.0.24_005321]\n[opencl:0] CPU : Intel(R) OpenCL 3.0 [2021.12.9.0.24_005321]\n[host:0] HOST: SYCL host platform 1.2 [1.2]")]
// the same in today's shape, fenced as an issue form pastes it
#[case("sycl-ls", "find-device", "render node", "/opt/intel/oneapi/compiler/latest/bin/sycl-ls\n```\n[opencl:cpu:0] Intel(R) OpenCL, 12th Gen Intel(R) Core(TM) i7-1260P OpenCL 3.0 (Build 0) [2024.17.3.0.08_160000]\n```")]
// FFmpeg libavcodec/vaapi_encode.c: "Driver does not support %s RC mode (supported modes: %s)"
#[case("vaapi", "match-version", "huc", "[h264_vaapi @ 0x5600] Driver does not support VBR RC mode (supported modes: CQP).\nError initializing output stream 0:0 -- Error while opening encoder for output stream #0:0")]
// NVIDIA's k8s-device-plugin main.go: "failed to create FS watcher for %s: %v" (EMFILE)
#[case("device-plugin", "open", "max_user_instances", "I1117 10:38:08.220571       1 main.go:199] Starting FS watcher.\nE1117 10:38:08.220642       1 main.go:149] failed to create FS watcher for /var/lib/kubelet/device-plugins/: too many open files")]
// Intel's device plug-in: "Failed to serve %s: %v", then its watcher
#[case("device-plugin", "open", "inotify", "E0620 19:14:08.935267       1 manager.go:146] Failed to serve gpu.intel.com/i915: too many open files\nFailed to create watcher for /var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock")]
// a crash inside libamdhip64 (gdb's frame beside the shell's signal)
#[case("hip", "match-version", "hsa_override_gfx_version", "Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n#0  0x00007fffa6ed9cd8 in  () at /opt/rocm/lib/libamdhip64.so.6")]
// rocminfo under WSL (rocminfo.cc) with ROCr's status string
#[case("hsa", "initialise", "wsl", "WSL environment detected.\nhsa api call failure at: /src/rocminfo/rocminfo.cc:1306\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.")]
// gpu-monitoring-tools' Go NVML binding: ErrUnsupportedGPU, as Nomad's plug-in logs it
#[case("nvml", "match-version", "binding", "[ERROR] client.device_mgr.nomad-device-nvidia: failed to get fingerprint nvidia devices: plugin=nvidia-gpu\n  error=\n  | nvidia nvml DeviceInfoByIndex() error: unsupported GPU device")]
// libnvidia-container's stage "initialization error" with CUDA's reason "unknown error"
#[case("nvidia-container-cli", "initialise", "reboot", "nvidia-container-cli: initialization error: cuda error: unknown error")]
// nvidia-installer's signature refusal before its generic "Unable to load"
#[case("nvidia-installer", "load-library", "secure boot", "ERROR: The kernel module failed to load, because it was not signed by a key that is trusted by the kernel. Please try installing the driver again, and sign the kernel module when prompted to do so.\n\nERROR: Unable to load the kernel module 'nvidia.ko'.")]
// libGL's DRI loader: "failed to open drm device: %s" (strerror), each errno its own cause
#[case("mesa-loader", "open", "video", "libGL error: failed to open drm device: Permission denied\nlibGL error: failed to load driver: i965")]
#[case("mesa-loader", "stat", "--device /dev/dri", "libGL error: failed to open drm device: No such file or directory\nlibGL error: failed to load driver: iris")]
#[case("mesa-loader", "open", "read-only", "libGL error: failed to open drm device: Operation not permitted\nlibGL error: failed to load driver: i965")]
// glibc's "symbol lookup error": an NVML function the driver's libnvidia-ml lacks
#[case("dynamic-loader", "match-version", "legacy branch", "nomad: symbol lookup error: nomad: undefined symbol: nvmlDeviceGetPciInfo_v3")]
// moby's libcontainerd where the NVIDIA runtime died before runc wrote its log
#[case("docker", "find-runtime", "nvidia-container-runtime-hook", "docker run --runtime=nvidia --rm -it nvidia/cuda:12.4.0-base-ubuntu22.04\ndocker: Error response from daemon: OCI runtime create failed: unable to retrieve OCI runtime error (open /run/containerd/io.containerd.runtime.v1.linux/moby/af42/log.json: no such file or directory): /usr/bin/nvidia-container-runtime did not terminate successfully: unknown.")]
// kubectl's jsonpath of a node's status with a GPU resource at zero
#[case("kubelet", "allocate", "daemonset", "Node: worker-2\nstatus.capacity.amd.com/gpu: 0\nstatus.allocatable.amd.com/gpu: 0")]
// docker-compose 1.x's schema check on a GPU reservation
#[case("docker-compose", "allocate", "1.28", "The Compose file './docker-compose.yaml' is invalid because:\nservices.app.deploy.resources.reservations value Additional properties are not allowed ('devices' was unexpected)")]
// the device plug-in's older, capitalised MIG wording
#[case("device-plugin", "allocate", "mixed", "panic: At least one device with migEnabled=true was not configured correctly: More than one MIG device type present on node")]
// KFD's ENOMEM as strace shows the open
#[case("rocminfo", "open", "noexec", "open(\"/dev/kfd\", O_RDWR|O_CLOEXEC)      = -1 ENOMEM (Cannot allocate memory)\nThere is no device can be used to do the computation")]
// glibc's ldconfig on empty driver libraries kept in an image
#[case("ldconfig", "load-library", "docker commit", "/sbin/ldconfig.real: File /usr/lib/x86_64-linux-gnu/libcuda.so.1 is empty, not checked.\n/sbin/ldconfig.real: File /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 is empty, not checked.")]
// the Vulkan loader on an ICD manifest naming a library that is no Vulkan driver
#[case("vulkan", "load-library", "libglx_nvidia.so.0", "ERROR: [Loader Message] Code 0 : loader_scanned_icd_add: Attempt to retrieve either 'vkGetInstanceProcAddr' or 'vk_icdGetInstanceProcAddr' from ICD libGL.so.1 failed.\nCannot create Vulkan instance.")]
// CUDA's no device where the text shows WSL (a venv under /mnt/c/)
#[case("cuda", "find-device", "/usr/lib/wsl/lib", "  File \"/mnt/c/Users/me/proj/.venv/lib/python3.12/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py\", line 258, in ensure_initialized\nnumba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_NO_DEVICE (100)")]
// FFmpeg's hwcontext_vaapi.c: "Failed to open %s as DRM device node."
#[case("vaapi", "open", "group", "[AVHWDeviceContext @ 0x5640] Failed to open /dev/dri/renderD128 as DRM device node.\n[AVHWDeviceContext @ 0x5640] No VA display found for device /dev/dri/renderD128.\nDevice creation failed: -22.")]
// docker stack deploy's Compose schema (Swarm)
#[case("docker", "allocate", "swarm", "$ docker stack deploy --compose-file docker-compose.yml gputest\nservices.test.deploy.resources.reservations Additional property devices is not allowed")]
// the engine's mount of nvidia-persistenced's socket where the daemon is gone
#[case("nvidia-persistenced", "mount", "reboot", "Error response from daemon: failed to create task for container: error mounting \"/run/nvidia-persistenced/socket\" to rootfs: open /run/nvidia-persistenced/socket: no such file or directory")]
// libdrm_amdgpu's buffer mapping refused with EACCES (SELinux), ahead of libva's init failure
#[case("libdrm", "open", "selinux", "libva info: Trying to open /usr/lib64/dri/radeonsi_drv_video.so\namdgpu: amdgpu_bo_cpu_map failed. (-13)\nradeonsi: Failed to create a context.\nlibva error: /usr/lib64/dri/radeonsi_drv_video.so init failed")]
// ggml's Vulkan backend with no device, naming the libraries an ICD loads
#[case("vulkan", "find-device", "glvnd", "load_backend: loaded RPC backend from /app/libggml-rpc.so\nggml_vulkan: No devices found.")]
// docker-compose's older schema wording for a GPU reservation it does not know
#[case("docker-compose", "allocate", "1.28", "ERROR: The Compose file './docker-compose.yml' is invalid because:\nservices.app.deploy.resources.reservations value 'devices' does not match any of the regexes: '^x-'")]
// the Compose Specification's schema on a device reservation without capabilities
#[case("docker-compose", "allocate", "stray '-'", "validating docker-compose.yml: services.ollama.deploy.resources.reservations.devices.0 missing property 'capabilities'")]
// vLLM's platform detection with no GPU platform
#[case("vllm", "find-device", "--gpus", "INFO 05-02 10:00:00 [__init__.py:239] No platform detected, vLLM is running on UnspecifiedPlatform")]
// ggml's ROCm backend where hipMemGetInfo was refused
#[case("hip", "allocate", "kernel update", "ROCm error: invalid argument\n  current device: 0, in function ggml_backend_cuda_device_get_memory at ggml-cuda.cu:2740\n  hipMemGetInfo(free, total)")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

/// Causes widened where the text cannot tell: each names the reading a thread of set K or L
/// had, beside the ones it named before.
#[rstest]
// nvidia-smi's lost driver after an unattended upgrade of part of the driver's packages
#[case(
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
    "unattended upgrade"
)]
// nvidia-smi's missing NVML where the libraries were mounted but the linker cache not refreshed
#[case(
    "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.",
    "linker cache"
)]
// VA-API's unknown status on an NVIDIA GPU
#[case(
    "Failed to initialise VAAPI connection: -1 (unknown libva error)",
    "nvidia's"
)]
// ROCr's out of resources on a bare host
#[case(
    "hsa api call failure at .../rocminfo.cc:1304\nHSA_STATUS_ERROR_OUT_OF_RESOURCES",
    "regressed"
)]
// iHD's init failure where the host's i915 did not load the GPU's firmware
#[case(
    "libva: /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so init failed",
    "firmware"
)]
// RmInitAdapter where the BIOS gave the GPU no large BAR
#[case(
    "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)",
    "resizable bar"
)]
// the compute runtime on a small BAR: its release matters
#[case(
    "WARNING: Small BAR detected for device 0000:01:00.0\nNumber of platforms                               0",
    "release"
)]
fn widened_causes_name_the_other_reading(#[case] text: &str, #[case] word: &str) {
    assert_names(text, word);
}

#[rstest]
// docker's pull of a tag the registry lacks, under nvidia-docker
#[case(
    "$ nvidia-docker run -it kaixhin/cuda-torch\nUnable to find image 'kaixhin/cuda-torch:latest' locally\ndocker: Error response from daemon: manifest for kaixhin/cuda-torch:latest not found.\nSee 'docker run --help'"
)]
// the same wrapped at the message's width
#[case(
    "docker: Error response from daemon: manifest for nvidia/cuda:11.0-base\nnot found: manifest unknown: manifest unknown."
)]
// PyTorch's own out-of-memory (no failure word of its own)
#[case(
    "CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; 10.73 GiB total capacity; 4.41 GiB already allocated; 1.75 GiB free; 3.78 GiB cached)"
)]
// TensorFlow's loader: a library that loaded, then the image's cuDNN that did not (one record
// a line: never joined as a wrapped message)
#[case(
    "I tensorflow/stream_executor/dso_loader.cc:99] Couldn't open CUDA library libcudnn.so. LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64:\nI tensorflow/stream_executor/cuda/cuda_dnn.cc:1562] Unable to load cuDNN DSO\nI tensorflow/stream_executor/dso_loader.cc:105] successfully opened CUDA library libcuda.so.1 locally"
)]
// a sycl-ls listing that names a GPU
#[case(
    "$ sycl-ls\n[level_zero:gpu:0] Intel(R) Level-Zero, Intel(R) Arc(TM) A770 Graphics 1.3 [1.3.26241]\n[opencl:cpu:1] Intel(R) OpenCL, 12th Gen Intel(R) Core(TM) i7 OpenCL 3.0 [2023.16.12]"
)]
// a segmentation fault that is not in the HIP runtime
#[case("Segmentation fault (core dumped)\n#0  0x00007f in foo () at /usr/lib/libfoo.so.1")]
// a HIP library missing from the image: the loader's, not a crash
#[case("libamdhip64.so.6: cannot open shared object file: No such file or directory")]
// too many open files in a program that is no device plug-in
#[case("OSError: [Errno 24] Too many open files: '/data/cache'")]
// a node whose GPU resource is not zero
#[case("status.capacity.nvidia.com/gpu: 8\nstatus.allocatable.nvidia.com/gpu: 8")]
// CUDA's invalid configuration argument: the program's own launch (LostRuins/koboldcpp#490)
#[case("CUDA error 9 at ggml-cuda.cu:6858: invalid configuration argument\ncurrent device: 0")]
// a compose key that is no GPU reservation
#[case(
    "The Compose file './docker-compose.yaml' is invalid because:\nservices.web value Additional properties are not allowed ('healthchek' was unexpected)"
)]
fn look_alikes_are_left_alone(#[case] text: &str) {
    let got = read(text);
    assert!(
        !matches!(
            got.1,
            Some(
                "sycl-ls"
                    | "hip"
                    | "device-plugin"
                    | "kubelet"
                    | "docker-compose"
                    | "nvidia-docker"
                    | "dynamic-loader"
            )
        ),
        "{text}: {got:?}"
    );
    // A listing that names a GPU component and no failure is answered "not recognised" (the
    // fallback's never-silent answer), never diagnosed.
    assert!(
        matches!(got.0, None | Some("gpu-unrecognised")),
        "{text}: {got:?}"
    );
}

/// A log record's own header starts a line no wrap produced: TensorFlow's loader lines are not
/// joined, so a library that loaded is not read as one that failed.
#[test]
fn a_log_record_is_not_joined_to_the_line_before() {
    let text = "I tensorflow/stream_executor/dso_loader.cc:99] Couldn't open CUDA library libcudnn.so. LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64:\nI tensorflow/stream_executor/dso_loader.cc:105] successfully opened CUDA library libcuda.so.1 locally";
    assert!(
        explain(text, Registry::discovered(), None).is_none(),
        "claimed"
    );
}

/// libdrm's missing marketing-name table alone is a warning of the image's packaging (the GPU
/// still works: ROCm/legacy-rocm-build#5943, ROCm/pytorch#984): said, not claimed; beside a
/// failure the failure's line answers (explain_emitters_other.rs).
#[test]
fn libdrm_s_name_table_alone_is_the_image_s() {
    for text in [
        "/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory\nTrue",
        "/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory",
    ] {
        assert_eq!(read(text).0, None, "{text}");
        let note = not_claimed_because(text, Registry::discovered()).unwrap_or_default();
        assert!(note.contains("libdrm-amdgpu-common"), "{note}");
    }
}

/// OpenVINO's GPU plug-in on another vendor's OpenCL device is the program's choice; without
/// that, no Intel device is the set-up's.
#[test]
fn openvino_on_another_vendor_s_gpu_is_the_program_s() {
    let other = "failed to create engine: No OpenCL device found which would match provided configuration:\n    GeForce GTX 970: invalid vendor type";
    assert_eq!(read(other).0, None);
    let none = "RuntimeError: [GPU] failed to create engine: No OpenCL device found which would match provided configuration";
    assert_eq!(read(none).1, Some("openvino"));
}

/// rocBLAS without a Tensile library for the GPU's target, where the paste lost the line's
/// start or an application words it its own way (ROCm/rocBLAS#1331), is the no-code-object
/// family's.
#[rstest]
#[case("ROCm Version: 5.5.1\nError: TensileLibrary.dat not found")]
#[case(
    "> ocBLAS error: Cannot read C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1201"
)]
fn a_missing_tensile_library_is_the_family_s(#[case] text: &str) {
    assert_eq!(read(text).0, Some("amd-hip-no-code-object"), "{text}");
}

/// A paste whose breaks are of both kinds (a terminal's inside a path, a form's at a space)
/// still holds the rule's words: they are looked for with the whitespace taken out.
#[test]
fn a_paste_broken_both_ways_is_read() {
    let text = "stderr: nvidia-container-cli: m\nount error: file creation failed:\n/var/lib/docker/overlay2/bd4f3570d4eb99d9df1117bd3751a00c8c0eb63429e65eba2a196c6\nc543cc52f/merged/usr/bin/nvidia-smi: file exists: unknown";
    assert_eq!(
        read(text),
        (
            Some("gpu-structured"),
            Some("nvidia-container-cli"),
            Some("mount")
        )
    );
}
