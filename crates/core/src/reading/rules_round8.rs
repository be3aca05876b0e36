//! Issue 31, round 8 (set K's misses as classes). Each rule's wording is the emitter's own,
//! named beside it (docs/explain.md "Round 8").
//!
//! - A Kubernetes device plug-in's file watcher on the kubelet's socket directory
//!   (`/var/lib/kubelet/device-plugins/`, fsnotify's inotify_init1): NVIDIA's k8s-device-plugin
//!   logs "failed to create FS watcher for %s: %v", Intel's device plug-ins "Failed to create
//!   watcher for %s" after "Failed to serve %s: too many open files". EMFILE there is the
//!   node's inotify instance limit (fs.inotify.max_user_instances, 128 by default), not the
//!   process's open files: without the watcher the plug-in does not serve or re-register its
//!   GPU resource, so pods asking for it stay Pending (intel/intel-device-plugins-for-kubernetes
//!   #2075: raising the sysctl fixed it).
//! - FFmpeg's VA-API encoder (libavcodec/vaapi_encode.c): "Driver does not support %s RC mode
//!   (supported modes: %s)". A driver that offers CQP only for H.264/HEVC is, on Intel's iHD,
//!   the low-power (VDEnc) encoder without HuC firmware: bit-rate control (CBR, VBR) runs on
//!   HuC, which i915 loads only where GuC/HuC loading is on (i915.enable_guc=2 or 3, the
//!   default from Alder Lake) and linux-firmware has the GPU's HuC file (jellyfin/jellyfin#9267
//!   on Arc: newer firmware fixed it).
//! - libGL's DRI loader (Mesa src/glx/dri_common.c and the DRI2/DRI3 paths): "libGL error:
//!   failed to open drm device: %s" with strerror of the open of /dev/dri/card*, followed by
//!   "failed to load driver: i965": the errno says why, and the driver line only follows from
//!   it. Permission denied: the user is not in the node's group (video for card*;
//!   ustuehler/lxc-desktop#5). No such file or directory: the container was given no /dev/dri
//!   (lichti/containers4docker#17). Operation not permitted: the device cgroup refuses the
//!   open, as for a node passed read-only (x11docker's `--device=/dev/dri:ro`,
//!   mviereck/x11docker#12) or one an LXC's devices.allow does not list.

use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_REASON, RULE};

/// A node's status naming a GPU resource at zero (its line shapes and object are each rule's).
const NODE_ZERO: EmitterRule = EmitterRule {
    emitter: "kubelet",
    who: "the node's status",
    operation: Operation::Allocate,
    objects: &["nvidia.com/", "amd.com/", "gpu.intel.com/"],
    gpu_object: true,
    cause: "the node offers none of {object}: no device plug-in registered it with this node's kubelet: the plug-in's DaemonSet does not run on the node (its nodeSelector, affinity or a label it selects by does not match the node, or a taint keeps it off), or it runs but found no GPU it can serve (no driver loaded, no device node).",
    check: "'kubectl -n <plug-in's namespace> get pods -o wide' (is one on this node?), 'kubectl get ds -o yaml' for its nodeSelector against 'kubectl get node <node> --show-labels', and the plug-in pod's log on the node",
    ..RULE
};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "device-plugin",
        who: "the device plug-in",
        line: &[
            &["failed to create FS watcher", "too many open files"],
            &["Failed to create watcher for ", "device-plugins"],
            &["Failed to serve ", "too many open files"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("the kubelet's device-plugins directory"),
        cause: "the plug-in could not create its inotify watcher on the kubelet's socket directory because the node ran out of inotify instances (fs.inotify.max_user_instances, 128 by default, shared by every process of a user; 'too many open files' is inotify's EMFILE, not the process's file limit), so it does not serve or re-register its GPU resource and pods asking for it stay Pending.",
        check: "on the node, 'sysctl fs.inotify.max_user_instances fs.inotify.max_user_watches'; raise them ('sysctl -w fs.inotify.max_user_instances=512' and a file in /etc/sysctl.d), then restart the plug-in's pod; 'find /proc/*/fd -lname anon_inode:inotify 2>/dev/null | cut -d/ -f3 | sort | uniq -c | sort -n' shows who holds them",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API encoder",
        line: &[&["Driver does not support ", " RC mode (supported modes: "]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("Driver does not support "),
        cause: "the VA-API driver offers the encoder no {object} rate control: on an Intel GPU with the iHD driver, the low-power encoder's bit-rate control (CBR, VBR) runs on the HuC firmware, which the kernel did not load (GuC/HuC loading off, i915.enable_guc not 2 or 3 where it is not the default, or linux-firmware without this GPU's HuC file), so only CQP is offered; otherwise the GPU's encoder has no such mode for this codec.",
        check: "on the host, 'sudo cat /sys/kernel/debug/dri/0/gt/uc/huc_info' (or 'dmesg | grep -i huc') says whether HuC is loaded; install a current linux-firmware and set 'i915.enable_guc=2' (or 3) on older kernels, then reboot; 'vainfo' lists the encoder's entrypoints; or ask FFmpeg for CQP ('-rc_mode CQP')",
        ..RULE
    },
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's libGL",
        line: &[&["failed to open drm device: Permission denied"]],
        operation: Operation::Open,
        object: ObjectAt::Is("the GPU's DRM device (/dev/dri)"),
        cause: "the node is there but the process's user may not open it: it is not in the group that owns /dev/dri's nodes (video for card*, render for renderD*), or that group did not reach the container (another GID inside it, a '--user' that drops it), so Mesa falls back to software rendering.",
        check: "'ls -ln /dev/dri' and 'id' as the program's user where it runs: add the user to the node's group by its number ('--group-add <gid>', podman's '--group-add keep-groups'; in an LXC, the container's user to its video group)",
        rank: RANK_REASON - 1,
        ..RULE
    },
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's libGL",
        line: &[&["failed to open drm device: No such file or directory"]],
        operation: Operation::Stat,
        object: ObjectAt::Is("the GPU's DRM device (/dev/dri)"),
        cause: "there is no /dev/dri node where the program runs: the container was started without the GPU's DRI devices ('--device /dev/dri' or a CDI device), or the host has none (no i915, amdgpu or other DRM driver bound to the GPU), so Mesa falls back to software rendering.",
        check: "'ls -l /dev/dri' on the host and in the container; start the container with '--device /dev/dri' (or 'gpuctl args' for the host's GPUs)",
        rank: RANK_REASON - 1,
        ..RULE
    },
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's libGL",
        line: &[&["failed to open drm device: Operation not permitted"]],
        operation: Operation::Open,
        object: ObjectAt::Is("the GPU's DRM device (/dev/dri)"),
        cause: "the node is in the container but its device cgroup refuses the open: it was passed read-only (a '--device /dev/dri:r' or ':ro' option, as an x11docker release did) or an LXC's or engine's device list does not allow it read-write, so Mesa falls back to software rendering.",
        check: "pass the node read-write ('--device /dev/dri:/dev/dri:rwm', x11docker's --gpu with a release that passes it rw); in an LXC, 'lxc.cgroup2.devices.allow: c 226:* rwm'",
        rank: RANK_REASON - 1,
        ..RULE
    },
    EmitterRule {
        line: &[
            &["capacity.", "/gpu: 0"],
            &["capacity.", "/i915: 0"],
            &["capacity.", "/xe: 0"],
        ],
        object: ObjectAt::After("capacity."),
        ..NODE_ZERO
    },
    EmitterRule {
        line: &[
            &["allocatable.", "/gpu: 0"],
            &["allocatable.", "/i915: 0"],
            &["allocatable.", "/xe: 0"],
        ],
        object: ObjectAt::After("allocatable."),
        ..NODE_ZERO
    },
    EmitterRule {
        emitter: "docker-compose",
        who: "docker-compose",
        // Older Compose releases' jsonschema says it as "value 'devices' does not match any of
        // the regexes: '^x-'" (set O: NVlabs/instant-ngp#929).
        line: &[
            &["'devices' was unexpected"],
            &["'devices' does not match any of the regexes"],
        ],
        needs: &["reservations"],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the service's GPU reservation"),
        cause: "this docker-compose does not know GPU reservations (deploy.resources.reservations.devices), which came in Compose 1.28: an older docker-compose 1.x reads the file and rejects the key, so the service cannot ask for a GPU that way.",
        check: "'docker-compose version'; use Compose v2 ('docker compose') or docker-compose 1.28 or later, or a 2.x file format with 'runtime: nvidia'",
        ..RULE
    },
    EmitterRule {
        emitter: "docker",
        who: "docker stack deploy",
        line: &[&["reservations Additional property devices is not allowed"]],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the service's GPU reservation"),
        cause: "docker stack deploy (Swarm mode) reads the file with its own Compose schema, which has no device reservations: a Swarm service cannot reserve a GPU that way (docker compose accepts the same file); Swarm gives GPUs only as generic resources each node's daemon advertises.",
        check: "run the service with 'docker compose up' on the GPU host, or in Swarm advertise the GPUs as generic resources ('node-generic-resources' in each node's daemon.json, NVIDIA's runtime as the default) and request them with 'generic_resources'",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        line: &[&[
            "Attempt to retrieve either 'vkGetInstanceProcAddr'",
            "from ICD ",
        ]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("from ICD "),
        cause: "an ICD manifest names {object}, which loads but is no Vulkan driver (it has no vk_icdGetInstanceProcAddr): the manifest names the wrong library, as NVIDIA's nvidia_icd.json naming libGL.so.1 did in some drivers' packages where the Vulkan entry points are in libGLX_nvidia.so.0, or a library of another release.",
        check: "'cat /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json' (in the container too) and correct library_path (libGLX_nvidia.so.0 for NVIDIA's); 'VK_LOADER_DEBUG=all vulkaninfo' names each ICD it tries",
        rank: RANK_REASON - 1,
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[&["Failed to open ", " as DRM device node"]],
        operation: Operation::Open,
        object: ObjectAt::After("Failed to open "),
        cause: "ffmpeg could not open the render node {object}: most often the process's user is not in the group that owns it (render or video), or that group did not reach the container (a compose 'user:' without 'group_add' of the node's GID, a '--user' that drops it); or the node is not in the container.",
        check: "'ls -ln /dev/dri' and 'id' as the process's user in the container: add the node's GID ('group_add: [\"<gid>\"]' in compose, '--group-add <gid>' or podman's '--group-add keep-groups'), and pass the node ('--device /dev/dri')",
        rank: RANK_REASON,
        ..RULE
    },
    EmitterRule {
        emitter: "openvino",
        who: "OpenVINO's GPU plug-in",
        line: &[&["No OpenCL device found which would match provided configuration"]],
        needs: &["invalid vendor type"],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an Intel GPU"),
        owner: Owner::Workload,
        cause: "OpenVINO's GPU plug-in drives Intel GPUs only, and the OpenCL device it found is another vendor's ('invalid vendor type'): choosing the GPU plug-in on this machine is the program's configuration, not a fault of the set-up.",
        check: "run on the CPU plug-in, or on an Intel GPU; for an NVIDIA GPU use a runtime that drives it (OpenVINO's NVIDIA plug-in from openvino_contrib, or another framework)",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "openvino",
        who: "OpenVINO's GPU plug-in",
        line: &[&["No OpenCL device found which would match provided configuration"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an Intel GPU"),
        cause: "OpenVINO's GPU plug-in found no Intel GPU through OpenCL: the image lacks Intel's OpenCL runtime (intel-opencl-icd), the container has no render node or may not open it, or the runtime is older than the GPU.",
        check: "'clinfo -l' in the container lists the OpenCL devices; install intel-opencl-icd of a release that supports the GPU and pass /dev/dri with its group",
        ..RULE
    },
    EmitterRule {
        emitter: "docker-compose",
        who: "docker compose",
        line: &[&["reservations.devices.", "missing property 'capabilities'"]],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the service's GPU reservation"),
        cause: "the Compose file's GPU reservation is malformed: each entry under deploy.resources.reservations.devices needs 'capabilities' (such as [gpu]), and one has none: most often a stray '-' that splits one device's 'driver', 'count' and 'capabilities' into separate entries.",
        check: "write the reservation as one entry: 'devices: [{driver: nvidia, count: all, capabilities: [gpu]}]' (in block style, one '-' before 'driver' only); 'docker compose config' validates the file",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "vllm",
        who: "vLLM's platform detection",
        line: &[&["No platform detected, vLLM is running on UnspecifiedPlatform"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a GPU platform"),
        cause: "vLLM found no GPU platform where it runs: the container was started without the GPU (docker without '--gpus' or '--runtime nvidia' where NVIDIA's runtime is not the default, no CDI device, no /dev/kfd for ROCm), so no driver library answers, or the vLLM build is for another platform than the GPU's.",
        check: "'nvidia-smi' (or 'rocm-smi') inside the container; start it with the GPU ('docker run --gpus all', 'podman run $(gpuctl args) ...', or NVIDIA's runtime as docker's default), and use the vLLM image for the GPU's vendor",
        ..RULE
    },
];
