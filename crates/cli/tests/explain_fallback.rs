//! The structured fallback (issue 31, docs/explain.md#fallback): a GPU failure no family and
//! no emitter rule claims is read by its structure — the emitter from the line's prefix, the
//! operation from its verb, the object from the component it names (each vendor's vocabulary,
//! from its own component lists) — and look-alikes that share its words stay unclaimed. The
//! lines are composed from the emitters' own source strings and the vendors' component lists,
//! each cited beside it; none is a thread's text.

use gpuctl_core::commands::explain::{Explanation, explain};
use gpuctl_core::plugin::{ComponentKind, Registry, STRUCTURED, UNRECOGNISED};
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

fn read(text: &str) -> Option<Explanation> {
    explain(text, Registry::discovered(), None)
}

/// The fallback says how it read the line, so that its diagnosis is not taken for a rule's.
const FROM_STRUCTURE: &str = "read from the line's structure";

#[rstest]
// spf13/pflag flag.go: "unknown flag: %s", as docker's CLI prints it; --gpus from docker's
// "docker container run" reference (19.03 and later).
#[case("docker", "match-version", "older", "docker: unknown flag: --gpus")]
// Linux drivers/base/dd.c: "probe with driver %s failed with error %d", after dev_err's
// "<driver> <device>:" prefix; xe and amdgpu from the kernel's GPU driver documentation.
#[case(
    "intel-kernel-module",
    "initialise",
    "kernel log",
    "xe 0000:03:00.0: probe with driver xe failed with error -22"
)]
#[case(
    "amdgpu-kernel-module",
    "initialise",
    "kernel log",
    "amdgpu 0000:03:00.0: probe with driver amdgpu failed with error -22"
)]
// opencontainers/runc libcontainer/rootfs_linux.go: "error mounting %q to rootfs at %q: %w";
// nvidia_icd.json from the NVIDIA driver README (the Vulkan ICD).
#[case(
    "runc",
    "mount",
    "already has",
    r#"error mounting "/usr/share/vulkan/icd.d/nvidia_icd.json" to rootfs at "/etc/vulkan/icd.d/nvidia_icd.json": not a directory"#
)]
// A traceback whose frame is PyTorch's torch/cuda/__init__.py (_lazy_init calls
// torch._C._cuda_init()): the exception line names no GPU, its frames do.
#[case(
    "cuda",
    "initialise",
    "kernel driver",
    "Traceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/torch/cuda/__init__.py\", line 302, in _lazy_init\n    torch._C._cuda_init()\nRuntimeError: the backend could not start"
)]
// intel/xpumanager cli/src/comlet_discovery.cpp: "No device discovered", the output of the
// command the line before runs.
#[case(
    "xpu-smi",
    "find-device",
    "not given",
    "$ xpu-smi discovery\nNo device discovered"
)]
// NVIDIA/nvidia-container-toolkit's create-symlinks hook: "failed to create link %v: %w", in
// logrus's format on the stderr runc reports ("error running hook #%d"); the hook is not named,
// the runtime flag says whose it is. 10_nvidia.json: the README's EGL vendor file.
#[case(
    "nvidia-ctk",
    "mount",
    "already has",
    "docker run --rm --runtime=nvidia img\ndocker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: time=\"2025-01-01T00:00:00Z\" level=info msg=\"Symlinking /usr/share/glvnd/egl_vendor.d/10_nvidia.json\"\ntime=\"2025-01-01T00:00:00Z\" level=error msg=\"failed to create link [/usr/lib/x86_64-linux-gnu/nvidia/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json]: failed to create symlink: file exists\""
)]
// NVIDIA/k8s-device-plugin's MIG resource names (nvidia.com/mig-<profile>).
#[case(
    "program",
    "allocate",
    "device plugin",
    "Error: cannot allocate nvidia.com/mig-1g.10gb: none free"
)]
// NVIDIA/nvidia-container-toolkit's documented NVIDIA_DRIVER_CAPABILITIES values.
#[case(
    "program",
    "find-device",
    "value",
    r#"Error: could not read NVIDIA_DRIVER_CAPABILITIES: invalid capability "gfx""#
)]
// WSL's GPU node (Microsoft's dxgkrnl: /dev/dxg), with errno's text.
#[case(
    "program",
    "open",
    "not passed",
    "Error: failed to open /dev/dxg: No such file or directory"
)]
fn composed_lines_are_read_by_their_structure(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] cause: &str,
    #[case] text: &str,
) {
    let e = read(text).unwrap_or_else(|| panic!("unclaimed: {text}"));
    assert_eq!(e.family, STRUCTURED, "{text}");
    assert_eq!(e.emitter, Some(emitter), "{text}");
    assert_eq!(e.operation.map(|o| o.as_str()), Some(operation), "{text}");
    assert!(
        e.cause.as_deref().is_some_and(|c| c.contains(cause)),
        "{:?} lacks {cause:?}: {text}",
        e.cause
    );
    assert!(
        e.details.iter().any(|d| d.starts_with(FROM_STRUCTURE)),
        "{:?}: {text}",
        e.details
    );
}

/// Texts that share words with GPU failures but are none: unclaimed.
#[rstest]
// A USB serial device (moby's "error gathering device information while adding custom
// device %q") and a USB bus node: no GPU component.
#[case(
    "Error response from daemon: error gathering device information while adding custom device \"/dev/ttyUSB0\": no such file or directory"
)]
#[case("Error: open /dev/bus/usb/001/004: permission denied")]
// Audio: ALSA's card nodes and its lib's "cannot find card".
#[case("Error: open /dev/snd/controlC0: permission denied")]
#[case("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'")]
// Runtimes that are no GPU's (moby's "unknown or invalid runtime name: %s", containerd's CRI
// "no runtime for %q is configured").
#[case("docker: Error response from daemon: unknown or invalid runtime name: runsc.")]
#[case(
    "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"kata\" is configured"
)]
// `xe` inside words: exec, index.exe, xen.
#[case("exec /usr/bin/entrypoint: exec format error")]
#[case("Error: failed to start index.exe: file not found")]
#[case("Error: cannot open /sys/module/xen/parameters: no such file or directory")]
// The workload's own out-of-memory (PyTorch's torch.cuda.OutOfMemoryError).
#[case(
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB"
)]
// An image without cuDNN: the image's packaging, in two loaders' words.
#[case(
    "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory"
)]
#[case("Error: failed to load cuDNN: version 8.9 required")]
// A framework built without GPU support (PyTorch's "Torch not compiled with CUDA enabled").
#[case("AssertionError: Torch not compiled with CUDA enabled")]
// An application's own error, no GPU word.
#[case(
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices"
)]
// A log that says "GPU" in passing, with no failure.
#[case("INFO: using GPU 0 for inference\nINFO: model loaded in 2.1 s")]
// A command that names the GPU flag, and a failure that is not the GPU's.
#[case(
    "$ docker run --gpus all -v /data:/data myimage\ndocker: Error response from daemon: pull access denied for myimage, repository does not exist"
)]
// The API server refusing a manifest ("The %s %q is invalid: %s"): the manifest's, not the stack's.
#[case(
    r#"The Pod "job" is invalid: spec.containers[0].resources.limits[amd.com/gpu]: Invalid value: "1.5": must be an integer"#
)]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    let e = read(text);
    assert!(
        e.is_none(),
        "{text}: {:?}",
        e.map(|e| (e.family, e.emitter, e.diagnosis))
    );
}

/// A text that names a component but reports no failure is answered as not recognised; one
/// whose only failure is far from the component's line is not answered.
#[test]
fn a_component_without_a_failure_is_not_recognised() {
    let e = read("step 1\nthe host runs NVML 12.4\nstep 3\n");
    assert_eq!(e.map(|e| e.family), Some(UNRECOGNISED));
    let far = "the host runs NVML 12.4\nstep 2\nstep 3\nstep 4\nError: connection refused\n";
    assert!(read(far).is_none());
}

/// A specific family or an emitter rule keeps the text: the fallback ranks below both, and is
/// never asked when they answer.
#[test]
fn a_family_or_a_rule_keeps_its_text() {
    let family =
        "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183";
    let e = read(family).expect("claimed");
    assert_ne!(e.family, STRUCTURED);
    assert!(!e.details.iter().any(|d| d.starts_with(FROM_STRUCTURE)));
    // libnvidia-container's load-library rule (docs/explain.md#emitters).
    let rule = "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory";
    let e = read(rule).expect("claimed");
    assert_eq!(e.emitter, Some("nvidia-container-cli"));
    assert!(!e.details.iter().any(|d| d.starts_with(FROM_STRUCTURE)));
    // Two lines the fallback read before round 4's NVIDIA rules came: now each is its emitter
    // rule's (NVIDIA/nvidia-persistenced nvidia-persistenced.c, wait_for_init_complete();
    // kmod tools/modprobe.c "Module %s not found in directory %s").
    for (text, emitter) in [
        (
            "nvidia-persistenced failed to initialize. Check syslog for more details.",
            "nvidia-persistenced",
        ),
        (
            "modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/6.8.0-45-generic",
            "nvidia-kernel-module",
        ),
    ] {
        let e = read(text).expect("claimed");
        assert_eq!(e.emitter, Some(emitter), "{text}");
        assert!(
            !e.details.iter().any(|d| d.starts_with(FROM_STRUCTURE)),
            "{text}"
        );
    }
}

/// Every word of every vendor's vocabulary, on a failure line of its kind, is answered (never
/// silent), except a library the image ships, which stays the image's.
#[test]
fn every_component_s_failure_is_answered() {
    let mut silent = Vec::new();
    for b in Registry::discovered().backends() {
        for c in b.diagnostics().components() {
            let w = c.word;
            let line = match c.kind {
                ComponentKind::DriverLibrary => {
                    format!("Error: failed to load {w}.so.1: file too short")
                }
                ComponentKind::ImageLibrary => format!(
                    "OSError: failed to load {w}.so: cannot open shared object file: No such file or directory"
                ),
                ComponentKind::DriverFile => {
                    format!("Error: failed to read {w}: permission denied")
                }
                ComponentKind::Program => format!("{w}: error: unexpected failure"),
                ComponentKind::KernelModule => format!("kernel: {w} probe failed with error -22"),
                // A prefix of numbered nodes (`/dev/nvidia`) with its number.
                ComponentKind::DeviceNode if c.prefix => {
                    format!("Error: open {w}0: permission denied")
                }
                ComponentKind::DeviceNode => format!("Error: open {w}: permission denied"),
                ComponentKind::Variable => format!("Error: invalid value in {w}=7"),
                ComponentKind::Resource => format!("Error: cannot allocate {w}: none free"),
                ComponentKind::Runtime => format!("{w} failed: unknown error"),
                ComponentKind::ContainerRuntime => {
                    format!("Error: exec: \"{w}\": executable file not found in $PATH")
                }
                ComponentKind::Flag => format!("docker: unknown flag: {w}"),
                ComponentKind::Device => format!("Error: no {w} found"),
                other => panic!("compose a failure line for the new kind {other:?}"),
            };
            let answered = read(&line).is_some();
            if answered == (c.kind == ComponentKind::ImageLibrary) {
                silent.push(line);
            }
        }
    }
    assert!(silent.is_empty(), "{}", silent.join("\n"));
}
