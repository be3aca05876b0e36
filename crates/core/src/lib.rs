//! gpuctl core: everything that does not depend on a GPU vendor, behind two facades.
//!
//! - [`plugin`]: everything a vendor plug-in needs (the trait [`plugin::GpuBackend`], its
//!   capability objects, the data recipe [`plugin::NodeVendor`], checks, families, the
//!   requirement model, host access, [`plugin::register_backend!`]). A vendor crate imports from it and
//!   nothing else.
//! - [`commands`]: the engines the CLI and fleet drive: [`commands::doctor`],
//!   [`commands::explain`], [`commands::render`], [`commands::launch`], [`commands::detect`],
//!   [`commands::selector`], [`commands::run_env`], [`commands::output`], ...
//!
//! Every other module is private: core is re-laid without breaking a plug-in. Host access
//! (`gpuctl_host`) and the requirement model (`gpuctl_requirement`) are crates of their own,
//! reached as [`plugin::Host`] and [`plugin::requirement`].

mod backend;
mod cdi_tool;
mod check;
pub mod commands;
mod detect;
mod doctor;
mod driver_fit;
mod error;
mod explain;
mod families;
mod family;
mod image;
mod input;
mod launch;
mod node_vendor;
mod output;
mod plan;
pub mod plugin;
mod probe;
mod reading;
mod reason;
mod render;
mod render_recipe;
mod requirement_answer;
mod run_args;
mod run_env;
mod selector;
mod text;

// The host crate's and requirement crate's modules, under the names core's own modules use.
use gpuctl_host as host;
use gpuctl_host::{devnode, drm, finding, pci};
use gpuctl_requirement as requirement;
use gpuctl_requirement::image_env;

/// Re-exports for the [`plugin::register_backend!`] macro, so vendor crates need no `inventory`
/// dependency of their own.
#[doc(hidden)]
pub mod __private {
    pub use crate::backend::BackendRegistration;
    pub use inventory;
}
