//! gpuctl core: everything that does not depend on a GPU vendor.
//!
//! - [`host::Host`] (the crate `gpuctl_host`): the root directory every probe reads under, with
//!   bounded reads and symbolic-link resolution that never leaves the root; PCI and DRM scans.
//! - [`selector`]: the GPU selection language (`all`, `nvidia`, `amd:1`, ...).
//! - CDI specs are read by the crate `gpuctl_cdi`, over the [`host::Host`]; its warnings become
//!   [`finding::Finding`]s.
//! - [`backend::GpuBackend`] and [`backend::Registry`]: the vendor plug-in interface, and the
//!   registry that turns a selection into one typed [`plan::Plan`].
//! - [`render`]: the plan as podman, Quadlet, compose or docker syntax.
//! - [`explain`]: turning podman's stderr into a diagnosis and a remedy.
//! - [`launch`]: `gpuctl run`'s command line and launch.
//! - [`doctor`]: host checks before a container starts ([`check`]: what a check says).
//! - [`families`]: the failure catalogue `explain`, `doctor` and `run` share.
//! - [`requirement`] (the crate `gpuctl_requirement`): the vendor-neutral driver-requirement
//!   model (each vendor's table and wording live in its own crate); [`requirement_answer`]
//!   answers it for the registered vendors.

pub mod backend;
pub mod cdi_tool;
pub mod check;
pub mod detect;
pub mod doctor;
pub mod driver_fit;
pub mod error;
pub mod explain;
pub mod families;
pub mod image;
pub mod input;
pub mod launch;
pub mod node_vendor;
pub mod output;
mod pattern;
pub mod plan;
pub mod probe;
pub mod reading;
pub mod reason;
pub mod render;
pub mod render_node;
pub mod requirement_answer;
pub mod run_args;
pub mod run_env;
pub mod selector;
pub mod text;

// Host access and the requirement model are crates of their own (gpuctl-host,
// gpuctl-requirement); their old paths under core stay, so plug-ins and the other crates
// compile unchanged.
pub use gpuctl_host as host;
pub use gpuctl_host::{devnode, drm, finding, pci};
pub use gpuctl_requirement as requirement;
pub use gpuctl_requirement::{image_env, register_components};

/// Re-exports for the [`register_backend!`] macro, so vendor crates need no `inventory`
/// dependency of their own.
#[doc(hidden)]
pub mod __private {
    pub use inventory;
}
