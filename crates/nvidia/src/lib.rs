//! gpuctl's NVIDIA backend: CDI, then the legacy OCI hook, then raw `/dev/nvidia*` nodes; and
//! the NVIDIA generation table behind `gpuctl requirement`.

pub mod backend;
pub mod doctor;
pub mod explain;
pub mod families;
pub mod families_driver;
pub mod model;
pub mod nodes;
pub mod numbering;
pub mod requirement;
pub mod table;

pub use backend::Nvidia;
