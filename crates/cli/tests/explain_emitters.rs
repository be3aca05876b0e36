//! issue 31: real texts read by their emitter's rule (who failed, doing what, on what), the
//! look-alikes that share their words but not their cause, and a Kubernetes resource name that
//! is no CDI name; every workspace vendor registered, as `gpuctl explain` runs.

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

fn family(text: &str) -> Option<&'static str> {
    explain(text, Registry::discovered(), None).map(|e| e.family.as_str())
}

/// issue 31: texts read by their emitter's rule (who failed, doing what, on what): each is a
/// real text whose cause its line names, where a generic family (the legacy hook, a bare CDI
/// kind) or none answered before. The typed fields say which emitter and operation.
#[rstest]
// https://github.com/NVIDIA/nvidia-docker/issues/1246 (the driver service's own failure, not "no message names it")
#[case("nvidia-container-cli", "initialise", r#"running prestart hook 1 caused \\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: driver error: failed to process request\\\\n\\\"\""#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/260 (docker, runc wrapping the hook)
#[case(
    "nvidia-container-cli",
    "initialise",
    "docker: Error response from daemon: failed to create shim: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown."
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1269
#[case(
    "nvidia-container-cli",
    "initialise",
    "nvidia-container-cli: initialization error: nvml error: driver not loaded"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/150
#[case(
    "docker",
    "find-runtime",
    "docker: Error response from daemon: unknown or invalid runtime name: nvidia."
)]
// https://github.com/NVIDIA/nvidia-docker/issues/578 (docker before 20.10)
#[case(
    "docker",
    "find-runtime",
    "docker: Error response from daemon: Unknown runtime specified nvidia."
)]
// https://github.com/NVIDIA/k8s-device-plugin/issues/159 (its title: the scheduler's event)
#[case(
    "kube-scheduler",
    "allocate",
    "0/2 nodes are available: 2 Insufficient nvidia.com/gpu"
)]
// https://github.com/TinyLLaVA/TinyLLaVA_Factory/issues/134 (cuDNN loads, the driver's libcuda.so is missing)
#[case(
    "dynamic-loader",
    "load-library",
    "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory"
)]
// https://github.com/NVIDIA/libnvidia-container/issues/2 (the toolkit's own library, not the driver's)
#[case(
    "dynamic-loader",
    "load-library",
    "nvidia-container-cli: error while loading shared libraries: libnvidia-container.so.1: cannot open shared object file: No such file or directory"
)]
fn emitter_rules_read_what_families_did_not(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] text: &str,
) {
    let e = explain(text, Registry::discovered(), None);
    let e = e.as_ref();
    assert_eq!(
        e.map(|e| e.family.as_str()),
        Some("gpu-structured"),
        "{text}"
    );
    assert_eq!(e.and_then(|e| e.emitter), Some(emitter), "{text}");
    assert_eq!(
        e.and_then(|e| e.operation).map(|o| o.as_str()),
        Some(operation),
        "{text}"
    );
    assert!(
        e.and_then(|e| e.cause.as_deref())
            .is_some_and(|c| !c.is_empty()),
        "{text}"
    );
}

/// issue 31: look-alikes, texts that share words with a family or an emitter rule but not its
/// cause: a library the image must ship (cuDNN is no part of the driver), a resource or runtime
/// name that is no GPU's. They stay unclaimed (exit 1).
#[rstest]
// https://github.com/yeyupiaoling/Whisper-Finetune/issues/16 (cuDNN missing from the environment)
#[case(
    "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nPlease make sure libcudnn_ops_infer.so.8 is in your library path!\nAborted"
)]
// https://github.com/ContainerSolutions/runbooks/issues/82 (plain CPU and memory)
#[case("0/1 nodes are available: 1 insufficient cpu, 1 insufficient memory.")]
// https://github.com/awslabs/aws-virtual-gpu-device-plugin/issues/26 is a GPU's; a resource of
// no GPU vendor is not (the scheduler's own wording, kube-scheduler's NodeResourcesFit)
#[case("0/3 nodes are available: 3 Insufficient example.com/foo.")]
// moby's "unknown or invalid runtime name" for gVisor (its format string, daemon/runtime_unix.go)
#[case("docker: Error response from daemon: unknown or invalid runtime name: runsc.")]
// cudaGetErrorString's "no kernel image" is the image's build lacking the GPU's architecture:
// its packaging, said but not claimed (corpus 162, dusty-nv/jetson-containers#7)
#[case("CUDA error: no kernel image is available for execution on the device")]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    assert_eq!(family(text), None, "{text}");
}

/// issue 31: a Kubernetes extended resource name is not a CDI device name: the scheduler's
/// `Insufficient amd.com/gpu` is no `cdi-mention`.
#[test]
fn an_extended_resource_is_not_a_cdi_name() {
    let text = "0/3 nodes are available: 3 Insufficient amd.com/gpu.";
    let e = explain(text, Registry::discovered(), None);
    assert_eq!(
        e.as_ref().map(|e| e.family.as_str()),
        Some("gpu-structured")
    );
    assert_eq!(
        e.as_ref().and_then(|e| e.object.as_deref()),
        Some("amd.com/gpu")
    );
    assert!(e.is_some_and(|e| e.diagnosis.contains("extended resource name")));
}

/// Each vendor's emitters on their own error strings (cudaGetErrorString's, hipError's,
/// rocminfo's, the SYCL runtime's, ze_result_t names, nvmlErrorString's), as a program prints
/// them: constructed from those strings, not collected from a thread.
#[rstest]
#[case(
    "cuda",
    "match-version",
    "RuntimeError: CUDA error: forward compatibility was attempted on non supported HW"
)]
#[case(
    "cuda",
    "load-library",
    "cudaGetDeviceCount returned 34 -> CUDA driver is a stub library"
)]
#[case(
    "nvml",
    "find-device",
    "Unable to determine the device handle for GPU0000:01:00.0: GPU is lost.  Reboot the system to recover this GPU"
)]
#[case(
    "nvml",
    "allocate",
    "error creating GPU instance for 'gpu-2-mig-4g95gb-5-0': Insufficient Resources"
)]
#[case(
    "rocminfo",
    "initialise",
    "ROCk module is NOT loaded, possibly no GPU devices"
)]
#[case(
    "hip",
    "match-version",
    "RuntimeError: HIP error: invalid device function"
)]
#[case("ollama", "match-version", r#"level=WARN source=amd_linux.go:341 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100])" gpu_type=gfx1031 gpu=0"#)]
#[case(
    "sycl",
    "find-device",
    "terminate called after throwing an instance of 'sycl::_V1::runtime_error'\n  what():  No device of requested type available."
)]
#[case(
    "level-zero",
    "load-library",
    "zeInit failed: ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE"
)]
#[case("nvml", "find-device", "$ nvidia-smi\nNo devices were found")]
#[case(
    "amdgpu-kernel-module",
    "initialise",
    "[    3.021] kfd kfd: amdgpu: VERDE  not supported in kfd"
)]
#[case(
    "intel-kernel-module",
    "load-library",
    "i915 0000:00:02.0: [drm] *ERROR* GT0: GuC firmware i915/tgl_guc_70.bin: fetch failed with error -2"
)]
fn vendor_emitters_read_their_own_strings(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] text: &str,
) {
    let e = explain(text, Registry::discovered(), None);
    assert_eq!(e.as_ref().and_then(|e| e.emitter), Some(emitter), "{text}");
    let op = e.as_ref().and_then(|e| e.operation).map(|o| o.as_str());
    assert_eq!(op, Some(operation), "{text}");
}

/// Two readings that disagree are both said: a specific family keeps the text, and the line it
/// does not quote that names another reason is given beside it.
#[test]
fn a_reading_on_another_line_is_said_beside_the_family() {
    // NVIDIA/nvidia-container-toolkit#171's text, and a hook's line after it.
    let text = "Failed to initialize NVML: Driver/library version mismatch\nnvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown";
    let e = explain(text, Registry::discovered(), None);
    assert_eq!(
        e.as_ref().map(|e| e.family.as_str()),
        Some("nvidia-nvml-version-mismatch")
    );
    let details = e.map(|e| e.details).unwrap_or_default();
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("line 2 also reads: nvidia-container-cli")),
        "{details:?}"
    );
}
