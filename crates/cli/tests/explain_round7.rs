//! Issue 31, round 7: what sets H (corpus 251-280) and I (281-309), each read once it was
//! scored, showed explain reading wrongly or not at all, fixed as classes: a pasted message
//! wrapped across lines, a rule's object marker in one of its shapes only, VA-API's unknown
//! status and a denied render node, the kernel module's build and boot fallback, NVDEC's
//! capability check, Nomad's GPU runtime, an image's framework build, a pull that failed, and
//! a DRM listing that holds no device. Lines are composed from each emitter's own format
//! string (named beside it), not copied from the threads; the look-alikes share the rules'
//! words and are not the GPU stack's.

use gpuctl_core::commands::explain::{explain, not_claimed_because};
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::{assert_read_by_emitter, read};

#[rstest]
// hashicorp/nomad drivers/docker/driver.go: "requested docker runtime %q was not found"
#[case("nomad", "find-runtime", "gpu_runtime_name", "failed to create container configuration: requested docker runtime \"nvidia\" was not found")]
// The same wrapped where a terminal broke the line (one space became the line break)
#[case("nomad", "find-runtime", "cdi", "Driver Failure: failed to create container configuration for image \"nvidia/cuda:12.4.0-base-ubuntu22.04\": requested docker runtime\n\"nvidia\" was not found")]
// ffmpeg libavutil/hwcontext_vaapi.c with vaInitialize's VA_STATUS_ERROR_UNKNOWN (va.h: -1)
#[case("vaapi", "load-library", "mesa-va-drivers", "[AVHWDeviceContext @ 0x5600] Failed to initialise VAAPI connection: -1 (unknown libva error).\nDevice creation failed: -5.")]
// The same with a denied open printed beside it (strerror(EACCES))
#[case("vaapi", "open", "render", "[AVHWDeviceContext @ 0x5600] Failed to initialise VAAPI connection: -1 (unknown libva error).\nlibva info: va_openDriver() returns -1\nError creating a context: Permission denied")]
// hwcontext_vaapi.c's other status: the rule's shape without its object's marker still reads
#[case("vaapi", "initialise", "render node", "[AVHWDeviceContext @ 0x5600] Failed to initialise VAAPI connection: 1 (operation failed).")]
// linux scripts/mod/modpost.c: "GPL-incompatible module %s.ko uses GPL-only symbol '%s'"
#[case("kernel-module-build", "match-version", "older than the running kernel", "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'")]
// RPM Fusion's nvidia-fallback.service, logged at boot
#[case("nvidia-fallback", "load-library", "secure boot", "NVIDIA kernel module missing. Falling back to nouveau.")]
// FFmpeg libavcodec/nvdec.c: cuvidGetDecoderCaps' bIsSupported is 0
#[case("ffmpeg-nvdec", "match-version", "codec", "[hevc @ 0x55d0] Hardware is lacking required capabilities\n[hevc @ 0x55d0] Failed setup for format cuda: hwaccel initialisation returned error.")]
// coreutils ls on the host's /sys/class/drm with no DRM device (only `version`)
#[case("ls", "find-device", "no kernel driver drives a gpu", "$ ls /sys/class/drm\nversion")]
// the same long listing, after a prompt with user and host
#[case("ls", "find-device", "too old for the gpu", "root@node1:~# ls -la /sys/class/drm/\ntotal 0\ndrwxr-xr-x  2 root root    0 Jan 26 23:31 .\ndrwxr-xr-x 65 root root    0 Jan 26 23:45 ..\n-r--r--r--  1 root root 4096 Jan 26 23:31 version")]
// the ICD loader's CL_PLATFORM_NOT_FOUND_KHR: no ICD, or a runtime that found no GPU it knows
#[case("opencl-icd", "load-library", "newer than its release", "[CLDNN ERROR]. clGetPlatformIDs error -1001")]
// nvidia-container-cli's "load library failed" names WSL's too old Windows among its readings
#[case("nvidia-container-cli", "load-library", "wsl", "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown")]
// cudaErrorInitializationError: a node CUDA needs and nvidia-smi does not
#[case("cuda", "initialise", "rootless", "cudaGetDeviceCount() returned err=3 (cudaErrorInitializationError)")]
// libvpl's dispatcher finding no runtime: one installed outside its search path
#[case("qsv", "find-device", "onevpl_search_path", "[AVHWDeviceContext @ 0x5600] Error creating a MFX session: -9 (MFX_ERR_NOT_FOUND).")]
// nvidia-installer: no headers for the running kernel, and the build step failing
#[case("nvidia-installer", "load-library", "headers", "ERROR: Unable to find the kernel source tree for the currently running kernel.  Please make sure you have installed the kernel source files for your kernel")]
#[case("nvidia-installer", "match-version", "compiler", "ERROR: An error occurred while performing the step: \"Building kernel modules\". See /var/log/nvidia-installer.log for details.")]
// DKMS on NVIDIA's module (its make.log under /var/lib/dkms/nvidia)
#[case("dkms", "match-version", "older than that kernel", "Building initial module for 6.8.0-45-generic\nError! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)\nConsult /var/lib/dkms/nvidia/550.54.14/build/make.log for more information.")]
#[case("dkms", "load-library", "headers", "Module build for the currently running kernel was skipped since the\nkernel headers for this kernel does not seem to be installed.\nnvidia-dkms-550: dkms/nvidia")]
// DKMS on ROCm's amdgpu-dkms
#[case("dkms", "match-version", "out-of-tree driver", "Error! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)\nConsult /var/lib/dkms/amdgpu/6.3.6-1697589/build/make.log for more information.")]
// Jetson's libnvrm on /dev/nvmap
#[case("tegra", "open", "video group", "NvRmMemInitNvmap failed with Permission denied\n549: Memory Manager Not supported\nNvRmMemMgrInit failed error type: 196626")]
// FFmpeg libavcodec/nvenc.c's session errors by NVENCSTATUS
#[case("nvenc", "allocate", "concurrent encode sessions", "[h264_nvenc @ 0x55d0] OpenEncodeSessionEx failed: out of memory (10): (no details)")]
#[case("nvenc", "allocate", "concurrent encode sessions", "[hevc_nvenc @ 0x55d0] OpenEncodeSessionEx failed: incompatible client key (21): (no details)")]
#[case("nvenc", "find-device", "no encoder", "[h264_nvenc @ 0x55d0] OpenEncodeSessionEx failed: unsupported device (2): (no details)")]
#[case("nvenc", "match-version", "newer nvenc api", "[h264_nvenc @ 0x55d0] OpenEncodeSessionEx failed: invalid version (15): (no details)")]
// OpenVINO's GPU plug-in with no OpenCL device
#[case("openvino", "find-device", "intel-opencl-icd", "RuntimeError: Exception from src/inference/src/core.cpp:116:\n[GPU] No supported OCL devices found or unexpected error happened during devices query.\n[GPU] Please check OpenVINO documentation for GPU drivers setup guide.")]
// ollama discover/amd_linux.go: the target check's older wording and its floor, no AMD GPU
// left, and the KFD access check
#[case("ollama", "match-version", "ollama's rocm build", "time=2024-05-02T12:17:03.657Z level=WARN source=amd_linux.go:116 msg=\"amdgpu [0] gfx1103 is not supported by /tmp/ollama2145067703/rocm [gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942]\"")]
#[case("ollama", "match-version", "gfx803", "time=2025-02-26T01:11:02.714-05:00 level=WARN source=amd_linux.go:309 msg=\"amdgpu too old gfx803\" gpu=0")]
#[case("ollama", "find-device", "dropped", "time=2025-02-26T01:11:02.714-05:00 level=INFO source=amd_linux.go:402 msg=\"no compatible amdgpu devices detected\"")]
#[case("ollama", "open", "/dev/kfd", "level=ERROR source=amd_linux.go:410 msg=\"amdgpu devices detected but permission problems block access: kfd driver not loaded\"")]
// Vulkan's samples and the programs built on them
#[case("vulkan", "find-device", "graphics capability", "ggml_vulkan: vkEnumeratePhysicalDevices reported zero accessible devices.")]
// clinfo with no platform
#[case("opencl-icd", "load-library", "compute runtime", "$ clinfo\nNumber of platforms                               0")]
// Mesa src/intel/dev/intel_device_info.c
#[case("mesa-loader", "match-version", "older than the gpu", "MESA: warning: Driver does not support the 0x7d55 PCI ID.\nglx: failed to create dri3 screen")]
// docker-compose 1.x validation on a file of format 3.x
#[case("docker-compose", "find-runtime", "format 3.x", "ERROR: The Compose file './docker-compose.yml' is invalid because:\nUnsupported config option for services.ollama: 'runtime'\n(runtime: nvidia, for the GPU)")]
// apt and dnf on a GPU stack's package
#[case("package-manager", "install", "container toolkit repository", "$ sudo apt-get install -y nvidia-container-toolkit\nReading package lists... Done\nE: Unable to locate package nvidia-container-toolkit")]
#[case("package-manager", "install", "restricted", "E: Package 'nvidia-driver-535' has no installation candidate")]
#[case("package-manager", "install", "rpm fusion", "Error: Unable to find a match: akmod-nvidia")]
// dnf on the kernel headers where NVIDIA's driver is built (NVIDIA/gpu-driver-container#793's shape)
#[case("package-manager", "install", "eus", "Installing NVIDIA driver kernel modules...\nError: Unable to find a match: kernel-headers-5.14.0-570.112.1.el9_6.x86_64 kernel-devel-5.14.0-570.112.1.el9_6.x86_64")]
// the kernel's ENOEXEC on a GPU tool
#[case("exec", "match-version", "another cpu architecture", "exec /usr/bin/nvidia-smi: exec format error")]
// nvidia-ctk cdi generate without the driver container's root (its own spelling, "initalize")
#[case("nvidia-ctk", "load-library", "--driver-root", "$ sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\nERRO[0000] failed to generate CDI spec: failed to create device CDI specs: failed to initalize NVML: ERROR_LIBRARY_NOT_FOUND")]
// the GPU operator's driver container: no headers for the node's kernel, and / not shared
#[case("driver-container", "install", "older than the repositories", "Resolving Linux kernel version...\nCould not resolve Linux kernel version")]
#[case("driver-container", "mount", "mount propagation", "Error: failed to start container \"nvidia-driver-ctr\": Error response from daemon: path /run/nvidia/driver is mounted on / but it is not a shared mount")]
// FFmpeg fftools' init_hw_device failing on a QSV device (set J's LXC render group)
#[case("ffmpeg", "initialise", "another group's name", "Device creation failed: -542398533.\nFailed to set value 'qsv=hw' for option 'init_hw_device': Generic error in an external library\nError parsing global options: Generic error in an external library")]
// intel/llvm's device-architecture extension on a GPU newer than the runtime
#[case("sycl", "match-version", "older than the gpu", "terminate called after throwing an instance of 'sycl::_V1::exception'\n  what():  The current device architecture is not supported by sycl_ext_oneapi_device_architecture.")]
// a JetPack CUDA library missing in an l4t build on a Jetson
#[case("dynamic-loader", "load-library", "docker's default", "Step 7/9 : RUN python3 setup.py install (l4t-pytorch on a Jetson Xavier)\nOSError: libcurand.so.10: cannot open shared object file: No such file or directory")]
// /dev/kfd listed as root's only (coreutils ls -l)
#[case("ls", "open", "udev rule", "$ ls -la /dev | grep kfd\ncrw-------   1 root    root    234,   0 May 21 05:13 kfd")]
// FFmpeg libavutil/hwcontext_opencl.c's platform count
#[case("opencl-icd", "load-library", "in the image", "[AVHWDeviceContext @ 0x5612] Failed to get number of OpenCL platforms: -1001.\nDevice creation failed: -19.")]
// the kubelet's admission right after a node restart
#[case("kubelet", "allocate", "restarted", "Warning  UnexpectedAdmissionError  84s  kubelet  Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected")]
// nvidia-smi's device handle on a GPU that shut itself off
#[case("nvml", "find-device", "overheating", "$ nvidia-smi\nUnable to determine the device handle for GPU0000:07:00.0: Unknown Error")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

/// ROCm/clr hip_fatbin.cpp's and rocBLAS's tensile_host.cpp's words for a GPU target the
/// image's build has no code for are the no-code-object family's.
#[rstest]
#[case("hip_fatbin.cpp: No compatible code objects found for: gfx1030")]
#[case(
    "rocBLAS warning: No paths matched /opt/rocm/lib/rocblas/library/*gfx1103*co. Make sure that ROCBLAS_TENSILE_LIBPATH is set correctly."
)]
fn a_missing_code_object_is_the_family_s(#[case] text: &str) {
    assert_eq!(read(text).0, Some("amd-hip-no-code-object"));
}

#[rstest]
// torch/utils/cpp_extension.py: building a CUDA extension without the CUDA toolkit
#[case(
    "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
    "cuda toolkit"
)]
// torch.version.hip is None (a CUDA or CPU wheel) where the text asks about ROCm
#[case(
    "$ python -c 'import torch; print(torch.__version__); print(torch.version.hip)'\n2.6.0+cu124\ntorch.version.hip: None\nROCm available: False",
    "rocm build"
)]
// CMake's FindCUDAToolkit and its config-mode search, nvcc's architecture list
#[case(
    "-- Could NOT find CUDAToolkit (missing: CUDAToolkit_INCLUDE_DIR CUDA_CUDART)",
    "cuda toolkit"
)]
#[case(
    "CMake Error at CMakeLists.txt:12 (find_package):\n  Could not find a package configuration file provided by \"CUDAToolkit\"",
    "devel"
)]
#[case(
    "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
    "architecture"
)]
// OpenVINO's core without the GPU plug-in
#[case(
    "RuntimeError: Exception from src/inference/src/core.cpp:116:\nDevice with \"GPU\" name is not registered in the OpenVINO Runtime",
    "plug-in"
)]
// Nomad: the job's own runtime beside a GPU
#[case(
    "conflicting runtime requests: gpu runtime \"nvidia\" conflicts with task runtime \"runsc\"",
    "job's own"
)]
fn the_image_s_or_the_job_s_own_is_said_and_not_claimed(#[case] text: &str, #[case] why: &str) {
    assert_eq!(read(text).0, None, "{text}");
    let note = not_claimed_because(text, Registry::discovered()).unwrap_or_default();
    assert!(note.to_lowercase().contains(why), "{why} not in {note}");
}

#[rstest]
// Kubernetes' pull events for a removed tag: the registry's answer, whatever GPU words stand
// around it (a pod named after nvidia-smi)
#[case(
    "6m22s Warning Failed pod/nvidia-smi-q852m Failed to pull image \"nvidia/cuda\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/nvidia/cuda:latest\": failed to resolve reference \"docker.io/nvidia/cuda:latest\": not found\n6m22s Warning Failed pod/nvidia-smi-q852m Error: ErrImagePull"
)]
#[case("Warning  Failed  kubelet  Error: ImagePullBackOff (nvidia-smi)")]
// modpost's GPL-only refusal of a module that is not NVIDIA's
#[case("ERROR: modpost: GPL-incompatible module zfs.ko uses GPL-only symbol '__rcu_read_lock'")]
// a denied file beside no VA-API failure
#[case("libva info: VA-API version 1.20.0\nopen /config/cache/transcode.lock: Permission denied")]
// a compose option that names no GPU anywhere in the text
#[case(
    "ERROR: The Compose file './docker-compose.yml' is invalid because:\nUnsupported config option for services.web: 'runtime'"
)]
// apt and dnf on a package that is no GPU stack's, and the headers where no NVIDIA driver is built
#[case("E: Unable to locate package libfoo-dev")]
#[case("Error: Unable to find a match: kernel-headers-5.14.0-570.el9.x86_64")]
// exec of a binary that is no GPU's
#[case("exec /usr/local/bin/python3: exec format error")]
// another path that is not shared (no GPU's)
#[case(
    "docker: Error response from daemon: path /opt/CloudNAS is mounted on / but it is not a shared mount."
)]
// PyTorch's tensors on two devices: the program's own placement
#[case(
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)"
)]
// a render node its group may open (crw-rw----) and a JetPack library where nothing says Jetson
#[case("crw-rw----  1 root render 226, 128 May 21 05:13 renderD128")]
// clinfo with platforms
#[case("Number of platforms                               10")]
// a DRM listing that holds a card: the host drives its GPU
#[case("$ ls /sys/class/drm\ncard0  card0-HDMI-A-1  renderD128  version")]
// a listing whose output was not pasted
#[case("$ ls /sys/class/drm\n$ nvidia-smi -L")]
// the wrapped rule's words on two lines that are not neighbours
#[case("requested docker runtime\ncontainer started\n\"nvidia\" was not found")]
// DKMS failing on a module that is no GPU's
#[case(
    "Error! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)\nConsult /var/lib/dkms/virtualbox/7.0.14/build/make.log for more information."
)]
// OpenVINO without its CPU plug-in (a frozen application's packaging)
#[case("Device with \"CPU\" name is not registered in the OpenVINO Runtime")]
// torch.version.hip is None where nothing asks about ROCm (a CUDA host's check)
#[case("torch.version.hip: None\ntorch.version.cuda: 12.4")]
fn look_alikes_are_not_read_so(#[case] text: &str) {
    let got = read(text);
    assert!(
        !matches!(
            got.1,
            Some(
                "nomad" | "kernel-module-build" | "vaapi" | "ls" | "pytorch" | "dkms" | "openvino"
            )
        ),
        "{text}: {got:?}"
    );
    if text.contains("pull") || text.contains("Pull") {
        assert_eq!(got.0, None, "{text}");
    }
}

/// A rule whose words span two lines reads only a pasted text's size: a machine's log is not
/// read twice.
#[test]
fn a_long_log_is_not_read_for_wrapped_lines() {
    let chatter = "container started, nothing to see here\n".repeat(2_000);
    let text = format!("{chatter}requested docker runtime\n\"nvidia\" was not found\n");
    assert!(text.len() > 64 << 10);
    assert_ne!(read(&text).1, Some("nomad"));
    assert!(
        explain(&text, Registry::discovered(), None).is_none_or(|e| e.emitter != Some("nomad"))
    );
}

/// A message pasted from a forum, a blog or an editor carries its typography (curly quotes, a
/// no-break space); the tools print ASCII, so their wording is matched once it is undone.
#[rstest]
#[case(
    "docker: Error response from daemon: could not select device driver \u{201C}\u{201D} with capabilities: [[gpu]].",
    "nvidia-docker-no-gpu-driver"
)]
#[case(
    "docker: Error response from daemon: unknown or invalid runtime name:\u{00A0}nvidia.",
    "gpu-structured"
)]
#[case(
    "Failed to initialize NVML: Driver/library version mismatch \u{2018}nvidia-smi\u{2019}",
    "nvidia-nvml-version-mismatch"
)]
fn typography_is_undone_before_reading(#[case] text: &str, #[case] family: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
}

/// NVML's Unknown Error at start-up names the kubelet's static CPU manager beside systemd's
/// daemon-reload: both rewrite the container's device cgroup (NVIDIA/nvidia-docker#966).
#[test]
fn nvml_s_unknown_error_names_the_kubelet_s_cpu_manager() {
    let text = "# nvidia-smi\nFailed to initialize NVML: Unknown Error";
    assert_eq!(read(text).0, Some("nvidia-nvml-unknown-error"));
    let d = explain(text, Registry::discovered(), None)
        .map(|e| e.diagnosis)
        .unwrap_or_default();
    assert!(d.contains("static CPU manager"), "{d}");
}
