//! Which tier an NVIDIA host offers, from what is installed: a CDI spec declaring
//! `nvidia.com/gpu`, then the legacy OCI hook, then the raw `/dev/nvidiactl`. The backend grants
//! by it and doctor's hook check asks it, so it sits below both.

use std::path::Path;

use gpuctl_core::plugin::{GpuError, Probe, Tier};

use crate::nodes::NVIDIA_CTL;

/// NVIDIA's CDI kind.
pub const KIND: &str = "nvidia.com/gpu";
/// Where the legacy hook may be installed, in the order they are checked.
pub const HOOK_DIRS: [&str; 2] = [
    "/usr/share/containers/oci/hooks.d",
    "/etc/containers/oci/hooks.d",
];
/// The legacy hook's file name.
pub const HOOK_FILE: &str = "oci-nvidia-hook.json";

fn host_err(e: gpuctl_core::plugin::HostError) -> GpuError {
    GpuError::host(
        e,
        "check the host's /dev and OCI hook directories".to_string(),
    )
}

/// The legacy hook file, when one is installed.
pub(crate) fn hook_file(probe: &Probe) -> Result<Option<String>, GpuError> {
    for dir in HOOK_DIRS {
        let path = format!("{dir}/{HOOK_FILE}");
        if probe.host().is_file(Path::new(&path)).map_err(host_err)? {
            return Ok(Some(path));
        }
    }
    Ok(None)
}

pub(crate) fn has_ctl(probe: &Probe) -> Result<bool, GpuError> {
    probe.host().exists(Path::new(NVIDIA_CTL)).map_err(host_err)
}

/// The tier in use: CDI when a spec declares NVIDIA's kind, else the legacy hook when it is
/// installed, else raw nodes when the control node exists; `None` when the host has none.
pub(crate) fn tier(probe: &Probe) -> Result<Option<Tier>, GpuError> {
    Ok(if probe.cdi().kind_declared(KIND) {
        Some(Tier::Cdi)
    } else if hook_file(probe)?.is_some() {
        Some(Tier::Hook)
    } else if has_ctl(probe)? {
        Some(Tier::Raw)
    } else {
        None
    })
}
