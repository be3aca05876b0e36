//! EGL's error codes as data and Mesa's EGL, GBM and zink lines (issue 31). The codes are
//! KhronosGroup/EGL-Registry `api/EGL/egl.h` (EGL_SUCCESS 0x3000 to EGL_CONTEXT_LOST 0x300E)
//! and `api/EGL/eglext.h` (EGL_BAD_DEVICE_EXT 0x322B), read by name (`EGL_NOT_INITIALIZED`)
//! or by the hex number after `0x` on an EGL line (`eglInitialize failed: 0x3001`). Mesa's own
//! lines are `src/egl/drivers/dri2/egl_dri2.c` and `platform_*.c` (`DRI2: failed to open any
//! driver (search paths %s)`, `wayland-egl: could not open %s (%s)`, `failed to get driver
//! name for fd %d`), `src/gbm/backends/dri/gbm_dri.c` (`gbm: failed to open any driver
//! (search paths %s)`), `src/loader/loader.c` (`MESA-LOADER: failed to retrieve device
//! information`) and `src/gallium/drivers/zink/zink_screen.c` (`ZINK: failed to choose
//! pdev`).

use super::status::{NumberAt, hex_after, status};
use super::{EmitterRule, ObjectAt, Operation, Owner, RANK_NOTE, RANK_VAGUE, RULE};

/// EGL's lines.
const EGL: EmitterRule = EmitterRule {
    emitter: "egl",
    who: "EGL",
    line: &[&["egl"], &["EGL"]],
    numbers: NUMBERS,
    hex: true,
    ..RULE
};

/// Where EGL's callers print an error code.
const NUMBERS: &[NumberAt] = &[hex_after("0x")];

/// What to check when EGL cannot start on a GPU in a container.
const EGL_CHECK: &str = "'ls -l /dev/dri' in the container and 'eglinfo' (mesa-utils-extra); pass the render node with its group, or for NVIDIA the graphics capability (CDI 'nvidia.com/gpu=all', or NVIDIA_DRIVER_CAPABILITIES=graphics,...), which mounts libEGL_nvidia and glvnd's 10_nvidia.json";

/// EGL_NOT_INITIALIZED (eglInitialize failed), EGL_BAD_DISPLAY, EGL_BAD_DEVICE_EXT: no EGL
/// driver started on a display or device.
pub(crate) const NOT_INITIALIZED: EmitterRule = EmitterRule {
    statuses: &[
        status("EGL_NOT_INITIALIZED", 0x3001, ""),
        status("EGL_BAD_DISPLAY", 0x3008, ""),
        status("EGL_BAD_DEVICE_EXT", 0x322B, ""),
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("an EGL display"),
    cause: "{status}: no EGL driver could start on the display or device the program asked for: in a container the GPU's render node (/dev/dri) is missing or not openable, NVIDIA's EGL library (libEGL_nvidia, found through glvnd's egl_vendor.d) is not mounted, or there is no X or Wayland display for that platform.",
    check: EGL_CHECK,
    rank: RANK_VAGUE,
    ..EGL
};

/// Applications' own words for the same failure: "eglInitialize failed", "Failed to
/// initialize EGL" (the code, when printed, is read by the rule above).
pub(crate) const INIT_FAILED: EmitterRule = EmitterRule {
    line: &[
        &["eglInitialize failed"],
        &["eglInitialize() failed"],
        &["Failed to initialize EGL"],
        &["failed to initialize EGL"],
    ],
    numbers: &[],
    operation: Operation::Initialise,
    object: ObjectAt::Is("an EGL display"),
    cause: "no EGL driver could start on the display or device the program asked for: in a container the GPU's render node (/dev/dri) is missing or not openable, NVIDIA's EGL library (libEGL_nvidia, found through glvnd's egl_vendor.d) is not mounted, or there is no X or Wayland display for that platform.",
    check: EGL_CHECK,
    rank: RANK_VAGUE,
    ..EGL
};

/// EGL_CONTEXT_LOST: a power event or GPU reset lost the context.
pub(crate) const CONTEXT_LOST: EmitterRule = EmitterRule {
    statuses: &[status("EGL_CONTEXT_LOST", 0x300E, "")],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("the GPU"),
    cause: "{status}: the GPU context was lost (a GPU reset or power event); the GPU had been reached, so it is not a setting of the container.",
    check: "'dmesg' on the host names the reset; update the GPU driver",
    rank: RANK_VAGUE,
    ..EGL
};

/// Every other code: the program's own use of EGL.
pub(crate) const PROGRAM: EmitterRule = EmitterRule {
    statuses: &[
        status("EGL_BAD_ACCESS", 0x3002, ""),
        status("EGL_BAD_ALLOC", 0x3003, ""),
        status("EGL_BAD_ATTRIBUTE", 0x3004, ""),
        status("EGL_BAD_CONFIG", 0x3005, ""),
        status("EGL_BAD_CONTEXT", 0x3006, ""),
        status("EGL_BAD_CURRENT_SURFACE", 0x3007, ""),
        status("EGL_BAD_MATCH", 0x3009, ""),
        status("EGL_BAD_NATIVE_PIXMAP", 0x300A, ""),
        status("EGL_BAD_NATIVE_WINDOW", 0x300B, ""),
        status("EGL_BAD_PARAMETER", 0x300C, ""),
        status("EGL_BAD_SURFACE", 0x300D, ""),
    ],
    operation: Operation::Allocate,
    owner: Owner::Workload,
    cause: "{status} is the program's own use of EGL (a config, attribute, surface or context the driver does not accept): EGL was reached, and no container or driver setting causes it.",
    check: "report it to the program with 'eglinfo'; a line naming a driver failure is read before this one",
    rank: RANK_NOTE,
    ..EGL
};

/// Mesa's lines.
const MESA: EmitterRule = EmitterRule {
    emitter: "mesa-loader",
    who: "Mesa",
    ..RULE
};

/// egl_dri2.c / gbm_dri.c: "DRI2: failed to open any driver (search paths %s)", "gbm:
/// failed to open any driver (search paths %s)": no DRI driver file for the GPU.
pub(crate) const NO_DRIVER: EmitterRule = EmitterRule {
    line: &[&["failed to open any driver (search paths"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("the GPU's Mesa driver"),
    cause: "Mesa found no driver file for the GPU on its search path: the image lacks Mesa's DRI drivers (libgl1-mesa-dri, mesa-dri-drivers) or the GPU's kernel driver has no Mesa driver at all (NVIDIA's proprietary one: its own GBM and EGL libraries come with the graphics capability).",
    check: "'ls /usr/lib/*/dri' in the container; install Mesa's DRI drivers, or for NVIDIA give the graphics capability; the 'Last dlopen error' line names the file it wanted",
    ..MESA
};

/// platform_wayland.c / platform_drm.c: "wayland-egl: could not open %s (%s)", "failed to
/// get driver name for fd %d" (no node was opened), loader.c "failed to retrieve device
/// information" (the node is no GPU Mesa knows).
pub(crate) const NO_NODE: EmitterRule = EmitterRule {
    line: &[
        &["could not open /dev/dri/", "No such file or directory"],
        &["failed to get driver name for fd -1"],
        &["MESA-LOADER: failed to retrieve device information"],
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("the GPU's render node"),
    cause: "Mesa had no GPU node to open, or could not identify the one it opened: /dev/dri is not in the container (or sandbox), or the node is driven by a kernel driver Mesa has no driver for (NVIDIA's, a virtual GPU's), so rendering falls back to software (llvmpipe) or fails.",
    check: "'ls -l /dev/dri' where the program runs; pass the render node with its group ('--device /dev/dri --group-add keep-groups' under crun); for NVIDIA give the graphics capability",
    rank: RANK_VAGUE,
    ..MESA
};

/// zink_screen.c: "ZINK: failed to choose pdev" — Mesa tried zink (OpenGL over Vulkan) as a
/// fallback and found no Vulkan device: a note, the renderer falls back to software.
pub(crate) const ZINK: EmitterRule = EmitterRule {
    line: &[
        &["ZINK: failed to choose pdev"],
        &["ZINK: vkCreateInstance failed"],
    ],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("a Vulkan device for zink"),
    cause: "Mesa tried zink (OpenGL on Vulkan) because it had no hardware driver for the display, and found no Vulkan device either: the GPU's node or Vulkan driver is not in the container, so OpenGL runs in software (llvmpipe). Harmless if software rendering is fine; if something failed, the reason is on another line.",
    check: "'ls -l /dev/dri' and 'vulkaninfo --summary' where the program runs; pass the GPU's render node (or NVIDIA's graphics capability) for hardware rendering",
    rank: RANK_NOTE,
    ..MESA
};

/// Applications and compositors: "gbm_create_device failed" (GBM could not start on the DRM
/// node it was given).
pub(crate) const GBM: EmitterRule = EmitterRule {
    line: &[
        &["gbm_create_device failed"],
        &["failed to create gbm device"],
    ],
    operation: Operation::Open,
    object: ObjectAt::Is("a GBM device on the GPU's DRM node"),
    cause: "GBM could not start on the DRM node the program opened: the node is missing or not openable in the container, no GBM backend fits its kernel driver (Mesa's drivers missing in the image; for NVIDIA, nvidia-drm without modeset=1 or its GBM backend not mounted), or the node is a display-only device.",
    check: "'ls -l /dev/dri' in the container and 'cat /sys/module/nvidia_drm/parameters/modeset' on an NVIDIA host; install Mesa's DRI drivers (AMD, Intel) or give NVIDIA's graphics capability",
    rank: RANK_VAGUE,
    ..MESA
};

/// Every rule, in the order core reads them.
pub(crate) const RULES: &[EmitterRule] = &[
    NOT_INITIALIZED,
    INIT_FAILED,
    CONTEXT_LOST,
    PROGRAM,
    NO_DRIVER,
    NO_NODE,
    ZINK,
    GBM,
];
