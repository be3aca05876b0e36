//! CUDA's `cudaError_t` / `CUresult`, by name, message and number.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "fabric",
    "RuntimeError: CUDA error: system not yet initialized"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "libcuda",
    "CUDA error: system has unsupported display driver / cuda driver combination"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "forward compat",
    "cudaGetDeviceCount returned 804"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "newer driver",
    "CUDA error: API call is not supported in the installed CUDA driver"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "newer driver",
    "cuInit failed: CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "newer driver",
    "ggml_cuda_init: failed to initialize CUDA: cudaErrorCallRequiresNewerDriver"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "load-library",
    "PTX JIT",
    "CUDA error: PTX JIT compiler library not found"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "load-library",
    "PTX JIT",
    "cuModuleLoadData failed: CUDA_ERROR_JIT_COMPILER_NOT_FOUND"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "match-version", "JIT", "CUDA_ERROR_JIT_COMPILATION_DISABLED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "allocate",
    "ECC",
    "RuntimeError: CUDA error: uncorrectable ECC error encountered"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "allocate", "ECC", "cudaErrorECCUncorrectable")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "NVLink",
    "CUDA error: uncorrectable NVLink error detected during the execution"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "NVLink", "CUDA_ERROR_NVLINK_UNCORRECTABLE")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "MPS",
    "cuInit: CUDA_ERROR_MPS_CONNECTION_FAILED"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "MPS", "cudaErrorMpsConnectionFailed")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "MPS",
    "CUDA error 805 (cudaErrorMpsConnectionFailed)"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "MPS", "CUDA_ERROR_MPS_SERVER_NOT_READY")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "allocate", "MPS", "cudaErrorMpsMaxClientsReached")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "allocate", "MPS", "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "MPS", "CUDA_ERROR_MPS_RPC_FAILURE")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "MPS", "CUDA_ERROR_MPS_CLIENT_TERMINATED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "not permitted", "CUDA_ERROR_NOT_PERMITTED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "support", "CUDA error: operation not supported")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "support", "CUDA_ERROR_NOT_SUPPORTED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "licen",
    "CUDA error: device doesn't have valid Grid license"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "exclusive",
    "CUDA error: all CUDA-capable devices are busy or unavailable"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "exclusive",
    "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "nvidia-uvm",
    "RuntimeError: CUDA error: unknown error"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "nvidia-uvm",
    "cuInit returned CUDA_ERROR_UNKNOWN"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "find-device",
    "index",
    "RuntimeError: CUDA error: invalid device ordinal"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "match-version",
    "PTX",
    "CUDA error: the provided PTX was compiled with an unsupported toolchain."
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "load-library", "stub", "CUDA driver is a stub library")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "system call",
    "CUDA error: OS call failed or operation not supported on this OS"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "driver", "CUDA_ERROR_NOT_INITIALIZED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "shutting down", "CUDA_ERROR_DEINITIALIZED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "shutting down",
    "CUDA error: driver shutting down"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "context", "CUDA_ERROR_INVALID_CONTEXT")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "holds", "cudaErrorDeviceAlreadyInUse")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "holds", "CUDA_ERROR_CONTEXT_ALREADY_IN_USE")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "exclusive",
    "CUDA error: exclusive-thread device already in use by a different thread"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "startup", "cudaErrorStartupFailure")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "fabric", "cudaGetDeviceCount returned 802")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "system", "CUDA_ERROR_SYSTEM_NOT_READY")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "load-library",
    "release",
    "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "load-library", "release", "cudaErrorSharedObjectInitFailed")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("cuda", "initialise", "Xid", "CUDA_ERROR_LAUNCH_FAILED")]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "initialise",
    "attest",
    "cudaErrorSoftwareValidityNotEstablished"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "cuda",
    "find-device",
    "no GPU was given",
    "RuntimeError: No CUDA GPUs are available"
)]
fn read_by_emitter(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

/// Kept by a family whose remedy is more specific: (family, a word of its diagnosis, the line).
#[rstest]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "nvidia-cuda-requirement",
    "driver",
    "CUDA driver version is insufficient for CUDA runtime version"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "nvidia-cuda-requirement",
    "driver",
    "error: cudaGetDeviceCount() failed with cudaErrorInsufficientDriver"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case(
    "nvidia-cuda-no-device",
    "GPU",
    "CUDA error: no CUDA-capable device is detected"
)]
// NVIDIA's CUDA Runtime and Driver API references (enum cudaError, CUresult), NVIDIA/cuda-python cuda.bindings
#[case("nvidia-cuda-no-device", "GPU", "cudaErrorNoDevice")]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}
