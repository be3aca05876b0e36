//! AMD's loaded driver for `gpuctl report` ([`gpuctl_core::plugin::Requirements::loaded_driver`]): the
//! out-of-tree (DKMS) amdgpu has a version file, the kernel's own module has none.

use std::path::Path;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::requirement::{GpuOnHost, LoadState, LoadedDriver, Version};

/// The DKMS module's version file.
pub const AMDGPU_VERSION: &str = "/sys/module/amdgpu/version";
/// The module's directory, there whenever amdgpu is loaded.
const AMDGPU_MODULE: &str = "/sys/module/amdgpu";

/// The DKMS module's version, or the kernel's own amdgpu, or none.
pub fn read(host: &Host, _kernel: Option<Version>, _gpus: &[GpuOnHost]) -> LoadedDriver {
    let version = host
        .read_to_string(Path::new(AMDGPU_VERSION), 256)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    if version.is_some() {
        let mut out = LoadedDriver::new(LoadState::Loaded, AMDGPU_VERSION);
        out.version = version;
        return out;
    }
    if host.is_dir(Path::new(AMDGPU_MODULE)).unwrap_or(false) {
        return LoadedDriver::new(LoadState::InKernel, AMDGPU_MODULE);
    }
    LoadedDriver::not_loaded(AMDGPU_MODULE, "the amdgpu module is not loaded")
}
