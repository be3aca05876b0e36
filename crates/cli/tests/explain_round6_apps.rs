//! Issue 31, round 6 (applications): the lines the applications people run in GPU containers
//! print for the NVIDIA stack's failure, each composed from the format string the comment above
//! it names (the application's source). They are texts composed from source, so their figure
//! is on strings read, not a held-out one (docs/explain.md, "Held-out protocol").
//!
//! The look-alikes share the rules' words but not their cause: the application's own build
//! (a CPU-only wheel) is the image's and is said, not claimed; a line about the workload stays
//! unclaimed; a vaguer application line does not outrank the reason printed beside it.

use gpuctl_core::commands::explain::{explain, not_claimed_because};
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::assert_read_by_emitter;

#[rstest]
// pytorch/pytorch c10/cuda/CUDAFunctions.cpp ("The NVIDIA driver on your system is too old
// (found version %d)"), raised as RuntimeError and repeated by torch/cuda/__init__.py's
// "CUDA initialization:" warning
#[case("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx", "pytorch", "match-version", "12080 is CUDA 12.8")]
#[case("/usr/lib/python3/site-packages/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 12020). Please update your GPU driver", "pytorch", "match-version", "older CUDA")]
// tensorflow/tensorflow (openxla/xla) xla/stream_executor/cuda/cuda_diagnostics.cc
#[case("2024-01-01 00:00:00.000000: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:137] kernel driver does not appear to be running on this host (4f1c): /proc/driver/nvidia/version does not exist", "tensorflow", "find-device", "kernel module is not loaded")]
#[case("E external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:262] kernel version 550.120.0 does not match DSO version 560.35.5 -- cannot find working devices in this configuration", "tensorflow", "match-version", "another driver release")]
// tensorflow cuda_driver.cc ("failed call to cuInit: %s") then cuda_diagnostics.cc: the
// diagnostic line names why cuInit failed
#[case("E cuda_driver.cc:266] failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error\nI cuda_diagnostics.cc:137] kernel driver does not appear to be running on this host (x): /proc/driver/nvidia/version does not exist", "tensorflow", "find-device", "kernel module")]
// FFmpeg/FFmpeg libavcodec/nvenc.c (nvenc_load_libraries, nvenc_print_driver_requirement)
#[case("[h264_nvenc @ 0x5581] Driver does not support the required nvenc API version. Required: 13.0 Found: 12.2\n[h264_nvenc @ 0x5581] The minimum required Nvidia driver for nvenc is 570.0 or newer", "ffmpeg", "match-version", "nv-codec-headers")]
#[case("[hevc_nvenc @ 0x55] The minimum required Nvidia driver for nvenc is 610.00 or newer", "ffmpeg", "match-version", "older than the release")]
// libavcodec/nvenc.c (nvenc_setup_device)
#[case("[h264_nvenc @ 0x55d1] No capable devices found\nError initializing output stream 0:0 -- Error while opening encoder", "ffmpeg", "find-device", "NVENC engine")]
// ollama/ollama discover/gpu_info_nvcuda.c ("cuda driver library init failure: %d")
#[case("time=2025-01-01T00:00:00Z level=WARN source=gpu.go:562 msg=\"unknown error initializing cuda driver library\" library=/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03 error=\"cuda driver library init failure: 999\"", "ollama", "initialise", "nvidia_uvm")]
// ollama/ollama discover/gpu_info_nvml.c ("nvml vram init failure: %d")
#[case("time=2025-01-01T00:00:00Z level=INFO source=gpu.go:620 msg=\"Unable to load nvml management library\" library=/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15 error=\"nvml vram init failure: 9\"", "ollama", "initialise", "NVML_ERROR_DRIVER_NOT_LOADED")]
// ollama/ollama discover/gpu.go ("no compatible GPUs were discovered")
#[case("time=2025-01-01T00:00:00Z level=INFO source=gpu.go:217 msg=\"looking for compatible GPUs\"\ntime=2025-01-01T00:00:00Z level=INFO source=gpu.go:377 msg=\"no compatible GPUs were discovered\"", "ollama", "find-device", "no GPU")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] text: &str,
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

/// The application's own build is the image's: said, not claimed.
#[rstest]
// pytorch/pytorch torch/cuda/__init__.py (_lazy_init)
#[case(
    "  File \"/usr/lib/python3/site-packages/torch/cuda/__init__.py\", line 284, in _lazy_init\n    raise AssertionError(\"Torch not compiled with CUDA enabled\")\nAssertionError: Torch not compiled with CUDA enabled"
)]
// jax-ml/jax jax/_src/xla_bridge.py
#[case(
    "WARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu."
)]
fn the_application_s_own_build_is_the_image_s(#[case] text: &str) {
    assert!(
        explain(text, Registry::discovered(), None).is_none(),
        "{text}"
    );
    let why = not_claimed_because(text, Registry::discovered()).unwrap_or_default();
    assert!(why.contains("the image's"), "{why}");
}

/// Look-alikes: the same applications' words where the cause is not the rule's.
#[rstest]
// "No capable devices found" from another program (no NVENC encoder in the text)
#[case("scanner: No capable devices found on the USB bus")]
// the workload's own errors, in the same applications' words
#[case(
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)"
)]
#[case("[h264_nvenc @ 0x55] InitializeEncoder failed: invalid param (8): Invalid Level.")]
#[case(
    "time=2025-01-01T00:00:00Z level=INFO source=gpu.go:217 msg=\"looking for compatible GPUs\""
)]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    let e = explain(text, Registry::discovered(), None);
    assert!(
        e.as_ref().is_none_or(|e| !matches!(
            e.emitter,
            Some("ffmpeg" | "ollama" | "pytorch" | "tensorflow")
        )),
        "{text}: {:?}",
        e.map(|e| e.diagnosis)
    );
}

/// A vague application line does not outrank the reason beside it: ollama's "no compatible
/// GPUs" after its cuInit failure reads as the failure.
#[test]
fn the_reason_outranks_ollama_s_summary() {
    let text = "level=WARN source=gpu.go:562 msg=\"unknown error initializing cuda driver library\" library=/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03 error=\"cuda driver library init failure: 999\"\nlevel=INFO source=gpu.go:347 msg=\"no compatible GPUs were discovered\"";
    let e = explain(text, Registry::discovered(), None).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        e.operation.map(|o| o.as_str()),
        Some("initialise"),
        "{text}"
    );
}
