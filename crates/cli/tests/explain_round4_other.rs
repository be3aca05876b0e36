//! Issue 31, round 4 (engines, orchestrators, AMD, Intel, graphics): each emitter's failure
//! strings read from its own source, as a class. The lines are composed from the format strings
//! and status tables the comment above each case names (with the wrapper their callers add),
//! not collected from threads; the look-alikes share their words and are not the GPU stack's.
//! Every value of every status table (core's and each vendor's) is read by its name as its own
//! class below; core's tables also in reading/tests_status.rs.

use std::collections::HashSet;

use gpuctl_core::commands::explain::{emitter_rules, explain, not_claimed_because};
use gpuctl_core::commands::reading::{primary, read};
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[rstest]
// ROCm/amdsmi include/amd_smi/amdsmi.h, py-interface/amdsmi_exception.py, amdsmi_cli/amdsmi_commands.py
#[case("AmdSmiLibraryException: Error code:\n\t31 | AMDSMI_STATUS_NOT_FOUND", "rocm-smi", "find-device", "render node")]
#[case("ERROR: AMDSMI_STATUS_FILE_ERROR", "rocm-smi", "find-device", "render node")]
#[case("amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\n\t8 | RSMI_STATUS_INIT_ERROR", "rocm-smi", "initialise", "amdgpu")]
#[case("ERROR: RSMI_STATUS_FILE_ERROR", "rocm-smi", "find-device", "render node")]
#[case("AmdSmiLibraryException: Error code:\n\t9 | AMDSMI_STATUS_RETRY", "rocm-smi", "find-device", "hung")]
#[case("amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\n\t8 | RSMI_INITIALIZATION_ERROR", "rocm-smi", "initialise", "amdgpu")]
// ROCm/rocminfo rocminfo.cc (CheckInitialState: "Unable to open /dev/kfd read-write: %s")
#[case("Unable to open /dev/kfd read-write: Operation not permitted", "rocminfo", "open", "device cgroup")]
#[case("Unable to open /dev/kfd read-write: No such device", "rocminfo", "open", "no driver")]
#[case("Unable to open /dev/kfd read-write: No such device or address", "rocminfo", "open", "no driver")]
#[case("Unable to open /dev/kfd read-write: Cannot allocate memory\nFailed to get user name to check for render group membership", "rocminfo", "open", "noexec")]
#[case("ubuntu is not member of \"render\" group, the default DRM access group. Users must be a member of the \"render\" group or another DRM access group in order for ROCm applications to run successfully.", "rocminfo", "open", "render")]
// torvalds/linux drivers/gpu/drm/amd/amdgpu (amdgpu_kms.c, amdgpu_device.c, amdgpu_job.c), drivers/base/firmware_loader/main.c
#[case("[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=1234, emitted seq=1236", "amdgpu-kernel-module", "find-device", "hung")]
#[case("[    3.200000] [drm:amdgpu_device_init [amdgpu]] *ERROR* early_init of IP block <psp> failed -19\n[    3.200100] amdgpu 0000:03:00.0: Fatal error during GPU init", "amdgpu-kernel-module", "initialise", "failed to start")]
#[case("[   11.104128] amdgpu: probe of 0000:0b:00.0 failed with error -22", "amdgpu-kernel-module", "initialise", "failed to start")]
#[case("[    3.123456] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/gc_11_0_0_imu.bin failed with error -2", "amdgpu-kernel-module", "load-library", "firmware")]
// ROCm/k8s-device-plugin internal/pkg/amdgpu/amdgpu.go, internal/pkg/plugin/plugin.go
#[case("F0101 12:00:00.000000       1 amdgpu.go:159] amdgpu driver unavailable. exiting with exit code 2. error: stat /sys/module/amdgpu/drivers/: no such file or directory", "amd-device-plugin", "find-device", "amdgpu")]
#[case("W0101 12:00:00.000000       1 plugin.go:204] No GPU nodes found via properties", "amd-device-plugin", "find-device", "amdgpu")]
// moby/moby daemon/pkg/oci/devices_linux.go, daemon/devices.go, daemon/devices_amd_linux.go, daemon/volume/mounts/mounts.go, daemon/runtime_unix.go
#[case("docker: Error response from daemon: error gathering device information while adding custom device \"/dev/dri/by-path\": not a device node.", "docker", "stat", "not a device node")]
#[case("docker: Error response from daemon: error gathering device information while adding custom device \"/dev/accel/accel0\": no such file or directory.", "docker", "stat", "kernel driver")]
#[case("docker: Error response from daemon: failed to discover GPU vendor from CDI: no known GPU vendor found.", "docker", "find-device", "CDI spec")]
#[case("Error response from daemon: AMD CDI spec not found", "docker", "find-device", "CDI spec")]
#[case("Error: Error response from daemon: invalid volume specification: '/dev/dri/by-path/pci-0000:b7:00.0-card:/dev/dri/by-path/pci-0000:b7:00.0-card:ro'", "docker", "mount", "colons")]
#[case("docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "docker", "find-runtime", "daemon.json")]
// containers/podman pkg/specgen/generate/config_linux.go, libpod/runtime_ctr.go, libpod/oci_conmon_common.go
#[case("Error: no devices found in /dev/dri: invalid argument", "podman", "find-device", "no device node")]
#[case("Error: /dev/dri/card1 is not a valid device: not a device node", "podman", "stat", "no device node")]
#[case("Error: invalid device specification /dev/dri:/dev/dri:rwm:extra: invalid argument", "podman", "mount", "malformed")]
#[case("Error: requested OCI runtime nvidia is not available: invalid argument", "podman", "find-runtime", "CDI")]
#[case("Error: cannot stat OCI runtime nvidia path: stat /usr/bin/nvidia-container-runtime: no such file or directory", "podman", "find-runtime", "CDI")]
// containers/crun src/libcrun/linux.c (mknodat, mknod)
#[case("Error: OCI runtime error: crun: mknodat `/dev/nvidia0`: Operation not permitted", "crun", "mount", "unprivileged")]
#[case("Error: OCI runtime error: crun: mknod `/dev/dri/renderD128`: Operation not permitted", "crun", "mount", "unprivileged")]
// opencontainers/runc libcontainer/rootfs_linux.go (createDevices, mknodDevice)
#[case("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error creating device nodes: mknodat /var/lib/docker/overlay2/abc/merged/dev/kfd: operation not permitted: unknown.", "crun", "mount", "unprivileged")]
// cncf-tags/container-device-interface pkg/cdi/cache.go, spec.go, container-edits_unix.go, annotations.go
#[case("Error: setting up CDI devices: failed to inject devices: conflicting device \"nvidia.com/gpu=all\" (specs \"/etc/cdi/nvidia.yaml\", \"/var/run/cdi/nvidia.yaml\")", "cdi", "find-device", "two CDI specs")]
#[case("WARN[0000] CDI: failed to load CDI Spec /etc/cdi/nvidia.yaml: invalid spec, no devices\nError: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all", "cdi", "find-device", "no device")]
#[case("Error: setting up CDI devices: CDI device (\"nvidia.com/gpu=0\", \"/dev/nvidia0\"), host type mismatch (c, -)", "cdi", "stat", "another kind")]
#[case("Error: setting up CDI devices: invalid CDI device name \"nvidia.com/gpu:0\"", "cdi", "find-device", "vendor.com")]
// cri-o/cri-o internal/config/device/device_linux.go, the runtime handler lookup
#[case("Error: device /dev/dri/renderD128 is specified but is not in allowed_devices", "cri-o", "allocate", "allowed_devices")]
#[case("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler nvidia from runtime list map[crun:0xc000 runc:0xc001]", "cri-o", "find-runtime", "handler")]
// containerd/containerd internal/cri/config/config.go ("no runtime for %q is configured")
#[case("Warning  FailedCreatePodSandBox  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured", "containerd", "find-runtime", "config.toml")]
// kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go, pkg/kubelet/cm/devicemanager/manager.go, pkg/kubelet/cm/dra
#[case("Warning  FailedScheduling  default-scheduler  deviceclass.resource.k8s.io \"gpu.nvidia.com\" not found", "kube-scheduler", "allocate", "DeviceClass")]
#[case("Warning  UnexpectedAdmissionError  kubelet  Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected", "kubelet", "allocate", "unhealthy")]
#[case("0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", "kube-scheduler", "allocate", "device plugin")]
#[case("Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 3 cannot allocate all claims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.\n  Normal  Scheduled  pod/gpu-test requests resourceclaim gpu-test-gpu", "kube-scheduler", "allocate", "ResourceSlice")]
// KhronosGroup/Vulkan-Headers include/vulkan/vulkan_core.h (VkResult), vulkan_to_string.hpp
#[case("vkCreateDevice failed with VK_ERROR_INITIALIZATION_FAILED", "vulkan", "initialise", "GPU")]
#[case("vkQueueSubmit returned -4", "vulkan", "find-device", "hang")]
#[case("vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER", "vulkan", "load-library", "ICD")]
#[case("vkCreateDevice failed: VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR", "vulkan", "match-version", "driver")]
#[case("vkCreateDevice failed: VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR", "vulkan", "match-version", "driver")]
#[case("vkCreateDevice failed: VK_ERROR_FEATURE_NOT_PRESENT", "vulkan", "match-version", "driver")]
// intel/libva va/va.h (VAStatus), va/va.c (vaErrorStr); FFmpeg libavutil/hwcontext_vaapi.c
#[case("[h264_vaapi @ 0x5581] Failed to create decode configuration: 20 (the requested function is not implemented).", "vaapi", "match-version", "profile")]
#[case("[h264_vaapi @ 0x5581] Failed to create decode configuration: 1 (operation failed).", "vaapi", "initialise", "driver")]
#[case("[h264_vaapi @ 0x5581] Failed to create decode configuration: 10 (attribute not supported).", "vaapi", "match-version", "profile")]
#[case("[hevc_vaapi @ 0x55] vaapi error: VA_STATUS_ERROR_TIMEDOUT", "vaapi", "find-device", "hang")]
// KhronosGroup/EGL-Registry api/EGL/egl.h
#[case("eglInitialize: EGL_NOT_INITIALIZED (0x3001)", "egl", "initialise", "render node")]
#[case("eglInitialize: EGL_BAD_DISPLAY (0x3008)", "egl", "initialise", "render node")]
#[case("eglInitialize: EGL_BAD_DEVICE_EXT (0x322b)", "egl", "initialise", "render node")]
#[case("EGL error 0x300e: EGL_CONTEXT_LOST", "egl", "find-device", "reset")]
// KhronosGroup/Vulkan-Loader loader/loader.c, loader/trampoline.c; Vulkan-Tools vulkaninfo
#[case("loader_scanned_icd_add: ICD /usr/lib/x86_64-linux-gnu/libvulkan_intel.so doesn't support interface version compatible with loader, skip this ICD.", "vulkan", "match-version", "older")]
#[case("ERROR: [Loader Message] Code 0 : loader_icd_scan: Failed loading library associated with ICD JSON /usr/share/vulkan/icd.d/nvidia_icd.json. Ignoring this JSON", "vulkan", "load-library", "ICD manifest")]
#[case("ERROR at ./vulkaninfo/vulkaninfo.h:649:vkCreateInstance failed with ERROR_INCOMPATIBLE_DRIVER", "vulkan", "load-library", "ICD")]
#[case("vkCreateInstance: Found no drivers!\nCannot create Vulkan instance.", "vulkan", "load-library", "ICD")]
// Mesa src/egl/drivers/dri2/egl_dri2.c, platform_*.c, src/gbm/backends/dri/gbm_dri.c, src/loader/loader.c, src/gallium/drivers/zink/zink_screen.c
#[case("gbm_create_device failed", "mesa-loader", "open", "GBM")]
#[case("libEGL warning: DRI2: failed to open any driver (search paths /usr/lib64/dri)", "mesa-loader", "load-library", "driver")]
#[case("libEGL warning: DRI2: failed to create screen", "mesa-loader", "open", "DRI screen")]
#[case("gbm: failed to open any driver (search paths /usr/lib/x86_64-linux-gnu/dri:${ORIGIN}/dri:/usr/lib/dri)\ngbm: Last dlopen error: /usr/lib/dri/radeonsi_dri.so: cannot open shared object file: No such file or directory\nfailed to load driver: radeonsi", "mesa-loader", "load-library", "driver")]
// ROCm/clr hipamd/src/hip_error.cpp (hipGetErrorString) and ROCm/HIP include/hip/hip_runtime_api.h (hipError_t)
#[case("error: hipErrorInvalidImage", "hip", "match-version", "target")]
#[case("error: hipErrorLaunchFailure", "hip", "match-version", "target")]
#[case("hipGetDeviceCount returned 100", "hip", "find-device", "kfd")]
#[case("hipSetDevice failed: hipError_t 101", "hip", "find-device", "index")]
#[case("RuntimeError: HIP error: invalid kernel file", "hip", "match-version", "target")]
#[case("RuntimeError: HIP error: no ROCm-capable device is detected", "hip", "find-device", "kfd")]
// ROCm/ROCR-Runtime runtime/hsa-runtime/inc/hsa.h and core/runtime/hsa.cpp (hsa_status_string); rocminfo.cc RET_IF_HSA_ERR
#[case("Call returned HSA_STATUS_ERROR_MEMORY_FAULT.", "hsa", "match-version", "target")]
#[case("Call returned HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given name.", "hsa", "match-version", "target")]
#[case("hsa api call failure at line 900, file: /src/rocminfo/rocminfo.cc. Call returned 4104", "hsa", "allocate", "render")]
#[case("Call returned HSA_STATUS_ERROR_FATAL: The queue received an error that may require process termination.", "hsa", "match-version", "target")]
#[case("Call returned HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: The HSA runtime is not in the configuration state.", "hsa", "initialise", "kfd")]
#[case("Call returned 0x2b", "hsa", "match-version", "target")]
// oneapi-src/level-zero include/ze_api.h (ze_result_t)
#[case("Level Zero error 0x78000003", "level-zero", "match-version", "runtime")]
#[case("terminate called after throwing an instance of 'std::runtime_error'\n  what():  Unknown ze_result_t value: 1879048199", "level-zero", "find-device", "hung")]
#[case("zeCommandQueueSynchronize failed: ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET", "level-zero", "find-device", "hung")]
#[case("zeCommandQueueSynchronize failed: ZE_RESULT_ERROR_SURVIVABILITY_MODE_DETECTED", "level-zero", "find-device", "hung")]
// intel/llvm unified-runtime include/ur_api.h (ur_result_t), sycl/include/sycl/detail/pi_error.def (pi_result)
#[case("what():  Native API failed. Native API returns: 37 (UR_RESULT_ERROR_UNINITIALIZED)", "sycl", "initialise", "render node")]
#[case("what():  Native API failed. Native API returns: 22 (UR_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)", "sycl", "find-device", "hang")]
#[case("what():  Native API failed. Native API returns: 21 (UR_RESULT_ERROR_DEVICE_REQUIRES_RESET)", "sycl", "find-device", "hang")]
#[case("what():  Native API failed. Native API returns: 66 (UR_RESULT_ERROR_ADAPTER_SPECIFIC)", "sycl", "initialise", "render node")]
#[case("what():  Native API failed. Native API returns: 56 (UR_RESULT_ERROR_INVALID_NATIVE_BINARY)", "sycl", "match-version", "generation")]
#[case("what():  Native API failed. Native API returns: -996 (PI_ERROR_PLUGIN_SPECIFIC_ERROR)", "sycl", "initialise", "render node")]
// KhronosGroup/OpenCL-Headers CL/cl.h, CL/cl_ext.h
#[case("clCreateProgramWithBinary: CL_INVALID_BINARY", "opencl", "match-version", "binary")]
#[case("OpenCL error -16", "opencl", "load-library", "compiler")]
#[case("pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR", "opencl-icd", "load-library", "ICD")]
#[case("clFinish: CL_GENERAL_FAULT_IMG", "opencl", "find-device", "fault")]
// intel/libvpl api/vpl/mfxdefs.h (mfxStatus); FFmpeg libavcodec/qsv.c (qsv_errors)
#[case("[AVHWDeviceContext @ 0x55f69fe0e980] Error creating a MFX session: -9.", "qsv", "find-device", "runtime")]
#[case("[h264_qsv @ 0x5581] Error initializing the MFX video core: unsupported (-3)", "qsv", "match-version", "generation")]
#[case("[AVHWDeviceContext @ 0x5581] Error initializing an MFX session: -8.", "qsv", "initialise", "render node")]
#[case("[hevc_qsv @ 0x5581] Error during encoding: device failed (-17)", "qsv", "find-device", "hung")]
// torvalds/linux drivers/gpu/drm/i915/i915_gpu_error.c, drivers/gpu/drm/xe, drivers/base/firmware_loader/main.c
#[case("[    4.123] i915 0000:00:02.0: Direct firmware load for i915/adlp_dmc.bin failed with error -2", "intel-kernel-module", "load-library", "firmware")]
#[case("xe 0000:03:00.0: Direct firmware load for xe/bmg_guc_70.bin failed with error -2", "intel-kernel-module", "load-library", "firmware")]
#[case("[ 1234.5678] i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dfbfff, in ffmpeg [4567]", "intel-kernel-module", "find-device", "hung")]
#[case("[  12.34] xe 0000:03:00.0: [drm] *ERROR* CRITICAL: Xe has declared device 0000:03:00.0 as wedged.", "intel-kernel-module", "find-device", "wedged")]
#[case("i915 0000:00:02.0: [drm] *ERROR* GPU wedged, reset failed", "intel-kernel-module", "find-device", "wedged")]
// intel/intel-device-plugins-for-kubernetes cmd/gpu_plugin/gpu_plugin.go, pkg/deviceplugin/server.go, manager.go
#[case("E0101 00:00:00.000000 1 manager.go:102] Device scan failed: Can't read sysfs folder: open /sys/class/drm: no such file or directory", "intel-device-plugin", "find-device", "/sys/class/drm")]
#[case("Allocate failed due to Invalid allocation request with unhealthy device card0-0, which is unexpected", "intel-device-plugin", "allocate", "unhealthy")]
#[case("F0101 00:00:00.000000 1 gpu_plugin.go:900] Cannot register to kubelet service: rpc error: code = Unavailable desc = connection error", "intel-device-plugin", "allocate", "socket")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] text: &str,
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
) {
    let e = explain(text, Registry::discovered(), None).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        (
            e.family.as_str(),
            e.emitter,
            e.operation.map(|o| o.as_str())
        ),
        ("gpu-structured", Some(emitter), Some(operation)),
        "{text}"
    );
    let cause = e.cause.unwrap_or_default();
    assert!(cause.contains(word), "{text}: {cause}");
}

#[rstest]
// containers/crun src/libcrun/linux.c's mknodat wording, made up for a USB serial node
#[case("Error: OCI runtime error: crun: mknodat `/dev/ttyUSB0`: Operation not permitted")]
// moby daemon/pkg/oci/devices_linux.go's wording, made up for a USB modem
#[case("docker: Error response from daemon: error gathering device information while adding custom device \"/dev/ttyACM0\": no such file or directory.")]
// podman pkg/specgen/generate/config_linux.go's wording, made up for the sound devices
#[case("Error: no devices found in /dev/snd: invalid argument")]
// moby daemon/runtime_unix.go: a runtime of no GPU's (gVisor)
#[case("docker: Error response from daemon: unknown or invalid runtime name: runsc.")]
// moby daemon/volume/mounts/mounts.go: a data volume's spec, no GPU path
#[case("Error: invalid volume specification: '/srv/data:/data:z:ro:extra'")]
// the scheduler's DRA wording for a network card's claim (dra.net's class), its DeviceClass
// NotFound, and NodeResourcesFit's Insufficient for cpu and memory
#[case("Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 3 cannot allocate all claims.\n  resourceclaim dranet-nic requests class dra.net")]
#[case("Warning  FailedScheduling  default-scheduler  deviceclass.resource.k8s.io \"dra.net\" not found")]
#[case("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.")]
// the API server's refusal of an extended resource in pod-level resources: the manifest's
// (intel/intel-device-plugins-for-kubernetes#2305, corpus 150)
#[case("The StatefulSet \"jellyfin\" is invalid: spec.template.spec.resources.limits[gpu.intel.com/i915]: Unsupported value: \"gpu.intel.com/i915\": supported values: \"cpu\", \"hugepages-\", \"memory\"")]
// drivers/gpu/drm/panfrost prints amdgpu's "Fatal error during GPU init" too: an Arm Mali's
#[case("[    2.100000] panfrost ff9a0000.gpu: Fatal error during GPU init")]
// the kernel's firmware loader for a network card's file and a Wi-Fi card's
#[case("Direct firmware load for rtl_nic/rtl8168h-2.fw failed with error -2")]
#[case("Direct firmware load for iwlwifi-ty-a0-gf-a0-83.ucode failed with error -2")]
// rocminfo.cc's /dev/kfd wording, made up for a serial port
#[case("Unable to open /dev/ttyUSB0 read-write: Operation not permitted")]
// the workload's own out-of-memory (PyTorch on ROCm and on Intel XPU)
#[case("RuntimeError: HIP out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.98 GiB total capacity; 13.10 GiB already allocated)")]
#[case("RuntimeError: XPU out of memory. Tried to allocate 2.00 GiB")]
// libraries the image must ship: rocBLAS, MIOpen, oneMKL, SYCL's runtime, oneDNN
#[case("ImportError: librocblas.so.4: cannot open shared object file: No such file or directory")]
#[case("OSError: libMIOpen.so.1: cannot open shared object file: No such file or directory")]
#[case("OSError: libmkl_core.so.2: cannot open shared object file: No such file or directory")]
#[case("ImportError: libsycl.so.7: cannot open shared object file: No such file or directory")]
#[case("ImportError: libdnnl.so.3: cannot open shared object file: No such file or directory")]
// the workload's own statuses: ROCm/HIP hip_runtime_api.h, oneapi-src/level-zero ze_api.h,
// intel/llvm ur_api.h and pi_error.def, KhronosGroup/OpenCL-Headers cl.h, Vulkan-Headers
// vulkan_core.h, intel/libva va.h, EGL-Registry egl.h, intel/libvpl mfxdefs.h, ROCr hsa.h
#[case("RuntimeError: HIP error: invalid argument")]
#[case("error: hipErrorStreamCaptureUnsupported")]
#[case("Level Zero call failed: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY")]
#[case("what():  Native API failed. Native API returns: -46 (PI_ERROR_INVALID_KERNEL_NAME)")]
#[case("what():  Native API failed. Native API returns: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)")]
#[case("clSetKernelArg failed: CL_INVALID_ARG_SIZE")]
#[case("vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY")]
#[case("[h264_vaapi @ 0x5581] Failed to upload frame: 2 (resource allocation failed).")]
#[case("eglCreateWindowSurface failed: EGL_BAD_NATIVE_WINDOW")]
#[case("[h264_qsv @ 0x5581] Error during encoding: MFX_ERR_INVALID_VIDEO_PARAM (-15)")]
#[case("Call returned HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not meet a precondition.")]
// a validation layer's message and an ffmpeg codec error: the program's
#[case("validation layer: Validation Error: [ VUID-vkCmdDraw-None-02699 ] Object 0: handle = 0x1, type = VK_OBJECT_TYPE_DESCRIPTOR_SET")]
#[case("[AVHWDeviceContext @ 0x55] Failed to create decode configuration for hevc: invalid data found when processing input")]
// a number or a message of an enum on a line of nobody's
#[case("the request returned 100 rows")]
#[case("exit code -9")]
#[rustfmt::skip]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    let e = explain(text, Registry::discovered(), None);
    assert!(e.is_none(), "{text}: {:?}", e.map(|e| e.diagnosis));
}

/// The workload's own failure is not claimed, and explain says whose it is.
#[test]
fn the_workload_s_own_failure_says_so() {
    let why = not_claimed_because(
        "RuntimeError: HIP error: out of memory",
        Registry::discovered(),
    )
    .unwrap_or_default();
    assert!(why.contains("the workload's own"), "{why}");
    let why = not_claimed_because(
        "OSError: libMIOpen.so.1: cannot open shared object file: No such file or directory",
        Registry::discovered(),
    )
    .unwrap_or_default();
    assert!(why.contains("the image's packaging"), "{why}");
}

/// A specific family keeps its text; the status read from the same line names the same cause
/// (the family's texts are in explain_real.rs).
#[rstest]
#[case("RuntimeError: HIP error: hipErrorNoDevice", "amd-no-hip-device")]
#[case(
    "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.",
    "amd-hsa-out-of-resources"
)]
#[case(
    "zeInit failed: ZE_RESULT_ERROR_UNINITIALIZED",
    "intel-level-zero-no-device"
)]
#[case(
    "Unable to open /dev/kfd read-write: Permission denied",
    "amd-kfd-permission-denied"
)]
fn a_family_keeps_its_text(#[case] text: &str, #[case] code: &str) {
    let e = explain(text, Registry::discovered(), None).map(|e| e.family.as_str());
    assert_eq!(e, Some(code), "{text}");
}

/// A reason that contradicts the family's cause wins: a CDI spec with no device is not a spec
/// too new for podman's CDI library (cncf-tags/container-device-interface pkg/cdi/spec.go).
#[test]
fn an_empty_spec_is_not_a_spec_too_new() {
    let text = "WARN[0000] CDI: failed to load CDI Spec /etc/cdi/nvidia.yaml: invalid spec, no devices\nError: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all";
    let e = explain(text, Registry::discovered(), None).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        (e.emitter, e.family.as_str()),
        (Some("cdi"), "gpu-structured")
    );
}

/// Every value of every status table reads by its name as its own class (emitter, operation,
/// owner, and a cause that names it), and no emitter lists one name in two classes.
#[test]
fn every_status_of_every_table_reads_by_name() {
    let (rules, gpu) = emitter_rules(Registry::discovered());
    let mut seen = HashSet::new();
    let mut count = 0;
    for rule in rules.iter().filter(|r| !r.statuses.is_empty()) {
        for s in rule.statuses {
            assert!(
                seen.insert((rule.emitter, s.name)),
                "{}: {} is in two classes",
                rule.emitter,
                s.name
            );
            let text = format!("error: {}", s.name);
            let readings = read(&text, &rules, &gpu);
            let r = primary(&readings).unwrap_or_else(|| panic!("{text} is not read"));
            assert_eq!(
                (r.emitter, r.operation, r.owner),
                (rule.emitter, rule.operation, rule.owner),
                "{text}"
            );
            assert!(r.cause.contains(s.name), "{text}: {}", r.cause);
            count += 1;
        }
    }
    assert!(count > 600, "{count} statuses");
}

/// A message or a number of an enum reads only on its emitter's line.
#[rstest]
#[case("RuntimeError: HIP error: invalid device ordinal", Some("hip"))]
#[case("hipGetDeviceCount returned 100", Some("hip"))]
#[case("Call returned 0x1008", Some("hsa"))]
#[case("what():  Unknown ze_result_t value: 1879048193", Some("level-zero"))]
#[case(
    "Native API failed. Native API returns: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
    Some("sycl")
)]
#[case(
    "[h264_qsv @ 0x1] Error initializing the MFX video core: unsupported (-3)",
    Some("qsv")
)]
#[case("invalid device ordinal", None)]
#[case("the job returned 1879048193", None)]
#[case("this codec is unsupported (-3)", None)]
fn a_message_or_number_reads_only_on_its_emitter_s_line(
    #[case] text: &str,
    #[case] emitter: Option<&str>,
) {
    let (rules, gpu) = emitter_rules(Registry::discovered());
    let readings = read(text, &rules, &gpu);
    assert_eq!(primary(&readings).map(|r| r.emitter), emitter, "{text}");
}
