//! The codes of NVIDIA's doctor checks. The checks run in doctor; the failure families that
//! point at them name the codes too, so the codes sit below both.

use gpuctl_core::plugin::CheckCode;

/// The driver in use against what the GPUs need.
pub const DRIVER: CheckCode = CheckCode::new("nvidia-driver");
/// `/dev/nvidia-uvm`, which CUDA opens.
pub const UVM_CHECK: CheckCode = CheckCode::new("nvidia-uvm");
/// The legacy hook's `no-cgroups` for rootless podman.
pub const NO_CGROUPS: CheckCode = CheckCode::new("nvidia-no-cgroups");
/// CDI specs written for another driver version.
pub const SPEC_DRIVER: CheckCode = CheckCode::new("nvidia-spec-driver");
/// The `/dev/char` links that keep device rules across a daemon-reload.
pub const DEV_CHAR: CheckCode = CheckCode::new("nvidia-dev-char");
