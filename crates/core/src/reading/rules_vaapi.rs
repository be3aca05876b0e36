//! VA-API's `VAStatus` as data (issue 31): every value of intel/libva `va/va.h` with the
//! message `vaErrorStr` gives it (`va/va.c`), in one class per cause. ffmpeg prints them as
//! `Failed to create decode configuration: 12 (the requested VAProfile is not supported).`
//! (libavutil/hwcontext_vaapi.c, libavcodec/vaapi_decode.c), so a status reads by its name,
//! its message or the number before it, on a line of VA-API's. vaInitialize's and ffmpeg's
//! connection failures are the VA-API rules of rules_graphics.rs, which say more at start-up.

use super::status::{NumberAt, decimal_after, status};
use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE};

/// VA-API's lines; start-up's are read by rules_graphics.rs.
const VA: EmitterRule = EmitterRule {
    emitter: "vaapi",
    who: "VA-API (libva)",
    line: &[
        &["vaapi"],
        &["VAAPI"],
        &["VA-API"],
        &["libva"],
        &["VAStatus"],
        &["VA_STATUS"],
        // FFmpeg's vaapi_encode.c: "Failed to map output buffers: %d (%s)." (a VAStatus).
        &["Failed to map output buffers"],
    ],
    unless: &[
        "vaInitialize failed",
        "Failed to initialise VAAPI connection",
    ],
    numbers: NUMBERS,
    hex: true,
    ..RULE
};

/// Where VA-API's callers print a VAStatus.
const NUMBERS: &[NumberAt] = &[
    decimal_after("configuration: "),
    decimal_after("VAStatus "),
    decimal_after("va_status="),
    decimal_after("error code "),
];

/// A profile, entrypoint, format, resolution or filter the GPU's driver does not offer.
pub(crate) const UNSUPPORTED: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "VA_STATUS_ERROR_ATTR_NOT_SUPPORTED",
            0x0000000a,
            "attribute not supported",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_PROFILE",
            0x0000000c,
            "the requested VAProfile is not supported",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT",
            0x0000000d,
            "the requested VAEntryPoint is not supported",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT",
            0x0000000e,
            "the requested RT Format is not supported",
        ),
        status(
            "VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED",
            0x00000013,
            "resolution not supported",
        ),
        status(
            "VA_STATUS_ERROR_UNIMPLEMENTED",
            0x00000014,
            "the requested function is not implemented",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_FILTER",
            0x00000020,
            "the requested filter is not supported",
        ),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's video engine"),
    cause: "{status}: the VA-API driver in use does not offer that codec, profile or format on this GPU: the GPU generation has no engine for it, the wrong driver is loaded (i965 instead of iHD, or the reverse), or the driver was built without it (Mesa's va drivers without H.264/HEVC in some distributions, the free intel-media-driver without some encoders).",
    check: "'vainfo --display drm --device /dev/dri/renderD128' in the container lists the profiles and entrypoints the driver offers; install the full driver (intel-media-va-driver-non-free, mesa-va-drivers with the codecs) or use a codec the GPU has",
    rank: RANK_VAGUE,
    ..VA
};

/// The GPU busy or not answering.
pub(crate) const BUSY: EmitterRule = EmitterRule {
    statuses: &[
        status("VA_STATUS_ERROR_HW_BUSY", 0x00000022, "HW busy now"),
        status("VA_STATUS_ERROR_TIMEDOUT", 0x00000026, ""),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU's video engine was busy or did not answer in time: a hang the kernel driver is resetting, or a GPU shared beyond its capacity; not a setting of the container.",
    check: "'sudo dmesg | grep -i -e hang -e reset -e ring' on the host; update the kernel driver and its firmware",
    rank: RANK_VAGUE,
    ..VA
};

/// A driver that failed an operation without saying why, or no display, past start-up.
pub(crate) const FAILED: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "VA_STATUS_ERROR_OPERATION_FAILED",
            0x00000001,
            "operation failed",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_DISPLAY",
            0x00000003,
            "invalid VADisplay",
        ),
        status("VA_STATUS_ERROR_UNKNOWN", -1, "unknown libva error"),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("the VA-API driver"),
    cause: "{status}: the VA-API driver failed the operation without a reason of its own: most often a driver that does not support this GPU (or is older than it), or a render node that is not the GPU's.",
    check: "'LIBVA_MESSAGING_LEVEL=2 vainfo --display drm --device /dev/dri/renderD128' in the container names the driver it loads; use the one for this GPU generation",
    rank: RANK_VAGUE,
    ..VA
};

/// The workload's own: surfaces, buffers, parameters and memory it gave the driver.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status(
            "VA_STATUS_ERROR_ALLOCATION_FAILED",
            0x00000002,
            "resource allocation failed",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_CONFIG",
            0x00000004,
            "invalid VAConfigID",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_CONTEXT",
            0x00000005,
            "invalid VAContextID",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_SURFACE",
            0x00000006,
            "invalid VASurfaceID",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_BUFFER",
            0x00000007,
            "invalid VABufferID",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_IMAGE",
            0x00000008,
            "invalid VAImageID",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_SUBPICTURE",
            0x00000009,
            "invalid VASubpictureID",
        ),
        status(
            "VA_STATUS_ERROR_MAX_NUM_EXCEEDED",
            0x0000000b,
            "list argument exceeds maximum number",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_BUFFERTYPE",
            0x0000000f,
            "the requested VABufferType is not supported",
        ),
        status(
            "VA_STATUS_ERROR_SURFACE_BUSY",
            0x00000010,
            "surface is in use",
        ),
        status(
            "VA_STATUS_ERROR_FLAG_NOT_SUPPORTED",
            0x00000011,
            "flag not supported",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_PARAMETER",
            0x00000012,
            "invalid parameter",
        ),
        status(
            "VA_STATUS_ERROR_SURFACE_IN_DISPLAYING",
            0x00000015,
            "surface is in displaying (may by overlay)",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_IMAGE_FORMAT",
            0x00000016,
            "invalid VAImageFormat",
        ),
        status(
            "VA_STATUS_ERROR_DECODING_ERROR",
            0x00000017,
            "internal decoding error",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_VALUE",
            0x00000019,
            "an invalid/unsupported value was supplied",
        ),
        status(
            "VA_STATUS_ERROR_INVALID_FILTER_CHAIN",
            0x00000021,
            "an invalid filter chain was supplied",
        ),
        status(
            "VA_STATUS_ERROR_UNSUPPORTED_MEMORY_TYPE",
            0x00000024,
            "an unsupported memory type was supplied",
        ),
        status(
            "VA_STATUS_ERROR_NOT_ENOUGH_BUFFER",
            0x00000025,
            "allocated memory size is not enough for input or output",
        ),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the VA-API driver was reached and refused a surface, buffer, parameter or stream the program gave it (or ran out of the memory it asked for); no container or driver setting causes it.",
    check: "check the program's codec options against what 'vainfo' lists; a line naming a driver or GPU failure is read before this one",
    rank: RANK_NOTE,
    ..VA
};

/// The encoder's own failure on a job: on Intel's iHD, low-power (VDEnc) encoding runs on the
/// HuC and GuC firmware that i915 loads only where enabled and present (intel/media-driver
/// issues: Elkhart Lake's HEVC encode failed with "internal encoding error" until the GuC/HuC
/// firmware was installed and enabled); a profile or format the GPU's encoder lacks fails the
/// same way.
pub(crate) const ENCODE: EmitterRule = EmitterRule {
    statuses: &[status(
        "VA_STATUS_ERROR_ENCODING_ERROR",
        0x00000018,
        "internal encoding error",
    )],
    operation: Operation::Initialise,
    object: super::ObjectAt::Is("the GPU's encoder"),
    cause: "{status}: the GPU's encoder failed the job: on Intel, low-power (VDEnc) encoding, the only path for some codecs on a GPU (HEVC on Atom and Elkhart Lake, most codecs from Ice Lake on), runs on the HuC and GuC firmware, which i915 loads only with enable_guc set and the files in linux-firmware; or the profile, bit depth or size is one this GPU's encoder does not take.",
    check: "'sudo dmesg | grep -i -e guc -e huc' on the host must show both loaded ('cat /sys/kernel/debug/dri/0/gt/uc/huc_info'); set 'options i915 enable_guc=2' (or 3) in /etc/modprobe.d and install linux-firmware's i915 files, then reboot; 'vainfo' lists the encode profiles (VAEntrypointEncSliceLP)",
    rank: RANK_VAGUE,
    ..VA
};

/// Every class, in the order core reads them.
pub(crate) const RULES: &[EmitterRule] = &[UNSUPPORTED, BUSY, FAILED, ENCODE, PROGRAM];
