//! Issue 31, round 6: PyTorch's XPU backend finding no Intel GPU, "No XPU devices are
//! available." (raised by torch._C._xpu_init, PyTorch's XPU runtime in c10/xpu, when the SYCL
//! runtime's Level Zero platform lists no GPU; open-edge-platform/geti-instant-learn#583, corpus
//! 230: a container started without the render node and the render group).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RULE};

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
