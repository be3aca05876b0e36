//! The device plugin, GPU feature discovery, the operator validator and the DRA driver.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::assert_read_by_emitter;
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// NVIDIA/k8s-device-plugin internal/plugin/factory.go
#[case(
    "device-plugin",
    "find-device",
    "nvidia runtime",
    "I0501 10:00:00.000000       1 factory.go:118] Incompatible strategy detected auto\nE0501 10:00:00.000000       1 factory.go:119] If this is a GPU node, did you configure the NVIDIA Container Toolkit?"
)]
// NVIDIA/k8s-device-plugin internal/plugin/factory.go
#[case(
    "nvml",
    "load-library",
    "runtime",
    "E0501 factory.go:99] Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND.\nE0501 factory.go:100] If this is a GPU node, did you set the docker default runtime to `nvidia`?"
)]
// NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go
#[case(
    "device-plugin",
    "find-device",
    "runtime",
    "I0501 main.go:416] No devices found. Waiting indefinitely."
)]
// NVIDIA/k8s-device-plugin internal/rm/health.go; Xid numbers: NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "device-plugin",
    "initialise",
    "Xid 79",
    "I0501 health.go:169] XidCriticalError: Xid=79 on Device=GPU-7b1e2c3d-0000-1111-2222-333344445555; marking device as unhealthy."
)]
// NVIDIA/k8s-device-plugin internal/rm/health.go; Xid numbers: NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "device-plugin",
    "allocate",
    "ECC",
    "I0501 health.go:169] XidCriticalError: Xid=48 on Device=GPU-7b1e2c3d-0000-1111-2222-333344445555; marking device as unhealthy."
)]
// NVIDIA/k8s-device-plugin internal/rm/health.go; Xid numbers: NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "device-plugin",
    "initialise",
    "GSP",
    "XidCriticalError: Xid=119 on Device=GPU-7b1e2c3d; marking device as unhealthy."
)]
// NVIDIA/k8s-device-plugin internal/rm/health.go; Xid numbers: NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "device-plugin",
    "initialise",
    "Xid",
    "XidCriticalError: Xid=154 on Device=GPU-7b1e2c3d; marking device as unhealthy."
)]
// NVIDIA/k8s-device-plugin internal/plugin/server.go
#[case(
    "device-plugin",
    "initialise",
    "unhealthy",
    "I0501 server.go:279] 'nvidia.com/gpu' device marked unhealthy: GPU-7b1e2c3d-0000-1111-2222-333344445555"
)]
// NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go, api/config/v1/config.go
#[case(
    "device-plugin",
    "initialise",
    "config",
    "I0501 main.go:269] \"Starting NVIDIA Device Plugin\" version=\"v0.17.0\"\nE0501 main.go:409] Failed to start plugin: unable to load config: unable to parse config file: error parsing config file: json: cannot unmarshal string into Go value"
)]
// NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go
#[case(
    "device-plugin",
    "initialise",
    "MIG strategy",
    "unknown MIG strategy: singel"
)]
// NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go
#[case(
    "device-plugin",
    "initialise",
    "MPS",
    "using --mig-strategy=mixed is not supported with MPS"
)]
// NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go, api/config/v1/strategy.go
#[case(
    "device-plugin",
    "initialise",
    "strategy",
    "invalid --device-list-strategy option: invalid strategy: volume-mount"
)]
// NVIDIA/k8s-device-plugin internal/rm/device_map.go
#[case(
    "device-plugin",
    "allocate",
    "MIG",
    "error building device map: invalid MIG configuration: all devices on the node must be configured with the same migEnabled value"
)]
// NVIDIA/k8s-device-plugin internal/rm/device_map.go
#[case(
    "device-plugin",
    "allocate",
    "MIG",
    "error building device map: at least one device with migEnabled=true was not configured correctly: device 0 has no MIG devices configured"
)]
// NVIDIA/k8s-device-plugin internal/rm/device_map.go
#[case(
    "device-plugin",
    "allocate",
    "MIG",
    "more than one MIG device type present on node"
)]
// NVIDIA/k8s-device-plugin internal/lm/mig-strategy.go (gpu-feature-discovery)
#[case(
    "device-plugin",
    "allocate",
    "MIG",
    "W0501 mig-strategy.go:245] Invalid configuration detected for mig-strategy=single: devices with MIG enabled and disabled detected"
)]
// NVIDIA/k8s-device-plugin internal/rm/rm.go
#[case(
    "device-plugin",
    "allocate",
    "no longer has",
    "Allocate failed: invalid allocation request for 'nvidia.com/gpu': unknown device: GPU-7b1e2c3d-0000-1111-2222-333344445555"
)]
// NVIDIA/k8s-device-plugin internal/rm/rm.go
#[case(
    "device-plugin",
    "allocate",
    "shared",
    "invalid allocation request for 'nvidia.com/gpu': maximum request size for shared resources is 1; found 2"
)]
// NVIDIA/k8s-device-plugin internal/rm/device_map.go
#[case(
    "device-plugin",
    "allocate",
    "replicate",
    "requested 4 devices to be replicated, but only 2 devices available"
)]
// NVIDIA/k8s-device-plugin internal/rm/device_map.go
#[case(
    "device-plugin",
    "find-device",
    "pattern",
    "GPU name 'NVIDIA H100 80GB HBM3' does not match any resource patterns"
)]
// NVIDIA/k8s-device-plugin internal/rm/allocate.go
#[case(
    "device-plugin",
    "allocate",
    "free",
    "not enough available devices to satisfy allocation"
)]
// NVIDIA/k8s-device-plugin internal/lm/mig-strategy.go (gpu-feature-discovery)
#[case(
    "device-plugin",
    "find-device",
    "no GPU",
    "failed to create labeler: no GPU devices detected"
)]
// NVIDIA/k8s-device-plugin cmd/mps-control-daemon/mps/daemon.go, cmd/mps-control-daemon/main.go
#[case(
    "device-plugin",
    "initialise",
    "MPS",
    "Failed to start MPS daemon: failed to start NVIDIA MPS command: exec: \"nvidia-cuda-mps-control\": executable file not found in $PATH"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "initialise",
    "driver container",
    "time=\"2025-01-01T00:00:00Z\" level=error msg=\"driver is not ready: error checking driver container status: failed to validate driver\""
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "find-runtime",
    "runtime",
    "toolkit-validation: toolkit is not ready (nvidia-smi failed)"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "find-device",
    "device plugin",
    "time=\"2025-01-01T00:00:00Z\" level=info msg=\"GPU resources are not yet discovered by the node, retry: 30\"\nGPU resources are not discovered by the node"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "find-device",
    "device plugin",
    "unable to find any allocatable GPU resource"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "initialise",
    "CUDA",
    "error validating cuda workload: gave up waiting for pod cuda-validator-8xk2p to be available"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "find-device",
    "vfio-pci",
    "device not bound to 'vfio-pci'; device: 0000:3b:00.0 driver: 'nvidia'"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "find-device",
    "vGPU",
    "error validating vGPU devices: no vGPU devices found"
)]
// NVIDIA/gpu-operator cmd/nvidia-validator/main.go
#[case(
    "gpu-operator-validator",
    "load-library",
    "nvidia-smi",
    "failed to find an executable 'nvidia-smi' on the host"
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "nvml",
    "allocate",
    "slice",
    "error preparing devices for claim 6b1f: prepare devices failed: error creating MIG device: error creating GPU instance for 'gpu-0-mig-1g.10gb': Insufficient Resources"
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "dra-driver",
    "allocate",
    "IMEX",
    "IMEX daemon not ready: READY check failed"
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "dra-driver",
    "allocate",
    "no longer publishes",
    "prepare devices failed: allocatable not found for device \"gpu-3\""
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "dra-driver",
    "allocate",
    "config",
    "cannot apply MigDeviceConfig to device \"gpu-0\" of type \"gpu\" (request: mig)"
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "dra-driver",
    "allocate",
    "ComputeDomain",
    "unable to prepare claim 7c2d: ComputeDomain not found: 4f1e"
)]
// NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/device_state.go, cmd/compute-domain-*
#[case(
    "dra-driver",
    "allocate",
    "namespace",
    "the ResourceClaim's namespace is different than the ComputeDomain's namespace"
)]
fn read_by_emitter(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}
