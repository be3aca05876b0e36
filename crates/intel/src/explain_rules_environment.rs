//! Issue 31, round 5: Intel strings round 4's enumeration did not reach, and a reading that
//! changes under WSL2. Sources (also in docs/explain.md#emitters):
//!
//! - intel/compute-runtime shared/source/os_interface/linux/drm_neo.cpp (setupHardwareInfo:
//!   "WARNING: Small BAR detected for device %s", then the device is not created unless the
//!   kernel driver allows a small BAR) and its FAQ (programmers-guide/FAQ.md, "Resizable BAR
//!   not detected", the newer spelling: by design, enable Resizable BAR).
//! - oneapi-src/level-zero source/loader (the loader's debug trace, ZE_ENABLE_LOADER_DEBUG_TRACE:
//!   "Load Library of %s failed with %s") for Intel's GPU driver, libze_intel_gpu.so.1.
//! - igt-gpu-tools tools/intel_gpu_top.c: "Failed to initialize PMU! (%s)" with strerror of
//!   perf_event_open on the i915/xe PMU.
//! - intel/llvm sycl/doc (GetStartedGuide, containers): under WSL2 the GPU is given through
//!   /dev/dxg and /usr/lib/wsl, not /dev/dri.
//! - Round 7: Mesa src/intel/dev/intel_device_info.c: "Driver does not support the 0x%x PCI
//!   ID." when the image's Mesa (iris, anv, crocus) has no entry for the GPU's device id: a
//!   Mesa older than the GPU, so GL and Vulkan fall back to software.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_REASON, RULE};

/// Words that show a text is from WSL2 (its kernel release, its GPU device and library
/// directory, Docker Desktop's WSL backend).
pub(crate) const WSL: &[&str] = &[
    "WSL",
    "/usr/lib/wsl",
    "/dev/dxg",
    "microsoft-standard",
    "Docker Desktop",
];

/// A reading that holds only in the environment the text shows: it is more specific than the
/// same line's general reading (which has [`RANK_REASON`]).
const RANK_ENVIRONMENT: u8 = RANK_REASON - 1;

/// The compute runtime refusing a discrete GPU whose BAR is small.
pub(crate) const SMALL_BAR: EmitterRule = EmitterRule {
    emitter: "opencl",
    who: "Intel's compute runtime (OpenCL and Level Zero)",
    line: &[
        &["Small BAR detected for device"],
        &["Resizable BAR not detected for device"],
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::After("detected for device "),
    // Which releases refuse it changed: 25.18 refused a GPU that 25.13 exposed, and a later
    // release took that back (intel/compute-runtime#831).
    cause: "Intel's compute runtime found the discrete GPU at {object} with a small PCI BAR (Resizable BAR off) and, in the releases that refuse such a GPU, does not expose it: OpenCL lists no platform and Level Zero no device, though the kernel driver and media work. Whether a release refuses it has changed between releases (25.18 did where 25.13 did not), so the runtime's release matters as much as the BAR.",
    check: "enable 'Above 4G decoding' and 'Resizable BAR' (Re-Size BAR support) in the machine's firmware setup, and for a GPU passed to a VM in the hypervisor too; 'sudo lspci -vv -s {object} | grep -i -A2 resizable' shows the BAR size; where that cannot change, a compute runtime release that exposes the GPU anyway (the image's intel-opencl-icd version against compute-runtime's release notes)",
    rank: RANK_DECISIVE,
    ..RULE
};

/// The Level Zero loader's debug trace failing to load Intel's GPU driver.
pub(crate) const ZE_DRIVER: EmitterRule = EmitterRule {
    emitter: "level-zero",
    who: "the Level Zero loader",
    line: &[&["Load Library of ", "failed"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("Load Library of "),
    objects: &["libze_intel_gpu"],
    cause: "the Level Zero loader is installed but Intel's GPU driver for it, {object} (the compute runtime's package libze-intel-gpu1, formerly intel-level-zero-gpu), is not where the program runs, so Level Zero and SYCL's level_zero backend see no GPU while OpenCL may still see it.",
    check: "install the compute runtime's Level Zero driver where the program runs ('apt install libze-intel-gpu1' or intel-level-zero-gpu; in a container, in the image) in the release of the OpenCL ICD; 'ZE_ENABLE_LOADER_DEBUG_TRACE=1 sycl-ls' shows the loader's search",
    ..RULE
};

/// intel_gpu_top opening the GPU's PMU through perf events.
pub(crate) const GPU_TOP_PMU: EmitterRule = EmitterRule {
    emitter: "intel-gpu-top",
    who: "intel_gpu_top",
    line: &[&["Failed to initialize PMU!"]],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU's PMU (perf events)"),
    cause: "intel_gpu_top reads the GPU's busyness from the i915/xe PMU through perf_event_open, and the kernel refused it: 'Operation not permitted' or 'Permission denied' in a container without CAP_PERFMON (or CAP_SYS_ADMIN) or under kernel.perf_event_paranoid above 0; 'No such file or directory' when the kernel driver has no PMU for this GPU. Passing /dev/dri does not give it.",
    check: "run the container privileged (compose 'privileged: true'), or with '--cap-add PERFMON' on kernel 5.8 and later; on the host 'sysctl kernel.perf_event_paranoid' and 'ls /sys/bus/event_source/devices/ | grep -e i915 -e xe'",
    ..RULE
};

/// SYCL in a container under WSL2 given /dev/dri: there is no such node there.
pub(crate) const SYCL_WSL: EmitterRule = EmitterRule {
    emitter: "sycl",
    who: "the SYCL runtime",
    line: &[
        &["/dev/dri", "sycl-ls"],
        &["No device of requested type available"],
    ],
    unless: &["/dev/dxg"],
    needs: WSL,
    operation: Operation::FindDevice,
    object: ObjectAt::Is("a GPU device"),
    cause: "the text is from WSL2, where the GPU reaches Linux through the paravirtual /dev/dxg and the driver libraries in /usr/lib/wsl, not through /dev/dri (WSL has no i915 or xe driver): a container given only /dev/dri gets no GPU, so SYCL lists only CPU devices.",
    check: "run the container with '--device /dev/dxg -v /usr/lib/wsl:/usr/lib/wsl' and 'LD_LIBRARY_PATH=/usr/lib/wsl/lib' (and the compute runtime in the image); 'ls -l /dev/dxg /usr/lib/wsl/lib' in WSL",
    rank: RANK_ENVIRONMENT,
    ..RULE
};

/// Mesa's Intel drivers without the GPU's device id.
pub(crate) const MESA_PCI_ID: EmitterRule = EmitterRule {
    emitter: "mesa-loader",
    who: "Mesa's Intel driver",
    line: &[&["Driver does not support the 0x", " PCI ID"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::After("Driver does not support the "),
    cause: "the Mesa in the image (iris and anv, Intel's GL and Vulkan drivers) is older than the GPU: it has no entry for device id {object}, so it does not drive it and GL and Vulkan fall back to software (llvmpipe, lavapipe).",
    check: "'gpuctl detect' names the GPU; install a Mesa release that knows it in the image (a newer distribution base, or a backports or kisak/oibaf build)",
    // It says why the DRI screen that fails after it could not be made.
    rank: RANK_ENVIRONMENT,
    ..RULE
};
