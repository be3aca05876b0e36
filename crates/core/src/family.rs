//! What a GPU container's failure looks like: the failure family,
//! the vocabulary both `explain`/`families` and the vendor backends (through
//! [`crate::backend::GpuBackend`]) use. It imports only the check codes, so the plug-in
//! interface does not depend on the catalogue that reads the registry.

use std::fmt;

use serde::Serialize;

use crate::check::CheckCode;

/// A failure family's stable code (`cdi-stale-spec`), printed by `explain` and `run`. Typed, so
/// that what a vendor says about one of its families
/// ([`crate::backend::Diagnostics::explain_details`]) names it by the constant its family carries,
/// never by a string that may drift from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct FamilyCode(&'static str);

impl FamilyCode {
    /// A code: lowercase words joined by `-`, a vendor's led by its name (`amd-kfd-missing`).
    pub const fn new(code: &'static str) -> Self {
        FamilyCode(code)
    }

    /// The code as printed.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for FamilyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.0)
    }
}

impl PartialEq<&str> for FamilyCode {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// One way a GPU container fails: how it shows, what caused it, what finds it early, and
/// what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    /// Stable identifier (`cdi-stale-spec`), printed by `explain` and `run`.
    pub code: FamilyCode,
    /// The texts that show the family: it matches when every substring of any one sign
    /// occurs.
    pub signs: &'static [&'static [&'static str]],
    /// Lower wins when several families match; see the `PRIORITY_*` constants.
    pub priority: u8,
    /// What went wrong, naming the cause, in one sentence.
    pub diagnosis: &'static str,
    /// What to do, as the `Hint:` block, with commands a user can type.
    pub remedy: &'static str,
    /// The `gpuctl doctor` checks that find the cause on the host: core's
    /// ([`crate::check::codes`]) or the vendor's own ([`crate::backend::Diagnostics::check_codes`]).
    pub checks: &'static [CheckCode],
}

impl Family {
    /// True when any sign's substrings all occur in `text`.
    pub fn matches(&self, text: &str) -> bool {
        self.signs
            .iter()
            .any(|sign| !sign.is_empty() && sign.iter().all(|s| text.contains(s)))
    }
}
