//! gpuctl's NVIDIA backend: CDI, then the legacy OCI hook, then raw `/dev/nvidia*` nodes; and
//! the NVIDIA generation table behind `gpuctl requirement`.

pub mod backend;
pub mod cuda;
pub mod doctor;
pub mod explain;
pub mod families;
pub mod families_driver;
pub mod floor_check;
pub mod floor_combined;
pub mod floor_verdict;
pub mod floors;
pub mod image_check;
pub mod image_env;
pub mod model;
pub mod nodes;
pub mod numbering;
pub mod release;
pub mod requirement;
pub mod requirement_model;
pub mod table;

pub use backend::Nvidia;
