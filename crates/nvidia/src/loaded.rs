//! NVIDIA's loaded driver for `gpuctl report` ([`gpuctl_core::plugin::Requirements::loaded_driver`]): the
//! module doctor reads (`/proc/driver/nvidia/version`, the license in the module's taint), its
//! flavour and branch for the requirement's constraints, and the newest CUDA line it runs.

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::requirement::{GpuOnHost, LoadState, LoadedDriver, Version};

use crate::cuda::driver_cuda_line;
use crate::proc_version::{PROC_VERSION, loaded_driver};
use crate::release::DriverRelease;

/// The loaded module as a `--driver` spec: `open:570.86.15`, `proprietary:535.183.01`.
pub(crate) fn driver_spec(d: &crate::proc_version::LoadedDriver) -> String {
    let module = if d.open { "open" } else { "proprietary" };
    format!("{module}:{}", d.version)
}

/// The loaded module's flavour and branch, and its CUDA ceiling.
pub(crate) fn read(host: &Host, _kernel: Option<Version>, _gpus: &[GpuOnHost]) -> LoadedDriver {
    let Some(d) = loaded_driver(host) else {
        return LoadedDriver::not_loaded(PROC_VERSION, "no NVIDIA kernel module is loaded");
    };
    let module = if d.open { "open" } else { "proprietary" };
    let mut out = LoadedDriver::new(LoadState::Loaded, PROC_VERSION);
    out.choices
        .push(("nvidia-kernel-module", module.to_string()));
    if let Ok(v) = Version::parse(&d.branch.to_string()) {
        out.versions.push(("nvidia-driver-branch", v));
    }
    // The newest CUDA line the loaded release runs, from the CUDA release notes' table
    // (docs/requirement.md); a release the table cannot place is unknown, never guessed.
    out.ceiling = Some(
        DriverRelease::parse(&d.version)
            .ok()
            .and_then(|r| driver_cuda_line(&r))
            .map_or_else(|| "unknown".to_string(), |c| c.to_string()),
    );
    // The full release, so THE verdict compares releases, not branches (570.86.15 against a
    // 570.124.04 floor).
    out.specs.push(driver_spec(&d));
    out.kernel_module = Some(module.to_string());
    out.version = Some(d.version);
    out
}
