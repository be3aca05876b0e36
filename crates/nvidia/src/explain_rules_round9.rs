//! Issue 31, round 9: NVIDIA's lines whose reason earlier rules did not read. Each string is the
//! emitter's own, named beside its rule; docs/explain.md ("Round 9") has the table.
//!
//! - The NVIDIA container library crashing: its driver service runs as a child process named
//!   `nvc:[driver]` (libnvidia-container src/driver.c sets the name with prctl), so the kernel's
//!   crash line (`nvc:[driver][PID]: segfault at …`, arch/x86/mm/fault.c show_signal_msg) and
//!   the audit record of an abnormal end (`type=1701 … comm="nvc:[driver]" … sig=11`,
//!   AUDIT_ANOM_ABEND) name it. The hook then prints only `driver error: failed to process
//!   request`, which alone reads as a GPU that did not answer; with the crash beside it the
//!   cause is the library's build on this host (OE4T/tegra-demo-distro#177: an old meta-tegra
//!   revision's libnvidia-container, fixed by updating the layer).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[EmitterRule {
    emitter: "nvidia-container-cli",
    who: "nvidia-container-cli (the legacy hook)",
    line: &[
        &["nvc:[driver]", "segfault at"],
        &["nvc:[driver]", "sig=11"],
        &["nvc:[driver]", "sig=6"],
        &["nvidia-container-cli[", "segfault at"],
        &["libnvidia-container", "segfault at"],
    ],
    operation: Operation::Initialise,
    object: ObjectAt::Is("its driver service"),
    cause: "the NVIDIA container library itself crashed (its driver service, nvc:[driver], died of a signal) rather than report an error: a libnvidia-container build that does not work with this host's driver or system libraries (an old Jetson BSP layer such as meta-tegra's, a toolkit far older or newer than the driver, a library built for another distribution), so the hook's 'driver error: failed to process request' is that crash, not a GPU that did not answer.",
    check: "'nvidia-container-cli -k -d /dev/tty info' on the host reproduces it; update libnvidia-container and nvidia-container-toolkit to a release made for the installed driver (on Jetson, the BSP layer's current revision or JetPack's packages); 'journalctl -k | grep -e segfault -e nvc' shows the crash",
    rank: RANK_DECISIVE,
    ..RULE
}];
