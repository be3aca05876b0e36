//! Issue 31, round 4: the NVIDIA stack's emitters read by enumeration from their own sources.
//! Every failure string a user sees from libnvidia-container, NVML, CUDA, the container
//! toolkit's binaries, the Kubernetes components, nvidia-smi, the kernel module, the
//! persistence daemon and the fabric manager, composed as it reaches the user (the runtime's
//! wrapper, kubectl's, a traceback's), with the emitter, operation and a word of the cause the
//! code around the string gives; one module per emitter group, each row citing the source file
//! of its string. These are texts composed from source, not collected ones: their figure is on
//! strings read, not a held-out one (docs/explain.md, "Held-out protocol").
//!
//! The look-alikes below share the new rules' words but not their cause (another API's status,
//! a non-GPU mount or config, an application's own CUDA error, another module) and stay
//! unclaimed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use gpuctl_testkit::Tree;

#[path = "support/explain.rs"]
mod support;
use rstest::rstest;
pub(crate) use support::{assert_read_by_emitter, explain_on, read};

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "explain_round4_nvidia/cli.rs"]
mod cli;
#[path = "explain_round4_nvidia/cli_mount.rs"]
mod cli_mount;
#[path = "explain_round4_nvidia/cuda.rs"]
mod cuda;
#[path = "explain_round4_nvidia/driver.rs"]
mod driver;
#[path = "explain_round4_nvidia/k8s.rs"]
mod k8s;
#[path = "explain_round4_nvidia/nvml.rs"]
mod nvml;
#[path = "explain_round4_nvidia/toolkit.rs"]
mod toolkit;

/// The diagnosis, whichever answer gives it.
pub(crate) fn diagnosis(text: &str) -> String {
    explain(text, Registry::discovered(), None)
        .map(|e| e.diagnosis)
        .unwrap_or_default()
}

/// Made-up look-alikes that share the words of a round-4 rule but not its cause.
#[rstest]
// A hook that is not NVIDIA's, with libnvidia-container's errno words.
#[case(
    "runc: error running hook #0: error running hook: exit status 1, stdout: , stderr: /usr/local/bin/my-hook: mount error: permission denied"
)]
#[case("mount error: file creation failed: /mnt/data/out.txt: read-only file system")]
// go-nvml's bare ERROR_<NAME> belongs to another API without a word of NVML's subject.
#[case("S3 GetObject: ERROR_NOT_FOUND (no such key)")]
#[case("grpc dial: ERROR_TIMEOUT after 30s")]
#[case("ERROR_NOT_FOUND: the requested object was not found in the bucket")]
// A pull of an NVIDIA image is no GPU failure.
#[case("error: Not Found (HTTP 404) while pulling nvidia/cuda:12.4.0-base-ubuntu22.04")]
// The workload's own CUDA errors (out of memory, a bad address, an assert).
#[case("RuntimeError: CUDA error: out of memory")]
#[case("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")]
#[case("RuntimeError: CUDA error: an illegal memory access was encountered")]
#[case("RuntimeError: CUDA error: device-side assert triggered")]
// Another module's modprobe and Secure Boot refusal.
#[case("modprobe: FATAL: Module vboxdrv not found in directory /lib/modules/6.8.0-45-generic")]
#[case("modprobe: ERROR: could not insert 'wireguard': Key was rejected by service")]
// Another program's plug-in and config errors.
#[case(
    "Failed to start plugin: unable to load config: open /etc/foo/config.yaml: no such file or directory"
)]
#[case(
    "level=error msg=\"error loading config: open /etc/containerd/config.toml: no such file or directory\""
)]
#[case("XidCriticalError: lorem ipsum")]
#[case("requirement error: invalid expression in package.json")]
#[case("error running pivot_root: operation not permitted")]
#[case("Timeout waiting for database connection")]
#[case("failed to get device count: usb: no devices")]
#[case("the build toolkit is not ready yet, retrying")]
#[case("driver is not ready: waiting for the printer driver")]
#[case("the fabric manager of the warehouse failed to start the line")]
#[case("operation not permitted")]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    assert_eq!(read(text).0, None, "{text}");
}

/// CUDA's `CUDA_ERROR_NOT_FOUND` (a program's missing symbol) and `CUDA_ERROR_NOT_SUPPORTED`
/// are no NVML status, though go-nvml's `ERROR_NOT_FOUND` / `ERROR_NOT_SUPPORTED` are inside
/// them.
#[rstest]
#[case("cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND for device 0")]
#[case("CUDA_ERROR_NOT_SUPPORTED on device 0")]
fn another_api_s_status_is_not_nvml_s(#[case] text: &str) {
    assert_ne!(read(text).1, Some("nvml"), "{text}");
}

/// A CUDA binary without code for the GPU's architecture is the image's build (its packaging,
/// corpus 162): read and said, but not claimed as the GPU stack's (CUDA Runtime API reference,
/// cudaErrorNoKernelImageForDevice; Driver API CUDA_ERROR_NO_BINARY_FOR_GPU).
#[rstest]
#[case("RuntimeError: CUDA error: no kernel image is available for execution on the device")]
#[case("cuModuleLoad failed: CUDA_ERROR_NO_BINARY_FOR_GPU")]
fn the_image_s_build_is_not_claimed(#[case] text: &str) {
    assert_eq!(read(text).0, None, "{text}");
    let why = gpuctl_core::commands::explain::not_claimed_because(text, Registry::discovered());
    assert!(
        why.is_some_and(|w| w.contains("image's packaging")),
        "{text}"
    );
}

/// A decisive line wins over a specific family's elsewhere in the text, and the family's line
/// is said beside it: the hook's generic failure with the kernel module's GSP failure after it.
#[test]
fn the_kernel_s_reason_wins_over_the_hook_s_wrapper() {
    let text = "nvidia-container-cli: detection error: nvml error: unknown error\nNVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0x40:2565)\n";
    assert_eq!(
        read(text),
        (
            Some("gpu-structured"),
            Some("nvidia-kernel-module"),
            Some("initialise")
        )
    );
}

/// A line whose stage names no reason the code tells (ldconfig killed by a signal: an rlimit,
/// a seccomp filter or the OOM killer) stays the generic hook family's.
#[test]
fn a_signal_kill_stays_generic() {
    let text =
        "nvidia-container-cli: ldcache error: process /sbin/ldconfig terminated with signal 9\n";
    assert_eq!(read(text).0, Some("nvidia-legacy-hook"));
}

/// The hook could not enter its driver root: the host says which root config.toml names and
/// whether it is there (src/driver.c `change root failed`).
#[test]
fn the_host_names_the_root_the_hook_could_not_enter() {
    let t = Tree::new();
    t.file(
        "/etc/nvidia-container-runtime/config.toml",
        "[nvidia-container-cli]\nroot = \"/run/nvidia/driver\"\n",
    );
    let out = explain_on(
        t.root(),
        "nvidia-container-cli: initialization error: change root failed: no such file or directory\n",
    );
    assert!(
        out.contains("root = \"/run/nvidia/driver\"") && out.contains("has no /run/nvidia/driver"),
        "{out}"
    );
}
