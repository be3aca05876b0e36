//! issue 31, round 2: the NVIDIA stack read by class. NVML's return codes (`nvmlReturn_t`),
//! CUDA's errors (`cudaError_t` / `CUresult`, by name, message or number), the toolkit's
//! binaries (nvidia-container-cli, nvidia-ctk, the runtime binary an engine executes), each on
//! real texts from public threads the project did not cite before (owner/repo#N beside each);
//! the look-alikes that share their words but not their cause; and the host telling a CUDA
//! build on another vendor's GPU from a container not given its GPU.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use gpuctl_testkit::Tree;

#[path = "support/explain.rs"]
mod support;
use rstest::rstest;
use support::{cause, explain_on, read};

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

/// Real texts, each read by its emitter's rule as `gpu-structured`, and the word of the cause
/// its thread gives.
#[rstest]
// NVIDIA/k8s-device-plugin#1683 (MIG, MIG_STRATEGY=single; the plugin not given the MIG nodes)
#[case(
    "nvml",
    "open",
    "nvidia-caps",
    "E0407 94 main.go:188] error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: error building device map: error building device map from config.resources: error building MIG device map: error visiting devices: error visiting device: error visiting device: error visiting MIG device: error visiting MIG device: error getting MIG profile for MIG device at index '(0, 0)': error getting parent memory info: Insufficient Permissions"
)]
// NVIDIA/nvidia-container-toolkit#1740 (non-privileged plugin, MIG_STRATEGY=mixed)
#[case(
    "nvml",
    "open",
    "MIG",
    "error getting device memory info: Insufficient Permissions"
)]
// NVIDIA/nvidia-container-toolkit#842 (pynvml in a container given a MIG device)
#[case(
    "nvml",
    "open",
    "MIG",
    "    raise NVMLError(ret)\npynvml.NVMLError_NoPermission: Insufficient Permissions"
)]
// pytorch/pytorch#35710 (an NVSwitch system without nvidia-fabricmanager)
#[case(
    "cuda",
    "initialise",
    "fabric manager",
    "RuntimeError: cuda runtime error (802) : system not yet initialized at /opt/conda/conda-bld/pytorch_1579022034529/work/aten/src/THC/THCGeneral.cpp:50"
)]
// pytorch/pytorch#35710 (the CUDA sample's own output)
#[case(
    "cuda",
    "initialise",
    "fabric manager",
    "Running on...\n\ncudaGetDeviceProperties returned 802\n-> system not yet initialized"
)]
// microsoft/lisa#2823 (an ND96asr_v4, A100 with NVSwitch)
#[case(
    "cuda",
    "initialise",
    "fabric manager",
    "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized (Triggered internally at  ../c10/cuda/CUDAFunctions.cpp:112.)"
)]
// wilicc/gpu-burn#133 (NVSwitch: fabric manager)
#[case(
    "cuda",
    "initialise",
    "fabric manager",
    "Couldn't init CUDA: Error (gpu_burn-drv.cpp:304): system not yet initialized"
)]
// numba/numba#7187
#[case(
    "cuda",
    "initialise",
    "fabric manager",
    "cuda can't init [802] Call to cuInit results in UNKNOWN_CUDA_ERROR"
)]
// AIR-DISCOVER/ICRA2024-Sim2Real-AXS#5 ("fixed by updating the driver")
#[case(
    "cuda",
    "match-version",
    "host driver",
    "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW"
)]
// microsoft/onnxruntime#21435 (the maintainer: update the driver)
#[case(
    "cuda",
    "match-version",
    "host driver",
    "CUDA failure 804: forward compatibility was attempted on non supported HW"
)]
// Azure/AKS#4870 (A10 vGPU nodes gone unlicensed)
#[case(
    "cuda",
    "initialise",
    "licence",
    "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."
)]
// NVIDIA/open-gpu-kernel-modules#387 (a GPU falling off the bus; fixed by reseating it)
#[case(
    "nvml",
    "find-device",
    "did not come up",
    "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error"
)]
// NVIDIA/nvidia-docker#1553 (a failed GPU)
#[case(
    "nvml",
    "find-device",
    "did not come up",
    "$ nvidia-smi -a -i 0\nUnable to determine the device handle for GPU 0000:09:00.0: Unknown Error"
)]
// jamesstringer90/Easy-GPU-PV#276 (a GPU-PV guest)
#[case(
    "nvml",
    "find-device",
    "did not come up",
    "Found 2 NVIDIA devices\nError: nvmlDeviceGetHandleByIndex(): Unknown Error\nFAILED to get details on GPU (0x1): Unknown Error"
)]
// NVIDIA/nvidia-docker#1280 (nvidia-smi on the host shows the GPU as ERR!)
#[case(
    "nvml",
    "find-device",
    "did not come up",
    "docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: detection error: nvml error: unknown error: unknown."
)]
// NVIDIA/nvidia-container-runtime#123 (Jetson Xavier: l4t.csv names /dev/nvidiactl)
#[case(
    "nvidia-container-cli",
    "stat",
    "Jetson",
    "nvidia-container-cli: mount error: stat failed: /dev/nvidiactl: no such file or directory"
)]
// NVIDIA/nvidia-container-toolkit#274 (Jetson: an x86-style TensorRT image shipping cuDNN)
#[case(
    "nvidia-container-cli",
    "mount",
    "Jetson",
    "docker: Error response from daemon: failed to create shim: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook NVIDIA/nvidia-docker#1:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/63a5dc0a46e4f12d052b60007e09f18b5bb773903c054915cf6f843392531b40/merged/usr/lib/aarch64-linux-gnu/libcudnn_adv_infer_static_v8.a: file exists: unknown."
)]
// NVIDIA/nvidia-container-toolkit#154 (config.toml's root = "/run/nvidia/driver")
#[case(
    "nvidia-container-cli",
    "load-library",
    "/run/nvidia/driver",
    "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown."
)]
// NVIDIA/nvidia-docker#1648 (Xid 119 on the host while containers fail to start)
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP firmware",
    "[Mon Mar  6 21:34:31 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=977823, name=nvidia-smi, Timeout waiting for RPC from GSP! Expected function 76 (GSP_RM_CONTROL) (0x2080014b 0x5)."
)]
// stas00/ml-engineering, compute/accelerator/nvidia/debug.md (a row remapping pending a reset)
#[case(
    "nvidia-kernel-module",
    "allocate",
    "reset",
    "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate."
)]
// gist kohsuke/84ce815d0a8ad85ecaf6 (the micro-controller halt after class errors)
#[case(
    "nvidia-kernel-module",
    "initialise",
    "micro-controller",
    "Dec 23 23:32:27 rescue kernel: [ 270.439207] NVRM: Xid (PCI:0000:01:00): 62, 0096(1c54) 00000000 00000000"
)]
// NVIDIA/gpu-operator#628 (nvidia-smi -q in the operator's driver container)
#[case(
    "nvidia-smi",
    "allocate",
    "licence",
    "    vGPU Software Licensed Product\n        Product Name                      : NVIDIA Virtual Compute Server\n        License Status                    : Unlicensed (Restricted)"
)]
fn real_texts_are_read_by_their_emitter(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_eq!(
        read(text),
        (Some("gpu-structured"), Some(emitter), Some(operation)),
        "{text}"
    );
    let cause = cause(text);
    assert!(cause.contains(word), "{word}: {cause}");
}

/// Each class's own strings, as NVIDIA's references give them (nvml.h's `nvmlReturn_t`,
/// go-nvml's and pynvml's names; the CUDA Runtime and Driver API's names and numbers).
#[rstest]
#[case(
    "nvml",
    "initialise",
    "Failed to initialize NVML: GPU access blocked by the operating system"
)]
#[case(
    "nvml",
    "initialise",
    "pynvml.NVMLError_OperatingSystem: GPU access blocked by the operating system"
)]
#[case(
    "nvml",
    "initialise",
    "nvidia-container-cli: initialization error: nvml error: unknown error"
)]
#[case("nvml", "initialise", "failed to initialize NVML: ERROR_UNKNOWN")]
#[case("nvml", "initialise", "error resetting GPU: ERROR_RESET_REQUIRED")]
#[case("nvml", "allocate", "failed to enable MIG mode: ERROR_IN_USE")]
#[case(
    "nvml",
    "find-device",
    "error creating nvml.Device 1: nvml: Unknown Error"
)]
#[case("nvml", "find-device", "pynvml.NVMLError_GpuIsLost: GPU is lost")]
#[case(
    "nvml",
    "initialise",
    "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded"
)]
#[case(
    "cuda",
    "initialise",
    "failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized"
)]
#[case(
    "cuda",
    "initialise",
    "CUDA error at x.cu:256 code=802(cudaErrorSystemNotReady)"
)]
#[case(
    "cuda",
    "initialise",
    "failed call to cuInit: CUDA_ERROR_DEVICE_NOT_LICENSED"
)]
#[case(
    "cuda",
    "initialise",
    "cudaGetDeviceCount returned 46 -> all CUDA-capable devices are busy or unavailable"
)]
#[case(
    "cuda",
    "initialise",
    "CUDA error: OS call failed or operation not supported on this OS"
)]
#[case(
    "cuda",
    "initialise",
    "failed call to cuInit: CUDA_ERROR_NOT_INITIALIZED: initialization error"
)]
#[case("cuda", "match-version", "cudaGetDeviceCount returned 803")]
#[case("cuda", "match-version", "CUDA error: 804")]
#[case(
    "docker",
    "find-runtime",
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: exec: \"nvidia-container-runtime\": executable file not found in $PATH: unknown."
)]
fn each_class_reads_its_own_strings(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] text: &str,
) {
    let (_, got_emitter, got_operation) = read(text);
    assert_eq!(
        (got_emitter, got_operation),
        (Some(emitter), Some(operation)),
        "{text}"
    );
}

/// Look-alikes: texts sharing words with a new class but not its cause stay unclaimed (exit 1),
/// or keep the family that names their own cause.
#[rstest]
// A permission error of no GPU's (no NVML, no MIG, no device).
#[case("Error: error getting bucket policy: Insufficient Permissions")]
// A service of no GPU's that is not ready.
#[case("Error: system not yet initialized, retry later")]
// Numbers CUDA uses, on lines that name no CUDA.
#[case("HTTP Error 804 from upstream")]
#[case("the request returned 802 bytes")]
// A USB device's handle, not a GPU's.
#[case("libusb: error [get_device_handle] failed to get device handle: Unknown Error")]
// Another runtime's binary.
#[case(
    "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: exec: \"runsc\": executable file not found in $PATH: unknown."
)]
// The workload running out of GPU memory: no misconfiguration of the stack.
#[case(
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.20 GiB is free."
)]
#[case("RuntimeError: CUDA error: out of memory")]
// A Python ImportError of a CUDA wheel's library: the image's, not the stack's.
#[case("ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory")]
#[case("OSError: libcublas.so.12: cannot open shared object file: No such file or directory")]
fn look_alikes_are_not_claimed(#[case] text: &str) {
    assert_eq!(read(text).0, None, "{text}");
}

/// An application's own Xid (13 graphics engine exception, 31 memory page fault) is no fault
/// of the GPU's: no Xid rule reads it as the cause (it stays "not recognised" at most).
#[rstest]
#[case(
    "NVRM: Xid (PCI:0000:3b:00): 31, pid=1234, name=python, Ch 00000008, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f_ee000000. Fault is of type FAULT_PDE ACCESS_TYPE_READ"
)]
#[case(
    "NVRM: Xid (PCI:0000:01:00): 13, Graphics SM Warp Exception on (GPC 0, TPC 0): Out Of Range Address"
)]
// A licence of no vGPU's.
#[case("License Status: Unlicensed")]
fn application_xids_are_not_read_as_the_gpus(#[case] text: &str) {
    assert_ne!(read(text).0, Some("gpu-structured"), "{text}");
}

/// A MIG device named in the form older drivers used keeps the hook's unknown-device family,
/// which names that form (NVIDIA/nvidia-container-toolkit#203).
#[test]
fn an_old_mig_device_name_is_the_unknown_device_family() {
    let text = "nvidia-container-cli.real: device error: MIG-GPU-932bfb2c-849a-2a22-1e84-9eff6bc02b39/1/0: unknown device";
    let e = explain(text, Registry::discovered(), None);
    assert_eq!(
        e.as_ref().map(|e| e.family.as_str()),
        Some("nvidia-hook-unknown-device")
    );
    assert!(e.is_some_and(|e| e.diagnosis.contains("MIG-<uuid>")));
}

/// The legacy hook's own binary missing stays the hook's family, not the runtime binary's
/// reading: the quote after the name is part of the shape.
#[test]
fn the_hook_binary_is_not_the_runtime_binary() {
    let text = r#"docker: Error response from daemon: OCI runtime create failed: exec: "nvidia-container-runtime-hook": executable file not found in $PATH: unknown."#;
    assert_eq!(read(text).0, Some("nvidia-legacy-hook"));
}

/// The host decides between the two causes of PyTorch's "Found no NVIDIA driver": a host with
/// an AMD GPU and no NVIDIA one runs a CUDA build on the wrong GPU (NVIDIA/k8s-device-plugin#812);
/// a host with an NVIDIA GPU did not give it to the container.
#[test]
fn the_host_tells_a_cuda_build_on_an_amd_host() {
    let text = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n";
    let amd = Tree::new();
    amd.pci("0000:03:00.0", 0x1002, 0x744c, 0x030000);
    let out = explain_on(amd.root(), text);
    assert!(out.contains("AMD GPUs and no NVIDIA one"), "{out}");
    let nvidia = Tree::new();
    nvidia.pci("0000:01:00.0", 0x10de, 0x2684, 0x030000);
    let out = explain_on(nvidia.root(), text);
    assert!(out.contains("the container was not given it"), "{out}");
    assert!(!out.contains("AMD GPUs and no NVIDIA one"), "{out}");
}

/// The hook's load-library failure with config.toml's root set to a driver container's tree
/// that is not there (NVIDIA/nvidia-docker#1711): the host says where the hook looked.
#[test]
fn the_host_names_the_driver_root_the_hook_was_given() {
    let t = Tree::new();
    t.file(
        "/etc/nvidia-container-runtime/config.toml",
        "[nvidia-container-cli]\nldconfig = \"@/sbin/ldconfig.real\"\nroot = \"/run/nvidia/driver\"\n",
    );
    let out = explain_on(
        t.root(),
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1\n",
    );
    assert!(
        out.contains("root = \"/run/nvidia/driver\"") && out.contains("has no /run/nvidia/driver"),
        "{out}"
    );
}
