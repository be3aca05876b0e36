//! The vendor crates this build links. A crate nothing names is not linked, and its
//! `register_backend!` would vanish with it: these lines are what makes the registry complete.

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;
