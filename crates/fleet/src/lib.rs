//! gpuctl for fleets: one host's whole answer as a typed, versioned report ([`model::Report`],
//! `"schema": "gpuctl.report/1"`) that Ansible reads as a local fact, the same answer as Node
//! Feature Discovery labels ([`nfd`]), written atomically ([`output`]), and many hosts'
//! reports planned together ([`plan`]). See docs/fleet.md.

mod build;
pub mod clock;
pub mod convert;
pub mod drivers;
pub mod every;
pub mod label;
pub mod load;
pub mod machine_id;
pub mod model;
pub mod nfd;
#[cfg(test)]
mod nfd_tests;
pub mod nodelist;
pub mod output;
pub mod plan;
pub mod plan_text;
pub mod rollout;
mod rollout_group;
mod rollout_plan;
mod rollout_release;
pub mod rollout_text;
pub mod stack;
pub mod summary;
mod vendor_plan;

pub use build::build;

// The vendor crates whose backends the report asks: named, so their registrations are linked.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;
