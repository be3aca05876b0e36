//! Every failure family against texts people posted in public issue threads, verbatim (long
//! logs cut to the lines that carry the error), with every workspace vendor registered, as
//! `gpuctl explain` runs. Non-GPU failures from the same trackers must stay unclaimed.

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

fn family(text: &str) -> Option<&'static str> {
    explain(text, Registry::discovered(), None).map(|e| e.family.as_str())
}

#[rstest]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/885
#[case("cdi-stale-spec", r#"Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device "/dev/dri/renderD129": no such file or directory"#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/46
#[case("cdi-stale-spec", r#"Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device "/dev/dri/controlD69": no such file or directory"#)]
// https://github.com/Igalia/webkit-container-sdk/issues/23 (crun's older wording)
#[case("nvidia-stale-spec", r#"Error: unable to start container "ecdb2132becbc09015d0bb7d14299693a75a462be160a2a4fc7610d60e0d3f2a": crun: error stat'ing file /lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07: No such file or directory: OCI runtime attempted to invoke a command that was not found"#)]
// https://github.com/containers/podman/issues/23935 (crun's newer wording)
#[case(
    "nvidia-stale-spec",
    "Error: crun: cannot stat `/usr/lib/libnvidia-egl-wayland.so.1.1.13`: No such file or directory: OCI runtime attempted to invoke a command that was not found"
)]
// https://github.com/containers/ramalama/issues/1900
#[case(
    "nvidia-stale-spec",
    "Error: crun: cannot stat `/usr/lib64/libEGL_nvidia.so.575.64.03`: No such file or directory: OCI runtime attempted to invoke a command that was not found"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/171
#[case(
    "nvidia-nvml-version-mismatch",
    "Failed to initialize NVML: Driver/library version mismatch"
)]
// https://github.com/tinygrad/open-gpu-kernel-modules/issues/47
#[case(
    "nvidia-nvml-version-mismatch",
    "nvidia-smi \nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.124"
)]
// https://github.com/saharmor/dalle-playground/issues/104 (runc, through the legacy hook)
#[case(
    "nvidia-nvml-version-mismatch",
    "ERROR: for dalle-backend  Cannot start service dalle-backend: failed to create shim: OCI runtime create \nfailed: runc create failed: unable to start container process: error during container init: error running \nhook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: \nnvml error: driver/library version mismatch: unknown"
)]
// https://github.com/NVIDIA/k8s-device-plugin/issues/1431
#[case(
    "nvidia-nvml-version-mismatch",
    "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/1608 (rootless podman)
#[case(
    "nvidia-nvml-insufficient-permissions",
    "Failed to initialize NVML: Insufficient Permissions"
)]
// https://github.com/containerd/containerd/issues/6042
#[case(
    "nvidia-nvml-insufficient-permissions",
    "initialization error: nvml error: insufficient permissions: unknown"
)]
// https://podman-desktop.io/docs/podman/gpu (Troubleshooting, "Version mismatch": the text the
// guide shows inside a container whose CDI spec does not match the installed driver)
#[case("nvidia-nvml-na", "# nvidia-smi\nFailed to initialize NVML: N/A")]
// A WSL user's notes on a CDI spec generated without libdxcore.so (the same text, with
// nvidia-smi's shutdown line after it)
#[case(
    "nvidia-nvml-na",
    "Failed to initialize NVML: N/A\nFailed to properly shut down NVML: N/A"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/1671
#[case(
    "nvidia-nvml-unknown-error",
    "root@098b49afe624:/# nvidia-smi \nFailed to initialize NVML: Unknown Error"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227
#[case(
    "nvidia-nvml-unknown-error",
    "(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error"
)]
// https://github.com/SyneRBI/PETRIC2/issues/27
#[case(
    "nvidia-cuda-requirement",
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container"
)]
// https://github.com/nodefluxio/vortex/issues/106
#[case("nvidia-cuda-requirement", r#"OCI runtime create failed: container_linux.go:349: starting container process caused "process_linux.go:449: container init caused \"process_linux.go:432: running prestart hook 1 caused \\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=10.2, please update your driver to a newer version, or use an earlier cuda container\\\\n\\\"\"": unknown"#)]
// https://github.com/NVIDIA/nvidia-docker/issues/536 (the older wording, with spaces)
#[case("nvidia-cuda-requirement", r#"running prestart hook 1 caused \\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real --device=all --compute --utility --require=cuda>=9.0 --pid=4781 /var/lib/docker/overlay2/7c70a2548b24e6186519dded1f09ac9b7cb30115195d7673cd081df76f8ab327/merged]\\\\nnvidia-container-cli: requirement error: unsatisfied condition: cuda >= 9.0\\\\n\\\"\""#)]
// https://github.com/containers/podman/issues/16094
#[case(
    "nvidia-legacy-hook",
    "Error: OCI runtime error: error executing hook `/usr/bin/nvidia-container-runtime-hook` (exit code: 1)"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/958
#[case("nvidia-legacy-hook", r#"docker: Error response from daemon: OCI runtime create failed: exec: "nvidia-container-runtime-hook": executable file not found in $PATH: unknown."#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1246
#[case(
    "nvidia-legacy-hook",
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: ldcache error: process /sbin/ldconfig terminated with signal 9"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/1447
#[case(
    "nvidia-hook-no-cgroups",
    "docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: container error: cgroup subsystem devices not found: unknown."
)]
// https://github.com/moby/moby/issues/38729 (rootless)
#[case("nvidia-hook-no-cgroups", r#"docker: Error response from daemon: OCI runtime create failed: container_linux.go:344: starting container process caused "process_linux.go:424: container init caused \"process_linux.go:407: running prestart hook 1 caused \\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig --device=all --compute --utility --require=cuda>=10.0 brand=tesla,driver>=384,driver<385 --pid=548 /home/suda/.local/share/docker/vfs/dir/122c480857379482f5317caaca55bbf5e43f84991accfa9f3ea586ed63f3fabd]\\\\nnvidia-container-cli: mount error: open failed: /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied\\\\n\\\"\"": unknown."#)]
// https://github.com/ublue-os/bluefin/issues/3454
#[case("nvidia-cdi-hook", r#"Error: OCI runtime error: crun: {"msg":"error executing hook `/usr/bin/nvidia-cdi-hook` (exit code: 1)","level":"error","time":"2025-10-22T10:04:55.559600Z"}"#)]
// https://github.com/void-linux/void-packages/issues/55062 (runc)
#[case(
    "nvidia-cdi-hook",
    "Error: runc: runc create failed: unable to start container process: error during container init: error running hook #0: fork/exec /usr/bin/nvidia-cdi-hook: no such file or directory: OCI runtime attempted to invoke a command that was not found"
)]
// https://github.com/NixOS/nixpkgs/pull/278969
#[case("nvidia-cdi-hook", r#"Error: OCI runtime error: crun: {"msg":"error executing hook `/run/current-system/sw/bin/nvidia-ctk` (exit code: 1)","level":"error","time":"..."}"#)]
// https://github.com/Igalia/webkit-container-sdk/issues/72
#[case("nvidia-cdi-hook", r#"Error: OCI runtime error: unable to start container "346dbfb347b39d13c11d7731cbe0e37da76fd4fb6d097d39534774a4e2a60144": crun: {"msg":"error executing hook `/usr/bin/nvidia-ctk` (exit code: 1)","level":"error","time":"2024-11-05T09:37:14.582274Z"}"#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1246 (the toolkit in CDI mode)
#[case(
    "nvidia-hook-cdi-mode",
    "error running prestart hook #0: exit status 1, stdout: , stderr: Using requested mode 'cdi'\ninvoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead."
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/182 (podman, nothing injected)
#[case("nvidia-nothing-injected", r#"Error: container_linux.go:349: starting container process caused "exec: \"nvidia-smi\": executable file not found in $PATH": OCI runtime command not found error"#)]
// https://github.com/NVIDIA/nvidia-docker/issues/1668
#[case("nvidia-nothing-injected", r#"docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown."#)]
// https://github.com/NVIDIA/nvidia-docker/issues/1544
#[case(
    "nvidia-oci-runtime",
    r#"Error: default OCI runtime "nvidia" not found: invalid argument"#
)]
// https://github.com/containers/podman/issues/3659
#[case(
    "nvidia-oci-runtime",
    "2020/04/03 13:34:52 ERROR: /usr/bin/nvidia-container-runtime: find runc path: exec: \"runc\": executable file not found in $PATH\nError: `/usr/bin/nvidia-container-runtime start e3ccb660bf27ce0858ee56476e58b53cd3dc900e8de80f08d10f3f844c0e9f9a` failed: exit status 1"
)]
// https://github.com/jvdillon/netv/issues/10 (podman-compose)
#[case("group-not-in-image", r#"Error: unable to start container "53c3e15601e6da2fffd40163854e4d91b1dcf01db3a5a3b9882974fc3faa6cfc": looking up supplemental groups for container 53c3e15601e6da2fffd40163854e4d91b1dcf01db3a5a3b9882974fc3faa6cfc: Unable to find group render: no matching entries in group file"#)]
// https://github.com/containers/podman/issues/10352 (podman 3.1 does not know keep-groups)
#[case(
    "keep-groups-unsupported",
    "Error: error looking up supplemental groups for container 40859934f17698885b65bad525c132715b0bc1bf626b27384246360eec0a9fed: Unable to find group keep-groups"
)]
// https://github.com/containers/podman/issues/25897
#[case(
    "render-node-denied",
    "cat: can't open '/dev/dri/renderD128': Permission denied"
)]
// https://github.com/ollama/ollama/issues/6685
#[case(
    "amd-kfd-permission-denied",
    "ROCk module version 6.8.5 is loaded\nUnable to open /dev/kfd read-write: Permission denied"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/4043
#[case(
    "amd-kfd-invalid-argument",
    "root:~# rocminfo\nROCk module version 6.7.0 is loaded\nUnable to open /dev/kfd read-write: Invalid argument\nroot is member of nogroup group"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/5379 (unprivileged LXC)
#[case(
    "amd-kfd-invalid-argument",
    "ROCk module is loaded\nUnable to open /dev/kfd read-write: Invalid argument\nroot is member of render group"
)]
// ROCm/legacy-rocm-build#2232 (KFD's ENOMEM) is read by the ROCm runtime's rule: explain_emitters_other.rs.
// https://github.com/ROCm/legacy-rocm-build/issues/1798 (in a container)
#[case(
    "amd-kfd-missing",
    "ROCk module is loaded\nUnable to open /dev/kfd read-write: No such file or directory\nFailed to get user name to check for video group membership"
)]
// https://github.com/l1na-forever/stable-diffusion-rocm-docker/issues/8
#[case("amd-kfd-missing", r#"docker: Error response from daemon: error gathering device information while adding custom device "/dev/kfd": no such file or directory."#)]
// https://github.com/xuhuisheng/rocm-gfx803/issues/5 (in a container)
#[case(
    "amd-hsa-out-of-resources",
    "root@0f607de254bf:/# rocminfo \nROCk module is loaded\nhsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1143\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events."
)]
// https://github.com/ROCm/hip/issues/3465
#[case(
    "amd-hsa-init",
    ":3:rocdevice.cpp            :468 : 7520451421 us: [pid:7786  tid:0x7f36df581440] Initializing HSA stack.\n:1:rocdevice.cpp            :478 : 7520451468 us: [pid:7786  tid:0x7f36df581440] hsa_init failed with 1008\n:1:runtime.cpp              :78  : 7520451473 us: [pid:7786  tid:0x7f36df581440] Runtime initialization failed"
)]
// https://github.com/containers/podman/issues/18497
#[case("selinux-denied", r#"type=AVC msg=audit(1683468487.052:3337): avc:  denied  { map } for  pid=699282 comm="vainfo" path="/dev/dri/renderD128" dev="devtmpfs" ino=947 scontext=system_u:system_r:container_t:s0:c260,c628 tcontext=system_u:object_r:dri_device_t:s0 tclass=chr_file permissive=0"#)]
// https://github.com/rfvgyhn/docker-avorion/issues/26
#[case(
    "selinux-denied",
    "SELinux is preventing pasta from 'read, write' accesses on the chr_file /dev/dri/renderD128."
)]
// https://github.com/NixOS/nixpkgs/issues/417312
#[case(
    "cdi-unresolvable",
    "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/146 (podman 4.4)
#[case(
    "cdi-unresolvable",
    "Error: error setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1940 (podman 4.9.3, a 0.7.0 spec)
#[case(
    "cdi-unresolvable",
    "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=0"
)]
// https://github.com/NVIDIA/gpu-operator/issues/531
#[case(
    "cdi-unresolvable",
    "unresolvable CDI devices management.nvidia.com/gpu=all: unknown"
)]
// https://github.com/cncf-tags/container-device-interface/issues/78
#[case(
    "cdi-unresolvable",
    "unresolvable CDI devices example-driver.cdi.k8s.io/test=claim-...."
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1860 (podman --debug)
#[case("cdi-spec-rejected", r#"The following error was triggered when refreshing the CDI registry: failed to load CDI Spec failed to parse CDI Spec "/etc/cdi/nvidia.yaml": failed to unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: unknown field "additionalGids""#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/38 (podman 4.2)
#[case("cdi-spec-rejected", r#"DEBU[0000] The following errors were triggered when creating the CDI registry: map[/etc/cdi/nvidia.yaml:[failed to load CDI Spec: failed to parse CDI Spec "/etc/cdi/nvidia.yaml": failed to unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: unknown field "hostPath"]]"#)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/63 (podman 3.0.1)
#[case(
    "cdi-name-as-path",
    "Error: stat nvidia.com/gpu=0: no such file or directory"
)]
fn real_gpu_failures_get_their_family(#[case] code: &str, #[case] text: &str) {
    assert_eq!(family(text), Some(code), "{text}");
}

#[rstest]
// https://github.com/NVIDIA/nvidia-container-runtime/issues/190 (podman's --gpus is a no-op there)
#[case(
    "nvidia-nothing-injected",
    "Error: crun: executable file `nvidia-smi` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found"
)]
// https://github.com/warmshao/FasterLivePortrait/issues/116 (docker emulated by podman)
#[case(
    "cdi-unresolvable",
    "Emulate Docker CLI using podman. Create /etc/containers/nodocker to quiet msg.\nError: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/434 (rootless docker)
#[case(
    "cdi-unresolvable",
    "error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all: unknown."
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/1537 (the thread's text is broken across "de vices")
#[case(
    "cdi-mention",
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI de          vices runtime.nvidia.com/gpu=all: unknown"
)]
// https://github.com/containers/podman/issues/19338 (a compose file's CDI name, podman's docker API)
#[case(
    "cdi-name-as-path",
    "Error response from daemon: container create: stat nvidia.com/gpu=all: no such file or directory"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/1017
#[case(
    "nvidia-legacy-hook",
    "2019/07/23 14:19:45 ERROR: inject NVIDIA hook: stat /usr/bin/nvidia-container-runtime-hook: no such file or directory"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/957
#[case(
    "nvidia-legacy-hook",
    "nvidia-container-cli: mount error: stat failed: /GeForce: no such file or directory"
)]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/772
#[case("nvidia-cdi-hook", r#"failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #1: error running hook: exit status 1, stdout: , stderr: time="yyyy-mm-ddThh:mm:ss+hh:mm" level=error msg="failed to create link [libGLX_nvidia.so.535.183.01 /usr/lib/x86_64-linux-gnu/libGLX_indirect.so.0]: failed to check if link exists: unexpected link target: libGLX_mesa.so.0": unknown"#)]
// https://github.com/NVIDIA/nvidia-container-runtime/issues/136: since round 4 read by the
// hook's stat of a file in the image's /usr/local/cuda/compat (a broken cuda-compat link),
// NVIDIA/libnvidia-container src/nvc_mount.c, not the generic hook family
#[case(
    "gpu-structured",
    "ERROR: for vr  Cannot start service vr: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: mount error: stat failed: /var/lib/docker/overlay2/3e69c4833ad6cf72748f7f259e8a408d4f567593d68432f69c8a5ae25a8e078e/merged/usr/local/cuda-10.2/compat/libcuda.so.440.118.02: no such file or directory: unknown"
)]
// https://github.com/NVIDIA/nvidia-docker/issues/1663 (driver libraries of another version)
#[case(
    "nvidia-hook-driver-files",
    "docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: detection error: open failed: /usr/lib/x86_64-linux-gnu/libnvidia-tls.so.470.129.06: no such file or directory: unknown."
)]
// https://github.com/hiyouga/LlamaFactory/issues/5268
#[case("nvidia-docker-no-gpu-driver", r#"docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]]"#)]
// https://github.com/NVIDIA/nvidia-docker/issues/1352
#[case("nvidia-docker-no-gpu-driver", r#"docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]]."#)]
// https://github.com/infiniflow/ragflow/issues/9573 (docker compose)
#[case("nvidia-docker-no-gpu-driver", r#"Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]"#)]
// https://github.com/pytorch/pytorch/issues/70036
#[case(
    "amd-no-hip-device",
    "RuntimeError: HIP error: hipErrorNoDevice\nHIP kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect."
)]
// https://github.com/pytorch/pytorch/issues/132987
#[case("amd-no-hip-device", "RuntimeError: No HIP GPUs are available")]
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/139 (cgroup v2), quoted in docs/explain.md;
// since round 7 the hook's own rule for this stage and call answers it (decisive over the
// family, so that the line wrapped mid-word, as slurmd's log does in #1093, reads the same): its
// cause names both this thread's rootless cgroup v2 and #1093's toolkit regression
#[case(
    "gpu-structured",
    "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted"
)]
// https://github.com/NVIDIA/nvidia-container-runtime/issues/85 (rootless podman, the legacy hook):
// CUDA's reason after the hook's stage is read since issue 31's round 8 (the host's driver in a
// bad state, or a rootless hook where that release cannot initialise CUDA).
#[case("gpu-structured", r#"container_linux.go:345: starting container process caused "process_linux.go:430: container init caused \"process_linux.go:413: running prestart hook 0 caused \\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: cuda error: unknown error\\\\n\\\"\"""#)]
fn more_real_gpu_failures_get_their_family(#[case] code: &str, #[case] text: &str) {
    assert_eq!(family(text), Some(code), "{text}");
}

/// Real GPU failures no family claims (listed in docs/explain.md): once answered only as
/// "not recognised", now read by their structure (issue 31, docs/explain.md#fallback): the
/// emitter from the line's prefix, the operation from its verb.
#[rstest]
// https://github.com/NVIDIA-AI-IOT/isaac_ros_common/issues/2 (a CSV-mode mount onto the wrong file type;
// runc's rootfs_linux.go wording, inside docker's)
#[case("runc", "mount", r#"docker: Error response from daemon: failed to create shim: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: rootfs_linux.go:76: mounting "/usr/lib/aarch64-linux-gnu/libcudnn.so.8.2.1" to rootfs at "/usr/lib/aarch64-linux-gnu/libcudnn.so.8.2.1" caused: mount through procfd: not a directory: unknown: Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the expected type."#)]
// https://github.com/NVIDIA/gpu-monitoring-tools/issues/90
#[case("nvml", "initialise", "Error: Failed to initialize NVML")]
// https://github.com/ollama/ollama/issues/6685
#[case(
    "rocblas",
    "find-device",
    "Could not initialize Tensile host: No devices found"
)]
// https://github.com/ROCm/legacy-rocm-build/issues/1770
#[case(
    "hip",
    "find-device",
    "UserWarning: HIP initialization: Unexpected error from hipGetDeviceCount(). \nDid you run some cuda functions before calling NumHipDevices() that might have already set an error? \nError 101: hipErrorInvalidDevice (Triggered internally at  /var/lib/jenkins/pytorch/c10/hip/HIPFunctions.cpp:110.)"
)]
fn known_gaps_are_read_by_their_structure(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] text: &str,
) {
    let e = explain(text, Registry::discovered(), None).expect(text);
    assert_eq!(e.family, gpuctl_core::plugin::STRUCTURED, "{text}");
    assert_eq!(e.emitter, Some(emitter), "{text}");
    assert_eq!(e.operation.map(|o| o.as_str()), Some(operation), "{text}");
}

/// issue 19 item 3: a device node the arguments name and the host lacks. The first is what
/// podman 4.3.1 prints under `gpuctl run` on the intel-laptop host (issue 19, observed on
/// Debian 12, docs/podman-ci.md); the NVIDIA ones are podman's same `stat` wording for the
/// NVIDIA nodes, and docker's for a whole /dev/dri.
#[rstest]
#[case(
    "render-node-missing",
    "Error: stat /dev/dri/renderD128: no such file or directory"
)]
#[case(
    "nvidia-node-missing",
    "Error: stat /dev/nvidia0: no such file or directory"
)]
#[case(
    "nvidia-node-missing",
    "Error: stat /dev/nvidiactl: no such file or directory"
)]
#[case(
    "render-node-missing",
    "docker: Error response from daemon: error gathering device information while adding custom device \"/dev/dri\": no such file or directory."
)]
fn missing_device_nodes_are_recognised(#[case] code: &str, #[case] text: &str) {
    assert_eq!(family(text), Some(code), "{text}");
}

/// runc's stale-mount wording, built from its format string "error mounting %q to rootfs at %q:
/// %w" (opencontainers/runc libcontainer/rootfs_linux.go): no public thread with the exact
/// text was found, so this one is constructed, not collected.
#[test]
fn runc_s_stale_mount_wording() {
    let text = r#"Error: runc: runc create failed: unable to start container process: error during container init: error mounting "/usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07" to rootfs at "/usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07": stat /usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07: no such file or directory: OCI runtime attempted to invoke a command that was not found"#;
    assert_eq!(family(text), Some("nvidia-stale-spec"));
    assert_eq!(
        family(&text.replace("libEGL_nvidia", "libEGL_acme")),
        Some("cdi-stale-spec")
    );
}

#[rstest]
// https://github.com/containers/podman/issues/24989
#[case(r#"Error: short-name "helloworld" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf""#)]
// https://github.com/containers/podman/issues/16289
#[case("Error: rootlessport listen tcp 127.0.0.1:54322: bind: address already in use")]
// https://github.com/containers/podman/issues/6762
#[case(r#"ERRO[0003] failed to expose ports via rootlessport: "listen tcp 0.0.0.0:9080: bind: address already in use"#)]
// https://github.com/jasonacox/Powerwall-Dashboard/issues/383
#[case(
    "Error: initializing source docker://jasonacox/weather41:0.2.2: reading manifest 0.2.2 in docker.io/jasonacox/weather41: requested access to the resource is denied"
)]
// https://github.com/containers/podman/issues/27913
#[case(
    "Error: unable to copy from source docker://container-registry.oracle.com/osixia/openldap:1.5.0: initializing source docker://container-registry.oracle.com/osixia/openldap:1.5.0: reading manifest 1.5.0 in container-registry.oracle.com/osixia/openldap: requested access to the resource is denied"
)]
// https://github.com/containers/podman/issues/4957 (an unreadable volume: crun's stat wording, not a GPU)
#[case(
    "Error: error stat'ing file '/opt/data': Permission denied: OCI runtime permission denied error"
)]
// https://github.com/winboat-org/winboat/pull/533 (a USB device gone since the container was
// made: crun's stat of a /dev path no GPU vendor owns, not a stale CDI spec)
#[case(
    "Error: unable to start container \"64f6f99244bd6e5c15c592184db61b2a0f21a5c9bc1f4b9e1a80f7357daab08d\": crun: cannot stat `/dev/bus/usb/001/004`: No such file or directory: OCI runtime attempted to invoke a command that was not found"
)]
// https://github.com/containers/podman/issues/22004
#[case("ls: cannot open directory '.': Permission denied")]
// https://github.com/Koenkk/zigbee2mqtt.io/pull/3372
#[case("cp: can't stat '/app/data/configuration.yaml': Permission denied")]
// https://github.com/containers/crun/pull/635
#[case(
    "2021-03-23T08:47:08.000722463Z: OOM: the memory limit could be too low: read from the init process"
)]
fn real_non_gpu_failures_stay_unclaimed(#[case] text: &str) {
    assert_eq!(family(text), None, "{text}");
}
