//! gpuctl's NVIDIA backend: CDI, then the legacy OCI hook, then raw `/dev/nvidia*` nodes; and
//! the NVIDIA generation table behind `gpuctl requirement`, whose answer is core's requirement
//! model ([`model`]).
//!
//! Public are what other crates read: the backend ([`Nvidia`]), the requirement vocabulary and
//! tables ([`model`], [`requirement`], [`table`]), the driver's release and CUDA lines
//! ([`release`], [`cuda`], [`floors`], each release's own supported-GPU list in
//! [`release_lists`]), the loaded-driver reader ([`doctor`]) and the device-minor
//! parser ([`nodes`]), and what the bundled tables say of a GPU's chip ([`chips`]). The rest is
//! reached through the backend.

mod backend;
mod capability;
pub mod chips;
mod components;
pub mod cuda;
pub mod doctor;
mod doctor_codes;
mod explain;
mod explain_cuda;
mod explain_rules;
mod explain_rules_apps;
mod explain_rules_build;
mod explain_rules_capabilities;
mod explain_rules_cli;
mod explain_rules_cli_stages;
mod explain_rules_ctk;
mod explain_rules_cuda;
mod explain_rules_cuda_codes;
mod explain_rules_cuda_enum;
mod explain_rules_environment;
mod explain_rules_frameworks;
mod explain_rules_k8s;
mod explain_rules_kernel;
mod explain_rules_libs;
mod explain_rules_loaders;
mod explain_rules_nvml;
mod explain_rules_nvml_codes;
mod explain_rules_round8;
mod explain_rules_round9;
mod explain_rules_round9_driver;
mod explain_rules_toolkit;
mod explain_rules_xid;
mod families;
mod families_driver;
mod floor_check;
mod floor_combined;
mod floor_image;
mod floor_verdict;
pub mod floors;
mod image_check;
mod image_env;
mod loaded;
pub mod model;
pub mod nodes;
mod numbering;
mod proc_version;
pub mod release;
pub mod release_lists;
mod release_verdict;
pub mod requirement;
mod requirement_model;
pub mod table;
mod tier;
mod vendor_id;

pub use backend::Nvidia;
