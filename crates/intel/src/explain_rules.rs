//! Intel's emitters read by structure (issue 31): the Level Zero loader's ze_result_t names
//! and the dynamic loader on the oneAPI and compute-runtime libraries (which the image ships).
//! Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{
    EmitterRule, LOADER, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_VAGUE, RULE,
};

use crate::explain_rules_environment as environment;
use crate::explain_rules_kernel as kernel;
use crate::explain_rules_media as media;
use crate::explain_rules_sycl as sycl;
use crate::explain_rules_ze as ze;

/// oneAPI and compute-runtime libraries: the image's own.
const IMAGE_LIBS: &[&str] = &[
    "libze_loader",
    "libze_intel_gpu",
    "libigdrcl",
    "libmkl",
    "libsycl",
    "libigc",
    "libOpenCL",
    "libsvml",
    "libimf",
    "libintlc",
    "libdnnl",
    "libccl",
    "libur_loader",
    "libpi_level_zero",
];

/// Intel's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // Round 5: the small-BAR refusal, the loader's trace for the GPU driver, intel_gpu_top's
    // PMU, SYCL under WSL2 (explain_rules_environment.rs).
    environment::SMALL_BAR,
    environment::ZE_DRIVER,
    environment::GPU_TOP_PMU,
    environment::SYCL_WSL,
    // Level Zero's ze_result_t by name and number (explain_rules_ze.rs).
    ze::DEVICE_LOST,
    ze::UNINITIALIZED,
    ze::DEPENDENCY,
    ze::UNSUPPORTED,
    ze::PERMISSION,
    ze::PROGRAM,
    // The SYCL runtime's ur_result_t and pi_result (explain_rules_sycl.rs).
    sycl::NOT_FOUND,
    sycl::LOST,
    sycl::INIT,
    sycl::COMPILER,
    sycl::VERSION,
    sycl::RESOURCES,
    sycl::PROGRAM,
    // PyTorch's XPU backend (explain_rules_frameworks.rs).
    crate::explain_rules_environment::MESA_PCI_ID,
    crate::explain_rules_frameworks::NO_XPU,
    crate::explain_rules_frameworks::SYCL_ARCHITECTURE,
    crate::explain_rules_frameworks::OPENVINO_NO_DEVICE,
    crate::explain_rules_frameworks::OPENVINO_NO_PLUGIN,
    // i915 in the kernel log: "GuC initialization failed %d", "GUC: load failed: status = ..."
    // (intel-gpu/intel-gpu-i915-backports#194, thesofproject/sof-test#767); the GPU is then
    // wedged or runs without GuC.
    EmitterRule {
        emitter: "intel-kernel-module",
        who: "the i915/xe kernel driver",
        line: &[
            &["GuC initialization failed"],
            &["GUC: load failed"],
            &["GuC load failed"],
            &["HuC: load failed"],
            &["HuC load failed"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the GuC/HuC firmware"),
        cause: "the kernel driver could not load or start the GPU's GuC/HuC firmware (a file missing or older than the driver, or one the GPU refused), so the GPU runs without it or is declared wedged: no media engines and, on newer GPUs, no compute submission, in any container.",
        check: "'sudo dmesg | grep -i -e guc -e huc' on the host names the file and error; update linux-firmware (firmware-misc-nonfree on Debian) together with the kernel or the out-of-tree i915, and rebuild the initramfs",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // QSV's mfxStatus by name, message and number (explain_rules_media.rs); a session that
    // failed without one is the rule below.
    media::NOT_FOUND,
    media::UNSUPPORTED,
    media::DEVICE,
    media::SESSION,
    media::PROGRAM,
    // i915 / xe in the kernel log and Intel's GPU plug-in (explain_rules_kernel.rs).
    kernel::FIRMWARE,
    kernel::HANG,
    kernel::WEDGED,
    kernel::SCAN,
    kernel::ALLOCATE,
    kernel::REGISTER,
    EmitterRule {
        emitter: "qsv",
        who: "ffmpeg's QSV (Intel's media runtime dispatcher)",
        line: &[
            &["Error initializing an MFX session"],
            &["Error creating a MFX session"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("a QSV session"),
        cause: "ffmpeg could not start a QSV session on the GPU: QSV runs on VA-API, so the render node, the iHD driver and the QSV runtime for this GPU's generation must all be in the container (the lines before this say which failed).",
        check: "'vainfo --display drm --device /dev/dri/renderD128' in the container first; then the QSV runtime (libmfx-gen1.2 for Tiger Lake and newer, libmfx1 for older)",
        rank: RANK_VAGUE,
        ..RULE
    },
    // i915 / xe in the kernel log: "GuC firmware i915/tgl_guc_70.bin: fetch failed with error -2".
    EmitterRule {
        emitter: "intel-kernel-module",
        who: "the i915/xe kernel driver",
        line: &[&["firmware ", "fetch failed"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("firmware "),
        objects: &["i915/", "xe/"],
        cause: "the kernel driver could not load the GPU's firmware file {object}: the host's linux-firmware is missing it or older than the driver, so the GPU runs without GuC/HuC (no media, no compute submission on newer GPUs).",
        check: "'ls /lib/firmware/{object}*' on the host; update linux-firmware (or firmware-misc-nonfree on Debian) and rebuild the initramfs",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // The SYCL runtime: "No device of requested type available" (sycl::exception from a
    // device selector that finds none).
    EmitterRule {
        emitter: "sycl",
        who: "the SYCL runtime",
        line: &[&["No device of requested type available"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a GPU device"),
        cause: "no SYCL backend offers a GPU: the container has no render node (/dev/dri not given), the image has no Level Zero or OpenCL GPU runtime (intel-level-zero-gpu, intel-opencl-icd), or its user may not open the node.",
        check: "'sycl-ls' in the container lists the backends and devices it sees; pass '--device /dev/dri' with '--group-add keep-groups' under crun, and install the compute runtime in the image",
        ..RULE
    },
    EmitterRule {
        objects: IMAGE_LIBS,
        owner: Owner::Image,
        cause: "{object} is a oneAPI or compute-runtime library, which the image must ship: Intel's GPU stack passes only the render nodes, never libraries.",
        check: "install it in the image (intel-oneapi-runtime-libs, intel-level-zero-gpu, intel-opencl-icd) in the release the program was built for",
        ..LOADER
    },
];
