//! The type of `gpuctl doctor`'s check codes: typed, so that a failure family can only name a
//! check by a constant a doctor check is reported under, and a test can hold the two together.

use std::fmt;

use serde::Serialize;

/// A `gpuctl doctor` check's stable code (`cdi-stale`): printed by doctor, named by the failure
/// families whose cause the check finds. Core's are in [`super::codes`]; a vendor crate defines its
/// own (`amd-kfd`) and lists them in [`crate::backend::Diagnostics::check_codes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct CheckCode(&'static str);

impl CheckCode {
    /// A code: lowercase words joined by `-`, unique across core and every vendor.
    pub const fn new(code: &'static str) -> Self {
        CheckCode(code)
    }

    /// The code as printed.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for CheckCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`, so that `{:<18}` aligns doctor's columns.
        f.pad(self.0)
    }
}

impl PartialEq<&str> for CheckCode {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}
