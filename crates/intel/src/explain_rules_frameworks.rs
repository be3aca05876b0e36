//! Issue 31, round 6: PyTorch's XPU backend finding no Intel GPU, "No XPU devices are
//! available." (raised by torch._C._xpu_init, PyTorch's XPU runtime in c10/xpu, when the SYCL
//! runtime's Level Zero platform lists no GPU; open-edge-platform/geti-instant-learn#583, corpus
//! 230: a container started without the render node and the render group).
//!
//! Round 7: the SYCL runtime's device-architecture extension (intel/llvm
//! sycl/source/detail/device_impl.cpp): "The current device architecture is not supported by
//! sycl_ext_oneapi_device_architecture." when the runtime has no entry for the GPU: a oneAPI
//! release older than the GPU (intel/ipex-llm#12809: a Battlemage card under an older image).
//! OpenVINO's GPU plug-in (openvinotoolkit/openvino
//! src/plugins/intel_gpu/src/runtime/ocl/ocl_device_detector.cpp): "[GPU] No supported OCL
//! devices found or unexpected error happened during devices query." when OpenCL offers it no
//! Intel GPU; and the runtime's core (src/inference/src/dev/core_impl.cpp): "Device with
//! \"%s\" name is not registered in the OpenVINO Runtime" when no plug-in of that name is in
//! the install (a build or frozen app without the GPU plug-in: the image's).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, Owner, RANK_DECISIVE, RULE};

/// PyTorch's XPU backend with no device.
pub(crate) const NO_XPU: EmitterRule = EmitterRule {
    emitter: "sycl",
    who: "PyTorch's XPU backend",
    line: &[&["No XPU devices are available"]],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("an Intel GPU"),
    cause: "PyTorch's XPU backend found no Intel GPU through Level Zero: the container was not given the GPU's render node (/dev/dri/renderD*), its user is not in the node's group (the host's render GID), or the image lacks Intel's compute runtime (libze-intel-gpu1, intel-opencl-icd).",
    check: "'ls -l /dev/dri' and 'sycl-ls' in the container; start it with 'podman run $(gpuctl args intel) ...' (or '--device /dev/dri/renderD128 --group-add $(stat -c %g /dev/dri/renderD128)')",
    ..RULE
};

/// OpenVINO's GPU plug-in with no OpenCL device.
pub(crate) const OPENVINO_NO_DEVICE: EmitterRule = EmitterRule {
    emitter: "openvino",
    who: "OpenVINO's GPU plug-in",
    line: &[&["No supported OCL devices found"]],
    operation: Operation::FindDevice,
    object: ObjectAt::Is("an Intel GPU"),
    cause: "OpenVINO's GPU plug-in found no Intel GPU through OpenCL: the image lacks Intel's compute runtime (intel-opencl-icd), the runtime is older than the GPU, or the container was not given the render node or its group.",
    check: "'clinfo -l' in the container must list an Intel GPU; install intel-opencl-icd of a release that supports the GPU in the image and start it with 'podman run $(gpuctl args intel) ...'",
    ..RULE
};

/// OpenVINO without its GPU plug-in.
pub(crate) const OPENVINO_NO_PLUGIN: EmitterRule = EmitterRule {
    emitter: "openvino",
    who: "the OpenVINO runtime",
    line: &[
        &["Device with \"GPU\" name is not registered in the OpenVINO Runtime"],
        &["Device with \"NPU\" name is not registered in the OpenVINO Runtime"],
    ],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("OpenVINO's GPU or NPU plug-in"),
    owner: Owner::Image,
    cause: "the OpenVINO in the image has no plug-in for that device (a build or packaged application without libopenvino_intel_gpu_plugin or the NPU's): no GPU set-up of the host can register it.",
    check: "install the full OpenVINO runtime in the image (the openvino wheel or the archive with its plugins), or bundle the plug-in with the application; then 'python -c \"import openvino as ov; print(ov.Core().available_devices)\"'",
    rank: RANK_DECISIVE,
    ..RULE
};

/// The SYCL runtime without the GPU's architecture.
pub(crate) const SYCL_ARCHITECTURE: EmitterRule = EmitterRule {
    emitter: "sycl",
    who: "the SYCL runtime",
    line: &[&["device architecture is not supported by sycl_ext_oneapi_device_architecture"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPU's architecture"),
    cause: "the oneAPI (SYCL) runtime in the image is older than the GPU: it has no entry for this GPU's architecture (a newer Intel GPU, such as Battlemage or Lunar Lake, than its release), so a program that asks for it stops.",
    check: "'sycl-ls' in the container names the GPU; use an image whose oneAPI and compute runtime releases support it (the framework's newer image, or oneAPI 2025 and a matching intel-opencl-icd / libze-intel-gpu1)",
    rank: RANK_DECISIVE,
    ..RULE
};
