//! The NVIDIA driver-requirement model: which kernel module and which driver branches can drive
//! a GPU, whether a driver source fits, and what one driver for several GPUs must be.
//!
//! An NVIDIA requirement *is* core's vendor-neutral requirement: a choice of [`KERNEL_MODULE`]
//! and a range of [`DRIVER_BRANCH`], labelled with the generation, with Rex's `generation`,
//! `kernel_module`, `min_branch`, `max_branch` and `compute` as facts ([`requirement`]). Its
//! sentences (`describe`, `who`, `why_not`, conflicts) are core's, given NVIDIA's nouns. What
//! stays here is NVIDIA's vocabulary: the kernel-module enum, branch parsing, the generation
//! table's rows and site-policy rows.
//!
//! This is the model of Rex-GPU's `Rex::GPU::NVIDIA::Requirement`
//! (docs/requirement.md#the-model), with every sentence it produces kept word for word. The
//! built-in rows live in `crate::table`; the table's *shape* and lookup live here, in
//! [`table`], so a site-policy file ([`site`]) can extend it without code.
//!
//! - [`requirement`], [`unconstrained`]: Rex's attributes as core's requirement; [`RexFacts`]
//!   reads them back. `describe` and `who` are core's.
//! - [`source_stack`]: a driver source as core's stack, for core's `why_not` and
//!   `satisfied_by`.
//! - [`intersect`]: core's combination with Rex's facts of a combination; conflicts are core's.
//! - [`table::GenerationRow`], [`table::GenerationTable`]: device-id ranges to requirements, first
//!   match wins.
//!
//! The Perl module raises exceptions for arguments of the wrong kind (a source that is not a
//! hash reference, an intersect member that is not a requirement object, a GPU that is not a
//! hash, a device id that is not four lowercase hex digits). Rust's types rule those calls out
//! (a device id is a `u16`), so they have no error value here.

use std::fmt;

use gpuctl_core::plugin::requirement::{Component, Scope};
use serde::Serialize;
use thiserror::Error;

mod rex;
pub mod site;
pub mod table;

#[cfg(test)]
mod combine_tests;
#[cfg(test)]
mod site_tests;
#[cfg(test)]
mod site_yaml_bounds_tests;
#[cfg(test)]
mod tests;

pub(crate) use rex::stack;
pub use rex::{RexFacts, intersect, requirement, source_stack, unconstrained};

/// NVIDIA's kernel module, one for every NVIDIA GPU of a host.
pub const KERNEL_MODULE: Component = Component {
    key: "nvidia-kernel-module",
    noun: "kernel module",
    short: "kernel module",
    values: &["open", "proprietary"],
    scope: Scope::Host,
};

/// NVIDIA's driver branch (`580`), one for every NVIDIA GPU of a host.
pub const DRIVER_BRANCH: Component = Component {
    key: "nvidia-driver-branch",
    noun: "driver branch",
    short: "branch",
    values: &[],
    scope: Scope::Host,
};

/// Which NVIDIA kernel module a GPU binds with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KernelModule {
    /// NVIDIA's open GPU kernel modules only (Blackwell has no proprietary module).
    Open,
    /// The closed module only (pre-Turing silicon lacks the GSP the open module needs).
    Proprietary,
    /// Either module.
    #[default]
    Either,
}

impl KernelModule {
    /// The word the reference uses: `open`, `proprietary` or `either`.
    pub const fn as_str(self) -> &'static str {
        match self {
            KernelModule::Open => "open",
            KernelModule::Proprietary => "proprietary",
            KernelModule::Either => "either",
        }
    }

    /// Parses `open`, `proprietary` or `either`, exactly (the reference compares strings).
    pub fn parse(word: &str) -> Result<Self, KernelModuleError> {
        match word {
            "open" => Ok(KernelModule::Open),
            "proprietary" => Ok(KernelModule::Proprietary),
            "either" => Ok(KernelModule::Either),
            other => Err(KernelModuleError {
                value: other.to_string(),
            }),
        }
    }
}

impl fmt::Display for KernelModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for KernelModule {
    type Err = KernelModuleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KernelModule::parse(s)
    }
}

/// A word that is not one of the three kernel-module names.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("kernel_module must be open, proprietary or either, not '{}'", value.escape_debug())]
pub struct KernelModuleError {
    /// The word as given.
    pub value: String,
}

/// Text that is not a driver branch.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BranchError {
    /// Not digits only (`580.95`, ` 580`, `580\n`, empty).
    #[error("a driver branch is an integer like 580, not '{}'", value.escape_debug())]
    NotAnInteger {
        /// The text as given.
        value: String,
    },
    /// Digits, but more than a branch number can be.
    #[error(
        "driver branch {value} is out of range: a branch is at most {}",
        u32::MAX
    )]
    OutOfRange {
        /// The text as given.
        value: String,
    },
}

/// Parses a driver branch: ASCII digits only, as the reference's `^\d+\z`, so `0580` is 580.
///
/// Branches are numbers here, so a leading zero is not kept for messages (the Perl module echoes
/// `0580` as it was written).
pub fn parse_branch(text: &str) -> Result<u32, BranchError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BranchError::NotAnInteger {
            value: text.to_string(),
        });
    }
    text.parse::<u32>().map_err(|_| BranchError::OutOfRange {
        value: text.to_string(),
    })
}

/// A requirement that cannot exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RequirementError {
    /// Bounds that leave no branch.
    #[error("min_branch {min} is above max_branch {max}: no driver branch can satisfy that")]
    MinAboveMax {
        /// The lower bound.
        min: u32,
        /// The upper bound.
        max: u32,
    },
}
