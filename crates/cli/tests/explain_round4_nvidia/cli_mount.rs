//! libnvidia-container's mount stage (`nvidia-container-cli: mount error: <reason>`), by the errno on the path.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "image already holds",
    "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/3f1a/merged/usr/bin/nvidia-smi: file exists"
)]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "read-only",
    "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/3f1a/merged/usr/lib/x86_64-linux-gnu/libcuda.so.1: read-only file system"
)]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "may not write",
    "nvidia-container-cli: mount error: file creation failed: /home/u/.local/share/containers/storage/overlay/9a/merged/usr/bin/nvidia-smi: permission denied"
)]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "directory",
    "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/7c/merged/usr/lib64/libcuda.so.1: not a directory"
)]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "full",
    "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/7c/merged/usr/bin/nvidia-smi: no space left on device"
)]
// NVIDIA/libnvidia-container src/utils.c file_create
#[case(
    "nvidia-container-cli",
    "mount",
    "symbolic link",
    "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/7c/merged/usr/lib/libcuda.so.1: too many levels of symbolic links"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xmount
#[case(
    "nvidia-container-cli",
    "mount",
    "privilege",
    "nvidia-container-cli: mount error: mount operation failed: /usr/bin/nvidia-smi: operation not permitted"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xmount
#[case(
    "nvidia-container-cli",
    "mount",
    "denied",
    "nvidia-container-cli: mount error: mount operation failed: /usr/lib/x86_64-linux-gnu/libcuda.so.535.54.03: permission denied"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xmount
#[case(
    "nvidia-container-cli",
    "mount",
    "driver",
    "nvidia-container-cli: mount error: mount operation failed: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.54.03: no such file or directory"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xmount
#[case(
    "nvidia-container-cli",
    "mount",
    "driver",
    "stderr: nvidia-container-cli: mount error: mount operation failed: /var/lib/docker/overlay2/b9f5/merged/proc/driver/nvidia/params/version/registry: no such file or directory"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xstat / xlstat
#[case(
    "nvidia-container-cli",
    "stat",
    "module",
    "nvidia-container-cli: mount error: stat failed: /dev/nvidia-uvm: no such file or directory"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xstat / xlstat
#[case(
    "nvidia-container-cli",
    "stat",
    "CSV",
    "nvidia-container-cli: mount error: stat failed: /usr/lib/aarch64-linux-gnu/tegra/libnvidia-fatbinaryloader.so.440.18: no such file or directory"
)]
// NVIDIA/libnvidia-container src/nvc_mount.c (the image's CUDA compat libraries), src/xfuncs.h xstat
#[case(
    "nvidia-container-cli",
    "stat",
    "compat",
    "nvidia-container-cli: mount error: stat failed: /var/lib/docker/overlay2/91c2/merged/usr/local/cuda-12.2/compat/libcuda.so.535.104.05: no such file or directory"
)]
// NVIDIA/libnvidia-container src/xfuncs.h xstat / xlstat
#[case(
    "nvidia-container-cli",
    "stat",
    "driver",
    "nvidia-container-cli: mount error: lstat failed: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: no such file or directory"
)]
// NVIDIA/libnvidia-container src/utils.c path_resolve
#[case(
    "nvidia-container-cli",
    "mount",
    "path",
    "nvidia-container-cli: mount error: path error: /var/lib/docker/overlay2/7c/merged/usr/lib/x86_64-linux-gnu: too many levels of symbolic links"
)]
// NVIDIA/libnvidia-container src/utils.c path_resolve
#[case(
    "nvidia-container-cli",
    "mount",
    "leaves",
    "nvidia-container-cli: mount error: path error: /usr/lib64 resolves outside of /var/lib/docker/overlay2/7c/merged"
)]
// NVIDIA/libnvidia-container src/nvc_mount.c
#[case(
    "nvidia-container-cli",
    "mount",
    "device node",
    "nvidia-container-cli: mount error: invalid device node: /dev/nvidia0"
)]
// NVIDIA/libnvidia-container src/nvc_mount.c, src/nvc.c
#[case(
    "nvidia-container-cli",
    "open",
    "MIG",
    "nvidia-container-cli: mount error: unable to open file for reading: /proc/driver/nvidia-caps/mig-minors: no such file or directory"
)]
// NVIDIA/libnvidia-container src/nvc_info.c
#[case(
    "nvidia-container-cli",
    "open",
    "MIG",
    "nvidia-container-cli: mount error: unable to get cap device attributes: /dev/nvidia-caps/nvidia-cap1: no such file or directory"
)]
// NVIDIA/libnvidia-container src/cgroup.c, src/cgroup_legacy.c, src/nvcgo/internal/cgroup
#[case(
    "nvidia-container-cli",
    "mount",
    "cgroup",
    "nvidia-container-cli: mount error: failed to get device cgroup mount path: no cgroup filesystem mounted for the devices subsytem in mountinfo file"
)]
// NVIDIA/libnvidia-container src/cgroup.c, src/cgroup_legacy.c, src/nvcgo/internal/cgroup
#[case(
    "nvidia-container-cli",
    "mount",
    "cgroup",
    "nvidia-container-cli: mount error: failed to get device cgroup version: unable to get cgroup version"
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
// NVIDIA/libnvidia-container src/cgroup_legacy.c
#[case(
    "nvidia-hook-no-cgroups",
    "cgroup",
    "nvidia-container-cli: mount error: open failed: /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied"
)]
// NVIDIA/libnvidia-container src/cgroup_legacy.c
#[case(
    "nvidia-hook-no-cgroups",
    "cgroup",
    "nvidia-container-cli: mount error: write error: /sys/fs/cgroup/devices/docker/4a1/devices.allow: operation not permitted"
)]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}

/// The eBPF query's refusal (NVIDIA/libnvidia-container src/cgroup.c, src/nvcgo/internal/cgroup)
/// was the family's until round 7: the hook's rule for the stage and the call is decisive over
/// it, so that the line wrapped mid-word in a log (corpus 192) and unwrapped read alike, and its
/// cause names the rootless or nested namespace and the 1.17.7 regression (what to check: no-cgroups).
#[test]
fn the_ebpf_query_is_the_hook_s_rule() {
    assert_read_by_emitter(
        "nvidia-container-cli",
        "mount",
        "rootless or nested",
        "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted",
    );
}
