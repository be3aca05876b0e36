//! Core's emitters: container engines, OCI runtimes and Kubernetes (the vendor-neutral
//! graphics and compute loaders are in rules_graphics.rs). Each rule's wording is the emitter's own (the source is named
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
    // Go's os/exec, as the docker daemon (or containerd's shim) runs the OCI runtime a
    // daemon.json entry names: `exec: "nvidia-container-runtime": executable file not found in
    // $PATH` (NVIDIA/nvidia-container-runtime#98). A hook runc runs (`error running hook`) is
    // the hook's, and the container's own command (`unable to start container process`) is
    // the image's.
    EmitterRule {
        emitter: "docker",
        who: "the container engine",
        line: &[&["exec: \"", "executable file not found"]],
        unless: &["hook", "container process", "container init"],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("exec: \""),
        gpu_object: true,
        cause: "the engine is configured to run the OCI runtime '{object}' (a \"runtimes\" or \"default-runtime\" entry in /etc/docker/daemon.json, or containerd's BinaryName), and no such executable is on its PATH: the toolkit that provided it was removed or never installed.",
        check: "'docker info | grep -i runtime' and /etc/docker/daemon.json; install the toolkit that provides {object}, or remove the entry (and a \"default-runtime\" naming it), then 'sudo systemctl restart docker'",
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
    // The kubelet's dockershim (Kubernetes before 1.24): `RuntimeHandler "%s" not supported`
    // (NVIDIA/gpu-operator#236, printed without quotes there): dockershim runs every pod with
    // docker's own runtime and refuses any RuntimeClass handler.
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet",
        line: &[&["RuntimeHandler", "not supported"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("RuntimeHandler"),
        gpu_object: true,
        cause: "the node's container runtime does not support the runtime handler '{object}' a RuntimeClass names: the kubelet's dockershim (Kubernetes before 1.24) supports none, and a CRI runtime must have '{object}' configured.",
        check: "'kubectl get node <node> -o wide' shows the container runtime; with docker, set nvidia as docker's default runtime (daemon.json \"default-runtime\") and drop runtimeClassName, or move the node to containerd or CRI-O and configure the '{object}' handler there ('sudo nvidia-ctk runtime configure --runtime=containerd')",
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
        // kubernetes/kubernetes#130145: after force-deleted pods the device manager kept their
        // devices allocated until the kubelet restarted.
        cause: "the node has fewer free {object} devices than the pod asks for, though the scheduler still counted them: the device plugin reported them unhealthy or gone (after a driver, plugin or kubelet restart, or an Xid error), or the kubelet's device manager still holds them for pods that are gone (force-deleted pods: a kubelet bug that a kubelet restart clears).",
        check: NODE_RESOURCE_CHECK,
        ..RULE
    },
    // kubelet devicemanager: "Allocate failed due to %v, which is unexpected" when the device
    // plugin's Allocate (or GetPreferredAllocation) RPC itself failed: the plugin is gone or
    // restarting (Project-HAMi/HAMi#71: `code = Unavailable desc = error reading from server:
    // EOF`); a reason the plugin gives on the same line (NVML's) is more specific.
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet's device manager",
        line: &[
            &["Allocate failed due to rpc error"],
            &["Allocate failed due to device plugin", "rpc failed"],
        ],
        needs: &["gpu", "GPU"],
        operation: Operation::Allocate,
        cause: "the kubelet asked the GPU's device plugin to allocate a device and the plugin's RPC failed: the plugin crashed, restarted or lost its GPUs while the pod was admitted (the pod is rejected with UnexpectedAdmissionError and not retried).",
        check: "'kubectl -n <namespace> logs <device plugin pod> --previous' on that node names why it failed; delete the rejected pod once the plugin runs again",
        rank: RANK_VAGUE,
        ..RULE
    },
    // kubelet devicemanager/plugin/v1beta1/client.go: "ListAndWatch ended unexpectedly for
    // device plugin %s with error %v": the plugin's stream ended, its devices go unhealthy.
    EmitterRule {
        emitter: "kubelet",
        who: "the kubelet's device manager",
        line: &[&["ListAndWatch ended unexpectedly for device plugin "]],
        operation: Operation::Allocate,
        object: ObjectAt::After("ListAndWatch ended unexpectedly for device plugin "),
        gpu_object: true,
        cause: "the device plugin for {object} stopped streaming its devices to the kubelet (it exited or restarted), so the node stops offering {object} until it registers again.",
        check: "'kubectl -n <namespace> logs <device plugin pod> --previous' on that node says why it stopped; 'kubectl describe node' shows {object} under Allocatable again once it is back",
        rank: RANK_VAGUE,
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
        cause: "the kubelet holds no healthy {object} device for the pod (every one it has is unhealthy, or none is registered yet): the plugin's health check failed (a GPU fallen off the bus, an Xid error, a driver reloaded under it), or, right after the node restarted, the kubelet admitted its pods again before the device plugin had registered its devices (the pod is rejected with UnexpectedAdmissionError and must be recreated).",
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
];
