//! Intel's failure families: what Level Zero, the VA-API media driver and the kernel's i915/xe
//! print, by cause. The real texts are in crates/cli/tests/explain_corpus/, with their sources.

use gpuctl_core::plugin::{Family, FamilyCode, PRIORITY_GROUPS, PRIORITY_PRECISE};

use crate::doctor;

/// The kernel's `force_probe` message: explain adds the binding this host's kernel gives.
pub const FORCE_PROBE: FamilyCode = FamilyCode::new("intel-force-probe");
/// Level Zero found no device: explain adds the same binding.
pub const LEVEL_ZERO_NO_DEVICE: FamilyCode = FamilyCode::new("intel-level-zero-no-device");

/// Intel's families, in catalogue order.
pub const FAMILIES: &[Family] = &[
    Family {
        code: FORCE_PROBE,
        signs: &[
            &["To force driver probe anyway, use i915.force_probe="],
            // xe's wording: "... not officially supported by xe driver in this kernel version.
            // To force Xe probe, use xe.force_probe='4680' and i915.force_probe='!4680'".
            &["To force Xe probe"],
        ],
        priority: PRIORITY_PRECISE,
        diagnosis: "the kernel's i915 (or xe) knows this GPU but does not drive it by default in this kernel release, so no render node exists for it: the GPU is newer than the kernel's support.",
        remedy: "Hint: upgrade to a kernel that drives the GPU by default, or add the module parameter the kernel names\n(e.g. 'i915.force_probe=56a0') to the kernel command line and reboot.",
        checks: &[doctor::DRIVER],
    },
    Family {
        code: LEVEL_ZERO_NO_DEVICE,
        signs: &[
            &["ZE_RESULT_ERROR_UNINITIALIZED"],
            // 0x78000001 is ZE_RESULT_ERROR_UNINITIALIZED (level-zero's ze_api.h).
            &["zeInit error: 78000001"],
            &["XPU device count is zero"],
        ],
        priority: PRIORITY_GROUPS + 3,
        // oneapi-src/level-zero#196: a loader newer than the GPU driver asks for a function
        // table the driver does not have, and zeInit reports UNINITIALIZED; vllm-project/vllm's
        // XPU image: an LD_LIBRARY_PATH without /opt/venv/lib, where the UR adapters are.
        diagnosis: "Level Zero found no Intel GPU it can drive: the container has no Intel render node (or may not open it), the image lacks Intel's compute runtime (libze_intel_gpu), that runtime is too old for the GPU, the Level Zero loader is newer than the runtime (the driver lacks a function table the loader asks for: update the GPU driver, or use the loader released with it), or the SYCL runtime's Level Zero adapter (the Unified Runtime's libur_adapter_level_zero and the libraries it loads) is not on the image's library path (an LD_LIBRARY_PATH that omits a venv's or oneAPI's lib directory).",
        remedy: "Hint: pass the render node and keep your groups ('podman run $(gpuctl args intel) ...'), and use an image whose\ncompute-runtime release supports the GPU ('gpuctl requirement <device id>' names the platform).",
        checks: &[doctor::DRIVER, doctor::NODES],
    },
    Family {
        code: FamilyCode::new("intel-vaapi-init"),
        // Only the driver's own "init failed" (libva va.c): a bare "vaInitialize failed" is
        // read by its VA status and the lines before it (no driver file, no driver name for
        // the node: an NVIDIA GPU's, intel/libva#652), which this family's cause would contradict.
        // The same line as a user copies it without "error" (blakeblackshear/frigate#3655,
        // corpus 247): still the driver file's own init.
        signs: &[
            // Intel's own drivers only: another vendor's driver failing its init (radeonsi,
            // set N's podman#18497 under SELinux) is read by the lines around it, which this
            // family's "libva tried an Intel driver" would contradict.
            &["libva error:", "iHD_drv_video.so init failed"],
            &["libva error:", "i965_drv_video.so init failed"],
            &["libva: ", "iHD_drv_video.so init failed"],
            &["libva: ", "i965_drv_video.so init failed"],
        ],
        priority: PRIORITY_GROUPS + 3,
        // A host whose i915 did not bring the GPU up fails the same way (home-assistant/
        // operating-system#3949: a host update's kernel left the GPU's firmware unloaded).
        diagnosis: "the VA-API media driver did not start: a driver that does not fit the GPU (iHD is for Broadwell and newer, i965 for older GPUs up to Coffee Lake), a driver built for another libva, no render node it may open, or a host kernel driver (i915, xe) that did not bring the GPU up (its GuC/HuC firmware not loaded, as after a host update; the host's 'dmesg | grep -i -e i915 -e guc -e huc' says). i965 and iHD are Intel's: on an AMD GPU (radeonsi) or an NVIDIA one (nvidia) LIBVA_DRIVER_NAME is unset or not set where the container reads it, so libva tried an Intel driver.",
        remedy: "Hint: name the driver that fits the GPU ('-e LIBVA_DRIVER_NAME=iHD', or 'i965' for older GPUs), install libva and\nthe driver from the same release, and pass the render node ('podman run $(gpuctl args intel) ...').",
        checks: &[doctor::DRIVER, doctor::NODES],
    },
];
