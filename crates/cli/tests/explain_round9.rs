//! Issue 31, round 9: what the held-out sets P and Q and round 8's known misses showed explain
//! reading wrongly or not at all, fixed as classes. Lines are composed from each emitter's own
//! format string (named beside it), not copied from the threads; the look-alikes share the
//! rules' words and are not the GPU stack's.

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::{assert_names, assert_read_by_emitter, read};

#[rstest]
// the kernel's crash line for libnvidia-container's driver service (show_signal_msg), then the
// hook's wrapper
#[case("nvidia-container-cli", "initialise", "crashed", "nvc:[driver][2211]: segfault at 0 ip 00007f3a1c2b4e10 sp 00007ffd0c1f2a80 error 4 in libnvidia-container.so.1.10.0[7f3a1c29a000+3a000]\nnvidia-container-cli: initialization error: driver error: failed to process request")]
// the audit record of its abnormal end (AUDIT_ANOM_ABEND)
#[case("nvidia-container-cli", "initialise", "meta-tegra", "audit: type=1701 audit(1700000000.100:12): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=512 comm=\"nvc:[driver]\" exe=\"/usr/bin/nvidia-container-cli\" sig=11 res=1\nstderr: nvidia-container-cli: initialization error: driver error: failed to process request: unknown")]
// Mesa's loader refusing two builds as a pair (src/glx/dri_common.c)
#[case("mesa-loader", "match-version", "half-updated", "libGL error: DRI driver not from this Mesa build ('24.0.5-1ubuntu1' vs '23.2.1-1ubuntu3')\nlibGL error: failed to load driver: iris")]
// containerd's CRI plugin wrapping the CDI library's error
#[case("cdi", "find-device", "daemonset", "Warning  Failed  kubelet  Error: failed to create containerd container: CDI device injection failed: unresolvable CDI devices amd.com/gpu=0")]
// slurmd on a gres.conf File= the node lacks (gres.c)
#[case("slurmd", "stat", "gres.conf", "slurmd: error: Waiting for gres.conf file /dev/nvidia3\nslurmd: fatal: can't stat gres.conf file /dev/nvidia3: No such file or directory")]
// slurmd on AutoDetect plus explicit lines
#[case("slurmd", "allocate", "autodetect", "slurmd[2001]: fatal: gres.conf duplicate records for gpu")]
// slurmctld on a core list past the node's cores
#[case("slurmctld", "match-version", "hardware-thread", "[2024-01-10T10:00:00.000] error: _node_config_validate: gres/gpu: invalid GRES core specification (64-127) on node gpu07")]
// OptiX's optixInit without the driver's OptiX library
#[case("optix", "load-library", "graphics", "[OptiX] optixInit() failed: OPTIX_ERROR_LIBRARY_NOT_FOUND (7801)")]
// the Video Codec SDK's helper (NvEncoder.cpp)
#[case("nvenc", "initialise", "video", "NvEncoder : m_nvenc.nvEncOpenEncodeSessionEx(&encodeSessionExParams, &hEncoder) returned error 2 at NvEncoder.cpp:69")]
// kmod's modprobe on a UVM module that is not installed
#[case("nvidia-kernel-module", "load-library", "nvidia-nnn-uvm", "modprobe: FATAL: could not find module by name='nvidia_550_uvm'\ncudaGetDeviceCount returned 999\n-> unknown error")]
// deviceQuery alone
#[case("cuda", "initialise", "nvidia_uvm", "./deviceQuery Starting...\ncudaGetDeviceCount returned 30\n-> unknown error\nResult = FAIL")]
// nccl-tests' CUDACHECK
#[case("cuda", "initialise", "nvidia-uvm", "node1: Test CUDA failure common.cu:891 'unknown error'")]
// nvidia-ctk's CDI generator missing a driver library
#[case("nvidia-ctk", "stat", "wsl", "time=\"2025-05-01T10:00:00Z\" level=warning msg=\"Could not locate libdxcore.so: pattern libdxcore.so not found\"")]
// a module load refused under Secure Boot
#[case("nvidia-kernel-module", "load-library", "secure boot", "Loading NVIDIA driver kernel modules...\nmodprobe: ERROR: could not insert 'nvidia': Key was rejected by service")]
#[case("nvidia-kernel-module", "load-library", "cap_sys_module", "Kernel module load error: Operation not permitted")]
// libnvidia-container's driver service error pasted without its prefix
#[case("nvidia-container-cli", "initialise", "persistence", "driver rpc error: failed to process request: unknown.")]
// the driver's probe finding another kernel driver on the GPU (nv-pci.c)
#[case("nvidia-kernel-module", "open", "nova_core", "[  12.100000] NVRM: GPU 0000:41:00.0 is already bound to nouveau.\n[  12.100200] NVRM: No NVIDIA devices probed.")]
// the module's source against a newer kernel (DKMS's make.log)
#[case("nvidia-kernel-module", "install", "older than the kernel", "/var/lib/dkms/nvidia/570.86.16/build/nvidia-drm/nvidia-drm-drv.c:412:5: error: implicit declaration of function 'drm_fbdev_generic_setup'")]
// the GPU operator's driver container on a host with its own driver
#[case("nvidia-driver-container", "install", "fabricmanager", "Unloading NVIDIA driver kernel modules...\nCould not unload NVIDIA driver kernel modules, driver is in use")]
// an application's own NVENC API check, in FFmpeg's manner
#[case("nvenc", "match-version", "570", "NVENC (hevc_nvenc): unavailable\nRequired: NVENC API 13.0\nFound: 12.2\nMinimum required Nvidia driver is 570.0 or newer")]
// CUDA's invalid image
#[case("cuda", "match-version", "550", "CUDA error: device kernel image is invalid\n  current device: 0, in function ggml_cuda_op_mul_mat")]
// a CUDA driver function the host's libcuda lacks
#[case("dynamic-loader", "match-version", "older than the cuda", "python3: symbol lookup error: /usr/local/lib/libshare.so: undefined symbol: cuMemAllocAsync")]
// an engine that runs the legacy CLI itself
#[case("docker", "find-runtime", "/usr/local/nvidia/toolkit", "FATA[0000] exec: \"nvidia-container-cli\": executable file not found in $PATH")]
// KubeVirt's admission of a GPU the CR does not permit
#[case("kubevirt", "allocate", "permittedhostdevices", "admission webhook \"virtualmachine-validator.kubevirt.io\" denied the request: spec.template.spec.domain.devices.gpus: GPU nvidia.com/GA102GL_A10 is not permitted in permittedHostDevices configuration")]
// ld on a placeholder CUDA library of a Jetson image
#[case("linker", "load-library", "default runtime", "FROM nvcr.io/nvidia/l4t-base:r32.7.1\n/usr/bin/ld: /usr/lib/aarch64-linux-gnu/libcublas.so: file not recognized: File truncated")]
// libva's driver linked against another gmmlib
#[case("vaapi", "match-version", "gmmlib", "libva error: dlopen of /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so failed: /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so: undefined symbol: _ZN6GmmLib16GmmClientContext6CreateEv")]
// libva's driver of the other word size
#[case("vaapi", "load-library", "32-bit", "libva: dlopen of /usr/lib/dri/radeonsi_drv_video.so failed: /usr/lib/dri/radeonsi_drv_video.so: wrong ELF class: ELFCLASS32")]
// LIBVA_DRIVER_NAME=i965 beside a failure
#[case("vaapi", "match-version", "ihd", "libva info: User environment variable requested driver 'i965'\nlibva info: Trying to open /usr/lib/x86_64-linux-gnu/dri/i965_drv_video.so\nvaPutSurface failed")]
// FFmpeg's VA-API encoder on the encoder's own failure
#[case("vaapi", "initialise", "huc", "[hevc_vaapi @ 0x5581] Failed to map output buffers: 24 (internal encoding error).")]
// libdrm the image lacks
#[case("dynamic-loader", "load-library", "libdrm", "Fail to open libdrm_amdgpu.so: libdrm_amdgpu.so: cannot open shared object file: No such file or directory")]
// the thunk refused by KFD
#[case("hsa", "match-version", "libhsakmt", "acquiring VM for 86f3 using 5\nAMDKFD_IOC_ACQUIRE_VM failed\nhsa api call failure at line 896")]
// librocdxg older than ROCm under WSL
#[case("hsa", "match-version", "librocdxg", "WSL environment detected.\nGetExportAddress failed: /lib/librocdxg.so: undefined symbol: hsaKmtCreateQueueV2")]
// set T's: an NGC image's start-up banner
#[case("cuda", "match-version", "forward compatibility", "ERROR: This container was built for NVIDIA Driver Release 550.54 or later, but\n       version 535.104.05 was detected and compatibility mode is UNAVAILABLE.")]
// the vGPU guest driver's Xid 78
#[case("nvidia-kernel-module", "match-version", "vgpu", "[   5.1] NVRM: Xid (PCI:0000:00:05): 78, pid=1, name=modprobe, Guest driver is incompatible with host driver")]
// nvidia-docker 1.0 on a newer engine
#[case("nvidia-docker", "match-version", "container toolkit", "nvidia-docker | 2017/03/01 10:00:00 Error: unsupported Docker version")]
// a program that dlopens the unversioned NVML name
#[case("dynamic-loader", "load-library", "-dev packages", "Error: LibloadingError(DlOpen { desc: \"libnvidia-ml.so: cannot open shared object file: No such file or directory\" })")]
// an amd64 image beside the NVIDIA runtime on an arm64 host
#[case("docker", "match-version", "jetson", "WARNING: The requested image's platform (linux/amd64) does not match the detected host platform (linux/arm64/v8) and no specific platform was requested\ndocker: Error response from daemon: OCI runtime create failed: Running hook #1:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error")]
// the device plug-in's MIG map
#[case("device-plugin", "allocate", "mixed", "E0401 23:26:48.266274       1 main.go:123] error starting plugins: error getting plugins: failed to construct NVML resource managers: error building device map: error building device map from config.resources: invalid MIG configuration")]
// the legacy CLI on an option the hook passes
#[case("nvidia-container-cli", "match-version", "without the other", "stderr: nvidia-container-cli: unrecognized option '--display'\nTry `nvidia-container-cli --help' for more information.")]
// Compose's devices under limits
#[case("docker-compose", "allocate", "reservations", "services.api.deploy.resources.limits Additional property devices is not allowed")]
// slurmd asked to autodetect through a library it lacks
#[case("slurmd", "load-library", "nvml", "slurmd: fatal: We were configured to autodetect nvml functionality, but we weren't able to find that lib when Slurm was configured.")]
// slurmctld draining a node with fewer GPUs
#[case("slurmctld", "allocate", "mig", "slurmctld: error: Setting node gpu3 state to INVAL with reason:gres/gpu count reported lower than configured (3 < 4)")]
// Singularity's writable container without the driver's programs
#[case("singularity", "mount", "by design", "$ singularity shell --nv --writable ubuntu.sandbox\nWARNING: NVIDIA binaries may not be bound with --writable\nSingularity ubuntu.sandbox:~> nvidia-smi\nbash: nvidia-smi: command not found")]
// Apptainer's --nvccli against a writable overlay
#[case("singularity", "mount", "writable-tmpfs", "INFO:    Setting --writable-tmpfs (required by nvidia-container-cli)\nFATAL:   while loading overlay images: you can't specify --writable-tmpfs with another writable overlay image (/data/overlay.img)")]
#[rustfmt::skip]
fn round9_classes(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

#[rstest]
// another program's crash in the kernel's words: no GPU component
#[case(
    "python3[4411]: segfault at 8 ip 00007f00aa01 sp 00007ffc error 4 in libpython3.11.so.1.0[7f00a9e00000+2d0000]"
)]
// an audit record of a shell's abnormal end
#[case(
    "audit: type=1701 audit(1700000000.100:12): auid=1000 uid=1000 gid=1000 ses=3 pid=900 comm=\"bash\" exe=\"/usr/bin/bash\" sig=11 res=1"
)]
// Slurm's duplicate records of a GRES that is no GPU
#[case("slurmd[2001]: fatal: gres.conf duplicate records for nic")]
// an x86 image on an arm64 host, whatever runtime started it
#[case(
    "docker run --rm --runtime=nvidia nvidia/cuda\nstandard_init_linux.go:211: exec user process caused \"exec format error\""
)]
// musl's loader on a glibc program that links NVML
#[case(
    "Error relocating /bin/nomad: nvmlDeviceGetUUID: symbol not found\nError relocating /bin/nomad: nvmlInit_v2: symbol not found"
)]
// a pull that filled the disk, whatever image it was
#[case(
    "failed to register layer: ApplyLayer exit status 1 stdout:  stderr: write /opt/rocm-6.1.0/lib/libMIOpen.so: no space left on device"
)]
// apt refusing a GPU vendor's repository whose key expired
#[case(
    "W: GPG error: https://repo.radeon.com/rocm/apt/5.4 jammy InRelease: The following signatures were invalid: EXPKEYSIG 9386B48A1A693C5C ROCm\nE: The repository 'https://repo.radeon.com/rocm/apt/5.4 jammy InRelease' is not signed."
)]
// a Python module a GPU tool needs that the image lacks
#[case("root@host:~# amd-smi\nModuleNotFoundError: No module named 'yaml'")]
// FFmpeg's filter graph on VA-API frames: the program's filter order
#[case(
    "Impossible to convert between the formats supported by the filter 'Parsed_hwupload_1' and the filter 'auto_scaler_0'\nError reinitializing filters!\nConversion failed!"
)]
// amdgpu's optional trusted-application firmware
#[case(
    "[    3.35] amdgpu 0000:19:00.0: Direct firmware load for amdgpu/vega20_ta.bin failed with error -2\n[    3.35] amdgpu 0000:19:00.0: psp v11.0: Failed to load firmware \"amdgpu/vega20_ta.bin\""
)]
// docker's platform warning with no GPU stack in the text
#[case(
    "WARNING: The requested image's platform (linux/amd64) does not match the detected host platform (linux/arm64/v8) and no specific platform was requested\nexec /bin/sh: exec format error"
)]
fn round9_look_alikes(#[case] text: &str) {
    assert!(
        explain(text, Registry::discovered(), None).is_none(),
        "claimed: {:?}",
        read(text)
    );
}

/// Widened causes: the reading the held-out threads gave is among them.
#[rstest]
#[case("RuntimeError: No HIP GPUs are available", "keep-groups")]
#[case("RuntimeError: No HIP GPUs are available", "docker desktop")]
#[case("error: 'hipErrorInvalidDevice'(101) at square.cpp:60", "video groups")]
#[case(
    "Driver not initialized: ZE_RESULT_ERROR_UNINITIALIZED",
    "loader is newer"
)]
#[case(
    "RuntimeError: Found no NVIDIA driver on your system.",
    "compute capability"
)]
#[case(
    "nvidia-container-cli: initialization error: nvcgo rpc error: timed out",
    "10-second"
)]
#[case(
    "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error",
    "fell off the bus"
)]
#[case(
    "modprobe: FATAL: Module nvidia-peermem not found in directory /lib/modules/6.8.0-1059-azure",
    "driver container"
)]
#[case("clinfo: error 1001 from clGetPlatformIDs", "6.8")]
#[case(
    "Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
    "force-deleted"
)]
#[case(
    "nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig: no such file or directory",
    "yocto"
)]
#[case(
    "libva error: va_getDriverName() failed with unknown libva error,driver_name=(null)",
    "libva 1.x"
)]
#[case("XPU device count is zero!", "library path")]
#[case("Initializing the hsa runtime failed.", "libhsakmt")]
#[case(
    "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
    "docker desktop"
)]
fn widened_causes(#[case] text: &str, #[case] word: &str) {
    assert_names(text, word);
}

/// nvidia-ctk's optional files on a host without the fabric manager or MPS are no failure: no
/// rule or reading blames them (the text is still answered, as it names GPU components).
#[test]
fn ctk_optional_files_are_no_failure() {
    let text = "WARN[0000] Could not locate /var/run/nvidia-fabricmanager/socket: pattern /var/run/nvidia-fabricmanager/socket not found\nWARN[0000] Could not locate /tmp/nvidia-mps: pattern /tmp/nvidia-mps not found\nINFO[0000] Using driver version 550.54.14";
    assert_ne!(read(text).0, Some("gpu-structured"));
}

/// amdgpu's optional firmware alone is said as harmless, not as the image's packaging.
#[test]
fn optional_firmware_is_said_as_harmless() {
    let text = "amdgpu 0000:19:00.0: Direct firmware load for amdgpu/vega20_ta.bin failed with error -2\namdgpu 0000:19:00.0: psp v11.0: Failed to load firmware \"amdgpu/vega20_ta.bin\"";
    let note = gpuctl_core::commands::explain::not_claimed_because(text, Registry::discovered())
        .unwrap_or_default();
    assert!(note.contains("harmless"), "{note}");
}
