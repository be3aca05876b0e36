//! AMD's kernel side read by structure (issue 31): /dev/kfd's open by errno, the amdgpu
//! driver's start-up failures in the kernel log, and ROCm's Kubernetes device plugin.

use gpuctl_core::plugin::{
    EmitterRule, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_NOTE, RANK_VAGUE, RULE,
};

/// ROCr (libhsakmt) and rocminfo: "Unable to open /dev/kfd read-write: %s" (rocminfo.cc's
/// CheckInitialState, strerror(errno)), by errno. EACCES, ENOENT and EINVAL are families
/// (`amd-kfd-*`), ENOMEM the rule in explain_rules.rs.
const KFD_OPEN: EmitterRule = EmitterRule {
    emitter: "rocminfo",
    who: "the ROCm runtime",
    operation: Operation::Open,
    object: ObjectAt::Is("/dev/kfd"),
    ..RULE
};

/// The amdgpu driver in the kernel log.
const AMDGPU: EmitterRule = EmitterRule {
    emitter: "amdgpu-kernel-module",
    who: "the amdgpu kernel driver",
    ..RULE
};

/// What to check when amdgpu did not start on the GPU.
const AMDGPU_INIT_CHECK: &str = "'sudo dmesg | grep -i -e amdgpu -e firmware' on the host names the failing step; install a linux-firmware (or amdgpu-dkms-firmware) at least as new as the kernel, rebuild the initramfs ('sudo update-initramfs -u' / 'sudo dracut -f'), or use a kernel that supports the GPU";

/// EPERM: the node is in the container but the device cgroup (or a seccomp or LSM rule)
/// does not allow it: bind-mounted as a volume rather than passed as a device.
pub(crate) const KFD_EPERM: EmitterRule = EmitterRule {
    line: &[&["/dev/kfd read-write: Operation not permitted"]],
    cause: "the container has /dev/kfd but may not open it (EPERM): the device cgroup does not allow the node (it was bind-mounted with '-v /dev/kfd' instead of passed with '--device /dev/kfd', or a Kubernetes pod got it without the device plugin), or an LSM denied it.",
    check: "pass it as a device ('--device /dev/kfd --device /dev/dri', or the amd.com/gpu CDI device) rather than as a volume; in Kubernetes request amd.com/gpu from the device plugin",
    ..KFD_OPEN
};

/// ENODEV / ENXIO: a /dev/kfd node with no driver behind it (a node left in a container's
/// /dev, or amdgpu loaded without KFD).
pub(crate) const KFD_NODEV: EmitterRule = EmitterRule {
    line: &[
        &["/dev/kfd read-write: No such device"],
        &["/dev/kfd read-write: No such device or address"],
    ],
    cause: "/dev/kfd exists but no driver answers it (ENODEV/ENXIO): the host's amdgpu driver is not loaded, was loaded without KFD (no GPU it supports for compute), or the node is a stale copy in the container's /dev.",
    check: "on the host 'lsmod | grep amdgpu', 'ls -l /dev/kfd' and 'sudo dmesg | grep kfd'; pass the host's node with '--device /dev/kfd'",
    host_path: Some("/sys/module/amdgpu"),
    rank: RANK_DECISIVE,
    ..KFD_OPEN
};

/// rocminfo.cc: "%s is not member of \"%s\" group, the default DRM access group. Users
/// must be a member of the \"%s\" group or another DRM access group in order for ROCm
/// applications to run successfully."
pub(crate) const KFD_GROUP: EmitterRule = EmitterRule {
    line: &[&["is not member of", "the default DRM access group"]],
    object: ObjectAt::After("is not member of "),
    cause: "the user is not in {object}, the group that owns /dev/kfd and the render nodes, so ROCm may not open them.",
    check: "'sudo usermod -aG render,video $USER' and log in again; in a rootless container keep the groups with '--group-add keep-groups' (crun)",
    ..KFD_OPEN
};

/// The kernel's firmware loader (drivers/base/firmware_loader/main.c): "Direct firmware
/// load for %s failed with error %d", for amdgpu's (and radeon's) files.
pub(crate) const FIRMWARE: EmitterRule = EmitterRule {
    line: &[&["Direct firmware load for ", "failed with error"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("Direct firmware load for "),
    objects: &["amdgpu/", "radeon/"],
    // The PSP's trusted-application files are optional (FIRMWARE_TA below).
    unless: &["_ta.bin"],
    cause: "the kernel could not load the GPU's firmware file {object} (error -2: the file is not in /lib/firmware or the initramfs): the host's linux-firmware is older than the kernel's amdgpu, so the GPU does not start and no container can use it.",
    check: AMDGPU_INIT_CHECK,
    rank: RANK_DECISIVE,
    ..AMDGPU
};

/// The PSP's trusted-application firmware (`<chip>_ta.bin`, amdgpu's psp_v11_0.c "Failed to
/// load firmware"): optional, for content protection and secure display; without it the GPU
/// and ROCm work (ROCm/legacy-rocm-build#912, AMD's answer).
pub(crate) const FIRMWARE_TA: EmitterRule = EmitterRule {
    line: &[
        &["Direct firmware load for ", "_ta.bin", "failed with error"],
        &["Failed to load firmware", "_ta.bin"],
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the PSP's trusted-application firmware"),
    cause: "the kernel did not find the PSP's trusted-application firmware (a <chip>_ta.bin file), which amdgpu loads only for content protection and secure display: the GPU and ROCm work without it. It is not why anything failed; if something did, the reason is on another line.",
    check: "nothing for ROCm; to silence it, install a linux-firmware that has the file; for a real failure read the other lines of 'sudo dmesg | grep amdgpu'",
    owner: Owner::Harmless,
    rank: RANK_NOTE,
    ..AMDGPU
};

/// drivers/gpu/drm/amd/amdgpu/amdgpu_kms.c: "Fatal error during GPU init"; amdgpu_device.c:
/// "early_init of IP block <%s> failed %d", "sw_init ...", "hw_init ...",
/// "amdgpu_device_ip_init failed"; drivers/base/dd.c: "probe of %s failed with error %d".
/// Panfrost prints the same "Fatal error during GPU init": only amdgpu's line is read.
pub(crate) const INIT: EmitterRule = EmitterRule {
    line: &[
        &["amdgpu", "Fatal error during GPU init"],
        &["amdgpu", "early_init of IP block"],
        &["amdgpu", "sw_init of IP block"],
        &["amdgpu", "hw_init of IP block"],
        &["amdgpu_device_ip_init failed"],
        &["amdgpu", ": probe of ", "failed with error"],
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU"),
    cause: "the amdgpu driver failed to start on the GPU (a firmware file missing or older than the kernel, an IP block it could not initialise, or a GPU this kernel does not support yet), so the host has no usable AMD GPU and no container setting helps.",
    check: AMDGPU_INIT_CHECK,
    host_path: Some("/dev/kfd"),
    rank: RANK_DECISIVE,
    ..AMDGPU
};

/// amdgpu_job.c: "ring %s timeout, signaled seq=%u, emitted seq=%u"; amdgpu_device.c "GPU
/// reset begin!" and the VM fault reports ("[gfxhub] page fault", "GCVM_L2_PROTECTION_FAULT").
pub(crate) const HANG: EmitterRule = EmitterRule {
    line: &[
        &["amdgpu", "ring", "timeout"],
        &["amdgpu", "GPU reset begin"],
        &["amdgpu", "page fault"],
        &["GCVM_L2_PROTECTION_FAULT"],
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "the GPU hung or faulted running a job, and the amdgpu driver reset it: code for another target (HSA_OVERRIDE_GFX_VERSION), a bug of the program, ROCm, Mesa or the firmware; the GPU had been reached, so it is not a container set-up problem.",
    check: "'sudo dmesg | grep -i -e amdgpu -e \"page fault\"' on the host names the process; drop an HSA_OVERRIDE_GFX_VERSION naming another target, and update the kernel and linux-firmware",
    rank: RANK_VAGUE,
    ..AMDGPU
};

/// ROCm/k8s-device-plugin internal/pkg/amdgpu/amdgpu.go: "amdgpu driver unavailable.
/// exiting with exit code 2. error: %s" when /sys/module/amdgpu/drivers/ is missing;
/// plugin.go "No GPU nodes found via properties" (KFD's topology shows no GPU).
pub(crate) const PLUGIN: EmitterRule = EmitterRule {
    emitter: "amd-device-plugin",
    who: "ROCm's Kubernetes device plugin",
    line: &[
        &["amdgpu driver unavailable"],
        &["No GPU nodes found via properties"],
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("amd.com/gpu"),
    cause: "the device plugin found no AMD GPU on the node (no /sys/module/amdgpu/drivers/ or no GPU in KFD's topology), so the node offers no amd.com/gpu: the amdgpu driver is not loaded on the node, or the plugin's pod does not see the host's /sys.",
    check: "on the node 'lsmod | grep amdgpu' and 'ls /sys/class/kfd/kfd/topology/nodes'; install amdgpu (or the AMD GPU operator's driver) and run the plugin's DaemonSet with the host's /sys mounted",
    host_path: Some("/sys/module/amdgpu"),
    ..RULE
};

/// KFD, amdgpu's compute side (torvalds/linux drivers/gpu/drm/amd/amdkfd/kfd_device.c):
/// kgd2kfd_probe's "skipped device %x:%x, PCI rejects atomics %d<%d" (a GPU that needs PCIe
/// atomics on a platform or slot without them) and kgd2kfd_device_init's "device %x:%x NOT
/// added due to errors". Either way ROCm has no GPU though amdgpu drives the display.
pub(crate) const KFD_SKIPPED: EmitterRule = EmitterRule {
    line: &[
        &["kfd", "skipped device ", "PCI rejects atomics"],
        &["kfd", "device ", "NOT added due to errors"],
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the GPU's compute (KFD) device"),
    cause: "the amdgpu driver runs the GPU but KFD did not add it as a compute device, so ROCm (rocminfo, HIP) sees no GPU: 'PCI rejects atomics' means the GPU needs PCIe atomic operations (gfx8 GPUs such as Polaris, and older firmware of later ones) and the CPU, chipset, slot or a PCIe switch on the way does not provide them; 'NOT added due to errors' means KFD's own start-up on it failed.",
    check: "'sudo dmesg | grep kfd' on the host; 'sudo lspci -vvv -s <bus id> | grep -i atomic' shows the slot's AtomicOps; move the GPU to a slot wired to the CPU, use a platform with PCIe atomics (Intel Haswell or AMD Zen and later), update the GPU firmware (linux-firmware) where the check compares its version, or use a newer GPU",
    host_path: Some("/sys/class/kfd/kfd/topology/nodes"),
    rank: RANK_DECISIVE,
    ..AMDGPU
};

/// DKMS building ROCm's amdgpu-dkms module: "Error! Bad return status for module build on
/// kernel: %s (%s)" with the module's tree /var/lib/dkms/amdgpu/<version> (the ROCm installer's
/// out-of-tree driver for a kernel it does not support).
pub(crate) const DKMS: EmitterRule = EmitterRule {
    emitter: "dkms",
    who: "DKMS",
    line: &[&["Bad return status for module build on kernel: "]],
    needs: &["dkms/amdgpu", "amdgpu-dkms"],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("amdgpu-dkms to the kernel"),
    cause: "DKMS could not build ROCm's amdgpu-dkms module for the kernel the line names: the ROCm release does not support that kernel (the out-of-tree driver lags the distribution's newest kernels) or its headers are missing; ROCm user space also runs on the kernel's own amdgpu, without amdgpu-dkms.",
    check: "the build's make.log names the first error; install the headers of that kernel, use a kernel the ROCm release lists, or install ROCm without the DKMS driver ('amdgpu-install --no-dkms') on a recent enough kernel",
    ..RULE
};
