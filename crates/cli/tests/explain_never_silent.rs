//! Issue 31, "never silent": a program that names only the GPU, by its generic noun or a
//! vendor's product name, and says it found none, does not support this one or could not start
//! it, gets the fallback's structured reading (docs/explain.md#fallback, "The GPU by its
//! noun"); the same noun beside another failure, or glued into a package or flag name, claims
//! nothing. Lines are the programs' own format strings, cited beside each (none is a thread's
//! text), or composed from the vocabulary where marked.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gpuctl_core::commands::explain::{Explanation, explain};
use gpuctl_core::plugin::{Registry, STRUCTURED};
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

fn read(text: &str) -> Option<Explanation> {
    explain(text, Registry::discovered(), None)
}

#[rstest]
// ggml-org/llama.cpp common/arg.cpp: printed when -ngl is given and no GPU backend found a
// device.
#[case(
    "warning: no usable GPU found, --gpu-layers option will be ignored",
    "find-device",
    "not given one"
)]
// Lightning-AI/pytorch-lightning, the accelerator connector's
// MisconfigurationException("No supported gpu backend found!") for accelerator="gpu".
#[case(
    "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!",
    "find-device",
    "not given one"
)]
// ggml-org/llama.cpp ggml/src/ggml-opencl/ggml-opencl.cpp: GGML_LOG_ERROR("Unsupported GPU:
// %s\n", device_name) for a device of no family it has kernels for.
#[case(
    "Unsupported GPU: Mali-G78",
    "match-version",
    "does not support this GPU"
)]
// tinygrad's Qualcomm backend: RuntimeError(f"Unsupported GPU: chip_id={chip_id:#x}").
#[case(
    "RuntimeError: Unsupported GPU: chip_id=0x7030001",
    "match-version",
    "does not support this GPU"
)]
// Composed from the vocabulary (a generic noun after "failed to initialize").
#[case("Error: failed to initialize GPU", "initialise", "kernel driver")]
fn the_gpu_by_its_noun_is_read(#[case] text: &str, #[case] op: &str, #[case] cause: &str) {
    let e = read(text).unwrap_or_else(|| panic!("silent on {text}"));
    assert_eq!(e.family, STRUCTURED, "{text}");
    assert_eq!(e.emitter, Some("program"), "{text}");
    assert_eq!(e.operation.map(|o| o.as_str()), Some(op), "{text}");
    assert!(e.diagnosis.contains(cause), "{text}: {}", e.diagnosis);
    // The GPU is what was looked for, not an object: "could not find a usable device:".
    assert_eq!(e.object, None, "{text}");
}

/// A vendor's product name or "<vendor> GPU" says whose GPU it is (composed from the
/// vocabulary: crates/{amd,intel,nvidia}/src/components.rs).
#[rstest]
#[case("Error: no AMD GPU found", "AMD GPU")]
#[case("No Intel Arc GPU found, the device list is empty", "Intel GPU")]
#[case("fatal: GeForce GPUs not detected", "NVIDIA GPU")]
fn a_vendor_s_name_says_whose(#[case] text: &str, #[case] whose: &str) {
    let e = read(text).unwrap_or_else(|| panic!("silent on {text}"));
    assert_eq!(e.family, STRUCTURED, "{text}");
    assert!(e.diagnosis.contains(whose), "{text}: {}", e.diagnosis);
}

#[rstest]
// A Python package check: the package is the image's, not the GPU.
#[case(
    "*** Warning: tensorflow-gpu not found, performance will be severely degraded if run on CPU."
)]
// pip's "No matching distribution found for %s".
#[case("ERROR: No matching distribution found for onnxruntime-gpu")]
// The noun beside a failure of something else.
#[case("INFO: model loaded on GPU 0\nERROR: tokenizer.json: file not found")]
#[case("GPU memory usage: 3.1 GiB\nError: connection refused")]
// A web application's lookup of a record (`Gpu not found: ${name}`).
#[case("Error: Gpu not found: rtx-4090")]
// A flag's name: llama.cpp's own option, not a GPU.
#[case("error: invalid argument: --gpu-layers abc")]
// The workload's out-of-memory (PyTorch's message) names the GPU it ran on.
#[case(
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB"
)]
fn the_noun_alone_claims_nothing(#[case] text: &str) {
    let e = read(text);
    assert!(e.is_none(), "{text}: {:?}", e.map(|e| e.diagnosis));
}
