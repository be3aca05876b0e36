//! The NVIDIA Container Toolkit's runtime, hooks and CDI generator (nvcdi).
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA/nvidia-container-toolkit internal/oci/runtime_low_level.go
#[case(
    "nvidia-container-runtime",
    "find-runtime",
    "low-level",
    "OCI runtime create failed: /usr/bin/nvidia-container-runtime did not terminate successfully: exit status 1: time=\"2024-05-01T10:00:00Z\" level=error msg=\"failed to create NVIDIA Container Runtime: error constructing low-level runtime: error locating runtime: no runtime binary found from candidate list: [docker-runc runc crun]\""
)]
// NVIDIA/nvidia-container-toolkit internal/runtime/runtime.go
#[case(
    "nvidia-container-runtime",
    "initialise",
    "config.toml",
    "OCI runtime create failed: /usr/bin/nvidia-container-runtime did not terminate successfully: exit status 1: level=error msg=\"error loading config: failed to load config: toml: line 12 (last key \\\"nvidia-container-cli.root\\\"): expected value but found \\\"/\\\" instead\""
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/hook_config.go
#[case(
    "nvidia-container-runtime-hook",
    "initialise",
    "config",
    "nvidia-container-runtime-hook: error getting hook config: couldn't open required configuration file: open /etc/nvidia-container-runtime/config.toml: no such file or directory"
)]
// NVIDIA/nvidia-container-toolkit internal/modifier/cdi.go
#[case(
    "nvidia-container-runtime",
    "find-device",
    "runtime.nvidia.com",
    "requesting a CDI device with vendor 'runtime.nvidia.com' is not supported when requesting other CDI devices"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi (go-nvml's ERROR_LIBRARY_NOT_FOUND)
#[case(
    "nvml",
    "load-library",
    "NVML",
    "failed to construct OCI spec modifier: failed to construct CDI modifier for mode \"auto\": failed to generate CDI spec for mode \"auto\": failed to initialize nvml: ERROR_LIBRARY_NOT_FOUND"
)]
// NVIDIA/nvidia-container-toolkit internal/modifier/mode.go
#[case(
    "nvidia-container-runtime",
    "initialise",
    "mode",
    "failed to construct OCI spec modifier: invalid runtime mode: legacyy"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/main.go
#[case(
    "nvidia-container-runtime-hook",
    "load-library",
    "libnvidia-container-tools",
    "nvidia-container-runtime-hook: couldn't find binary nvidia-container-cli in PATH: exec: \"nvidia-container-cli\": executable file not found in $PATH"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/container_config.go
#[case(
    "nvidia-container-runtime-hook",
    "match-version",
    "NVIDIA_DRIVER_CAPABILITIES",
    "unsupported capabilities found in 'compute,utility,vulkan' (allowed 'compute,compat32,graphics,utility,video,display,ngx')"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/container_config.go
#[case(
    "nvidia-container-runtime-hook",
    "allocate",
    "privileged",
    "cannot set MIG_CONFIG_DEVICES in non privileged container"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/container_config.go
#[case(
    "nvidia-container-runtime-hook",
    "allocate",
    "privileged",
    "cannot set MIG_MONITOR_DEVICES in non privileged container"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/hook_config.go
#[case(
    "nvidia-container-runtime-hook",
    "initialise",
    "supported-driver-capabilities",
    "Invalid value for config option 'supported-driver-capabilities'; compute,foo (supported: compute,utility)"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook/update-ldcache/update-ldcache.go, internal/ldconfig/ldconfig.go
#[case(
    "nvidia-ctk",
    "mount",
    "ldconfig",
    "Error updating ldcache: error running pivot_root: operation not permitted"
)]
// crun's hook wrapper; NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook
#[case(
    "nvidia-ctk",
    "mount",
    "ldconfig",
    "Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-cdi-hook` (exit code: 1)\nError updating ldcache: error mounting host ldconfig: operation not permitted"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook (every subcommand), internal/oci/state.go
#[case(
    "nvidia-ctk",
    "mount",
    "state",
    "level=error msg=\"failed to determined container root: failed to load container state: failed to open file: open /run/containerd/state.json: no such file or directory\""
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook/chmod/chmod.go
#[case(
    "nvidia-ctk",
    "mount",
    "chmod",
    "nvidia-cdi-hook chmod: failed to parse mode as octal: strconv.ParseUint: parsing \"rwx\": invalid syntax"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook/cudacompat/cudacompat.go
#[case(
    "nvidia-ctk",
    "mount",
    "cuda-compat",
    "level=error msg=\"failed to open CUDA compat library \\\"/usr/local/cuda/compat/libcuda.so.1\\\": permission denied\""
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi (go-nvml's ERROR_LIBRARY_NOT_FOUND)
#[case(
    "nvml",
    "load-library",
    "NVML",
    "ERRO[0000] failed to generate CDI spec: failed to create device CDI specs: failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND"
)]
// NVIDIA/nvidia-container-toolkit internal/lookup/root/root.go
#[case(
    "nvidia-ctk",
    "load-library",
    "prefix",
    "ERRO[0000] failed to generate CDI spec: failed to create discoverer for common entities: failed to locate versioned driver libraries: failed to locate \"libcuda.so.550.54.14\": pattern libcuda.so.550.54.14 not found"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/driver-wsl.go
#[case(
    "nvidia-ctk",
    "find-device",
    "WSL",
    "ERRO[0000] failed to generate CDI spec: failed to create discoverer for WSL driver: failed to locate libcuda.so.1.1 at WSL driver store paths: pattern not found"
)]
// NVIDIA/nvidia-container-toolkit internal/dxcore/dxcore.go, pkg/nvcdi/driver-wsl.go
#[case(
    "nvidia-ctk",
    "find-device",
    "WSL",
    "failed to initialize dxcore: failed to initialize dxcore context"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/driver-wsl.go
#[case(
    "nvidia-ctk",
    "find-device",
    "WSL",
    "failed to create discoverer for WSL driver: no driver store paths found"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/lib-imex.go
#[case(
    "nvidia-ctk",
    "find-device",
    "IMEX",
    "IMEX channel 0 not found at /dev/nvidia-caps-imex-channels/channel0: no such file or directory"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/lib-imex.go
#[case(
    "nvidia-ctk",
    "find-device",
    "IMEX",
    "invalid channel ID 3000: must be in the range [0, 2047]"
)]
// NVIDIA/nvidia-container-toolkit internal/platform-support/tegra/csv/csv.go
#[case(
    "nvidia-ctk",
    "find-device",
    "CSV",
    "failed to read the contents of /etc/nvidia-container-runtime/host-files-for-container.d: open /etc/nvidia-container-runtime/host-files-for-container.d: no such file or directory"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/lib-csv.go
#[case(
    "nvidia-ctk",
    "find-device",
    "CSV",
    "generating a CDI spec for MIG id \"0:1\" is not supported in CSV mode"
)]
// NVIDIA/nvidia-container-toolkit internal/platform-support/tegra/csv.go
#[case(
    "nvidia-ctk",
    "find-device",
    "CSV",
    "failed to parse CSV file: CSV file is empty"
)]
// NVIDIA/nvidia-container-toolkit pkg/nvcdi/lib-csv.go
#[case(
    "nvml",
    "match-version",
    "argument",
    "failed to get device handle from UUID \"GPU-0000\": ERROR_INVALID_ARGUMENT"
)]
// moby/containerd's shim exec of the runtime daemon.json names
#[case(
    "docker",
    "find-runtime",
    "daemon.json",
    "exec: \"nvidia-container-runtime\": executable file not found in $PATH"
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
// NVIDIA/nvidia-container-toolkit cmd/nvidia-container-runtime-hook/hook_config.go
#[case(
    "nvidia-hook-cdi-mode",
    "CDI",
    "invoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead."
)]
// NVIDIA/nvidia-container-toolkit internal/modifier/cdi/registry.go (the CDI library's error)
#[case(
    "cdi-unresolvable",
    "spec",
    "level=error msg=\"failed to create NVIDIA Container Runtime: failed to construct OCI spec modifier: failed to construct CDI modifier: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all\""
)]
// NVIDIA/nvidia-container-toolkit internal/modifier/csv.go
#[case(
    "nvidia-cuda-requirement",
    "driver",
    "level=error msg=\"failed to create NVIDIA Container Runtime: failed to construct OCI spec modifier: requirements not met: unsatisfied condition: cuda>=12.6\""
)]
// crun's hook wrapper; NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook
#[case(
    "nvidia-cdi-hook",
    "spec",
    "Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-cdi-hook` (exit code: 1)"
)]
// NVIDIA/nvidia-container-toolkit cmd/nvidia-cdi-hook/create-symlinks/create-symlinks.go
#[case(
    "nvidia-cdi-hook",
    "spec",
    "time=\"2025-01-01T00:00:00Z\" level=error msg=\"failed to create link [libcuda.so.1 /usr/lib64/libcuda.so]: failed to check if link exists: unexpected link target: libcuda.so.535.54.03\""
)]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}
