//! Core's emitters, round 4 (issue 31): the device, CDI and runtime errors of the container
//! engines, OCI runtimes, the CDI library and Kubernetes' device and DRA paths, each from the
//! emitter's own source (named beside each rule; docs/explain.md#emitters has the table).

use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_VAGUE, RULE};

/// The device nodes a GPU stack passes: an object starting with one of these is a GPU's.
const GPU_NODES: &[&str] = &[
    "/dev/dri",
    "/dev/kfd",
    "/dev/nvidia",
    "/dev/accel",
    "/dev/dxg",
    "/dev/davinci",
];

/// The same nodes by file name, for a path the line gives after a directory of the container.
const GPU_NODE_NAMES: &[&str] = &["renderD", "card", "kfd", "nvidia", "accel", "dxg"];

/// Words that make a text a GPU's, for a line whose own object does not say (a DRA claim's
/// name is the user's).
const GPU_TEXT: &[&str] = &["gpu", "GPU", "nvidia", "amd.com", "intel.com"];

/// What to check when a device node of the GPU is missing or not a node.
const NODE_CHECK: &str = "'ls -l {object}' on the host: it must be a character device; load the GPU's kernel driver, use the node's real name ('ls -l /dev/dri/by-path'), or pass the GPU by CDI ('gpuctl args')";

/// Core's round-4 rules, in no particular order (the most specific reading wins).
pub(crate) const RULES: &[EmitterRule] = &[
    // moby daemon/pkg/oci/devices_linux.go: "error gathering device information while adding
    // custom device %q: %s" — docker's --device on a path that is missing or no device node
    // (the node-missing families say more for a missing /dev/dri or vendor node).
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["error gathering device information while adding custom device "]],
        operation: Operation::Stat,
        object: ObjectAt::After("while adding custom device "),
        objects: GPU_NODES,
        cause: "docker could not add the device {object}: the path does not exist on the host (the GPU's kernel driver is not loaded, or the card or render node has another number here), or it is not a device node (a directory holding none, a plain file).",
        check: NODE_CHECK,
        ..RULE
    },
    // moby daemon/devices.go / devices_amd_linux.go: "failed to discover GPU vendor from CDI:
    // no known GPU vendor found", "AMD CDI spec not found" — --gpus with CDI and no
    // nvidia.com or amd.com spec.
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[
            &["failed to discover GPU vendor from CDI"],
            &["no known GPU vendor found"],
            &["AMD CDI spec not found"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a GPU vendor's CDI spec"),
        cause: "--gpus found no CDI spec of a GPU vendor it knows (nvidia.com or amd.com) in the CDI directories (/etc/cdi, /var/run/cdi): no spec was generated on this host, or it is in another directory than the engine reads.",
        check: "'ls /etc/cdi /var/run/cdi'; generate the spec ('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml', 'sudo amd-ctk cdi generate'), or pass the device by its CDI name",
        ..RULE
    },
    // moby daemon/volume/mounts/mounts.go: "invalid volume specification: '%s'" — a bind of a
    // GPU path whose name holds ':' (Intel's /dev/dri/by-path/pci-0000:b7:00.0-card) splits
    // into too many fields.
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["invalid volume specification: "]],
        operation: Operation::Mount,
        object: ObjectAt::After("invalid volume specification: "),
        objects: GPU_NODES,
        cause: "docker split the bind of {object} at every ':' and got too many fields: a GPU path with colons in its name (the PCI address of /dev/dri/by-path/pci-0000:…) cannot be given in the short -v / volume form.",
        check: "bind it with the long form ('--mount type=bind,source=...,target=...'), pass the node itself ('--device /dev/dri/renderD128'), or, under Kubernetes, use a device plugin release that mounts by-path without the short form",
        ..RULE
    },
    // podman pkg/specgen/generate/config_linux.go: "no devices found in %s: invalid argument"
    // (a --device directory that holds no device node).
    EmitterRule {
        emitter: "podman",
        who: "podman",
        line: &[&["no devices found in "]],
        operation: Operation::FindDevice,
        object: ObjectAt::After("no devices found in "),
        objects: GPU_NODES,
        cause: "podman was given the directory {object} as a device and found no device node in it: the GPU's kernel driver did not create its nodes (not loaded, or the GPU is not bound), or the directory is a copy without nodes (inside another container or VM).",
        check: "'ls -l {object}' on the host; load the GPU's driver, or pass the nodes themselves",
        ..RULE
    },
    // podman config_linux.go and CRI-O internal/config/device/device_linux.go: "%s is not a
    // valid device: %w"; containerd pkg/oci/utils_unix.go "error stating device path".
    EmitterRule {
        emitter: "podman",
        who: "the container engine",
        line: &[&[" is not a valid device"]],
        operation: Operation::Stat,
        object: ObjectAt::Before(" is not a valid device"),
        objects: GPU_NODES,
        cause: "the engine was given {object} as a device and it is no device node here: missing (the GPU's driver not loaded, another card number) or a plain file or link target that is not a node.",
        check: NODE_CHECK,
        ..RULE
    },
    // podman config_linux.go: "invalid device specification %s: invalid argument"; CRI-O
    // device_linux.go "invalid device specification: %s", "invalid device mode: %s".
    EmitterRule {
        emitter: "podman",
        who: "the container engine",
        line: &[
            &["invalid device specification"],
            &["invalid device mode: "],
        ],
        needs: GPU_NODES,
        operation: Operation::Mount,
        object: ObjectAt::Is("the --device argument"),
        cause: "the --device argument is malformed: it takes HOST[:CONTAINER[:PERMISSIONS]], with permissions from 'rwm'; a path with its own ':' or a mode other than r, w, m does not parse.",
        check: "write it as '--device /dev/dri/renderD128' (or '/dev/dri/renderD128:/dev/dri/renderD128:rwm'), or pass the GPU by CDI name",
        ..RULE
    },
    // podman libpod/runtime_ctr.go "requested OCI runtime %s is not available"; libpod
    // oci_conmon_common.go "cannot stat OCI runtime %s path", "no valid executable found for
    // OCI runtime %s".
    EmitterRule {
        emitter: "podman",
        who: "podman",
        line: &[
            &["requested OCI runtime ", " is not available"],
            &["cannot stat OCI runtime "],
            &["no valid executable found for OCI runtime "],
        ],
        operation: Operation::FindRuntime,
        object: ObjectAt::After(" OCI runtime "),
        gpu_object: true,
        cause: "podman knows no usable OCI runtime '{object}': containers.conf's [engine.runtimes] does not list it, or the paths it lists do not exist. podman needs no GPU runtime: it takes GPUs by CDI ('--device nvidia.com/gpu=all').",
        check: "drop '--runtime {object}' (and any 'runtime = \"{object}\"' in containers.conf) and pass the GPU by CDI, as 'gpuctl args' prints it",
        ..RULE
    },
    // crun src/libcrun/linux.c: "mknodat `%s`", "mknod `%s`", "openat `%s`" (the bind-mount
    // fallback); runc libcontainer/rootfs_linux.go "error creating device nodes: %w", "create
    // device inode %s: %w", os.PathError "mknodat %s".
    EmitterRule {
        emitter: "crun",
        who: "the OCI runtime",
        line: &[
            &["mknodat `"],
            &["mknod `"],
            &["error creating device nodes"],
            &["create device inode "],
        ],
        operation: Operation::Mount,
        object: ObjectAt::Named,
        objects: GPU_NODE_NAMES,
        cause: "the OCI runtime could not create the GPU's device node {object} in the container: it runs where creating or bind-mounting device nodes is refused (inside another unprivileged container, an LXC or a pod without privileges), or /dev of the container is read-only or not a devtmpfs it may write.",
        check: "run the engine on the host, or make the outer container privileged (LXC: 'lxc.cgroup2.devices.allow' and the node's bind mount); 'ls -l /dev/dri /dev/nvidia*' where the engine runs",
        ..RULE
    },
    // cncf-tags/container-device-interface pkg/cdi/cache.go: "conflicting device %q (specs %q,
    // %q)" — two specs declare one name, and the cache drops both.
    EmitterRule {
        emitter: "cdi",
        who: "the CDI library",
        line: &[&["conflicting device "]],
        operation: Operation::FindDevice,
        object: ObjectAt::After("conflicting device "),
        gpu_object: true,
        cause: "two CDI specs declare the device {object} (the line names both files: a spec in /etc/cdi and another in /var/run/cdi, or two generated by different tools), so the CDI library resolves neither and the device is unresolvable.",
        check: "keep one of the two spec files the line names ('ls /etc/cdi /var/run/cdi'), e.g. remove the older one or stop the second generator (the GPU operator's, a systemd unit's)",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // pkg/cdi/spec.go: "invalid spec, no devices" — a spec the tool wrote on a host where it
    // found no GPU.
    EmitterRule {
        emitter: "cdi",
        who: "the CDI library",
        line: &[&["invalid spec, no devices"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the CDI spec"),
        cause: "a CDI spec declares no device at all, so the CDI library refuses it: it was generated while the generator found no GPU (the driver not loaded yet at boot, or run inside a container without the GPU).",
        check: "regenerate it once the GPU is visible ('nvidia-smi' / 'rocminfo' first, then 'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml' or 'sudo amd-ctk cdi generate'), and 'gpuctl cdi check'",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // pkg/cdi/container-edits_unix.go: "CDI device (%q, %q), host type mismatch (%s, %s)".
    EmitterRule {
        emitter: "cdi",
        who: "the CDI library",
        line: &[&["CDI device (", "host type mismatch"]],
        operation: Operation::Stat,
        object: ObjectAt::After("CDI device ("),
        cause: "the CDI spec says {object} is a device node of one type and the host has another kind of file there: the spec was written for another host or driver release, or the path is now a link or directory.",
        check: "regenerate the spec on this host ('sudo nvidia-ctk cdi generate', 'sudo amd-ctk cdi generate') and 'gpuctl cdi check'",
        ..RULE
    },
    // pkg/cdi/annotations.go: "invalid CDI device name %q"; pkg/parser: a name must be
    // vendor.com/class=device.
    EmitterRule {
        emitter: "cdi",
        who: "the CDI library",
        line: &[&["invalid CDI device name "]],
        operation: Operation::FindDevice,
        object: ObjectAt::After("invalid CDI device name "),
        gpu_object: true,
        cause: "{object} is no valid CDI device name: a name is vendor.com/class=device (nvidia.com/gpu=0, amd.com/gpu=all), with the '=' and a device name the spec declares.",
        check: "'nvidia-ctk cdi list' or 'gpuctl cdi list' prints the names this host's specs declare",
        ..RULE
    },
    // CRI-O internal/config/device/device_linux.go: "device %s is specified but is not in
    // allowed_devices".
    EmitterRule {
        emitter: "cri-o",
        who: "CRI-O",
        line: &[&["is specified but is not in allowed_devices"]],
        operation: Operation::Allocate,
        object: ObjectAt::After("device "),
        objects: GPU_NODES,
        cause: "the pod asks for {object} by CRI-O's device annotation, and crio.conf's allowed_devices does not list it, so CRI-O refuses it.",
        check: "add it to allowed_devices in /etc/crio/crio.conf (or crio.conf.d) and restart crio, or request the GPU through its device plugin",
        ..RULE
    },
    // kube-scheduler pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go:
    // "cannot allocate all claims", "resourceclaim in use", "unallocated immediate
    // resourceclaim", "timed out trying to allocate devices" — only beside a GPU's name: a
    // claim of another device class is not the GPU's.
    EmitterRule {
        emitter: "kube-scheduler",
        who: "the Kubernetes scheduler (DRA)",
        line: &[
            &["cannot allocate all claims"],
            &["resourceclaim in use"],
            &["unallocated immediate resourceclaim"],
            &["timed out trying to allocate devices"],
        ],
        needs: GPU_TEXT,
        operation: Operation::Allocate,
        object: ObjectAt::Is("the pod's ResourceClaims"),
        cause: "no node has devices that satisfy all of the pod's ResourceClaims: the DRA driver publishes no ResourceSlice of that DeviceClass on any node (not installed, or its kubelet plugin found no GPU), the claim's selectors match none, or every matching device is already allocated (a claim held by another pod is 'in use').",
        check: "'kubectl get resourceslices -o wide' lists the devices each node's DRA driver publishes; 'kubectl get resourceclaims -A' shows which are allocated and to whom; the DRA driver's kubelet-plugin log on the node says why it publishes none",
        rank: RANK_VAGUE,
        ..RULE
    },
    // The API server's NotFound, as the scheduler and kubelet report it:
    // `deviceclass.resource.k8s.io "gpu.nvidia.com" not found`.
    EmitterRule {
        emitter: "kube-scheduler",
        who: "the Kubernetes scheduler (DRA)",
        line: &[&["deviceclass", "not found"]],
        operation: Operation::Allocate,
        object: ObjectAt::After("deviceclass.resource.k8s.io "),
        gpu_object: true,
        cause: "the pod's ResourceClaim names the DeviceClass {object}, which this cluster does not have: the DRA driver that defines it (its Helm chart creates the DeviceClass) is not installed, or the name is another release's.",
        check: "'kubectl get deviceclasses'; install the vendor's DRA driver or use a DeviceClass it lists",
        ..RULE
    },
    // The same NotFound for the pod's claim: `resourceclaim.resource.k8s.io "x" not found`.
    EmitterRule {
        emitter: "kube-scheduler",
        who: "the Kubernetes scheduler (DRA)",
        line: &[&["resourceclaim", "not found"]],
        needs: GPU_TEXT,
        operation: Operation::Allocate,
        object: ObjectAt::After("resourceclaim.resource.k8s.io "),
        cause: "the ResourceClaim {object} the pod names does not exist (yet): the pod refers to a claim by name in another namespace or one not created, or a ResourceClaimTemplate's claim was not generated (the resource-claim controller is disabled, or the template is missing).",
        check: "'kubectl get resourceclaims,resourceclaimtemplates -n <namespace>'; the pod's spec.resourceClaims must name an existing claim or template",
        rank: RANK_VAGUE,
        ..RULE
    },
    // kubelet pkg/kubelet/cm/dra: the plugin for a claim's driver is not registered on the
    // node ("DRA driver %s is not registered"), or its NodePrepareResources failed.
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet (DRA)",
        line: &[
            &["DRA driver ", "is not registered"],
            &["NodePrepareResources failed"],
            &["failed to prepare dynamic resources"],
        ],
        needs: GPU_TEXT,
        operation: Operation::Allocate,
        object: ObjectAt::Is("the claim's devices on the node"),
        cause: "the kubelet could not prepare the pod's allocated devices on the node: the DRA driver's kubelet plugin is not running or not registered there (its DaemonSet pod is missing or crash-looping), or it failed to prepare the GPU (the driver on the node, its CDI spec).",
        check: "'kubectl -n <namespace> get pods -o wide' for the DRA driver's kubelet plugin on that node, then its log; 'ls /var/lib/kubelet/plugins_registry' on the node",
        ..RULE
    },
    // The API server's validation of a pod's resources: `Unsupported value: "gpu.intel.com/i915":
    // supported values: "cpu", "hugepages-", "memory"` — an extended resource where Kubernetes
    // takes none (pod-level resources): the manifest's own error.
    EmitterRule {
        emitter: "kube-apiserver",
        who: "the Kubernetes API server",
        line: &[&["Unsupported value: ", "supported values: "]],
        operation: Operation::Allocate,
        object: ObjectAt::After("Unsupported value: "),
        gpu_object: true,
        owner: Owner::Workload,
        cause: "the manifest puts the extended resource {object} where Kubernetes accepts only cpu, memory and hugepages (pod-level resources): a manifest error, not the GPU's set-up.",
        check: "request {object} under the container's resources.limits instead of the pod's",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // docker-compose 1.x (compose/config/validation.py): "Unsupported config option for %s:
    // %s" — file format 3.x has no 'runtime' key (2.3 and 2.4 have it; the Compose
    // Specification that Compose 1.28+ and v2 read has it again, and asks for GPUs with
    // deploy.resources.reservations.devices).
    EmitterRule {
        emitter: "docker-compose",
        who: "docker-compose",
        line: &[&["Unsupported config option for services.", "'runtime'"]],
        needs: &["nvidia", "NVIDIA", "gpu", "GPU"],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("the service's runtime"),
        cause: "this docker-compose (1.x) reads the file as format 3.x, which has no 'runtime' key, so the service cannot ask for NVIDIA's runtime that way: an old docker-compose, or a 'version:' line of 3.x.",
        check: "'docker-compose version'; with Compose v2 ('docker compose') or 1.28+ give the GPU as deploy.resources.reservations.devices (driver: nvidia, count: all, capabilities: [gpu]), or set the file to version '2.4' where 'runtime: nvidia' is valid",
        ..RULE
    },
    // hashicorp/nomad drivers/docker/driver.go (createContainerConfig): a task given an NVIDIA
    // device (NVIDIA_VISIBLE_DEVICES in its environment) needs the runtime the plug-in's
    // `gpu_runtime_name` names ("nvidia") among `docker info`'s runtimes: "requested docker
    // runtime %q was not found", and "conflicting runtime requests: gpu runtime %q conflicts
    // with task runtime %q" for a task that names another runtime.
    EmitterRule {
        emitter: "nomad",
        who: "Nomad's docker driver",
        line: &[&["requested docker runtime ", " was not found"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("requested docker runtime "),
        cause: "the task was given an NVIDIA GPU, and Nomad runs such a task with the docker runtime its docker plug-in's gpu_runtime_name names ({object}), which the docker daemon does not have: the NVIDIA toolkit is not registered with docker (no \"runtimes\" entry in /etc/docker/daemon.json, or the daemon not restarted since), or the host gives GPUs by CDI only (NixOS's hardware.nvidia-container-toolkit), which Nomad's docker driver does not use.",
        check: "'docker info | grep -i runtimes' on the client node must list {object}: 'sudo nvidia-ctk runtime configure --runtime=docker' then 'sudo systemctl restart docker', or set the docker plug-in's gpu_runtime_name to the runtime docker has",
        ..RULE
    },
    EmitterRule {
        emitter: "nomad",
        who: "Nomad's docker driver",
        line: &[&["conflicting runtime requests: gpu runtime "]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("conflicting runtime requests: gpu runtime "),
        owner: Owner::Workload,
        cause: "the task names a runtime of its own and is given an NVIDIA GPU, which Nomad runs only with the GPU runtime {object}: the job's own configuration, not the host's.",
        check: "drop the task's 'runtime' option (Nomad picks the GPU runtime itself), or set the docker plug-in's gpu_runtime_name to the runtime the task needs",
        rank: RANK_DECISIVE,
        ..RULE
    },
];
