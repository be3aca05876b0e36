//! NVML's `nvmlReturn_t`, every code, by go-nvml's names, pynvml's classes and nvmlErrorString.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "find-device",
    "stopped answering",
    "nvidia-container-cli: detection error: nvml error: gpu is lost"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "match-version",
    "older",
    "nvidia-container-cli: initialization error: nvml error: function not found"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "operating system",
    "nvidia-container-cli: initialization error: nvml error: gpu access blocked by the operating system"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "find-device",
    "not offer",
    "nvidia-container-cli: detection error: nvml error: not supported"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "infoROM",
    "nvidia-container-cli: detection error: nvml error: corrupted inforom"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "power",
    "nvidia-container-cli: detection error: nvml error: insufficient external power"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "interrupt",
    "nvidia-container-cli: initialization error: nvml error: interrupt request issue"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "time",
    "nvidia-container-cli: detection error: nvml error: timeout"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "initialise",
    "reset",
    "nvidia-container-cli: detection error: nvml error: gpu requires reset"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "allocate",
    "memory",
    "nvidia-container-cli: detection error: nvml error: insufficient memory"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvml",
    "find-device",
    "not on this",
    "nvidia-container-cli: detection error: nvml error: not found"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "not loaded",
    "Failed to initialize NVML: Driver Not Loaded"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "power",
    "Unable to determine the device handle for GPU0000:3B:00.0: Insufficient External Power"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "power",
    "error getting device handle for index '1': ERROR_INSUFFICIENT_POWER"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "infoROM",
    "Failed to initialize NVML: Corrupted infoROM"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "infoROM",
    "pynvml.NVMLError_CorruptedInforom: Corrupted infoROM"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "interrupt",
    "error creating nvml.Device 0: nvml: Interrupt Request Issue"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "interrupt",
    "Unable to determine the device handle for GPU0000:65:00.0: ERROR_IRQ_ISSUE"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "time",
    "failed to get device info: ERROR_TIMEOUT"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case("nvml", "initialise", "time", "pynvml.NVMLError_Timeout: Timeout")]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "not offer",
    "error getting MIG mode: nvml: Not Supported"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "not offer",
    "failed to get MIG mode for device: ERROR_NOT_SUPPORTED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "not on this",
    "error getting device handle for UUID 'GPU-12345678-aaaa-bbbb-cccc-1234567890ab': nvml: Not Found"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "not on this",
    "unable to get device handle from UUID: ERROR_NOT_FOUND; marking it as unhealthy"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "initialis",
    "failed to get device count: ERROR_UNINITIALIZED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "initialis",
    "pynvml.NVMLError_Uninitialized: Uninitialized"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "match-version",
    "argument",
    "error getting device handle: nvml: Invalid Argument"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "match-version",
    "argument",
    "failed to create GPU instance: ERROR_INVALID_ARGUMENT"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "memory",
    "error creating nvml.Device 0: nvml: Insufficient Memory"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "memory",
    "pynvml.NVMLError_Memory: Insufficient Memory"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "ECC",
    "failed to create vGPU: ERROR_VGPU_ECC_NOT_SUPPORTED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "slice",
    "failed to create compute instance: nvml: Insufficient Resources"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "resources",
    "error creating GPU instance: ERROR_INSUFFICIENT_RESOURCES"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "match-version",
    "version",
    "failed to get device attributes: ERROR_ARGUMENT_VERSION_MISMATCH"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "no GPU",
    "failed to get device count: ERROR_GPU_NOT_FOUND"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "ready",
    "failed to get GPU fabric info: ERROR_NOT_READY"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "state",
    "failed to set MIG mode: ERROR_INVALID_STATE"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "reset",
    "unable to reset GPU: ERROR_RESET_TYPE_NOT_SUPPORTED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "reset",
    "error getting device handle for index '0': nvml: GPU requires reset"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "reset",
    "pynvml.NVMLError_ResetRequired: GPU requires restart"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "operating system",
    "pynvml.NVMLError_OperatingSystem: The operating system has blocked the request."
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "match-version",
    "releases",
    "pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch."
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "hold",
    "Failed to destroy GPU instance: ERROR_IN_USE"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "allocate",
    "clock",
    "failed to set application clocks for device 0: ERROR_FREQ_NOT_SUPPORTED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "match-version",
    "deprecated",
    "failed to get throttle reasons for device 1: ERROR_DEPRECATED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "no data",
    "failed to get samples for device 0: ERROR_NO_DATA"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "buffer",
    "failed to get device name: ERROR_INSUFFICIENT_SIZE"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "initialise",
    "program",
    "nvml init failed: ERROR_ALREADY_INITIALIZED"
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "load-library",
    "NVML",
    "Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND."
)]
// NVIDIA/go-nvml pkg/nvml/nvml.h and return.go; nvmlErrorString texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h; pynvml's NVMLError classes
#[case(
    "nvml",
    "find-device",
    "stopped answering",
    "Error waiting for event: ERROR_GPU_IS_LOST; Marking all devices as unhealthy"
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
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvidia-nvml-version-mismatch",
    "module",
    "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch"
)]
// NVIDIA/libnvidia-container src/error.c error_set_nvml (nvmlErrorString lower-cased); texts NVIDIA/DCGM sdk/nvidia/nvml/nvml_error_strings.h
#[case(
    "nvidia-nvml-insufficient-permissions",
    "SELinux",
    "nvidia-container-cli: initialization error: nvml error: insufficient permissions"
)]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}
