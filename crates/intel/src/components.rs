//! Intel's component vocabulary for the structured fallback (docs/explain.md#fallback), from
//! Intel's own lists:
//!
//! - the kernel drivers: the kernel's i915 and xe documentation (docs.kernel.org/gpu/i915.html,
//!   docs.kernel.org/gpu/xe): `i915`, `xe` (only as the kernel names it: `xe 0000:…`,
//!   `/sys/module/xe`, `xe.force_probe`, never the two letters alone);
//! - the compute and media user space: oneapi-src/level-zero (`libze_loader`, `ze_result_t`'s
//!   `ZE_RESULT_*`, `zeInit`, `ZE_AFFINITY_MASK`), intel/compute-runtime (`libze_intel_gpu`,
//!   `libigdrcl`, the `intel-opencl-icd` package), intel/llvm's SYCL runtime
//!   (`ONEAPI_DEVICE_SELECTOR`, `PI_ERROR_*`, `UR_RESULT_*`), intel/media-driver
//!   (`iHD_drv_video.so`) and intel/intel-vaapi-driver (`i965_drv_video.so`), oneVPL's
//!   `MFX_ERR_*`;
//! - tools and Kubernetes: intel/xpumanager (`xpu-smi`), intel/intel-device-plugins-for-kubernetes
//!   (`gpu.intel.com/i915`, `gpu.intel.com/xe`), intel-cdi-specs-generator.
//!
//! oneAPI's and the compute runtime's libraries are the image's: their absence is never
//! claimed.

use gpuctl_core::plugin::{Component, ComponentKind, component_words};

use ComponentKind::{DriverFile, ImageLibrary, KernelModule, Program, Resource, Runtime, Variable};

const fn image(word: &'static str) -> Component {
    Component::of(ImageLibrary, word).prefix()
}
const fn prog(word: &'static str) -> Component {
    Component::of(Program, word).emits(word, word)
}
const fn module(word: &'static str) -> Component {
    Component::of(KernelModule, word).emits(
        "intel-kernel-module",
        "the Intel kernel driver (i915 or xe)",
    )
}
const fn ze(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("level-zero", "the Level Zero loader")
}
const fn sycl(word: &'static str) -> Component {
    Component::of(Runtime, word).emits("sycl", "the SYCL runtime")
}

/// Intel's components.
pub(crate) const COMPONENTS: &[Component] = &[
    module("i915"),
    module("xe 0000:"),
    module("/sys/module/xe"),
    module("/sys/module/i915"),
    module("modprobe xe"),
    module("xe.force_probe"),
    module("xe.ko"),
    ze("Level Zero"),
    ze("level_zero"),
    ze("ZE_RESULT_").prefix(),
    ze("ze_result_t"),
    ze("zeInit"),
    ze("zeDeviceGet").prefix(),
    ze("zesInit"),
    sycl("PI_ERROR_").prefix(),
    sycl("UR_RESULT_").prefix(),
    sycl("ur_result").prefix(),
    sycl("SYCL"),
    Component::of(Runtime, "MFX_ERR_")
        .prefix()
        .emits("qsv", "ffmpeg's QSV (oneVPL or the Media SDK)"),
    Component::of(Runtime, "MFX session").emits("qsv", "ffmpeg's QSV (oneVPL or the Media SDK)"),
    Component::of(DriverFile, "iHD_drv_video").prefix(),
    Component::of(DriverFile, "i965_drv_video").prefix(),
    Component::of(DriverFile, "intel_icd").prefix(),
    prog("xpu-smi"),
    prog("intel_gpu_top"),
    prog("intel-cdi-specs-generator"),
    Component::of(Program, "sycl-ls").emits("sycl", "sycl-ls"),
    Component::of(Variable, "ZE_AFFINITY_MASK"),
    Component::of(Variable, "ZE_FLAT_DEVICE_HIERARCHY"),
    Component::of(Variable, "ONEAPI_DEVICE_SELECTOR"),
    Component::of(Variable, "SYCL_DEVICE_FILTER"),
    Component::of(Resource, "gpu.intel.com/").prefix(),
    image("libze_"),
    image("libigdrcl"),
    image("intel-opencl-icd"),
    image("libsycl"),
    image("libmkl"),
    image("oneDNN"),
    image("libdnnl"),
    image("libmfx"),
    image("libvpl"),
    // The GPU by Intel's own names, as programs print it when they find none or not this one
    // (Intel's product pages: Intel Arc, Data Center GPU).
    Component::of(ComponentKind::Device, "Intel GPU").prefix(),
    Component::of(ComponentKind::Device, "Intel Arc").prefix(),
];

/// The words of [`COMPONENTS`]: Intel's `gpu_words`.
pub(crate) const WORDS: [&str; COMPONENTS.len()] = component_words(COMPONENTS);
