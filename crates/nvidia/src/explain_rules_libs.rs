//! What NVIDIA's emitter rules share, below every rules module (each imports it, it imports
//! none): which libraries are the driver's and which the image's, what to check when the
//! kernel driver is not loaded, and the two helpers that turn a table's rows into rules once.

/// What to check when the NVIDIA kernel driver is not loaded.
pub(crate) const DRIVER_CHECK: &str = "'lsmod | grep nvidia' and 'cat /proc/driver/nvidia/version' on the host; if the module is missing, install the driver for the running kernel ('dkms status'), sign it or disable Secure Boot, and keep nouveau blacklisted";

/// The libraries of NVIDIA's driver: the GPU stack (CDI spec or hook) mounts them from the host.
pub(crate) const DRIVER_LIBS: &[&str] = &[
    "libcuda.so",
    "libnvidia-ml",
    "libnvidia-gl",
    "libnvidia-egl",
    "libnvidia-ptx",
    "libnvidia-nvvm",
    "libnvidia-encode",
    "libnvidia-fbc",
    "libnvidia-opencl",
    "libnvidia-compiler",
    "libnvidia-glcore",
    "libnvidia-tls",
    "libnvidia-rtcore",
    "libnvidia-gpucomp",
    "libnvcuvid",
    "libdxcore",
    "libnvoptix",
];
/// The libraries of the CUDA toolkit and NVIDIA's SDKs: the image ships them, never the driver.
pub(crate) const IMAGE_LIBS: &[&str] = &[
    "libcudnn",
    "libcublas",
    "libcudart",
    "libnccl",
    "libcufft",
    "libcurand",
    "libcusparse",
    "libcusolver",
    "libnvrtc",
    "libnvinfer",
    "libnvJitLink",
    "libnvToolsExt",
    "libnpp",
    "libcupti",
    "libnvonnxparser",
    "libcutensor",
];

/// Words a text from a Jetson (L4T, JetPack) carries: where the NVIDIA runtime mounts JetPack's
/// CUDA libraries from the host.
pub(crate) const JETSON: &[&str] = &[
    "l4t", "L4T", "jetson", "Jetson", "JetPack", "Tegra", "Tx2", "Xavier", "Orin",
];

/// A string built once for a rule table's row, kept for the process's life (the rules are
/// built once, by a `LazyLock`).
pub(crate) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// A rule's line shapes built once from a table's row, kept for the process's life.
pub(crate) fn leak_shapes(shapes: Vec<Vec<&'static str>>) -> &'static [&'static [&'static str]] {
    let shapes: Vec<&'static [&'static str]> = shapes
        .into_iter()
        .map(|s| &*Box::leak(s.into_boxed_slice()))
        .collect();
    Box::leak(shapes.into_boxed_slice())
}
