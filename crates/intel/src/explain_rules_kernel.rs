//! Intel's kernel side and Kubernetes plug-in read by structure (issue 31): i915's and xe's
//! firmware, hang and wedge lines in the kernel log, and the GPU plug-in of
//! intel/intel-device-plugins-for-kubernetes.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

/// i915 and xe in the kernel log.
const DRM: EmitterRule = EmitterRule {
    emitter: "intel-kernel-module",
    who: "the i915/xe kernel driver",
    ..RULE
};

/// Intel's GPU device plug-in.
const PLUGIN: EmitterRule = EmitterRule {
    emitter: "intel-device-plugin",
    who: "Intel's GPU device plug-in",
    ..RULE
};

/// The kernel's firmware loader (drivers/base/firmware_loader/main.c): "Direct firmware load
/// for %s failed with error %d", for i915's and xe's files (GuC, HuC, DMC, GSC).
pub(crate) const FIRMWARE: EmitterRule = EmitterRule {
    line: &[&["Direct firmware load for ", "failed with error"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("Direct firmware load for "),
    objects: &["i915/", "xe/"],
    cause: "the kernel could not load the GPU's firmware file {object} (error -2: not in /lib/firmware or the initramfs): the host's linux-firmware is older than the kernel's driver, so the GPU runs without that firmware (no media engines or compute submission without GuC/HuC, no power management without DMC) in any container.",
    check: "'ls /lib/firmware/{object}*' on the host; update linux-firmware (firmware-misc-nonfree on Debian) and rebuild the initramfs",
    rank: RANK_DECISIVE,
    ..DRM
};

/// i915's error capture (drivers/gpu/drm/i915/i915_gpu_error.c): "GPU HANG: ecode
/// %d:%x:%08x, in %s [%d]"; the engine reset that follows ("Resetting rcs0 for ...").
pub(crate) const HANG: EmitterRule = EmitterRule {
    line: &[&["GPU HANG: ecode"], &["i915", "Resetting", " for "]],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "the GPU hung running a job of the process the line names, and i915 reset the engine: a bug of that program, its media or compute runtime, or the driver (or missing GuC/HuC firmware); the GPU had been reached, so it is not a setting of the container.",
    check: "'sudo dmesg | grep -i -e hang -e reset -e guc -e huc' on the host; update the kernel, linux-firmware and the program's runtime (intel-media-driver, the compute runtime)",
    rank: RANK_VAGUE,
    ..DRM
};

/// A GPU the driver gave up on: i915's and xe's "wedged" state (no further work is accepted
/// until a reboot or a successful reset).
pub(crate) const WEDGED: EmitterRule = EmitterRule {
    line: &[
        &["i915", "wedged"],
        &["xe ", "wedged"],
        &["[drm]", "wedged"],
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "the i915/xe driver declared the GPU wedged (a reset failed, or firmware such as the GuC did not start): it accepts no more work, in any container, until the host reboots or the cause is fixed.",
    check: "'sudo dmesg | grep -i -e wedged -e guc -e reset' on the host names the first failure; update linux-firmware and the kernel, then reboot",
    rank: RANK_DECISIVE,
    ..DRM
};

/// cmd/gpu_plugin/gpu_plugin.go: `errors.Wrap(err, "Can't read sysfs folder")`, logged by
/// pkg/deviceplugin/manager.go as "Device scan failed: %+v".
pub(crate) const SCAN: EmitterRule = EmitterRule {
    line: &[&["Device scan failed", "sysfs"]],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("gpu.intel.com/i915"),
    cause: "the GPU plug-in could not read the node's /sys/class/drm, so it advertises no gpu.intel.com resource: its pod does not mount the host's /sys (a modified DaemonSet), or the node has no DRM device at all.",
    check: "'kubectl -n <namespace> get ds intel-gpu-plugin -o yaml' must mount /sys/class/drm and /dev/dri; on the node 'ls /sys/class/drm' shows the cards",
    ..PLUGIN
};

/// pkg/deviceplugin/server.go: "Invalid allocation request with unhealthy device %s",
/// "Invalid allocation request with non-existing device %s".
pub(crate) const ALLOCATE: EmitterRule = EmitterRule {
    line: &[
        &["Invalid allocation request with unhealthy device"],
        &["Invalid allocation request with non-existing device"],
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("gpu.intel.com/i915"),
    cause: "the kubelet asked the plug-in for a GPU it reports unhealthy or no longer has (a GPU that hung or was removed, or a plug-in restarted with another device list), so the pod is refused.",
    check: "the plug-in's log on the node ('kubectl -n <namespace> logs <intel-gpu-plugin pod>') and 'sudo dmesg | grep -i -e i915 -e xe' there; delete the pod once the node's GPUs are healthy",
    ..PLUGIN
};

/// pkg/deviceplugin/server.go: `errors.Wrap(err, "Cannot register to kubelet service")`.
pub(crate) const REGISTER: EmitterRule = EmitterRule {
    line: &[&["Cannot register to kubelet service"]],
    operation: Operation::Allocate,
    object: ObjectAt::Is("gpu.intel.com/i915"),
    cause: "the plug-in could not register with the kubelet, so the node never offers its GPU resource: the kubelet's device-plugin socket directory is not the one mounted into the plug-in's pod (k3s, microk8s and other distributions keep it elsewhere than /var/lib/kubelet/device-plugins).",
    check: "find the kubelet's root directory on the node ('ps -ef | grep kubelet' for --root-dir) and mount its device-plugins directory into the plug-in's DaemonSet",
    rank: RANK_VAGUE,
    ..PLUGIN
};
