//! NVIDIA's Kubernetes components read by what failed (issue 31, round 4): the device plugin
//! and GPU feature discovery (NVIDIA/k8s-device-plugin: internal/plugin/factory.go's
//! `Incompatible strategy detected`, internal/rm/health.go's `XidCriticalError: Xid=%d on
//! Device=%s; marking device as unhealthy`, internal/rm/device_map.go's MIG checks,
//! internal/rm/rm.go's and allocate.go's allocation errors, cmd/nvidia-device-plugin/main.go's
//! flags and config, cmd/mps-control-daemon), the GPU operator's validator
//! (NVIDIA/gpu-operator cmd/nvidia-validator/main.go: `driver is not ready`, `toolkit is not
//! ready`, `GPU resources are not discovered by the node`, the cuda, vfio-pci and vGPU checks)
//! and the DRA driver (NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go and
//! cmd/compute-domain-*). An Xid the plugin reports is read by NVIDIA's Xid catalog, as the
//! kernel module's own line is ([`crate::explain_rules_xid`]). Sources in
//! docs/explain.md#emitters.

use gpuctl_core::plugin::{
    EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_NOTE, RANK_REASON, RANK_VAGUE, RULE,
};

/// The device plugin's (and GPU feature discovery's) lines.
const PLUGIN: EmitterRule = EmitterRule {
    emitter: "device-plugin",
    who: "NVIDIA's device plugin",
    ..RULE
};

/// The operator validator's lines.
const VALIDATOR: EmitterRule = EmitterRule {
    emitter: "gpu-operator-validator",
    who: "the GPU operator's validator",
    ..RULE
};

/// The DRA driver's lines.
const DRA: EmitterRule = EmitterRule {
    emitter: "dra-driver",
    who: "NVIDIA's DRA driver",
    ..RULE
};

/// What to check for the plugin's configuration.
const PLUGIN_CONFIG_CHECK: &str = "the plugin's flags and config file (the Helm chart's 'config' values, the ConfigMap it names); 'kubectl logs' of the plugin pod from its start";

/// The plugin refusing its own configuration.
const PLUGIN_CONFIG: &str = "the plugin refused its own configuration: a flag or config-file value it does not take (a MIG strategy other than none, single or mixed; a device-list or device-id strategy it does not know; a strategy combination it does not support, such as mixed MIG with MPS), or a config file that does not parse.";

/// What to do with a GPU the plugin marked unhealthy for a fault of its own.
const XID_CHECK: &str = "'dmesg | grep -i xid' on the node names the GPU and how often it recurs; drain the node, reset the GPU ('sudo nvidia-smi -r -i <index>') or reboot, and have it serviced if it recurs";

/// The components' rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // internal/plugin/factory.go: neither NVML nor Tegra found in the plugin's container.
    EmitterRule {
        line: &[&["Incompatible strategy detected"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("NVML or Tegra"),
        cause: "the plugin found neither NVML (libnvidia-ml) nor Jetson's Tegra libraries in its own container, so it could not tell what GPUs the node has: its pod is not run with the NVIDIA runtime (containerd's or CRI-O's default runtime, or a RuntimeClass 'nvidia' the pod names) and got no driver, or the node has no NVIDIA GPU.",
        check: "'nvidia-smi' on the node; the container runtime's config ('nvidia-ctk runtime configure --runtime=containerd', then restart it) and the plugin pod's runtimeClassName; keep the plugin off nodes without GPUs (nodeSelector)",
        ..PLUGIN
    },
    // internal/rm/health.go: an XID event from NVML marks a device unhealthy. By the Xid
    // catalog (docs.nvidia.com/deploy/xid-errors): 79 off the bus; 48, 63, 64, 92, 94, 95
    // memory; 119, 120 GSP; 74 NVLink; 61, 62 the micro-controller.
    EmitterRule {
        line: &[&["XidCriticalError: Xid=79 "]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "the GPU fell off the PCIe bus (Xid 79) and the plugin marked it unhealthy: power, heat, a riser or a failing GPU; nothing in the pod causes it.",
        check: XID_CHECK,
        rank: RANK_DECISIVE,
        ..PLUGIN
    },
    EmitterRule {
        line: &[
            &["XidCriticalError: Xid=48 "],
            &["XidCriticalError: Xid=63 "],
            &["XidCriticalError: Xid=64 "],
            &["XidCriticalError: Xid=92 "],
            &["XidCriticalError: Xid=94 "],
            &["XidCriticalError: Xid=95 "],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the GPU's memory"),
        cause: "the GPU's memory reported an ECC error or a row it must remap (Xid 48, 94, 95, 92; 63, 64) and the plugin marked it unhealthy: a hardware fault of that GPU, cleared for remapping only by a GPU reset.",
        check: XID_CHECK,
        rank: RANK_DECISIVE,
        ..PLUGIN
    },
    EmitterRule {
        line: &[
            &["XidCriticalError: Xid=119 "],
            &["XidCriticalError: Xid=120 "],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU's GSP firmware"),
        cause: "the GPU's GSP firmware stopped answering the driver (Xid 119, 120) and the plugin marked it unhealthy: the GPU is hung until reset.",
        check: "reset the GPU or reboot; if it recurs, another driver branch, or the proprietary kernel module with NVreg_EnableGpuFirmware=0 where the GPU allows it",
        rank: RANK_DECISIVE,
        ..PLUGIN
    },
    EmitterRule {
        line: &[
            &["XidCriticalError: Xid=74 "],
            &["XidCriticalError: Xid=61 "],
            &["XidCriticalError: Xid=62 "],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "the GPU reported a fault of its own (Xid 74: an NVLink link; 61, 62: its internal micro-controller) and the plugin marked it unhealthy.",
        check: XID_CHECK,
        rank: RANK_DECISIVE,
        ..PLUGIN
    },
    // Any other Xid the plugin does not ignore (its default skips 13, 31, 43, 45, 68, 109,
    // the application's own): said as the GPU's report, by the catalog's number.
    EmitterRule {
        line: &[&["XidCriticalError: Xid="]],
        operation: Operation::Initialise,
        object: ObjectAt::After("XidCriticalError: Xid="),
        cause: "the driver reported Xid {object} on a GPU and the plugin marked the GPU unhealthy (it stops advertising it): NVIDIA's Xid catalog says whether that number is the GPU's fault, its driver's or an application's.",
        check: "look the number up in NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors); 'dmesg | grep -i xid' on the node; set DP_DISABLE_HEALTHCHECKS (or the plugin's ignored Xids) only for numbers the catalog gives to applications",
        rank: RANK_VAGUE,
        ..PLUGIN
    },
    // internal/plugin/server.go: the device left the pool (the reason is on the line before).
    EmitterRule {
        line: &[
            &["device marked unhealthy: "],
            &["; marking it as unhealthy"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        cause: "the plugin marked a GPU unhealthy and no longer offers it to pods: a health check failed on it (an Xid event or an NVML error the lines before name).",
        check: "the plugin's log lines before this one, and 'dmesg | grep -i xid' on the node",
        rank: RANK_NOTE,
        ..PLUGIN
    },
    // cmd/nvidia-device-plugin/main.go, api/config/v1: flags and the config file. The flag
    // errors name the plugin's own options; the config file's only beside the plugin's name.
    EmitterRule {
        line: &[
            &["unknown MIG strategy: "],
            &["invalid --device-list-strategy option"],
            &["invalid --device-id-strategy option"],
            &["invalid --device-discovery-strategy option"],
            &["using --mig-strategy=mixed is not supported with MPS"],
            &["CDI --device-list-strategy options are only supported on NVML-based systems"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("its configuration"),
        cause: PLUGIN_CONFIG,
        check: PLUGIN_CONFIG_CHECK,
        ..PLUGIN
    },
    EmitterRule {
        line: &[&["Failed to start plugin: unable to load config"]],
        needs: &[
            "NVIDIA Device Plugin",
            "nvidia-device-plugin",
            "gpu-feature-discovery",
            "nvidia.com",
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("its configuration"),
        cause: PLUGIN_CONFIG,
        check: PLUGIN_CONFIG_CHECK,
        ..PLUGIN
    },
    // internal/rm/device_map.go and GFD's internal/lm/mig-strategy.go: MIG as configured.
    EmitterRule {
        line: &[
            &["all devices on the node must be configured with the same migEnabled value"],
            &["has no MIG devices configured"],
            &["more than one MIG device type present on node"],
            &["Invalid configuration detected for mig-strategy=single"],
            &["at least one device with migEnabled=true was not configured correctly"],
            // Older releases (cmd/nvidia-device-plugin/mig-strategy.go) capitalised them:
            // "At least one device with migEnabled=true was not configured correctly: More
            // than one MIG device type present on node" (NVIDIA/gpu-operator#460).
            &["At least one device with migEnabled=true was not configured correctly"],
            &["More than one MIG device type present on node"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the node's MIG layout"),
        cause: "the node's MIG layout does not fit the plugin's MIG strategy: 'single' needs every GPU MIG-enabled with one MIG profile and at least one instance (GPUs with MIG on and off, or mixed profiles, need 'mixed'), and a MIG-enabled GPU with no instances created offers nothing.",
        check: "'nvidia-smi -L' and 'nvidia-smi mig -lgi' on the node; apply one MIG config to every GPU (the GPU operator's nvidia.com/mig.config label, or 'nvidia-mig-parted apply'), or set the plugin's MIG strategy to mixed",
        ..PLUGIN
    },
    // internal/rm/rm.go ValidateRequest and allocate.go.
    EmitterRule {
        line: &[
            &["invalid allocation request", "unknown device: "],
            &["maximum request size for shared resources is 1"],
            &["not enough available devices to satisfy allocation"],
            &["devices to be replicated, but only"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("nvidia.com/gpu"),
        cause: "the plugin refused the kubelet's allocation: it named a device the plugin no longer has (the kubelet's checkpoint from before a MIG or driver change, or a GPU now unhealthy), asked more than one replica of a shared GPU (time-slicing or MPS with failRequestsGreaterThanOne), or more devices than are free or configured to replicate.",
        check: "'kubectl describe node' (Allocatable nvidia.com/gpu) and the plugin's sharing config; after a MIG or driver change restart the kubelet (its device-manager checkpoint) and the plugin; request one shared GPU per container",
        ..PLUGIN
    },
    EmitterRule {
        line: &[
            &["does not match any resource patterns"],
            &["no GPU devices detected"],
        ],
        needs: &["nvidia", "NVIDIA", "GPU ", "gpu-"],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the node's GPUs"),
        cause: "the plugin (or GPU feature discovery) found no GPU it can name as a resource: none detected through NVML, or a GPU or MIG profile that none of the config's resource patterns matches, so it is not advertised.",
        check: "'nvidia-smi -L' on the node and the config's 'resources' patterns (its 'pattern' must match the product or MIG profile name)",
        ..PLUGIN
    },
    // cmd/mps-control-daemon: nvidia-cuda-mps-control run by the plugin's MPS daemon.
    EmitterRule {
        line: &[
            &["failed to start NVIDIA MPS command"],
            &["Failed to start MPS daemon"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the MPS control daemon"),
        cause: "the plugin's MPS control daemon could not start nvidia-cuda-mps-control: the driver's MPS binary is not in its container (the driver root is not mounted at the path the chart expects, or the driver lacks it), or it failed to start on the GPUs.",
        check: "the mps-control-daemon pod's log; 'ls <driver root>/usr/bin/nvidia-cuda-mps-control' on the node and the chart's driver root setting",
        rank: RANK_REASON - 1,
        ..PLUGIN
    },
    // NVIDIA/gpu-operator cmd/nvidia-validator/main.go.
    EmitterRule {
        line: &[
            &["driver is not ready: "],
            &["error validating driver installation"],
            &["error checking driver container status"],
        ],
        needs: &["nvidia", "NVIDIA", "validat", "driver container"],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the NVIDIA driver"),
        cause: "the operator's driver validation failed: no driver is pre-installed on the node and the operator's driver container has not finished (it is still compiling or loading the module, or it failed: no kernel headers or precompiled driver for this kernel, Secure Boot refusing the module, nouveau holding the GPU), so every GPU component after it waits.",
        check: "'kubectl logs -n gpu-operator <nvidia-driver-daemonset pod> -c nvidia-driver-ctr' says why the driver container did not finish; 'kubectl get pods -n gpu-operator'",
        ..VALIDATOR
    },
    EmitterRule {
        line: &[
            &["toolkit is not ready"],
            &["error validating toolkit installation"],
        ],
        needs: &["nvidia", "NVIDIA", "validat"],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("the NVIDIA runtime"),
        cause: "the operator's toolkit validation failed: nvidia-smi did not run in a pod that the container runtime should have given the driver, so the runtime is not configured for NVIDIA (the toolkit daemonset's containerd or CRI-O config not applied or not reloaded, a RuntimeClass 'nvidia' missing) or the driver under it is not ready.",
        check: "'kubectl logs' of the nvidia-container-toolkit-daemonset pod; the runtime's config ('grep -n nvidia /etc/containerd/config.toml') and 'kubectl get runtimeclass'",
        ..VALIDATOR
    },
    EmitterRule {
        line: &[
            &["GPU resources are not discovered by the node"],
            &["unable to find any allocatable GPU resource"],
            &["error validating plugin installation"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("nvidia.com/gpu"),
        cause: "the operator's plugin validation failed: the node advertises no allocatable nvidia.com/gpu, so the device plugin did not register its GPUs (its pod not running, crashing, or finding no devices: its log says which).",
        check: "'kubectl describe node' (Allocatable) and 'kubectl logs -n gpu-operator <nvidia-device-plugin pod>'",
        ..VALIDATOR
    },
    EmitterRule {
        line: &[
            &["error validating cuda workload"],
            &["failed to create cuda validation pod"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("a CUDA workload"),
        cause: "the operator's CUDA validation failed: its cuda-validator pod (a vectorAdd sample) did not run to completion on the node: it could not be scheduled or admitted (no allocatable GPU), or CUDA failed in it (its log names the CUDA error).",
        check: "'kubectl get pods -n gpu-operator' and 'kubectl logs' of the cuda-validator pod",
        rank: RANK_VAGUE,
        ..VALIDATOR
    },
    EmitterRule {
        line: &[
            &["device not bound to 'vfio-pci'"],
            &["error validating vGPU devices"],
            &["vGPU Manager parent devices not ready"],
            &["error validating vGPU Manager installation"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the GPUs for VMs"),
        cause: "the node is labelled for VM workloads (vm-passthrough or vm-vgpu) but its GPUs are not set up for them: for passthrough a GPU is still bound to the nvidia driver instead of vfio-pci (the vfio-manager has not run, or the GPU is in use), for vGPU the vGPU manager created no mediated devices or VFs.",
        check: "'lspci -k -d 10de:' on the node (the driver in use) and the node's nvidia.com/gpu.workload.config label; the vfio-manager or vgpu-manager pod's log",
        ..VALIDATOR
    },
    EmitterRule {
        line: &[&["failed to find an executable 'nvidia-smi' on the host"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("nvidia-smi"),
        cause: "the operator found no nvidia-smi on the host, so it takes the driver as not pre-installed: the host's driver is incomplete (its utilities package missing) or in a path the validator does not search.",
        check: "'command -v nvidia-smi' on the node; install the driver's utilities, or let the operator manage the driver (driver.enabled=true)",
        ..VALIDATOR
    },
    // NVIDIA/k8s-dra-driver-gpu: claim preparation (gpu-kubelet-plugin) and ComputeDomains.
    EmitterRule {
        line: &[
            &["allocatable not found for device "],
            &["cannot apply GpuConfig to device "],
            &["cannot apply MigDeviceConfig to device "],
            &["cannot apply VfioDeviceConfig to device "],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the ResourceClaim's device"),
        cause: "the DRA driver could not prepare the claim's device: the scheduler allocated a device the node's plugin no longer publishes (a ResourceSlice from before a MIG or driver change, a GPU now gone), or the claim's opaque config is for another device type than the one allocated.",
        check: "'kubectl get resourceslices -o yaml' for the node against 'nvidia-smi -L'; the claim's device class and config (GpuConfig for gpu, MigDeviceConfig for mig)",
        ..DRA
    },
    EmitterRule {
        line: &[
            &["IMEX daemon not ready"],
            &["ComputeDomain not found: "],
            &["ResourceClaim's namespace is different than the ComputeDomain's namespace"],
            &["no available indices within maxNodesPerIMEXDomain"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the ComputeDomain (IMEX)"),
        cause: "the DRA driver could not prepare the ComputeDomain's IMEX channel: its IMEX daemon on the node is not ready (the nodes of the domain cannot reach each other, or the fabric manager or NVLink is not up), or the claim names a ComputeDomain that does not exist or lives in another namespace.",
        check: "'kubectl get computedomains -A' and the compute-domain-daemon pods' logs; 'nvidia-smi -q | grep -i -A3 fabric' on the nodes; put the claim in the ComputeDomain's namespace",
        ..DRA
    },
];
