//! AMD's management libraries' statuses as data (issue 31): amd-smi's `amdsmi_status_t`
//! (ROCm/amdsmi `include/amd_smi/amdsmi.h`; the Python interface prints `Error code:\n\t<n> |
//! AMDSMI_STATUS_<NAME> - <text>`, `py-interface/amdsmi_exception.py`) and rocm-smi's
//! `rsmi_status_t` (ROCm/rocm_smi_lib `include/rocm_smi/rocm_smi.h`), in one class per cause;
//! and amd-smi's own "no GPU" line (`amdsmi_cli/amdsmi_commands.py`).

use gpuctl_core::plugin::{
    EmitterRule, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, status,
};

/// amd-smi's and rocm-smi's lines.
const SMI: EmitterRule = EmitterRule {
    emitter: "rocm-smi",
    who: "rocm-smi / amd-smi",
    ..RULE
};

/// amdsmi.h "Processor driver not loaded", "Device not initialized"; rocm_smi.h
/// INIT_ERROR. amd-smi reads /sys/module/amdgpu as rocminfo does: both readings are said
/// (the tool's view of /sys, or no driver), and the host's /sys/module/amdgpu shown.
pub(crate) const DRIVER: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_DRIVER_NOT_LOADED", 34, "Driver not loaded"),
        status("AMDSMI_STATUS_NOT_INIT", 32, "Device not initialized"),
        status("AMDSMI_STATUS_INIT_ERROR", 18, ""),
        status("RSMI_STATUS_INIT_ERROR", 8, ""),
        status("RSMI_INITIALIZATION_ERROR", 8, ""),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the amdgpu kernel module"),
    cause: "{status}: the tool found no initialised amdgpu driver (or, after it, no GPU), which has two readings: the amdgpu kernel driver is not loaded on the host or failed to start on the GPU ('dmesg' names why), or the tool ran where /sys and /dev/dri do not show it (a container without the host's /sys, or without the GPU's render node).",
    check: "on the host, 'lsmod | grep amdgpu', 'cat /sys/module/amdgpu/initstate' and 'sudo dmesg | grep -i amdgpu'; in a container, pass the render nodes and /dev/kfd and mount the host's /sys read-only",
    host_path: Some("/sys/module/amdgpu"),
    ..SMI
};

/// amdsmi_cli/amdsmi_commands.py: "Unable to detect any GPU devices, check amdgpu version and
/// module status (sudo modprobe amdgpu)", once the library found the driver but no GPU.
pub(crate) const NO_GPU: EmitterRule = EmitterRule {
    line: &[&["Unable to detect any GPU devices, check amdgpu version and module status"]],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("an AMD GPU"),
    cause: "amd-smi found no GPU: the amdgpu driver is loaded but drives no GPU it can reach (it failed to start on it, 'dmesg' names why), or in a container the GPU's render node and the host's /sys/class/drm are not there.",
    check: "on the host 'sudo dmesg | grep -i amdgpu' and 'ls /sys/class/drm'; in a container pass the render nodes and /dev/kfd ('podman run $(gpuctl args amd) ...')",
    ..SMI
};

/// amdsmi.h "Permission Denied"; rocm_smi.h PERMISSION.
pub(crate) const PERMISSION: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_NO_PERM", 10, "Permission Denied"),
        status("RSMI_STATUS_PERMISSION", 4, ""),
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU's sysfs and device files"),
    cause: "{status}: the tool was refused a file of the GPU it reads or writes (under /sys/class/drm, /sys/kernel/debug/dri, or the render node): setting clocks, power or fans needs root, and in a container the files must be mounted and the user in the render and video groups.",
    check: "run it as root on the host (or 'sudo amd-smi'); in a container give the render node with its group ('--group-add keep-groups' under crun) and the host's /sys",
    rank: RANK_VAGUE,
    ..SMI
};

/// amdsmi.h "Device Not found", "file or directory not found", "Error when call libdrm";
/// rocm_smi.h NOT_FOUND and FILE_ERROR: the GPU's files are not where the tool looks.
pub(crate) const NOT_FOUND: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_NOT_FOUND", 31, "Device Not found"),
        status("AMDSMI_STATUS_FILE_NOT_FOUND", 52, ""),
        status("AMDSMI_STATUS_FILE_ERROR", 14, ""),
        status("AMDSMI_STATUS_DRM_ERROR", 6, ""),
        status("RSMI_STATUS_NOT_FOUND", 10, ""),
        status("RSMI_STATUS_FILE_ERROR", 3, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("an AMD GPU"),
    cause: "{status}: the tool found no AMD GPU's files where it looks: in a container, the render node (/dev/dri/renderD*) or the host's /sys/class/drm is not there; on the host, amdgpu did not bind the GPU.",
    check: "'ls -l /dev/dri /sys/class/drm' where the tool runs; on the host 'sudo dmesg | grep -i amdgpu' and 'lspci -k | grep -A3 -i vga'",
    rank: RANK_VAGUE,
    ..SMI
};

/// amdsmi.h "Fail to load lib", "Fail to load symbol": a library amd-smi loads, of the image.
pub(crate) const LIBRARY: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_FAIL_LOAD_MODULE", 4, "Fail to load lib"),
        status("AMDSMI_STATUS_FAIL_LOAD_SYMBOL", 5, "Fail to load symbol"),
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("a ROCm library amd-smi loads"),
    owner: Owner::Image,
    cause: "{status}: a library amd-smi loads (libamd_smi, librocm_smi64, libdrm_amdgpu) is missing in the image or of another ROCm release than the tool.",
    check: "install amd-smi-lib and its libraries from one ROCm release in the image",
    ..SMI
};

/// The GPU or its driver busy, hung or not answering (amdsmi.h, rocm_smi.h).
pub(crate) const BUSY: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_BUSY", 30, "Device busy"),
        status("AMDSMI_STATUS_TIMEOUT", 8, ""),
        status("AMDSMI_STATUS_RETRY", 9, ""),
        status("AMDSMI_STATUS_IO", 12, ""),
        status(
            "AMDSMI_STATUS_AMDGPU_RESTART_ERR",
            54,
            "AMDGPU restart failed",
        ),
        status("RSMI_STATUS_BUSY", 16, ""),
        status("RSMI_STATUS_AMDGPU_RESTART_ERR", 19, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU or its driver did not answer the tool (busy, timed out, an I/O error, or a driver restart that failed): the GPU may be hung or resetting.",
    check: "'sudo dmesg | grep -i -e amdgpu -e reset' on the host; try again once the GPU is idle, or reboot the host if a reset failed",
    rank: RANK_VAGUE,
    ..SMI
};

/// A query the GPU or driver does not offer: not why anything failed.
pub(crate) const UNSUPPORTED: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_NOT_SUPPORTED", 2, "Feature not supported"),
        status("AMDSMI_STATUS_NOT_YET_IMPLEMENTED", 3, ""),
        status("AMDSMI_STATUS_SETTING_UNAVAILABLE", 55, ""),
        status("AMDSMI_STATUS_NO_DATA", 40, ""),
        status("RSMI_STATUS_NOT_SUPPORTED", 2, ""),
        status("RSMI_STATUS_NOT_YET_IMPLEMENTED", 9, ""),
        status("RSMI_STATUS_SETTING_UNAVAILABLE", 18, ""),
        status("RSMI_STATUS_NO_DATA", 14, ""),
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("a GPU metric"),
    cause: "{status}: this GPU or its driver does not offer the value asked for (common on consumer GPUs, APUs and in VMs); it is not why anything failed: if something did, the reason is on another line.",
    check: "'amd-smi static' and 'amd-smi metric' list what the GPU offers",
    rank: RANK_NOTE,
    ..SMI
};

/// The tool's own errors, and AMD's CPU drivers (HSMP, MSR, energy): not the GPU's set-up.
pub(crate) const OTHER: EmitterRule = EmitterRule {
    statuses: &[
        status("AMDSMI_STATUS_INVAL", 1, "Invalid parameters"),
        status("AMDSMI_STATUS_API_FAILED", 7, ""),
        status("AMDSMI_STATUS_INTERRUPT", 11, ""),
        status("AMDSMI_STATUS_ADDRESS_FAULT", 13, ""),
        status("AMDSMI_STATUS_OUT_OF_RESOURCES", 15, ""),
        status("AMDSMI_STATUS_INTERNAL_EXCEPTION", 16, ""),
        status("AMDSMI_STATUS_INPUT_OUT_OF_BOUNDS", 17, ""),
        status("AMDSMI_STATUS_REFCOUNT_OVERFLOW", 19, ""),
        status("AMDSMI_STATUS_NO_SLOT", 33, ""),
        status("AMDSMI_STATUS_INSUFFICIENT_SIZE", 41, ""),
        status("AMDSMI_STATUS_UNEXPECTED_SIZE", 42, ""),
        status("AMDSMI_STATUS_UNEXPECTED_DATA", 43, ""),
        status("AMDSMI_STATUS_NON_AMD_CPU", 44, ""),
        status("AMDSMI_STATUS_NO_ENERGY_DRV", 45, ""),
        status("AMDSMI_STATUS_NO_MSR_DRV", 46, ""),
        status("AMDSMI_STATUS_NO_HSMP_DRV", 47, ""),
        status("AMDSMI_STATUS_NO_HSMP_SUP", 48, ""),
        status("AMDSMI_STATUS_NO_HSMP_MSG_SUP", 49, ""),
        status("AMDSMI_STATUS_HSMP_TIMEOUT", 50, ""),
        status("AMDSMI_STATUS_NO_DRV", 51, ""),
        status("AMDSMI_STATUS_ARG_PTR_NULL", 53, ""),
        status("AMDSMI_STATUS_MAP_ERROR", 0xFFFF_FFFE, ""),
        status("AMDSMI_STATUS_UNKNOWN_ERROR", 0xFFFF_FFFF, ""),
        status("RSMI_STATUS_INVALID_ARGS", 1, ""),
        status("RSMI_STATUS_OUT_OF_RESOURCES", 5, ""),
        status("RSMI_STATUS_INTERNAL_EXCEPTION", 6, ""),
        status("RSMI_STATUS_INPUT_OUT_OF_BOUNDS", 7, ""),
        status("RSMI_STATUS_INSUFFICIENT_SIZE", 11, ""),
        status("RSMI_STATUS_INTERRUPT", 12, ""),
        status("RSMI_STATUS_UNEXPECTED_SIZE", 13, ""),
        status("RSMI_STATUS_UNEXPECTED_DATA", 15, ""),
        status("RSMI_STATUS_REFCOUNT_OVERFLOW", 17, ""),
        status("RSMI_STATUS_UNKNOWN_ERROR", 0xFFFF_FFFF, ""),
    ],
    operation: Operation::Open,
    owner: Owner::Workload,
    cause: "{status} is the tool's own error (an argument, a size, an internal failure) or concerns AMD's CPU drivers (HSMP, MSR, energy), not the GPU's set-up.",
    check: "'amd-smi --help' for the arguments; 'sudo modprobe amd_hsmp' for the CPU metrics",
    rank: RANK_NOTE,
    ..SMI
};

/// rocm-smi's own complaints about the GPU's sysfs and hwmon files (ROCm/rocm_smi_lib
/// python_smi_tools/rocm_smi.py: "GPU[%s]\t: %s, Unexpected data received" and "Expected
/// integer value from monitor, but got"): the driver answered with nothing. Said beside a
/// family's cause, not over it, since a tool older than the GPU prints the same for the fields
/// it does not know (ROCm/TheRock#642, corpus 237: a GPU in a bad state, a reboot fixed it).
pub(crate) const SENSORS: EmitterRule = EmitterRule {
    line: &[
        &["Unexpected data received"],
        &["Expected integer value from monitor, but got"],
    ],
    needs: &[
        "rocm-smi",
        "ROCm System Management Interface",
        "HSA_STATUS_",
        "rocminfo",
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU's sysfs and hwmon files"),
    cause: "they gave no data: the GPU is not answering (hung or in a bad state after a fault, which a GPU reset or a reboot clears), or this rocm-smi does not know those fields of the GPU (then the rest works).",
    check: "'sudo dmesg | grep -iE \"amdgpu.*(timeout|reset|fault)\"' on the host: a ring timeout or failed reset means the GPU is hung (reboot, or 'cat /sys/kernel/debug/dri/N/amdgpu_gpu_recover' as root); otherwise compare rocm-smi's release with the GPU's support",
    ..SMI
};
