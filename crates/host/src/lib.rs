//! gpuctl's host access: what every probe reads, and nothing that knows a vendor or a plan.
//!
//! - [`Host`]: the root directory every probe reads under, with bounded reads and symbolic-link
//!   resolution that never leaves the root.
//! - [`pci`]: the PCI bus under `/sys/bus/pci/devices`; [`drm`]: the DRM render nodes under
//!   `/sys/class/drm`; [`devnode`]: whose PCI function a device node belongs to, as sysfs says.
//! - [`finding`]: what gpuctl noticed that did not stop it (a skipped sysfs entry, a skipped
//!   spec), with its stable code and sentence.
//! - CDI specs are read by the crate `gpuctl_cdi` over [`Host`] (it is the reader's
//!   `SpecSource`), so they are read under the root with the same link rules; its warnings
//!   become [`finding::Finding`]s.
//! - [`text`]: the text rules of the Python tool gpuctl replaces (white space, quoting), which
//!   these reads and their messages follow.

// The CDI reader over the host: `Host` as its spec source, its warnings as findings.
mod cdi;
pub mod devnode;
pub mod drm;
pub mod finding;
pub mod pci;
mod root;
pub mod text;

pub use root::{Entry, Host, HostError};
