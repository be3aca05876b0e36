//! issue 31, round 2: container engines, orchestrators, AMD, Intel and the graphics loaders
//! read by their emitter's rule, on real texts from public threads (each cited above its
//! case), with the look-alikes that share their words but not their cause. Every workspace
//! vendor is registered, as `gpuctl explain` runs.

use std::path::Path;

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

/// The answer's family, emitter and operation.
fn read(text: &str) -> Option<(&'static str, Option<&'static str>, Option<&'static str>)> {
    explain(text, Registry::discovered(), None).map(|e| {
        (
            e.family.as_str(),
            e.emitter,
            e.operation.map(|o| o.as_str()),
        )
    })
}

#[rstest]
// https://github.com/NVIDIA/NVSentinel/issues/442 (CRI-O, a RuntimeClass whose handler it lacks)
#[case(
    "cri-o",
    "find-runtime",
    "Warning  FailedCreatePodSandBox  2m35s (x1135 over 4h7m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler nvidia from runtime list map[crun:0xc00047e300 runc:0xc00047ef00]"
)]
// https://github.com/openshift/instaslice-operator/issues/140
#[case(
    "kubelet",
    "allocate",
    "Message:          Pod was rejected: Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/mig-1g.5gb, which is unexpected"
)]
// https://github.com/kubernetes/kubernetes/issues/96519 (the GPU device plugin e2e test)
#[case(
    "kubelet",
    "allocate",
    r#"pod "nvidia-gpu-13237348-f464-496a-9e10-7d2bd90a5aad" failed with reason: "UnexpectedAdmissionError", message: "Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected""#
)]
// https://github.com/Project-HAMi/HAMi/issues/71 (the plugin's Allocate RPC failed; the pod asks nvidia.com/gpu)
#[case(
    "kubelet",
    "allocate",
    "  Warning  UnexpectedAdmissionError  10s   kubelet  Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected\n      resources:\n        limits:\n          nvidia.com/gpu: 4"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/2232 (KFD's ENOMEM: both readings, not the render group)
#[case(
    "rocminfo",
    "open",
    "ROCk module is loaded\n\nUnable to open /dev/kfd read-write: Cannot allocate memory\n\nigor is member of render group\n\nhsa api call failure at: /src/rocminfo/rocminfo.cc:1142\n\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events."
)]
// https://github.com/ROCm/ROCm-docker/issues/107 (in a container; the host has amdgpu loaded)
#[case(
    "rocm-smi",
    "initialise",
    "rocm-user@edfc4c0977ff:~$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\nrocm-user@edfc4c0977ff:~$ rocm-smi\ncat: /sys/module/amdgpu/initstate: No such file or directory\nERROR:root:Driver not initialized (amdgpu not found in modules)"
)]
// https://github.com/ROCm/amdsmi/issues/172 (amdgpu built into the kernel, not a module)
#[case(
    "rocm-smi",
    "initialise",
    "ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)\nERROR:root:Unable to detect any GPU devices, check amdgpu version and module status (sudo modprobe amdgpu)"
)]
// https://github.com/ollama/ollama/issues/4836 (the iGPU is skipped, the discrete gfx1102 is used)
#[case(
    "ollama",
    "find-device",
    "jun 06 13:15:51 gatekeeper ollama[1689]: time=2024-06-06T13:15:51.806+02:00 level=INFO source=amd_linux.go:233 msg=\"unsupported Radeon iGPU detected skipping\" id=1 total=\"512.0 MiB\"\njun 06 13:15:52 gatekeeper ollama[1689]: time=2024-06-06T13:15:52.056+02:00 level=INFO source=amd_linux.go:301 msg=\"amdgpu is supported\" gpu=0 gpu_type=gfx1102"
)]
// (ROCm/legacy-rocm-build#5943's libdrm warning beside a GPU torch still finds was here until
// issue 31's round 8: alone it is the image's packaging and is not claimed; explain_round8.rs.)
// https://github.com/open-edge-platform/dlstreamer/issues/28 (a driver built for another libva)
#[case(
    "vaapi",
    "match-version",
    "libva info: VA-API version 1.0.0\nlibva info: va_getDriverName() returns 0\nlibva info: Trying to open /usr/lib64/dri/i965_drv_video.so\nlibva error: /usr/lib64/dri/i965_drv_video.so has no function __vaDriverInit_1_0\nlibva info: va_openDriver() returns -1"
)]
// https://github.com/intel/libva/issues/548 (VA_STATUS_ERROR_UNKNOWN: no driver could be loaded)
#[case(
    "vaapi",
    "load-library",
    "libva info: VA-API version 1.13.0\nlibva info: Trying to open /usr/lib64/dri/crocus_drv_video.so\nlibva info: va_openDriver() returns -1\nvaInitialize failed with error code -1 (unknown libva error),exit"
)]
// https://github.com/intel/libva/issues/652 (an NVIDIA GPU without nvidia-vaapi-driver)
#[case(
    "vaapi",
    "find-device",
    "libva info: VA-API version 1.14.0\nlibva error: vaGetDriverNameByIndex() failed with unknown libva error, driver_name = (null)\nvaInitialize failed with error code -1 (unknown libva error),exit"
)]
// https://github.com/ch-sa/labelCloud/issues/144 (the driver is there; a library it links clashes)
#[case(
    "mesa-loader",
    "match-version",
    "libGL error: MESA-LOADER: failed to open iris: /lib/x86_64-linux-gnu/libLLVM-12.so.1: undefined symbol: ffi_type_sint32, version LIBFFI_BASE_7.0 (search paths /usr/lib/x86_64-linux-gnu/dri:\\$${ORIGIN}/dri:/usr/lib/dri, suffix _dri)\nlibGL error: failed to load driver: iris"
)]
// https://github.com/kbumsik/VirtScreen/issues/80 (the driver file is missing)
#[case(
    "mesa-loader",
    "load-library",
    "libGL error: MESA-LOADER: failed to open iris: /usr/lib/dri/iris_dri.so: cannot open shared object file: No such file or directory (search paths /usr/lib/x86_64-linux-gnu/dri:\\$${ORIGIN}/dri:/usr/lib/dri)\nlibGL error: failed to load driver: iris"
)]
// https://github.com/oneapi-src/oneAPI-samples/issues/1337 (a selector that finds no GPU)
#[case(
    "sycl",
    "find-device",
    "terminate called after throwing an instance of 'sycl::_V1::runtime_error'\n  what():  No device of requested type available. -1 (PI_ERROR_DEVICE_NOT_FOUND)\nAborted (core dumped)"
)]
// https://github.com/intel/llvm/issues/8693 (mid-run: both readings, a lost GPU among them)
#[case(
    "sycl",
    "find-device",
    "Native API failed. Native API returns: -1 (PI_ERROR_DEVICE_NOT_FOUND) -1 (PI_ERROR_DEVICE_NOT_FOUND)"
)]
// https://github.com/balena-os/balena-intel/issues/590 (the GuC file is missing on the host)
#[case(
    "intel-kernel-module",
    "load-library",
    "[ 5.180037] i915 0000:00:02.0: Direct firmware load for i915/kbl_guc_62.0.0.bin failed with error -2\n[ 5.180041] i915 0000:00:02.0: [drm] GuC firmware i915/kbl_guc_62.0.0.bin: fetch failed with error -2\n[ 5.180666] i915 0000:00:02.0: [drm] GuC is uninitialized"
)]
// https://github.com/intel-gpu/intel-gpu-i915-backports/issues/194 (the GuC refused to load)
#[case(
    "intel-kernel-module",
    "load-library",
    "[   17.428855] i915 0000:0d:00.0: [drm] GT0: GUC: load failed: status = 0x40000056, time = 0ms, freq = 2400MHz, ret = -110"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/572 (KFD refuses the ASIC; rocminfo's 4104 after it)
#[case(
    "amdgpu-kernel-module",
    "initialise",
    "[    2.131266] amdgpu 0000:03:00.0: kfd not supported on this ASIC\nhsa api call failure at line 900, file: /home/1019/git/rocm-rel-1.9-211/rocminfo/rocminfo.cc. Call returned 4104"
)]
// https://github.com/k4yt3x/video2x/issues/628 (the NVIDIA ICD loads; the device nodes were missing)
#[case(
    "vulkan",
    "initialise",
    "ERROR: [Loader Message] Code 0 : loader_scanned_icd_add: Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr' for ICD libGLX_nvidia.so.0\nCannot create Vulkan instance.\nThis problem is often caused by a faulty installation of the Vulkan driver or attempting to use a GPU that does not support Vulkan.\n/root/sdk-build/1.2.131.2/source/Vulkan-Tools/vulkaninfo/vulkaninfo.h:371: failed with ERROR_INCOMPATIBLE_DRIVER"
)]
// https://github.com/oneapi-src/level-zero/issues/93 (the loader without a GPU driver: compute-runtime)
#[case(
    "level-zero",
    "load-library",
    "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Unknown ze_result_t value: 1879179264\nAborted (core dumped)"
)]
// https://github.com/photoprism/photoprism/issues/5174 (MFX_ERR_NOT_FOUND: no QSV runtime for the GPU)
#[case(
    "qsv",
    "find-device",
    "libva info: VA-API version 1.22.0\nlibva info: Trying to open /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so\nlibva info: Found init function __vaDriverInit_1_22\nlibva info: va_openDriver() returns 0\n[AVHWDeviceContext @ 0x55f69fe0e980] Error creating a MFX session: -9.\nDevice creation failed: -1313558101.\n[vist#0:0/hevc @ 0x55f69fe0eb40] [dec:hevc_qsv @ 0x55f69fe53500] No device available for decoder: device type qsv needed for codec hevc_qsv."
)]
// https://github.com/AkashiSN/ffmpeg-docker/issues/5 (another status: the session, generically)
#[case(
    "qsv",
    "initialise",
    "Error initializing an MFX session: -4.\nDevice creation failed: -1313558101.\nFailed to set value 'qsv=qsv:hw' for option 'init_hw_device': Unknown error occurred\nError parsing global options: Unknown error occurred"
)]
// https://github.com/robiot/xclicker/issues/107 (no DRI screen in the sandbox)
#[case(
    "mesa-loader",
    "open",
    "MESA: error: Failed to query drm device.\nglx: failed to create dri3 screen\nfailed to load driver: iris"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/5238 (HSA_OVERRIDE_GFX_VERSION naming another target)
#[case(
    "hsa",
    "match-version",
    "Memory access fault by GPU node-2 (Agent handle: 0x55d1b6b3f1d0) on address (nil). Reason: unknown."
)]
// https://github.com/KhronosGroup/OpenCL-Guide/issues/33 (no ICD in the image)
#[case("opencl-icd", "load-library", "clGetPlatformIDs(-1001)")]
fn engines_orchestrators_and_loaders_read_by_emitter(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] text: &str,
) {
    assert_eq!(
        read(text),
        Some(("gpu-structured", Some(emitter), Some(operation))),
        "{text}"
    );
}

/// Texts that share words with a rule but not its cause: a runtime or resource that is no
/// GPU's, a validation message, a codec error, podman's own default runtime.
#[rstest]
// https://github.com/pires/kubernetes-elasticsearch-cluster/issues/178
#[case(
    "Warning FailedScheduling <invalid> (x7 over 26s) default-scheduler 0/5 nodes are available: 5 Insufficient cpu"
)]
// https://github.com/podman-container-tools/podman/issues/9365 (a runtime that is no GPU's)
#[case(
    r#"error running container: error creating container for [/bin/sh -c set -x && apt-get -q update]: : exec: "runc": executable file not found in $PATH"#
)]
// https://github.com/podman-container-tools/podman/issues/18483
#[case(r#"Error: default OCI runtime "crun" not found: invalid argument"#)]
// https://github.com/charles-lunarg/vk-bootstrap/issues/185 (a validation layer's warning)
#[case(
    "Validation Warning: [ VUID_Undefined ] Object 0: handle = 0x65c550, type = VK_OBJECT_TYPE_INSTANCE; | MessageID = 0x79de34d4 | Instance Extension VK_KHR_portability_enumeration is not supported by this layer.  Using this extension may adversely affect validation results and/or produce undefined behavior."
)]
// https://github.com/androidx/media/issues/730 (a codec's error, not VA-API)
#[case("E/ffmpeg_jni: avcodec_send_packetError: invalid data found when processing input")]
fn look_alikes_of_the_new_rules_stay_unclaimed(#[case] text: &str) {
    assert_eq!(read(text), None, "{text}");
}

/// A reason on a later line is not overruled by the generic one before it: the note about
/// libdrm's table gives way to HIP's "No HIP GPUs are available" (pytorch/pytorch#132987),
/// and the kubelet's wrapper to NVML's "GPU is lost" on the same line (kubernetes/kubernetes#97131).
#[test]
fn a_note_or_a_wrapper_gives_way_to_the_reason() {
    let hip = "amdgpu.ids: No such file or directory\namdgpu.ids: No such file or directory\nRuntimeError: No HIP GPUs are available";
    assert_eq!(read(hip).map(|r| r.0), Some("amd-no-hip-device"));
    let lost = "Message:        Pod Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = Unable to retrieve list of available devices: error creating nvml.Device 5: nvml: GPU is lost, which is unexpected";
    let got = read(lost);
    assert_ne!(got.and_then(|r| r.1), Some("kubelet"), "{got:?}");
    assert!(got.is_some(), "a GPU failure is never silent");
}

/// A family whose remedy is more specific keeps its text, and the typed fields name the
/// emitter's reading of it: xpumd's `zeInit error: 78000001` is Level Zero's
/// ZE_RESULT_ERROR_UNINITIALIZED (intel/xpumanager#2).
#[test]
fn a_specific_family_keeps_its_text_with_the_reading_beside_it() {
    let text = "[2022-06-08 16:43:10.940] [E] [2925-2925] GPUDeviceStub::init zeInit error: 78000001\n[2022-06-08 16:43:10.940] [E] [2925-2925] Failed to init xpum core: zeInit error";
    assert_eq!(
        read(text),
        Some((
            "intel-level-zero-no-device",
            Some("level-zero"),
            Some("initialise")
        ))
    );
}

/// An image without ollama's ROCm runners is the image's packaging: not claimed, and said so
/// (likelovewant/ollama-for-amd#33; the URL at the line's end is cut, as the docs-link check
/// would take it for a path of ours).
#[test]
fn an_image_without_rocm_runners_is_the_image_s() {
    let text = "time=2024-12-03T15:24:29.436Z level=WARN source=amd_linux.go:440 msg=\"amdgpu detected, but no compatible rocm library found.  Either install rocm v6, or follow manual install instructions at <ollama's docs URL>\"";
    assert_eq!(read(text), None);
    let why = gpuctl_core::commands::explain::not_claimed_because(text, Registry::discovered());
    assert!(
        why.as_deref()
            .is_some_and(|w| w.contains("image's packaging")),
        "{why:?}"
    );
}

/// rocminfo's numbers are HSA statuses by hsa.h's values, not text to match: 4104 is
/// HSA_STATUS_ERROR_OUT_OF_RESOURCES (ROCm/legacy-rocm-build#415), `hsa_init failed with
/// 1008` the same in hex (ROCm/hip#3465's ROCclr log); a number that runs on is no status.
#[rstest]
#[case(
    "hsa api call failure at line 900, file: /home/jenkins/workspace/rocminfo/rocminfo.cc. Call returned 4104",
    Some("allocate")
)]
#[case(
    ":1:rocdevice.cpp            :478 : 7520451468 us: [pid:7786  tid:0x7f36df581440] hsa_init failed with 1008",
    Some("allocate")
)]
#[case("hsa api call failure at line 900. Call returned 41040", None)]
fn hsa_statuses_are_read_by_number(#[case] text: &str, #[case] operation: Option<&str>) {
    let (rules, gpu) = gpuctl_core::commands::explain::emitter_rules(Registry::discovered());
    let readings = gpuctl_core::commands::reading::read(text, &rules, &gpu);
    let hsa = readings.iter().find(|r| r.emitter == "hsa");
    assert_eq!(hsa.map(|r| r.operation.as_str()), operation, "{readings:?}");
}

/// With a host, the answer says what the host shows: KFD's ENOMEM names /dev's mount options
/// (ROCm/legacy-rocm-build#1185: /dev mounted noexec), and ffmpeg's node names its driver.
#[test]
fn the_host_shows_dev_s_mount_options_and_the_node_s_driver() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    let write = |p: &str, s: &str| {
        let path = root.join(p.trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new("/")))
            .and_then(|()| std::fs::write(&path, s))
            .unwrap_or_else(|e| panic!("{p}: {e}"));
    };
    write(
        "/proc/mounts",
        "sysfs /sys sysfs rw 0 0\ndevtmpfs /dev devtmpfs rw,nosuid,noexec,relatime 0 0\n",
    );
    std::fs::create_dir_all(root.join("sys/bus/pci/drivers/nvidia"))
        .and_then(|()| std::fs::create_dir_all(root.join("sys/class/drm/renderD128/device")))
        .and_then(|()| {
            std::os::unix::fs::symlink(
                "../../../../bus/pci/drivers/nvidia",
                root.join("sys/class/drm/renderD128/device/driver"),
            )
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let host = Host::at(root).unwrap_or_else(|e| panic!("{e}"));
    let probe = Probe::new(&host, &[], None);
    let details = |text: &str| {
        explain(text, Registry::discovered(), Some(&probe))
            .map(|e| e.details.join("\n"))
            .unwrap_or_default()
    };
    // ROCm/legacy-rocm-build#1185's line; jellyfin/jellyfin#10979's two lines.
    for (text, fact) in [
        (
            "Unable to open /dev/kfd read-write: Cannot allocate memory",
            "this host mounts /dev with rw,nosuid,noexec,relatime (noexec",
        ),
        (
            "[Issue]: Failed to initialise VAAPI connection: -1 (unknown libva error)\n[AVHWDeviceContext @ 0x5654baa73080] Opened DRM device /dev/dri/renderD128: driver nvidia-drm version 0.0.0.",
            "/dev/dri/renderD128 is driven by the kernel driver nvidia",
        ),
    ] {
        let said = details(text);
        assert!(said.contains(fact), "{text}: {said}");
    }
}
