//! Core's `gpuctl doctor` check codes; a vendor's are constants of its own crate.

use super::CheckCode;

/// podman found, its version, its CDI support.
pub const PODMAN: CheckCode = CheckCode::new("podman");
/// Each selected vendor's tier: usable, and how.
pub const TIER: CheckCode = CheckCode::new("tier");
/// Whether the host can serve the selection, as `gpuctl args` would.
pub const SELECTION: CheckCode = CheckCode::new("selection");
/// The CDI spec directories: readable, what the scan skipped.
pub const CDI_SPEC_DIR: CheckCode = CheckCode::new("cdi-spec-dir");
/// Each spec's cdiVersion against the podman that will load it.
pub const CDI_VERSION: CheckCode = CheckCode::new("cdi-version");
/// Each spec's nodes and files: still on the host.
pub const CDI_STALE: CheckCode = CheckCode::new("cdi-stale");
/// Each spec: readable by the invoking user.
pub const CDI_READABLE: CheckCode = CheckCode::new("cdi-readable");
/// podman's OCI runtime: keep-groups needs crun.
pub const OCI_RUNTIME: CheckCode = CheckCode::new("oci-runtime");
/// SELinux: containers may use devices.
pub const SELINUX: CheckCode = CheckCode::new("selinux");
/// The groups that own the nodes a container gets, against the invoking user's.
pub const RENDER_GROUPS: CheckCode = CheckCode::new("render-groups");

/// An image no selected vendor reads anything from, or one another host holds
/// (docs/image-check.md); the vendors' image checks have codes of their own.
pub const IMAGE: CheckCode = CheckCode::new("image");

/// The driver package the host's distribution (`/etc/os-release`) carries for its GPUs
/// (docs/requirement.md#driver-sources); reported by the CLI from the sources catalogue.
pub const DRIVER_PACKAGE: CheckCode = CheckCode::new("driver-package");

/// Every check core's doctor runs (vendors add theirs).
pub const CORE: &[CheckCode] = &[
    PODMAN,
    TIER,
    SELECTION,
    CDI_SPEC_DIR,
    CDI_VERSION,
    CDI_STALE,
    CDI_READABLE,
    OCI_RUNTIME,
    SELINUX,
    RENDER_GROUPS,
    IMAGE,
    DRIVER_PACKAGE,
];
