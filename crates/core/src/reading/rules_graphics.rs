//! Core's graphics and compute loaders: VA-API (libva, and ffmpeg's VA-API device), Vulkan,
//! Mesa and the OpenCL ICD loader. Each rule's wording is the emitter's own (the source is
//! named beside it; docs/explain.md#emitters has the table). A status a loader prints as a
//! number is read by its name in the loader's own header (libva's va.h).

use super::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_NOTE, RANK_VAGUE, RULE};

/// What ffmpeg and libva print when VA-API fails; a line that is only informative (the DRM
/// driver ffmpeg opened, the driver file libva tries) explains only beside one of these.
const VA_FAILED: &[&str] = &[
    "Failed to initialise VAAPI connection",
    "vaInitialize failed",
    "No VA display found",
    "Device creation failed",
];

/// vainfo's "vaInitialize failed with error code %d (%s)": the code is a VAStatus (va.h).
const VA_INIT: &str = "vaInitialize failed with error code ";

/// The VA-API rules.
pub(crate) const VAAPI_RULES: &[EmitterRule] = &[
    // libva va.c: "libva error: %s init failed", "va_openDriver() returns %d",
    // "vaGetDriverNameByIndex() failed".
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&["libva error: ", "init failed"]],
        operation: Operation::Initialise,
        object: ObjectAt::After("libva error: "),
        cause: "the VA-API driver {object} was found but refused to start: it does not support this GPU (i965 against a newer Intel GPU, iHD against an older one), it is older than the GPU, or the render node it opened is not the GPU's.",
        check: "'vainfo --display drm --device /dev/dri/renderD128' on the host; pick the driver with LIBVA_DRIVER_NAME (iHD for Broadwell and newer, i965 for older; radeonsi for AMD) and install it in the image",
        ..RULE
    },
    // libva va.c: "%s has no function %s" when the driver lacks __vaDriverInit_<major>_<minor>
    // for this libva (open-edge-platform/dlstreamer#28).
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&["libva error: ", "has no function __vaDriverInit"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("libva error: "),
        cause: "the VA-API driver {object} was built for another libva release than the one loading it (it has no entry point for this libva's version): a driver and a libva from different packages or prefixes.",
        check: "'vainfo' prints the libva version; install the driver built for it (the distribution's libva and intel-media-va-driver / mesa-va-drivers together), and drop a LIBVA_DRIVERS_PATH that points at another prefix",
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[
            &["vaGetDriverNameByIndex() failed"],
            &["va_getDriverName() failed"],
            &["va_getDriverNameByIndex() failed"],
        ],
        operation: Operation::FindDevice,
        // A libva older than the kernel driver has no name for it: libva 1.x (0.40) mapped no
        // amdgpu device, and LIBVA_DRIVER_NAME=radeonsi made it work (intel/libva's issues).
        cause: "libva could not tell which driver fits the display it opened: the render node is not a GPU's (no /dev/dri node passed to the container, or a node of a display-only device), no DRM driver serves it, or the libva is older than the kernel driver and has no driver name for it (libva 1.x knows no amdgpu: set LIBVA_DRIVER_NAME=radeonsi); on an NVIDIA GPU there is no VA-API driver unless nvidia-vaapi-driver is installed.",
        check: "'ls -l /dev/dri' inside the container must show the GPU's renderD node; pass it ('--device /dev/dri/renderD128') and set LIBVA_DRIVER_NAME if it is still not found",
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[
            &["va_openDriver() returns -1"],
            &["va_openDriver() returns 1"],
        ],
        operation: Operation::LoadLibrary,
        cause: "libva found no driver file it could load: the VA-API driver (iHD_drv_video.so, i965_drv_video.so, radeonsi_drv_video.so, nvidia_drv_video.so) is not installed in the image or not on LIBVA_DRIVERS_PATH.",
        check: "install the driver package in the image (intel-media-va-driver, mesa-va-drivers) and check 'ls $LIBVA_DRIVERS_PATH' (default /usr/lib/x86_64-linux-gnu/dri)",
        rank: RANK_VAGUE,
        ..RULE
    },
    // ffmpeg libavutil/hwcontext_drm.c / hwcontext_vaapi.c: "Opened DRM device %s: driver %s
    // version %d.%d.%d." beside a VA-API failure: nvidia-drm has no VA-API driver of its own
    // (jellyfin/jellyfin#10979).
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[&["Opened DRM device ", ": driver nvidia-drm"]],
        needs: VA_FAILED,
        operation: Operation::Initialise,
        object: ObjectAt::After("Opened DRM device "),
        cause: "the node {object} is driven by nvidia-drm: it is an NVIDIA GPU's, for which libva has no driver of its own (only the third-party nvidia-vaapi-driver, decode only), so VA-API cannot start on it; on a host with an Intel or AMD GPU too, the wrong render node was picked.",
        check: "for an NVIDIA GPU use NVENC/NVDEC (ffmpeg '-hwaccel cuda', Jellyfin's NVENC setting) instead of VA-API; for the other GPU pass its own node ('ls -l /dev/dri/by-path', then '--device /dev/dri/renderD129') and name it in the VA-API device setting",
        ..RULE
    },
    // ffmpeg hwcontext_vaapi.c: "No VA display found for any default device." when it tried
    // every default render node and libva opened none (jellyfin/jellyfin#9006).
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[&["No VA display found for any default device"]],
        operation: Operation::FindDevice,
        cause: "ffmpeg tried the default render nodes and libva opened a display on none: no /dev/dri/renderD* node is in the container, the process may not open it (its group, usually 'render', is not among the process's groups), or no VA-API driver fits the GPU.",
        check: "'ls -l /dev/dri' in the container; pass the node ('--device /dev/dri/renderD128') and its group ('--group-add keep-groups' under crun, or the node's gid), then 'vainfo --display drm --device /dev/dri/renderD128'",
        ..RULE
    },
    // FFmpeg fftools (opt_init_hw_device): "Failed to set value '%s' for option
    // 'init_hw_device': %s" when the hardware device named (qsv=, vaapi=, cuda=, opencl=) could
    // not be created; the lines before it name the step, this one only what was asked.
    EmitterRule {
        emitter: "ffmpeg",
        who: "FFmpeg's hardware device",
        line: &[&["Failed to set value '", "for option 'init_hw_device'"]],
        operation: Operation::Initialise,
        object: ObjectAt::After("Failed to set value "),
        objects: &["qsv", "vaapi", "cuda", "opencl", "vulkan", "drm"],
        cause: "FFmpeg could not create the hardware device {object}: its render node is not in the container or the process may not open it (the node's group, which inside an LXC or with another GID shows as another group's name or a number), or the driver it needs is missing (iHD for QSV and VA-API on Intel, radeonsi on AMD, the NVIDIA driver's libraries for cuda).",
        check: "'ls -ln /dev/dri' and 'id' as the service's user inside the container (the node's GID must be among its groups); 'vainfo --display drm --device /dev/dri/renderD128' names the driver; for cuda 'nvidia-smi' in the container",
        // Below a vague line that names the device's own failure (QSV's MFX session, VA-API's
        // status): it is the answer only where no line before it says more.
        rank: RANK_NOTE - 1,
        ..RULE
    },
    // ffmpeg libavutil/hwcontext_vaapi.c prints vaInitialize's VAStatus and vaErrorStr: -1 is
    // VA_STATUS_ERROR_UNKNOWN, which libva's va.c returns when it could not name or open a
    // driver for the display (the same as vainfo's "-1 (unknown libva error)" below).
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[&["Failed to initialise VAAPI connection: -1 "]],
        operation: Operation::LoadLibrary,
        // NVIDIA ships no VA-API driver: the node of an NVIDIA GPU has none to load (set K:
        // jellyfin/jellyfin#9929, a GeForce with VA-API chosen).
        cause: "VA_STATUS_ERROR_UNKNOWN: libva reached the render node but could not name or load a VA-API driver for the GPU: the image lacks the driver package (mesa-va-drivers for AMD, intel-media-va-driver or i965-va-driver for Intel), LIBVA_DRIVER_NAME names a driver that is not installed, the node is not the GPU's, or the GPU is NVIDIA's, for which no VA-API driver ships with its driver (NVENC/NVDEC through CUDA instead).",
        check: "LIBVA_MESSAGING_LEVEL=2 vainfo --display drm --device /dev/dri/renderD128 in the container names the driver file it tries; install that package in the image, or unset a wrong LIBVA_DRIVER_NAME",
        ..RULE
    },
    // A denied open beside a VA-API failure (libva's drivers and ffmpeg print the errno's
    // string, "Permission denied"): the render node is there but the process may not open it.
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&["Permission denied"]],
        needs: VA_FAILED,
        unless: &["/dev/kfd", "/dev/nvidia"],
        operation: Operation::Open,
        object: ObjectAt::Is("the render node"),
        cause: "the process may not open the GPU's render node: its user is not in the node's group inside the container (a non-root container user without the host's render or video GID, '--group-add' missing, or the image's group of that name has another GID), or SELinux or AppArmor denies the node.",
        check: "'ls -ln /dev/dri' and 'id' inside the container: the node's GID must be among the process's groups; add it ('--group-add <the host's render GID>', or '--group-add keep-groups' under crun); 'gpuctl doctor' checks the host's groups",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // ffmpeg libavutil/hwcontext_vaapi.c: "Failed to initialise VAAPI connection: %d (%s)".
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API device",
        line: &[
            &["Failed to initialise VAAPI connection"],
            &["No VA display found for device"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::After("No VA display found for device "),
        cause: "libva could not open the GPU's render node or start a driver on it (the lines libva printed before this say which).",
        check: "'vainfo' in the container; the render node must exist there and be readable by the process (its group reaches the container with '--group-add keep-groups' under crun)",
        rank: RANK_VAGUE,
        ..RULE
    },
    // vainfo: "vaInitialize failed with error code %d (%s)"; the code is a VAStatus from va.h:
    // -1 VA_STATUS_ERROR_UNKNOWN (no driver could be loaded or named), 1 OPERATION_FAILED and
    // 0x12 INVALID_PARAMETER (the driver's own init refused), 3 INVALID_DISPLAY (no display).
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&[VA_INIT, "-1"], &[VA_INIT, "unknown libva error"]],
        operation: Operation::LoadLibrary,
        cause: "VA_STATUS_ERROR_UNKNOWN: libva could not name or load a driver for the display (no VA-API driver for this GPU in the image, the render node is not the GPU's, or an NVIDIA GPU without nvidia-vaapi-driver).",
        check: "LIBVA_MESSAGING_LEVEL=2 vainfo shows which driver file it tries; install it (intel-media-va-driver, mesa-va-drivers) or set LIBVA_DRIVER_NAME",
        rank: RANK_VAGUE,
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[
            &[VA_INIT, "1 (operation failed)"],
            &[VA_INIT, "18 (invalid parameter)"],
        ],
        operation: Operation::Initialise,
        cause: "the VA-API driver loaded but its own initialisation refused the GPU (VA_STATUS_ERROR_OPERATION_FAILED / INVALID_PARAMETER): a driver that does not support this GPU, one older than the GPU, or a render node that is not the GPU's.",
        check: "'vainfo --display drm --device /dev/dri/renderD128' on the host; use the driver for this GPU generation (iHD for Broadwell and newer, i965 for older) in a release newer than the GPU",
        rank: RANK_VAGUE,
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "VA-API (libva)",
        line: &[&[VA_INIT, "3 (invalid VADisplay)"]],
        operation: Operation::Open,
        cause: "VA_STATUS_ERROR_INVALID_DISPLAY: libva had no display to start on: no X or Wayland display and no render node it could open.",
        check: "'vainfo --display drm --device /dev/dri/renderD128' uses the render node and needs no display; the node must be in the container and readable by the process",
        rank: RANK_VAGUE,
        ..RULE
    },
];

/// The Vulkan, Mesa and OpenCL rules.
pub(crate) const LOADER_RULES: &[EmitterRule] = &[
    // Vulkan's samples (vkcube, vulkaninfo's ancestors) and programs built on them (ggml's
    // Vulkan backend, Godot): "vkEnumeratePhysicalDevices reported zero accessible devices":
    // the instance started, but no driver offered a GPU.
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        // ggml's Vulkan backend says the same as "ggml_vulkan: No devices found." (set N:
        // ggml-org/llama.cpp#17761, an image without the GLVND libraries its ICDs load).
        line: &[
            &["vkEnumeratePhysicalDevices reported zero accessible devices"],
            &["ggml_vulkan: No devices found"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a GPU"),
        cause: "Vulkan started but no driver (ICD) offered a GPU: the image has no ICD for this GPU (Mesa's radv or anv, NVIDIA's nvidia_icd.json, which the toolkit mounts only with the graphics capability), an ICD could not load the libraries it needs (GLVND's libGLX, libEGL and libGL, which an image must ship for NVIDIA's ICD and Mesa's), or the ICD cannot reach its GPU (no render node or /dev/nvidia* in the container, or its user may not open them).",
        check: "'ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d' and 'ls -l /dev/dri /dev/nvidia*' inside the container; for NVIDIA request NVIDIA_DRIVER_CAPABILITIES=graphics (or all); VK_LOADER_DEBUG=all shows each ICD tried",
        ..RULE
    },
    // clinfo (Oblomov/clinfo): "Number of platforms" then the count clGetPlatformIDs gave.
    EmitterRule {
        emitter: "opencl-icd",
        who: "the OpenCL ICD loader (as clinfo reports it)",
        line: &[&["Number of platforms", " 0"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("an OpenCL platform"),
        cause: "no OpenCL platform loaded: /etc/OpenCL/vendors names no ICD whose library is in the container, or every vendor runtime found no GPU it supports and offered none (Intel's compute runtime on a GPU newer than its release or without a render node it may open, ROCm's without /dev/kfd).",
        check: "'ls /etc/OpenCL/vendors' and 'ls -l /dev/dri /dev/kfd' in the container; OCL_ICD_ENABLE_TRACE=1 clinfo shows why each ICD is skipped; install the GPU vendor's runtime of a release that supports the GPU",
        ..RULE
    },
    // Vulkan-Loader loader.c: "loader_scanned_icd_add: Could not get 'vkCreateInstance' via
    // 'vk_icdGetInstanceProcAddr' for ICD %s": the ICD is there and loaded, but gave no
    // instance: for NVIDIA's, the GPU's device nodes were not in the container
    // (k4yt3x/video2x#628: adding /dev/nvidia* made it work).
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        line: &[&["Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr' for ICD "]],
        operation: Operation::Initialise,
        object: ObjectAt::After("for ICD "),
        cause: "the Vulkan driver {object} is in the container and loads, but would not create an instance: it cannot reach its GPU (for NVIDIA's libGLX_nvidia: the /dev/nvidia* nodes or the graphics libraries of the host's driver release are missing in the container).",
        check: "'ls -l /dev/nvidia* /dev/dri' in the container; give the GPU with its graphics capability (CDI 'nvidia.com/gpu=all', or NVIDIA_DRIVER_CAPABILITIES=graphics,...) and check VK_LOADER_DEBUG=all vulkaninfo",
        ..RULE
    },
    // loader.c: "terminator_CreateInstance: Failed to CreateInstance in ICD %d. Skipping ICD."
    EmitterRule {
        emitter: "vulkan",
        who: "the Vulkan loader",
        line: &[&["Failed to CreateInstance in ICD"]],
        operation: Operation::Initialise,
        cause: "a Vulkan driver was found but did not start: it cannot reach its GPU (no device node or render node passed, or NVIDIA's user-space libraries of another release than the kernel module).",
        check: "VK_LOADER_DEBUG=all vulkaninfo in the container; the GPU's nodes must be there, and for NVIDIA the ICD's libGLX_nvidia.so must be the host driver's release",
        rank: RANK_VAGUE,
        ..RULE
    },
    // Mesa's loader: "MESA-LOADER: failed to open %s: %s (search paths %s)"; the reason after
    // the driver's name tells a missing driver from one whose own libraries clash (an
    // `undefined symbol` in libLLVM or libffi: ch-sa/labelCloud#144).
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's driver loader",
        line: &[&["MESA-LOADER: failed to open "]],
        unless: &["undefined symbol", "version `"],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("MESA-LOADER: failed to open "),
        cause: "Mesa's '{object}' driver is not in the image (or not on the search path it names), so the GPU falls back to software rendering or fails.",
        check: "install Mesa's DRI drivers in the image (libgl1-mesa-dri, mesa-dri-drivers) and check LIBGL_DRIVERS_PATH",
        ..RULE
    },
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's driver loader",
        line: &[
            &["MESA-LOADER: failed to open ", "undefined symbol"],
            &["MESA-LOADER: failed to open ", "version `"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("MESA-LOADER: failed to open "),
        cause: "Mesa's '{object}' driver is there but a library it links against is another build than the one it needs (an undefined symbol or version): a libstdc++, libffi or libLLVM from a conda or venv prefix, or LD_LIBRARY_PATH, loaded before the system's.",
        check: "'LIBGL_DEBUG=verbose glxinfo -B' names the library; drop the LD_LIBRARY_PATH entry (or conda's libstdc++/libffi) that shadows the system's, or install the matching Mesa in that environment",
        ..RULE
    },
    // Mesa's EGL/GLX: "failed to create dri2 screen", "glx: failed to create dri3 screen",
    // "MESA: error: Failed to query drm device." (robiot/xclicker#107): no DRI screen on a GPU.
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa",
        line: &[
            &["failed to create dri2 screen"],
            &["failed to create dri3 screen"],
            &["Failed to query drm device"],
            // Mesa's platform_*.c: the EGL error string when no DRI screen starts.
            &["DRI2: failed to create screen"],
            &["DRI2: failed to load driver"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("the GPU's DRM device"),
        cause: "Mesa could not open a DRI screen on the GPU: no /dev/dri node is in the container or sandbox, the process may not open it (the render or video group), or the GPU is driven by a kernel driver Mesa has no driver for (NVIDIA's proprietary one: its own GL/EGL libraries, with the graphics capability, are needed).",
        check: "'ls -l /dev/dri' where the program runs; pass the node with its group ('--device /dev/dri --group-add keep-groups' under crun), and 'LIBGL_DEBUG=verbose glxinfo -B' or 'eglinfo' to see which driver it tries",
        ..RULE
    },
    // Mesa / libGL: "failed to load driver: %s" follows the loader's own line, which says why.
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's driver loader",
        line: &[&["failed to load driver: "]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("failed to load driver: "),
        cause: "Mesa could not load its '{object}' driver (the MESA-LOADER line before this says why: missing, or a library of its own that does not fit), so OpenGL falls back to software or fails.",
        check: "'LIBGL_DEBUG=verbose glxinfo -B' in the container names the file it tried and why it failed",
        rank: RANK_VAGUE,
        ..RULE
    },
];
