//! libnvidia-container (`nvidia-container-cli: <stage> error: <reason>`) but its mount stage, and NVML through it.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA/libnvidia-container src/driver.c call_nvml, src/error.c error_set_nvml
#[case(
    "nvidia-container-cli",
    "initialise",
    "not loaded",
    "nvidia-container-cli: initialization error: nvml error: driver not loaded"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xdlopen (error_set_dl)
#[case(
    "nvidia-container-cli",
    "load-library",
    "root",
    "stderr: nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown"
)]
// NVIDIA/libnvidia-container src/rpc.h call_rpc, src/error.c error_set_rpc
#[case(
    "nvidia-container-cli",
    "initialise",
    "persistence",
    "nvidia-container-cli: initialization error: driver rpc error: timed out"
)]
// NVIDIA/libnvidia-container src/rpc.h call_rpc, src/error.c error_set_rpc
#[case(
    "nvidia-container-cli",
    "initialise",
    "driver service",
    "nvidia-container-cli: detection error: driver rpc error: failed to process request"
)]
// NVIDIA/libnvidia-container src/rpc.h call_rpc, src/error.c error_set_rpc
#[case(
    "nvidia-container-cli",
    "initialise",
    "driver service",
    "nvidia-container-cli: initialization error: driver rpc error: failed to perform handshake"
)]
// NVIDIA/libnvidia-container src/driver.c driver_init_1_svc
#[case(
    "nvidia-container-cli",
    "initialise",
    "root",
    "nvidia-container-cli: initialization error: change root failed: no such file or directory"
)]
// NVIDIA/libnvidia-container src/utils.c perm_drop_privileges
#[case(
    "nvidia-container-cli",
    "initialise",
    "user namespace",
    "nvidia-container-cli: initialization error: privilege change failed: operation not permitted"
)]
// NVIDIA/libnvidia-container src/rpc.c rpc_init
#[case(
    "nvidia-container-cli",
    "initialise",
    "process",
    "nvidia-container-cli: initialization error: driver rpc service process creation failed: resource temporarily unavailable"
)]
// NVIDIA/libnvidia-container src/ldcache.c, src/xfuncs.h xopen
#[case(
    "nvidia-container-cli",
    "open",
    "ld.so.cache",
    "nvidia-container-cli: initialization error: open failed: /etc/ld.so.cache: no such file or directory"
)]
// NVIDIA/libnvidia-container src/ldcache.c, src/xfuncs.h xopen
#[case(
    "nvidia-container-cli",
    "open",
    "ld.so.cache",
    "nvidia-container-cli: detection error: unsupported file format: /etc/ld.so.cache"
)]
// NVIDIA/libnvidia-container src/elftool.c
#[case(
    "nvidia-container-cli",
    "load-library",
    "corrupt",
    "nvidia-container-cli: detection error: elf file read error: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.14"
)]
// NVIDIA/libnvidia-container src/elftool.c
#[case(
    "nvidia-container-cli",
    "load-library",
    "corrupt",
    "nvidia-container-cli: detection error: elf section 0x6 missing: /usr/lib64/libcuda.so.535.104.05"
)]
// NVIDIA/libnvidia-container src/nvc_mount.c, src/nvc.c
#[case(
    "nvidia-container-cli",
    "open",
    "MIG",
    "nvidia-container-cli: initialization error: unable to open: /proc/driver/nvidia-caps/mig-minors"
)]
// NVIDIA/libnvidia-container src/nvc_ldcache.c (the configured ldconfig), src/xfuncs.h xopen
#[case(
    "nvidia-container-cli",
    "open",
    "ldconfig",
    "nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory"
)]
// NVIDIA/libnvidia-container src/nvc_ldcache.c
#[case(
    "nvidia-container-cli",
    "load-library",
    "ldconfig",
    "nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 1"
)]
// NVIDIA/libnvidia-container src/nvc_ldcache.c
#[case(
    "nvidia-container-cli",
    "load-library",
    "ldconfig",
    "nvidia-container-cli: ldcache error: process execution failed: no such file or directory"
)]
// NVIDIA/libnvidia-container src/nvc_ldcache.c
#[case(
    "nvidia-container-cli",
    "load-library",
    "seccomp",
    "nvidia-container-cli: ldcache error: running in secure mode with seccomp disabled"
)]
// NVIDIA/libnvidia-container src/cli/dsl.c, src/cli/configure.c
#[case(
    "nvidia-container-cli",
    "match-version",
    "compute capability",
    "nvidia-container-cli: requirement error: unsatisfied condition: arch >= 8.0"
)]
// NVIDIA/libnvidia-container src/cli/dsl.c
#[case(
    "nvidia-container-cli",
    "match-version",
    "NVIDIA_REQUIRE",
    "nvidia-container-cli: requirement error: invalid expression"
)]
// NVIDIA/libnvidia-container src/cli/common.c select_mig_config_devices
#[case(
    "nvidia-container-cli",
    "find-device",
    "MIG",
    "nvidia-container-cli: mig-config error: 0: only 'all' devices are currently supported"
)]
// NVIDIA/libnvidia-container src/cli/common.c select_mig_monitor_devices
#[case(
    "nvidia-container-cli",
    "find-device",
    "MIG",
    "nvidia-container-cli: mig-monitor error: all: cannot enable mig-monitor with specific MIG devices selected"
)]
// NVIDIA/libnvidia-container src/cli/common.c parse_imex_info
#[case(
    "nvidia-container-cli",
    "find-device",
    "IMEX",
    "nvidia-container-cli: error parsing IMEX info: unsupported IMEX channel value: all-channels"
)]
// NVIDIA/libnvidia-container src/nvc.c
#[case(
    "nvidia-container-cli",
    "find-device",
    "WSL",
    "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found"
)]
// NVIDIA/libnvidia-container src/utils.c
#[case(
    "nvidia-container-cli",
    "initialise",
    "namespace",
    "nvidia-container-cli: container error: namespace association failed: /proc/23911/ns/mnt: no such file or directory"
)]
// NVIDIA/libnvidia-container src/cli/configure.c
#[case(
    "nvidia-container-cli",
    "initialise",
    "absolute",
    "nvidia-container-cli: input error: invalid rootfs directory"
)]
// NVIDIA/libnvidia-container src/nvc.c
#[case(
    "nvidia-container-cli",
    "initialise",
    "user namespace",
    "nvidia-container-cli: initialization error: invalid map file: /proc/self/uid_map"
)]
// NVIDIA/libnvidia-container src/nvc.c
#[case(
    "nvidia-container-cli",
    "open",
    "MIG",
    "nvidia-container-cli: initialization error: error running mknod for nvcap: /dev/nvidia-caps/nvidia-cap2"
)]
// libnvidia-container before 1.0, src/driver.c (cuInit's cudaGetErrorString)
#[case(
    "nvidia-container-cli",
    "initialise",
    "initialis",
    "nvidia-container-cli: initialization error: cuda error: initialization error"
)]
// NVIDIA/libnvidia-container src/driver.c driver_init_1_svc (glibc preload), src/xfuncs.h xdlopen
#[case(
    "nvidia-container-cli",
    "initialise",
    "glibc",
    "nvidia-container-cli: initialization error: load library failed: libm.so.6: cannot open shared object file: no such file or directory"
)]
// NVIDIA/libnvidia-container src/nvc.c, src/nvc_ldcache.c
#[case(
    "nvidia-container-cli",
    "initialise",
    "sandbox",
    "nvidia-container-cli: initialization error: process creation failed: operation not permitted"
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
// NVIDIA/libnvidia-container src/utils.c perm_set_capabilities
#[case(
    "nvidia-hook-rootless",
    "rootless",
    "nvidia-container-cli: permission error: capability change failed: operation not permitted"
)]
// NVIDIA/libnvidia-container src/nvc_info.c (the driver's files by release), src/xfuncs.h xopen
#[case(
    "nvidia-hook-driver-files",
    "release",
    "nvidia-container-cli: detection error: open failed: /usr/lib/x86_64-linux-gnu/libnvidia-tls.so.535.54.03: no such file or directory"
)]
// NVIDIA/libnvidia-container src/cgroup.c, src/cgroup_legacy.c, src/nvcgo/internal/cgroup
#[case(
    "nvidia-hook-no-cgroups",
    "cgroup",
    "nvidia-container-cli: container error: cgroup subsystem devices not found"
)]
// NVIDIA/libnvidia-container src/cli/dsl.c, src/cli/configure.c
#[case(
    "nvidia-cuda-requirement",
    "driver",
    "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container"
)]
// NVIDIA/libnvidia-container src/cli/dsl.c, src/cli/configure.c
#[case(
    "nvidia-driver-requirement",
    "driver",
    "nvidia-container-cli: requirement error: unsatisfied condition: driver>=535"
)]
// NVIDIA/libnvidia-container src/cli/dsl.c, src/cli/configure.c
#[case(
    "nvidia-driver-requirement",
    "brand",
    "nvidia-container-cli: requirement error: unsatisfied condition: brand = tesla"
)]
// NVIDIA/libnvidia-container src/cli/common.c select_devices
#[case(
    "nvidia-hook-unknown-device",
    "GPU",
    "nvidia-container-cli: device error: GPU-7b1e2c3d-0000-1111-2222-333344445555: unknown device"
)]
// NVIDIA/libnvidia-container src/cli/common.c select_devices
#[case(
    "nvidia-hook-unknown-device",
    "GPU",
    "nvidia-container-cli: device error: 3: unknown device"
)]
// libnvidia-container before 1.0, src/driver.c (cuInit's cudaGetErrorString)
#[case(
    "nvidia-hook-no-cuda-device",
    "device",
    "nvidia-container-cli: initialization error: cuda error: no cuda-capable device is detected"
)]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}
