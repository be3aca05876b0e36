//! THE verdict (docs/requirement.md#one-verdict): whether a driver stack fits GPUs — fits,
//! does not fit (why), or unknown (what is missing). `gpuctl requirement --driver`, doctor's
//! driver checks, `report`/NFD's `driver.fits` and `fleet` all read it from the same answer
//! (core's `requirement_answer::verdicts`), so no surface decides on its own.
//!
//! Unknown is never a pass: a device no source lists, a component the stack does not name
//! (the ROCm an image carries), a release the vendor's sources cannot place. Every surface
//! says it as unknown, never as "fits" and never as "does not fit".

use serde::{Deserialize, Serialize};

use super::stack::why_not_asked;
use super::{Requirement, Stack};

/// The verdict's word: `yes`, `no` or `unknown`, as report's `fits` and requirement's
/// `driver.fits` print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Fit {
    /// Every constraint was checked against the stack, and holds.
    Yes,
    /// A constraint fails, or the vendor's sources say the release does not drive a GPU.
    No,
    /// Nothing fails, but something could not be checked; never counted as a pass.
    #[default]
    Unknown,
}

impl Fit {
    /// The word (`yes`, `no`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Fit::Yes => "yes",
            Fit::No => "no",
            Fit::Unknown => "unknown",
        }
    }
}

/// Whether a stack fits: the word and, unless it fits, why not or what is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Fits, does not, or unknown.
    pub fit: Fit,
    /// Why it does not fit, or what is missing to tell; `None` when it fits.
    pub why: Option<String>,
}

impl Verdict {
    /// It fits.
    pub const FITS: Verdict = Verdict {
        fit: Fit::Yes,
        why: None,
    };

    /// It does not, because `why`.
    pub fn no(why: impl Into<String>) -> Verdict {
        Verdict {
            fit: Fit::No,
            why: Some(why.into()),
        }
    }

    /// Not known, because `what` is missing.
    pub fn unknown(what: impl Into<String>) -> Verdict {
        Verdict {
            fit: Fit::Unknown,
            why: Some(what.into()),
        }
    }

    /// True only when it fits.
    pub fn fits(&self) -> bool {
        self.fit == Fit::Yes
    }

    /// The worse of two verdicts: a failure over an unknown over a fit; on a tie, `self`.
    #[must_use]
    pub fn and(self, other: Verdict) -> Verdict {
        let rank = |f: Fit| match f {
            Fit::Yes => 0,
            Fit::Unknown => 1,
            Fit::No => 2,
        };
        if rank(other.fit) > rank(self.fit) {
            other
        } else {
            self
        }
    }
}

impl Requirement {
    /// The verdict of `stack` on this requirement: the first constraint it fails; else, when
    /// the device is one no source lists or a constraint names a component the stack leaves
    /// unknown, unknown with what is missing; else fits.
    pub fn verdict(&self, stack: &Stack) -> Verdict {
        // A constraint the stack fails is a "no" whatever else is unknown (three-valued and:
        // no beats unknown), so it is looked for first.
        // The settings a value asks (Intel's force_probe) are looked at after every bound,
        // so an unknown kernel is said as its floor before a setting it may not need.
        let mut missing: Option<String> = None;
        for asks in [false, true] {
            for c in &self.constraints {
                match why_not_asked(c, stack, asks) {
                    None => {}
                    Some((why, false)) => return Verdict::no(why),
                    Some((why, true)) => {
                        missing.get_or_insert(why);
                    }
                }
            }
        }
        if let Some(reason) = &self.unknown {
            return Verdict::unknown(reason.clone());
        }
        if let Some(m) = self.members.iter().find(|m| m.unknown.is_some()) {
            return Verdict::unknown(format!(
                "{}: {}",
                m.who(),
                m.unknown.as_deref().unwrap_or_default()
            ));
        }
        missing.map_or(Verdict::FITS, Verdict::unknown)
    }
}
