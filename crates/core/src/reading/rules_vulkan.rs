//! Vulkan's `VkResult` as data, and the Vulkan loader's own lines (issue 31). Every value of
//! KhronosGroup/Vulkan-Headers `include/vulkan/vulkan_core.h`, in one class per cause, read by
//! its name (`VK_ERROR_INCOMPATIBLE_DRIVER`; vulkaninfo drops the `VK_`: `vkCreateInstance
//! failed with ERROR_INCOMPATIBLE_DRIVER`; Vulkan-Hpp's `to_string` in `vulkan_to_string.hpp`
//! gives `ErrorIncompatibleDriver`) or by its number on a Vulkan line; and the loader's
//! messages about each driver (ICD) it tried (KhronosGroup/Vulkan-Loader `loader/loader.c`,
//! `loader/trampoline.c`), which say more than the result.

use super::status::{NumberAt, decimal_after, status};
use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE};

/// Vulkan's lines.
const VK: EmitterRule = EmitterRule {
    emitter: "vulkan",
    who: "the Vulkan loader",
    line: &[
        &["Vulkan"],
        &["vulkan"],
        &["vk"],
        &["Vk"],
        &["VK_"],
        &["failed with "],
    ],
    numbers: NUMBERS,
    bare: "VK_",
    ..RULE
};

/// Where Vulkan's callers print a VkResult.
const NUMBERS: &[NumberAt] = &[
    decimal_after("VkResult "),
    decimal_after("VkResult: "),
    decimal_after("VkResult = "),
    decimal_after("result "),
    decimal_after("result: "),
    decimal_after("returned "),
    decimal_after("error code "),
    decimal_after("failed: "),
];

/// What to check when no Vulkan driver loads.
const ICD_CHECK: &str = "'ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d' in the container, then VK_LOADER_DEBUG=all vulkaninfo to see why each ICD is skipped";

/// VK_ERROR_INCOMPATIBLE_DRIVER from vkCreateInstance: no ICD loads. The loader's line on an
/// ICD it found (below) is more specific than the result.
pub(crate) const INCOMPATIBLE: EmitterRule = EmitterRule {
    statuses: &[
        status("VK_ERROR_INCOMPATIBLE_DRIVER", -9, ""),
        status("ErrorIncompatibleDriver", -9, ""),
    ],
    operation: Operation::LoadLibrary,
    cause: "{status}: no Vulkan driver (ICD) could be loaded: no ICD manifest under /usr/share/vulkan/icd.d or /etc/vulkan/icd.d names a library present in the container (NVIDIA's nvidia_icd.json comes with the graphics capability: NVIDIA_DRIVER_CAPABILITIES must include 'graphics'; Mesa's radv or anv must be in the image for AMD and Intel).",
    check: ICD_CHECK,
    rank: RANK_VAGUE,
    ..VK
};

/// VK_ERROR_INITIALIZATION_FAILED, VK_ERROR_UNKNOWN: a driver was found but did not start.
pub(crate) const INIT: EmitterRule = EmitterRule {
    statuses: &[
        status("VK_ERROR_INITIALIZATION_FAILED", -3, ""),
        status("ErrorInitializationFailed", -3, ""),
        status("VK_ERROR_UNKNOWN", -13, ""),
    ],
    operation: Operation::Initialise,
    cause: "{status}: a Vulkan driver was found but did not start: it cannot reach its GPU (no device node or render node passed, or NVIDIA's user-space libraries of another release than the kernel module).",
    check: "VK_LOADER_DEBUG=all vulkaninfo in the container; the GPU's nodes must be there, and for NVIDIA the ICD's libGLX_nvidia.so must be the host driver's release",
    rank: RANK_VAGUE,
    ..VK
};

/// VK_ERROR_DEVICE_LOST: the GPU hung, was reset or removed.
pub(crate) const LOST: EmitterRule = EmitterRule {
    statuses: &[
        status("VK_ERROR_DEVICE_LOST", -4, ""),
        status("ErrorDeviceLost", -4, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU was lost while the program used it (a hang the kernel driver reset, a removed GPU, or a driver fault); the GPU had been reached, so it is not a setting of the container.",
    check: "'dmesg' on the host names the reset or fault (NVRM Xid, amdgpu ring timeout, i915 GPU HANG); update the GPU driver",
    rank: RANK_VAGUE,
    ..VK
};

/// An extension, feature, format or video profile the driver in use does not have.
pub(crate) const UNSUPPORTED: EmitterRule = EmitterRule {
    statuses: &[
        status("VK_ERROR_EXTENSION_NOT_PRESENT", -7, ""),
        status("ErrorExtensionNotPresent", -7, ""),
        status("VK_ERROR_FEATURE_NOT_PRESENT", -8, ""),
        status("ErrorFeatureNotPresent", -8, ""),
        status("VK_ERROR_FORMAT_NOT_SUPPORTED", -11, ""),
        status("VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR", -1000023000, ""),
        status(
            "VK_ERROR_VIDEO_PICTURE_LAYOUT_NOT_SUPPORTED_KHR",
            -1000023001,
            "",
        ),
        status(
            "VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR",
            -1000023002,
            "",
        ),
        status(
            "VK_ERROR_VIDEO_PROFILE_FORMAT_NOT_SUPPORTED_KHR",
            -1000023003,
            "",
        ),
        status(
            "VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR",
            -1000023004,
            "",
        ),
        status(
            "VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR",
            -1000023005,
            "",
        ),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the Vulkan driver in use"),
    cause: "{status}: the Vulkan driver in use lacks what the program asks for: a driver older than the program, a GPU without the feature or video codec, or a software driver (lavapipe, llvmpipe) picked because the GPU's own ICD is not in the container.",
    check: "'vulkaninfo --summary' in the container names the driver and GPU in use; install the GPU's Vulkan driver (Mesa's radv or anv, or NVIDIA's with the graphics capability) in a release the program supports",
    rank: RANK_VAGUE,
    ..VK
};

/// The workload's own: memory, objects, surfaces and layers it asked for, and the statuses
/// that are no failure.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("VK_NOT_READY", 1, ""),
        status("VK_TIMEOUT", 2, ""),
        status("VK_EVENT_SET", 3, ""),
        status("VK_EVENT_RESET", 4, ""),
        status("VK_INCOMPLETE", 5, ""),
        status("VK_ERROR_OUT_OF_HOST_MEMORY", -1, ""),
        status("ErrorOutOfHostMemory", -1, ""),
        status("VK_ERROR_OUT_OF_DEVICE_MEMORY", -2, ""),
        status("ErrorOutOfDeviceMemory", -2, ""),
        status("VK_ERROR_MEMORY_MAP_FAILED", -5, ""),
        status("VK_ERROR_LAYER_NOT_PRESENT", -6, ""),
        status("VK_ERROR_TOO_MANY_OBJECTS", -10, ""),
        status("VK_ERROR_FRAGMENTED_POOL", -12, ""),
        status("VK_ERROR_VALIDATION_FAILED", -1000011001, ""),
        status("VK_ERROR_OUT_OF_POOL_MEMORY", -1000069000, ""),
        status("VK_ERROR_INVALID_EXTERNAL_HANDLE", -1000072003, ""),
        status("VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS", -1000257000, ""),
        status("VK_ERROR_FRAGMENTATION", -1000161000, ""),
        status("VK_PIPELINE_COMPILE_REQUIRED", 1000297000, ""),
        status("VK_ERROR_NOT_PERMITTED", -1000174001, ""),
        status("VK_ERROR_SURFACE_LOST_KHR", -1000000000, ""),
        status("VK_ERROR_NATIVE_WINDOW_IN_USE_KHR", -1000000001, ""),
        status("VK_SUBOPTIMAL_KHR", 1000001003, ""),
        status("VK_ERROR_OUT_OF_DATE_KHR", -1000001004, ""),
        status("VK_ERROR_INCOMPATIBLE_DISPLAY_KHR", -1000003001, ""),
        status("VK_ERROR_INVALID_SHADER_NV", -1000012000, ""),
        status(
            "VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT",
            -1000158000,
            "",
        ),
        status("VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT", -1000208000, ""),
        status(
            "VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT",
            -1000255000,
            "",
        ),
        status("VK_THREAD_IDLE_KHR", 1000268000, ""),
        status("VK_THREAD_DONE_KHR", 1000268001, ""),
        status("VK_OPERATION_DEFERRED_KHR", 1000268002, ""),
        status("VK_OPERATION_NOT_DEFERRED_KHR", 1000268003, ""),
        status("VK_ERROR_INVALID_VIDEO_STD_PARAMETERS_KHR", -1000299000, ""),
        status("VK_ERROR_COMPRESSION_EXHAUSTED_EXT", -1000338000, ""),
        status("VK_INCOMPATIBLE_SHADER_BINARY_EXT", 1000482000, ""),
        status("VK_PIPELINE_BINARY_MISSING_KHR", 1000483000, ""),
        status("VK_ERROR_NOT_ENOUGH_SPACE_KHR", -1000483000, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the Vulkan driver was reached and the program asked for more memory or objects than the GPU has, used a surface, layer or handle the driver does not accept, or got a status that is no failure; no container or driver setting causes it.",
    check: "report it to the program with 'vulkaninfo --summary'; a line naming a driver or GPU failure is read before this one",
    rank: RANK_NOTE,
    ..VK
};

/// The Vulkan loader's own lines.
const LOADER: EmitterRule = EmitterRule {
    emitter: "vulkan",
    who: "the Vulkan loader",
    ..RULE
};

/// loader.c: "loader_icd_scan: Failed loading library associated with ICD JSON %s. Ignoring
/// this JSON"; "loader_scanned_icd_add: Failed querying 'vkCreateInstance' via
/// dlsym/LoadLibrary for ICD %s".
pub(crate) const ICD_LIBRARY: EmitterRule = EmitterRule {
    line: &[&["Failed loading library associated with ICD JSON"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After(" ICD JSON "),
    cause: "an ICD manifest ({object}) names a driver library that cannot be loaded in the container: the library is not there (NVIDIA's libGLX_nvidia.so.0 comes only with the graphics capability; a manifest left from a driver that is not in the image), or it is another architecture or release.",
    check: ICD_CHECK,
    ..LOADER
};

/// loader.c: "loader_scanned_icd_add: Failed querying 'vkCreateInstance' via dlsym/LoadLibrary
/// for ICD %s": the library loaded but is no Vulkan driver of this loader's kind.
pub(crate) const ICD_QUERY: EmitterRule = EmitterRule {
    line: &[&["Failed querying 'vkCreateInstance' via dlsym/LoadLibrary for ICD"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("for ICD "),
    cause: "the library {object} an ICD manifest names loaded but exports no Vulkan entry point: it is not the driver the manifest expects (a stub, a library of another driver release, or a file replaced by a placeholder).",
    check: ICD_CHECK,
    ..LOADER
};

/// loader.c: "loader_scanned_icd_add: ICD %s doesn't support interface version compatible
/// with loader, skip this ICD."
pub(crate) const ICD_VERSION: EmitterRule = EmitterRule {
    line: &[&["doesn't support interface version compatible with loader"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::After("loader_scanned_icd_add: ICD "),
    cause: "the Vulkan driver {object} is older than the loader can use (its loader-ICD interface version): a driver from another release than the image's Vulkan loader.",
    check: "update the GPU's Vulkan driver in the image (Mesa, or NVIDIA's user-space driver of the host's release) to one that matches the loader",
    ..LOADER
};

/// loader.c: "Requested ICD %s was wrong bit-type. Ignoring this JSON": a 32-bit driver seen
/// by a 64-bit program (or the reverse), which the loader skips; a note.
pub(crate) const ICD_BITNESS: EmitterRule = EmitterRule {
    line: &[&["was wrong bit-type. Ignoring this JSON"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("Requested ICD "),
    cause: "the loader skipped {object}, a driver of the other word size (32-bit beside 64-bit): harmless, the driver of the right size is used; if Vulkan still fails, the reason is on another line.",
    check: "VK_LOADER_DEBUG=all vulkaninfo lists the ICDs of this word size",
    rank: RANK_NOTE,
    ..LOADER
};

/// vulkaninfo's "Cannot create Vulkan instance."; trampoline.c / loader.c "Found no drivers!";
/// "terminator_CreateInstance: Failed to CreateInstance in ICD %d. Skipping ICD.": the result,
/// which a line on an ICD explains.
pub(crate) const NO_INSTANCE: EmitterRule = EmitterRule {
    line: &[&["Cannot create Vulkan instance"], &["Found no drivers!"]],
    operation: Operation::LoadLibrary,
    cause: "no Vulkan driver (ICD) could be loaded: no ICD manifest under /usr/share/vulkan/icd.d or /etc/vulkan/icd.d names a library present in the container (NVIDIA's nvidia_icd.json comes with the graphics capability: NVIDIA_DRIVER_CAPABILITIES must include 'graphics'; Mesa's radv or anv must be in the image for AMD and Intel).",
    check: ICD_CHECK,
    rank: RANK_VAGUE,
    ..LOADER
};

/// Every rule, in the order core reads them.
pub(crate) const RULES: &[EmitterRule] = &[
    INCOMPATIBLE,
    INIT,
    LOST,
    UNSUPPORTED,
    PROGRAM,
    ICD_LIBRARY,
    ICD_QUERY,
    ICD_VERSION,
    ICD_BITNESS,
    NO_INSTANCE,
];
