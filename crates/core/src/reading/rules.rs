//! Core's emitters: container engines, OCI runtimes, Kubernetes, and the vendor-neutral
//! graphics and compute loaders. Each rule's wording is the emitter's own (the source is named
//! beside it; docs/explain.md#emitters has the table).

use super::{EmitterRule, ObjectAt, Operation, RANK_VAGUE, RANK_WRAPPER, RULE};

/// What to check when a GPU resource cannot be scheduled.
const NODE_RESOURCE_CHECK: &str = "'kubectl describe node <gpu node>' must list {object} under Capacity and Allocatable; if it does not, read the device plugin's pod log on that node ('kubectl -n <namespace> logs <plugin pod>')";

/// Core's rules, in no particular order (the most specific reading wins, [`super::primary`]).
pub(crate) const CORE_RULES: &[EmitterRule] = &[
    // moby daemon/runtime_unix.go: "unknown or invalid runtime name: %s".
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["unknown or invalid runtime name: "]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("unknown or invalid runtime name: "),
        gpu_object: true,
        cause: "the daemon has no runtime called '{object}' registered: /etc/docker/daemon.json's \"runtimes\" does not name it, or the daemon was not restarted after it was added.",
        check: "'docker info' lists the runtimes the daemon knows; register it with the vendor toolkit's 'runtime configure --runtime=docker' command (NVIDIA: 'sudo nvidia-ctk runtime configure --runtime=docker'), then 'sudo systemctl restart docker'",
        ..RULE
    },
    // docker before 20.10: "Unknown runtime specified %s" (NVIDIA/nvidia-docker#578).
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["Unknown runtime specified "]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("Unknown runtime specified "),
        gpu_object: true,
        cause: "the daemon has no runtime called '{object}' registered: /etc/docker/daemon.json's \"runtimes\" does not name it, or the daemon was not restarted after it was added.",
        check: "'docker info' lists the runtimes the daemon knows; register it with the vendor toolkit's 'runtime configure --runtime=docker' command (NVIDIA: 'sudo nvidia-ctk runtime configure --runtime=docker'), then 'sudo systemctl restart docker'",
        ..RULE
    },
    // containerd's CRI plugin: `no runtime for %q is configured`; the name also comes without
    // quotes (NVIDIA/gpu-operator#432: `no runtime for nvidia is configured`), so the marker
    // ends before the quote and the object's edges are trimmed.
    EmitterRule {
        emitter: "containerd",
        who: "containerd's CRI plugin",
        line: &[&["no runtime for ", " is configured"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("no runtime for "),
        gpu_object: true,
        cause: "containerd has no runtime '{object}' configured (no [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.{object}] section in /etc/containerd/config.toml), or containerd was not restarted after it was added; a RuntimeClass whose handler is '{object}' needs that section on every node it runs on.",
        check: "'containerd config dump | grep -A3 runtimes.{object}' on the node; add it with the vendor toolkit ('sudo nvidia-ctk runtime configure --runtime=containerd') and 'sudo systemctl restart containerd'",
        ..RULE
    },
    // CRI-O: "failed to find runtime handler %s from runtime list %v".
    EmitterRule {
        emitter: "cri-o",
        who: "CRI-O",
        line: &[&["failed to find runtime handler "]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("failed to find runtime handler "),
        gpu_object: true,
        cause: "CRI-O has no runtime handler '{object}': no [crio.runtime.runtimes.{object}] in /etc/crio/crio.conf or crio.conf.d, or CRI-O was not restarted after it was added.",
        check: "'crio config | grep -A3 runtimes.{object}' on the node; add the handler ('sudo nvidia-ctk runtime configure --runtime=crio' for NVIDIA) and 'sudo systemctl restart crio'",
        ..RULE
    },
    // Kubernetes' RuntimeClass admission: `pod rejected: RuntimeClass "%s" not found`.
    EmitterRule {
        emitter: "kubelet",
        who: "Kubernetes",
        line: &[&["RuntimeClass \"", "not found"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("RuntimeClass \""),
        gpu_object: true,
        cause: "the pod names the RuntimeClass '{object}', which this cluster does not define (the GPU operator or the vendor's chart creates it; a manual install does not).",
        check: "'kubectl get runtimeclass'; create '{object}' with the handler the nodes' containerd or CRI-O configures, or drop runtimeClassName from the pod",
        ..RULE
    },
    // podman: `OCI runtime "%s" not found` (libpod/runtime.go); NVIDIA's family says more
    // for its own runtime.
    EmitterRule {
        emitter: "podman",
        who: "podman",
        line: &[&["OCI runtime \"", "\" not found"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("OCI runtime \""),
        gpu_object: true,
        cause: "podman knows no OCI runtime '{object}': containers.conf's [engine.runtimes] does not list it, or none of the paths it lists exists. podman needs no GPU runtime: it takes GPUs by CDI ('--device nvidia.com/gpu=all').",
        check: "drop '--runtime {object}' (and any 'runtime = \"{object}\"' in containers.conf) and pass the GPU by CDI, as 'gpuctl args' prints it",
        ..RULE
    },
    // kube-scheduler: "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    EmitterRule {
        emitter: "kube-scheduler",
        who: "the Kubernetes scheduler",
        line: &[&["Insufficient "]],
        operation: Operation::Allocate,
        object: ObjectAt::After("Insufficient "),
        gpu_object: true,
        cause: "no node has a free {object}: no node advertises the resource (its device plugin is not running, not registered with the kubelet, or found no GPU: a driver or container-runtime problem on the node), or every one is allocated. It is an extended resource name, not a CDI device name.",
        check: NODE_RESOURCE_CHECK,
        ..RULE
    },
    // kubelet pkg/kubelet/cm/devicemanager/manager.go: "requested number of devices unavailable
    // for %s. Requested: %d, Available: %d, which is unexpected".
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet's device manager",
        line: &[&["requested number of devices unavailable for "]],
        operation: Operation::Allocate,
        object: ObjectAt::After("requested number of devices unavailable for "),
        cause: "the node has fewer healthy {object} devices than the pod asks for: the device plugin reported them unhealthy or gone (after a driver, plugin or kubelet restart, or an Xid error), though the scheduler still counted them.",
        check: NODE_RESOURCE_CHECK,
        ..RULE
    },
    // kubelet devicemanager: "no healthy devices present; cannot allocate unhealthy devices %s"
    // (older: "can't allocate unhealthy devices %s").
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet's device manager",
        line: &[&["allocate unhealthy devices "]],
        operation: Operation::Allocate,
        object: ObjectAt::After("allocate unhealthy devices "),
        cause: "every {object} device the plugin advertises is unhealthy: the plugin's health check failed (a GPU fallen off the bus, an Xid error, a driver reloaded under it).",
        check: "the device plugin's log on that node names the failed health check; 'nvidia-smi' / 'rocm-smi' on the node shows the GPU's state",
        ..RULE
    },
    // runc libcontainer: "error running hook #%d: %w" / "running prestart hook %d"; crun:
    // "error executing hook `%s` (exit code: %d)". The reason is the hook's own line.
    EmitterRule {
        emitter: "runc",
        who: "the OCI runtime",
        line: &[
            &["error running hook"],
            &["running prestart hook"],
            &["error running prestart hook"],
        ],
        operation: Operation::RunHook,
        cause: "a prestart hook exited with an error; its own message (after 'stderr:') says why.",
        check: "run the hook's command by hand (for NVIDIA's legacy hook: 'nvidia-container-cli -k -d /dev/tty info')",
        rank: RANK_WRAPPER,
        ..RULE
    },
    EmitterRule {
        emitter: "crun",
        who: "crun",
        line: &[&["error executing hook `"]],
        operation: Operation::RunHook,
        object: ObjectAt::After("error executing hook `"),
        gpu_object: true,
        cause: "the hook {object} exited with an error; its own message says why.",
        check: "run the hook's command by hand to see its message",
        rank: RANK_WRAPPER,
        ..RULE
    },
    // libva va.c: "libva error: %s init failed", "va_openDriver() returns %d",
    // "vaGetDriverNameByIndex() failed".
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&["libva error: ", "init failed"]],
        operation: Operation::Initialise,
        object: ObjectAt::After("libva error: "),
        cause: "the VA-API driver {object} was found but refused to start: it does not support this GPU (i965 against a newer Intel GPU, iHD against an older one), it is older than the GPU, or the render node it opened is not the GPU's.",
        check: "'vainfo --display drm --device /dev/dri/renderD128' on the host; pick the driver with LIBVA_DRIVER_NAME (iHD for Broadwell and newer, i965 for older; radeonsi for AMD) and install it in the image",
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[
            &["vaGetDriverNameByIndex() failed"],
            &["va_getDriverName() failed"],
            &["va_getDriverNameByIndex() failed"],
        ],
        operation: Operation::FindDevice,
        cause: "libva could not tell which driver fits the display it opened: the render node is not a GPU's (no /dev/dri node passed to the container, or a node of a display-only device), or no DRM driver serves it.",
        check: "'ls -l /dev/dri' inside the container must show the GPU's renderD node; pass it ('--device /dev/dri/renderD128') and set LIBVA_DRIVER_NAME if it is still not found",
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[
            &["va_openDriver() returns -1"],
            &["va_openDriver() returns 1"],
        ],
        operation: Operation::LoadLibrary,
        cause: "libva found no driver file it could load: the VA-API driver (iHD_drv_video.so, i965_drv_video.so, radeonsi_drv_video.so, nvidia_drv_video.so) is not installed in the image or not on LIBVA_DRIVERS_PATH.",
        check: "install the driver package in the image (intel-media-va-driver, mesa-va-drivers) and check 'ls $LIBVA_DRIVERS_PATH' (default /usr/lib/x86_64-linux-gnu/dri)",
        ..RULE
    },
    // ffmpeg libavutil/hwcontext_vaapi.c: "Failed to initialise VAAPI connection: %d (%s)".
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[
            &["Failed to initialise VAAPI connection"],
            &["No VA display found for device"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::After("No VA display found for device "),
        cause: "libva could not open the GPU's render node or start a driver on it (the lines libva printed before this say which).",
        check: "'vainfo' in the container; the render node must exist there and be readable by the process (its group reaches the container with '--group-add keep-groups' under crun)",
        rank: RANK_VAGUE,
        ..RULE
    },
    // Vulkan-Loader: VK_ERROR_INCOMPATIBLE_DRIVER from vkCreateInstance when no ICD loads.
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        line: &[
            &["ERROR_INCOMPATIBLE_DRIVER"],
            &["Cannot create Vulkan instance"],
            &["Found no drivers!"],
        ],
        operation: Operation::LoadLibrary,
        cause: "no Vulkan driver (ICD) could be loaded: no ICD manifest under /usr/share/vulkan/icd.d or /etc/vulkan/icd.d names a library present in the container (NVIDIA's nvidia_icd.json comes with the graphics capability: NVIDIA_DRIVER_CAPABILITIES must include 'graphics'; Mesa's radv or anv must be in the image for AMD and Intel).",
        check: "'ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d' in the container, then VK_LOADER_DEBUG=all vulkaninfo to see why each ICD is skipped",
        ..RULE
    },
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        line: &[
            &["ERROR_INITIALIZATION_FAILED"],
            &["Failed to CreateInstance in ICD"],
        ],
        operation: Operation::Initialise,
        cause: "a Vulkan driver was found but did not start: it cannot reach its GPU (no device node or render node passed, or NVIDIA's user-space libraries of another release than the kernel module).",
        check: "VK_LOADER_DEBUG=all vulkaninfo in the container; the GPU's nodes must be there, and for NVIDIA the ICD's libGLX_nvidia.so must be the host driver's release",
        rank: RANK_VAGUE,
        ..RULE
    },
    // Mesa's loader: "MESA-LOADER: failed to open %s: %s (search paths %s)".
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's driver loader",
        line: &[&["MESA-LOADER: failed to open "]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("MESA-LOADER: failed to open "),
        cause: "Mesa's '{object}' driver is not in the image (or not on the search path it names), so the GPU falls back to software rendering or fails.",
        check: "install Mesa's DRI drivers in the image (libgl1-mesa-dri, mesa-dri-drivers) and check LIBGL_DRIVERS_PATH",
        ..RULE
    },
    // OpenCL ICD loader: CL_PLATFORM_NOT_FOUND_KHR (-1001) from clGetPlatformIDs.
    EmitterRule {
        emitter: "opencl-icd",
        who: "the OpenCL ICD loader",
        line: &[&["clGetPlatformIDs", "-1001"], &["PLATFORM_NOT_FOUND_KHR"]],
        operation: Operation::LoadLibrary,
        cause: "no OpenCL platform could be loaded: /etc/OpenCL/vendors holds no .icd file naming a library present in the container (NVIDIA's nvidia.icd comes with the compute capability; AMD's and Intel's ICDs must be installed in the image).",
        check: "'ls /etc/OpenCL/vendors' and 'clinfo' in the container; OCL_ICD_ENABLE_TRACE=1 shows why each ICD is skipped",
        ..RULE
    },
];
