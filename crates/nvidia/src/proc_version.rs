//! The loaded NVIDIA kernel module as the host names it: `/proc/driver/nvidia/version` and the
//! module's taint flags. Doctor, explain, the image check and the loaded-driver report all read
//! it, so it sits below them.

use std::path::Path;

/// The loaded driver's own words.
pub const PROC_VERSION: &str = "/proc/driver/nvidia/version";
/// The kernel's taint flags for the loaded module: `P` when its license is proprietary.
pub const MODULE_TAINT: &str = "/sys/module/nvidia/taint";

/// The loaded NVIDIA kernel module, as `/proc/driver/nvidia/version` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedDriver {
    /// True for the open kernel module ("Open Kernel Module").
    pub open: bool,
    /// The full version (`580.65.06`).
    pub version: String,
    /// The branch (`580`).
    pub branch: u32,
}

/// Parses the `NVRM version:` line, e.g. `NVRM version: NVIDIA UNIX Open Kernel Module for
/// x86_64  580.65.06  Release Build ...` or `NVRM version: NVIDIA UNIX x86_64 Kernel Module
/// 535.154.05  Thu Dec 28 ...`.
pub fn parse_proc_version(text: &str) -> Option<LoadedDriver> {
    let line = text.lines().find(|l| l.starts_with("NVRM version:"))?;
    let version = line.split_whitespace().find(|w| {
        let mut parts = w.split('.');
        parts
            .next()
            .is_some_and(|p| p.len() == 3 && p.parse::<u32>().is_ok())
            && parts.next().is_some_and(|p| p.parse::<u32>().is_ok())
    })?;
    let branch = version.split('.').next()?.parse().ok()?;
    Some(LoadedDriver {
        open: line.contains("Open Kernel Module"),
        version: version.to_string(),
        branch,
    })
}

/// The NVIDIA kernel module the host has loaded: `/proc/driver/nvidia/version`, with the
/// module's taint flags deciding open or proprietary. `None` when none is loaded.
pub fn loaded_driver(host: &gpuctl_core::plugin::Host) -> Option<LoadedDriver> {
    let mut loaded = host
        .read_to_string(Path::new(PROC_VERSION), 64 * 1024)
        .ok()
        .and_then(|t| parse_proc_version(&t));
    // The module's license decides over the banner: the kernel flags a proprietary one 'P'.
    if let (Some(d), Ok(taint)) = (
        loaded.as_mut(),
        host.read_to_string(Path::new(MODULE_TAINT), 64),
    ) {
        d.open = !taint.contains('P');
    }
    loaded
}
