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
use support::{assert_read_by_emitter, read};

#[rstest]
// the kernel's crash line for libnvidia-container's driver service (show_signal_msg), then the
// hook's wrapper
#[case("nvidia-container-cli", "initialise", "crashed", "nvc:[driver][2211]: segfault at 0 ip 00007f3a1c2b4e10 sp 00007ffd0c1f2a80 error 4 in libnvidia-container.so.1.10.0[7f3a1c29a000+3a000]\nnvidia-container-cli: initialization error: driver error: failed to process request")]
// the audit record of its abnormal end (AUDIT_ANOM_ABEND)
#[case("nvidia-container-cli", "initialise", "meta-tegra", "audit: type=1701 audit(1700000000.100:12): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=512 comm=\"nvc:[driver]\" exe=\"/usr/bin/nvidia-container-cli\" sig=11 res=1\nstderr: nvidia-container-cli: initialization error: driver error: failed to process request: unknown")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
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
fn look_alikes_are_left_alone(#[case] text: &str) {
    assert!(
        explain(text, Registry::discovered(), None).is_none(),
        "claimed: {:?}",
        read(text)
    );
}

#[rstest]
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
fn widened_causes(#[case] text: &str, #[case] word: &str) {
    let out = explain(text, Registry::discovered(), None).expect("claimed");
    let said = format!("{} {}", out.diagnosis, out.hint).to_lowercase();
    assert!(said.contains(word), "{word} not in {said}");
}

/// nvidia-ctk's optional files on a host without the fabric manager or MPS are no failure: no
/// rule or reading blames them (the text is still answered, as it names GPU components).
#[test]
fn ctk_optional_files_are_no_failure() {
    let text = "WARN[0000] Could not locate /var/run/nvidia-fabricmanager/socket: pattern /var/run/nvidia-fabricmanager/socket not found\nWARN[0000] Could not locate /tmp/nvidia-mps: pattern /tmp/nvidia-mps not found\nINFO[0000] Using driver version 550.54.14";
    assert_ne!(read(text).0, Some("gpu-structured"));
}
