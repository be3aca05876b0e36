//! Intel's media runtime statuses as data (issue 31): every `mfxStatus` of oneVPL and the
//! Media SDK (intel/libvpl `api/vpl/mfxdefs.h`), in one class per cause. ffmpeg's QSV prints
//! them as `Error creating a MFX session: -9.` (libavutil/hwcontext_qsv.c) or, through
//! libavcodec/qsv.c's `ff_qsv_print_error`, as `<what>: <qsv_errors text> (<status>)`:
//! `Error initializing the MFX video core: unsupported (-3)`. A status reads by its name, by
//! the message ffmpeg's table gives it, or by its number, on a line of QSV's.

use gpuctl_core::plugin::{
    EmitterRule, NumberAt, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE, decimal_after,
    status,
};

/// QSV's line shapes and numbers.
const QSV: EmitterRule = EmitterRule {
    emitter: "qsv",
    who: "ffmpeg's QSV (Intel's media runtime dispatcher)",
    line: &[&["MFX"], &["QSV"], &["qsv"], &["mfx"]],
    numbers: NUMBERS,
    ..RULE
};

/// Where ffmpeg prints the status.
const NUMBERS: &[NumberAt] = &[
    decimal_after("MFX session: "),
    decimal_after("mfxStatus "),
    decimal_after("status "),
    decimal_after("error code "),
    decimal_after("err="),
    decimal_after(" ("),
];

/// MFX_ERR_NOT_FOUND: the dispatcher found no implementation for the GPU
/// (photoprism/photoprism#5174, intel/cartwheel-ffmpeg#334).
pub(crate) const NOT_FOUND: EmitterRule = EmitterRule {
    statuses: &[status(
        "MFX_ERR_NOT_FOUND",
        -9,
        "specified object was not found",
    )],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("a QSV implementation for the GPU"),
    cause: "{status}: the oneVPL / Media SDK dispatcher found no runtime that drives this GPU: the image lacks the one for its generation (libmfx-gen / intel-media-runtime for Tiger Lake and newer, the legacy Media SDK libmfxhw64 for older) or has it outside the directories the dispatcher searches (a runtime built into /usr/local/lib while libvpl searches the distribution's library directory; ONEVPL_SEARCH_PATH adds one), or the runtime could not open the GPU's render node through VA-API (iHD).",
    check: "'vainfo --display drm --device /dev/dri/renderD128' in the container must list the iHD driver; install the QSV runtime for the GPU's generation (libmfx-gen1.2 or libmfx1) and pass the render node with its group",
    ..QSV
};

/// MFX_ERR_UNSUPPORTED, MFX_ERR_NOT_IMPLEMENTED: the GPU or the runtime lacks the codec or
/// feature asked for.
pub(crate) const UNSUPPORTED: EmitterRule = EmitterRule {
    statuses: &[
        status("MFX_ERR_UNSUPPORTED", -3, "unsupported"),
        status("MFX_ERR_NOT_IMPLEMENTED", -24, ""),
    ],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's media engine"),
    cause: "{status}: the media runtime refused the session or codec: this GPU generation has no engine for it (an encoder or a profile it lacks), the runtime in the image is the wrong one for the generation (Media SDK's libmfxhw64 on a GPU that needs oneVPL's libmfx-gen, or the reverse), or the iHD driver is older than the GPU.",
    check: "'vainfo --display drm --device /dev/dri/renderD128' lists the profiles and entrypoints the GPU offers; install the runtime for its generation and an iHD driver newer than the GPU",
    rank: RANK_VAGUE,
    ..QSV
};

/// The GPU lost, failed or hung under the session (mfxdefs.h: "Lose the hardware
/// acceleration device", "Device operation failure", "caused by GPU hang").
pub(crate) const DEVICE: EmitterRule = EmitterRule {
    statuses: &[
        status("MFX_ERR_DEVICE_LOST", -13, "device lost"),
        status("MFX_ERR_DEVICE_FAILED", -17, "device failed"),
        status("MFX_ERR_GPU_HANG", -21, "GPU Hang"),
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU failed, hung or was lost while the media runtime used it (the i915/xe driver reset it); the GPU had been reached, so it is not a setting of the container.",
    check: "'sudo dmesg | grep -i -e hang -e reset -e GuC -e HuC' on the host (media needs the HuC firmware on many GPUs); update the kernel, linux-firmware and the media driver",
    rank: RANK_VAGUE,
    ..QSV
};

/// MFX_ERR_UNKNOWN, MFX_ERR_NOT_INITIALIZED: the session failed without a reason of its own.
pub(crate) const SESSION: EmitterRule = EmitterRule {
    statuses: &[
        status("MFX_ERR_UNKNOWN", -1, "unknown error"),
        status("MFX_ERR_NOT_INITIALIZED", -8, "not initialized"),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("a QSV session"),
    cause: "{status}: ffmpeg could not start a QSV session on the GPU: QSV runs on VA-API, so the render node, the iHD driver and the QSV runtime for this GPU's generation must all be in the container (the lines before this say which failed).",
    check: "'vainfo --display drm --device /dev/dri/renderD128' in the container first; then the QSV runtime (libmfx-gen1.2 for Tiger Lake and newer, libmfx1 for older)",
    rank: RANK_VAGUE,
    ..QSV
};

/// The workload's own: memory, surfaces, parameters and bitstreams it handed the runtime, and
/// the statuses that are no failure (MORE_DATA, the warnings).
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("MFX_ERR_NULL_PTR", -2, "NULL pointer"),
        status("MFX_ERR_MEMORY_ALLOC", -4, "failed to allocate memory"),
        status(
            "MFX_ERR_NOT_ENOUGH_BUFFER",
            -5,
            "insufficient input/output buffer",
        ),
        status("MFX_ERR_INVALID_HANDLE", -6, "invalid handle"),
        status("MFX_ERR_LOCK_MEMORY", -7, "failed to lock the memory block"),
        status("MFX_ERR_MORE_DATA", -10, "expect more data at input"),
        status("MFX_ERR_MORE_SURFACE", -11, "expect more surface at output"),
        status("MFX_ERR_ABORTED", -12, "operation aborted"),
        status(
            "MFX_ERR_INCOMPATIBLE_VIDEO_PARAM",
            -14,
            "incompatible video parameters",
        ),
        status(
            "MFX_ERR_INVALID_VIDEO_PARAM",
            -15,
            "invalid video parameters",
        ),
        status("MFX_ERR_UNDEFINED_BEHAVIOR", -16, "undefined behavior"),
        status(
            "MFX_ERR_MORE_BITSTREAM",
            -18,
            "expect more bitstream at output",
        ),
        status("MFX_ERR_REALLOC_SURFACE", -22, ""),
        status("MFX_ERR_RESOURCE_MAPPED", -23, ""),
        status("MFX_ERR_MORE_EXTBUFFER", -25, ""),
        status("MFX_ERR_MORE_DATA_SUBMIT_TASK", -10000, ""),
        status("MFX_WRN_IN_EXECUTION", 1, ""),
        status("MFX_WRN_DEVICE_BUSY", 2, ""),
        status("MFX_WRN_VIDEO_PARAM_CHANGED", 3, ""),
        status("MFX_WRN_PARTIAL_ACCELERATION", 4, ""),
        status("MFX_WRN_INCOMPATIBLE_VIDEO_PARAM", 5, ""),
        status("MFX_WRN_VALUE_NOT_CHANGED", 6, ""),
        status("MFX_WRN_OUT_OF_RANGE", 7, ""),
        status("MFX_WRN_FILTER_SKIPPED", 10, ""),
        status("MFX_WRN_ALLOC_TIMEOUT_EXPIRED", 13, ""),
        status("MFX_TASK_WORKING", 8, ""),
        status("MFX_TASK_BUSY", 9, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the workload's own: the media runtime was reached and refused the parameters, surfaces, memory or bitstream the program gave it (or is no failure at all); no container or driver setting causes it.",
    check: "check the program's encoder or decoder options against what 'vainfo' lists for the GPU; a line naming a GPU failure is read before this one",
    rank: RANK_NOTE,
    ..QSV
};
