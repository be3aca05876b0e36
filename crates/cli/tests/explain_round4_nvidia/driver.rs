//! The kernel module, modprobe, nvidia-smi, nvidia-persistenced and the fabric manager.
//! Each row is a line composed from the emitter's own source string (cited above it) as a user
//! sees it, read by the rules of issue 31's round 4.

use super::{assert_read_by_emitter, read};
use rstest::rstest;

/// Read by the emitter: (emitter, operation, a word of the cause, the line).
#[rstest]
// nvidia-smi
#[case("nvml", "find-device", "GPU", "No devices were found")]
// nvidia-smi; NVIDIA's MIG user guide (docs.nvidia.com/datacenter/tesla/mig-user-guide)
#[case(
    "nvidia-smi",
    "allocate",
    "MIG",
    "Unable to enable MIG Mode for GPU 00000000:17:00.0: Not Supported"
)]
// nvidia-smi; NVIDIA's MIG user guide (docs.nvidia.com/datacenter/tesla/mig-user-guide)
#[case(
    "nvidia-smi",
    "allocate",
    "reset",
    "Warning: MIG mode is in pending enable state for GPU 00000000:07:00.0:In use by another client"
)]
// nvidia-smi; NVIDIA's MIG user guide (docs.nvidia.com/datacenter/tesla/mig-user-guide)
#[case(
    "nvidia-smi",
    "allocate",
    "MIG",
    "Unable to disable MIG Mode for GPU 00000000:07:00.0: Insufficient Permissions"
)]
// nvidia-smi (NVIDIA's MIG user guide and nvidia-smi documentation)
#[case(
    "nvidia-smi",
    "allocate",
    "MIG",
    "Option \"-mig\" is not supported on this GPU"
)]
// nvidia-smi (NVIDIA's MIG user guide and nvidia-smi documentation)
#[case(
    "nvml",
    "allocate",
    "MIG",
    "Failed to create GPU instances on GPU  0 using profile 19: Insufficient Resources"
)]
// nvidia-smi -q (NVIDIA's vGPU licensing guide)
#[case(
    "nvidia-smi",
    "allocate",
    "licen",
    "License Status                    : Unlicensed (Restricted)"
)]
// nvidia-smi -r (nvmlErrorString of NVML_ERROR_IN_USE, NVIDIA/DCGM nvml_error_strings.h)
#[case(
    "nvidia-smi",
    "allocate",
    "hold",
    "GPU 00000000:01:00.0: In use by another client"
)]
// nvidia-smi (nvmlDeviceGetHandleByIndex's ErrorString)
#[case(
    "nvml",
    "find-device",
    "stopped answering",
    "Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU"
)]
// nvidia-smi (nvmlDeviceGetHandleByIndex's ErrorString)
#[case(
    "nvml",
    "find-device",
    "GSP",
    "Unable to determine the device handle for GPU0000:01:00.0: Unknown Error"
)]
// nvidia-smi -pm
#[case(
    "nvidia-smi",
    "allocate",
    "root",
    "Unable to set persistence mode for GPU 00000000:01:00.0: Insufficient Permissions"
)]
// nvidia-smi (NVML_ERROR_CORRUPTED_INFOROM, NVIDIA/go-nvml pkg/nvml/nvml.h)
#[case(
    "nvml",
    "initialise",
    "infoROM",
    "WARNING: infoROM is corrupted at gpu 0000:03:00.0"
)]
// nvidia-smi -r
#[case(
    "nvidia-smi",
    "allocate",
    "reset",
    "Unable to reset this GPU because it's being used by some other process (e.g. CUDA application, graphics application like X server, monitoring application like other instance of nvidia-smi). Please first kill all processes using this GPU and all compute applications running in the system."
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/arch/nvalloc/unix/src/osinit.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0x40:2565)"
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0"
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c, src/nvidia/arch/nvalloc/unix/src/osinit.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: kgspBootstrap_TU102: GSP-RM proxy boot command failed."
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c, src/nvidia/arch/nvalloc/unix/src/osinit.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: _kgspRpcRecvPoll: =============== GSP-RM unresponsive =================="
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c, src/nvidia/arch/nvalloc/unix/src/osinit.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: kgspInitRm_IMPL: Max GSP-RM boot attempts exceeded: 3/3"
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/arch/nvalloc/unix/src/osapi.c
#[case(
    "nvidia-kernel-module",
    "match-version",
    "GSP",
    "NVRM: installed in this system is not supported by open\nNVRM: nvidia.ko because it does not include the required GPU\nNVRM: System Processor (GSP)."
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/arch/nvalloc/unix/src/osapi.c
#[case(
    "nvidia-kernel-module",
    "match-version",
    "branch",
    "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1b80)\nNVRM: installed in this system is not supported by the\nNVRM: NVIDIA 570.86.15 driver release."
)]
// the proprietary module's legacy-GPU message (NVRM:)
#[case(
    "nvidia-kernel-module",
    "match-version",
    "branch",
    "NVRM: The NVIDIA Quadro K4000 GPU installed in this system is\nNVRM:  supported through the NVIDIA 470.xx Legacy drivers."
)]
// NVIDIA/open-gpu-kernel-modules src/nvidia/arch/nvalloc/unix/src/osapi.c
#[case(
    "nvml",
    "match-version",
    "release",
    "NVRM: API mismatch: the client 'nvidia-smi' (pid 2311)\nNVRM: has the version 550.54.15, but this kernel module has\nNVRM: the version 535.161.07.  Please make sure that this"
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "probe",
    "NVRM: The NVIDIA probe routine failed for 1 device(s).\nNVRM: None of the NVIDIA devices were initialized."
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c
#[case(
    "nvidia-kernel-module",
    "match-version",
    "GPU",
    "NVRM: No NVIDIA GPU found."
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv-pci.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "BAR",
    "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\nNVRM: BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)"
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv-pci.c
#[case(
    "nvidia-kernel-module",
    "initialise",
    "another driver",
    "NVRM: request_mem_region failed for 16M @ 0xfb000000. This can\nNVRM: occur when a driver such as rivatv is loaded and claims\nNVRM: ownership of the device's registers."
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv-pci.c
#[case(
    "nvidia-kernel-module",
    "allocate",
    "memory",
    "NVRM: failed to allocate memory"
)]
// NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "nvidia-kernel-module",
    "initialise",
    "GSP",
    "NVRM: Xid (PCI:0000:01:00): 119, pid=1234, name=python, Timeout after 6s of waiting for RPC response from GPU0 GSP!"
)]
// NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors)
#[case(
    "nvml",
    "find-device",
    "bus",
    "NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus."
)]
// kmod's modprobe (could not insert / Module not found) loading nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "Secure Boot",
    "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service"
)]
// kmod's modprobe (could not insert / Module not found) loading nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "kernel",
    "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic"
)]
// kmod's modprobe (could not insert / Module not found) loading nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "GPU",
    "modprobe: ERROR: could not insert 'nvidia': No such device"
)]
// the kernel's module loader (kernel/module) on nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "kernel",
    "nvidia: disagrees about version of symbol module_layout"
)]
// the kernel's module loader (kernel/module) on nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "kernel",
    "nvidia: Unknown symbol drm_gem_object_free (err -2)"
)]
// kmod's modprobe (could not insert / Module not found) loading nvidia.ko
#[case(
    "nvidia-kernel-module",
    "load-library",
    "depends on nvidia.ko",
    "modprobe: ERROR: could not insert 'nvidia_uvm': Invalid argument"
)]
// NVIDIA/nvidia-persistenced nvidia-persistenced.c
#[case(
    "nvidia-persistenced",
    "open",
    "read and write",
    "nvidia-persistenced: Failed to query NVIDIA devices. Please ensure that the NVIDIA device files (/dev/nvidia*) exist, and that user 143 has read and write permissions for those files."
)]
// NVIDIA/nvidia-persistenced nvidia-persistenced.c
#[case(
    "nvidia-persistenced",
    "initialise",
    "no NVIDIA GPU",
    "nvidia-persistenced: Unable to find any NVIDIA devices"
)]
// NVIDIA/nvidia-persistenced nvidia-persistenced.c
#[case(
    "nvidia-persistenced",
    "initialise",
    "libnvidia-cfg",
    "nvidia-persistenced: Failed to open libnvidia-cfg.so.1: libnvidia-cfg.so.1: cannot open shared object file: No such file or directory"
)]
// NVIDIA/nvidia-persistenced nvidia-persistenced.c
#[case(
    "nvidia-persistenced",
    "initialise",
    "another",
    "nvidia-persistenced: Failed to lock PID file: Resource temporarily unavailable"
)]
// NVIDIA/nvidia-persistenced nvidia-persistenced.c
#[case(
    "nvidia-persistenced",
    "initialise",
    "did not start",
    "nvidia-persistenced failed to initialize. Check syslog for more details."
)]
// NVIDIA's Fabric Manager User Guide (docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide); systemd's unit line
#[case(
    "nvidia-fabricmanager",
    "initialise",
    "fabric",
    "nvidia-fabricmanager.service: Main process exited, code=exited, status=1/FAILURE"
)]
// NVIDIA's Fabric Manager User Guide (docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide); systemd's unit line
#[case(
    "nvidia-fabricmanager",
    "match-version",
    "driver",
    "fabric manager NVIDIA GPU driver interface version 550.54.15 don't match with driver version 550.90.07. Please update with matching NVIDIA driver package."
)]
// NVIDIA's Fabric Manager User Guide: NV_WARN_NOTHING_TO_DO is no NVSwitch found (round 5,
// corpus 187; round 4 had it as a fabric failing to train)
#[case(
    "nvidia-fabricmanager",
    "find-device",
    "no NVSwitch",
    "request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]"
)]
// nvidia-smi -q's fabric state; CUDA's 802 (CUDA Runtime API reference)
#[case(
    "cuda",
    "initialise",
    "fabric",
    "Fabric State                  : In Progress\nCUDA error: system not yet initialized"
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
// nvidia-smi (its message when NVML cannot reach the driver)
#[case(
    "nvidia-driver-unreachable",
    "driver",
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
)]
// nvidia-smi (its message when libnvidia-ml.so is absent)
#[case(
    "nvidia-user-libs-missing",
    "libraries",
    "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system."
)]
// NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c
#[case(
    "nvidia-nouveau",
    "nouveau",
    "NVRM: The NVIDIA probe routine was not called for 1 device(s).\nNVRM: This can occur when another driver was loaded and\nNVRM: obtained ownership of the NVIDIA device(s)."
)]
fn kept_by_family(#[case] family: &str, #[case] word: &str, #[case] text: &str) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = super::diagnosis(text).to_lowercase();
    assert!(
        d.contains(&word.to_lowercase()),
        "{word} not in {d} for {text}"
    );
}
