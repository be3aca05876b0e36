//! The sentence each [`Finding`] prints on stderr and carries as its JSON `message`: the facts
//! in words, what it means for the container, and what to do.

use super::Finding;

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const PODMAN_SKIPS: &str =
            "podman skips it too (it reports only 'unresolvable CDI devices')";
        const SYSFS: &str = "check that /sys is sysfs";
        match self {
            Finding::CdiSpecInvalid { path, reason } => write!(
                f,
                "CDI spec {path} is skipped: {reason}; {PODMAN_SKIPS}, so fix or regenerate it"
            ),
            Finding::CdiSpecUnloadable { path, reason } => write!(
                f,
                "CDI spec {path} is skipped: {reason}; {PODMAN_SKIPS}, so upgrade podman, or regenerate the spec for this podman"
            ),
            Finding::CdiSpecCrashesLibrary { path, reason } => write!(
                f,
                "CDI spec {path} is skipped: {reason}; podman's CDI library crashes on it, so fix or regenerate it"
            ),
            Finding::CdiSpecAliasExpansion { path, reason } => write!(
                f,
                "CDI spec {path} is skipped: {reason}; podman's CDI library may still load it, building gigabytes of text on the way, so regenerate it without YAML aliases"
            ),
            Finding::CdiDirUnreadable { error } => write!(
                f,
                "the CDI spec directory {error}, so its specs are not considered; make it readable (podman cannot read it either)"
            ),
            Finding::CdiSpecWrongExtension { path } => write!(
                f,
                "{path} is not read: CDI reads only .json and .yaml files; rename it to .yaml if it is a spec"
            ),
            Finding::CdiSpecNotRegular { path, kind, fifo } => write!(
                f,
                "{path} is not read: it is {kind}, not a regular file; podman's CDI library would try to read it{}, so remove it from the CDI directory",
                if *fifo { " and wait for a writer" } else { "" }
            ),
            Finding::CdiSpecUnreadable { error } => write!(f, "CDI spec {error}; it is skipped"),
            Finding::CdiDirTooManySpecs { dir, limit } => write!(
                f,
                "{dir} holds more than {limit} spec files; the rest are not read"
            ),
            Finding::CdiDeviceConflict { device, paths } => write!(
                f,
                "conflicting CDI device \"{device}\" (specs {}): two specs in one directory declare it, so neither is usable; remove the stale spec",
                paths.join(", ")
            ),
            Finding::CdiSpecStale { path, missing } => write!(
                f,
                "CDI spec {path} injects {} host device node(s) that do not exist here (first: {}): it is stale — regenerate it, or podman fails with 'failed to stat CDI host device'",
                missing.len(),
                missing.first().map_or("", String::as_str)
            ),
            Finding::VendorNameInvalid { vendor } => write!(
                f,
                "the vendor backend '{vendor}' is ignored: a vendor name is lowercase letters, digits, '-' or '_' and not one of all, true, none, false"
            ),
            Finding::VendorNameTaken { vendor } => write!(
                f,
                "a second vendor backend named '{vendor}' is ignored: two linked crates register that name"
            ),
            Finding::DrmNodeNameInvalid { path } => write!(
                f,
                "{path} is not a render node name the kernel makes (renderD<number>); it is skipped — {SYSFS}"
            ),
            Finding::DrmDeviceNotALink { node, path } => write!(
                f,
                "{path} is a file where a link to its PCI device is expected; {node} is skipped — {SYSFS}"
            ),
            Finding::DrmNodeUnreadable { node, error } => {
                write!(f, "{error}; {node} is skipped — {SYSFS}")
            }
            Finding::DrmAddressUnknown { node, error } => write!(
                f,
                "{error}, so the PCI address of {node} is unknown and it is ordered by its name after the others — {SYSFS}"
            ),
            Finding::PciAddressInvalid { path, name } => write!(
                f,
                "'{name}' in {path} is not a PCI address (DDDD:BB:DD.F in lower-case hex), so it is skipped — {SYSFS}"
            ),
            Finding::DeviceNodesNotGranted { vendor, entries } => write!(
                f,
                "not granted: {entries} — a device node or driver file is passed only when it is the {vendor} driver's own (a symbolic link only when it leads to one of the driver's nodes, since podman would hand the container what it leads to); check the host's /dev"
            ),
            Finding::DeviceLinksNotGranted { vendor, entries } => write!(
                f,
                "not granted: {entries} — a device node that is a symbolic link is passed only when it leads to one of the {vendor} driver's own nodes (podman would hand the container what it leads to); check the host's /dev"
            ),
            Finding::ByPathLinkUnreadable { error } => write!(
                f,
                "{error}, so it is not mounted into the container; run 'udevadm trigger' to recreate the /dev/dri/by-path links"
            ),
            Finding::PciUnlistable { error } => {
                write!(f, "{error}; PCI devices could not be listed — {SYSFS}")
            }
            Finding::PciDeviceUnreadable { address, error } => {
                write!(f, "{error}; PCI device {address} skipped")
            }
            Finding::IndexBestEffort {
                vendor,
                note,
                numbering: None,
            } => write!(
                f,
                "'{vendor}' GPU device selection without CDI is best-effort: gpuctl orders devices by PCI bus address, which may differ from the vendor tools' numbering.  Install the vendor's CDI spec for authoritative device mapping{note}."
            ),
            Finding::IndexBestEffort {
                vendor,
                note,
                numbering: Some(numbering),
            } => write!(
                f,
                "'{vendor}' device selection without CDI is best-effort: {numbering}.  Install the vendor's CDI spec for authoritative device mapping{note}."
            ),
            Finding::Vendor(v) => f.write_str(&v.message),
        }
    }
}
