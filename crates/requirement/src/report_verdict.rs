//! The verdicts in `gpuctl requirement`'s answer ([`super::report`]): one GPU's and one
//! vendor's, as THE verdict ([`super::Verdict`]) with the keys the JSON has always had. The
//! report computes them (`report.rs`); these are the types, below every part of the answer.

use serde::Serialize;

use super::{Fit, Verdict};

/// Whether a driver stack drives one GPU, or a vendor's GPUs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GpuVerdict {
    /// True when it does (`fits` is `yes`).
    pub satisfied: bool,
    /// The one verdict's word: `yes`, `no`, or `unknown` (docs/requirement.md#one-verdict).
    pub fits: Fit,
    /// Why not, or what is missing to tell, when it does not.
    pub why_not: Option<String>,
}

impl GpuVerdict {
    pub(super) fn of(v: Verdict) -> GpuVerdict {
        GpuVerdict {
            satisfied: v.fits(),
            fits: v.fit,
            why_not: v.why,
        }
    }
}

/// The verdict on the `--driver` specs that concern one vendor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriverVerdict {
    /// The specs as given, joined with `, `.
    pub spec: String,
    /// The specs as given.
    pub specs: Vec<String>,
    /// Whether they drive every GPU of the vendor (`fits` is `yes`).
    pub satisfied: bool,
    /// The one verdict's word: `yes`, `no`, or `unknown` (docs/requirement.md#one-verdict).
    pub fits: Fit,
    /// Why not, or what is missing to tell, when they do not.
    pub why_not: Option<String>,
}

impl DriverVerdict {
    /// The verdict these fields say. A vendor's `finish` that turns `satisfied` off without
    /// naming the word is read as "does not fit"; one that says `unknown` stays unknown.
    pub fn verdict(&self) -> Verdict {
        let fit = match (self.satisfied, self.fits) {
            (true, Fit::Yes) => Fit::Yes,
            (_, Fit::Unknown) => Fit::Unknown,
            _ => Fit::No,
        };
        Verdict {
            fit,
            why: if fit == Fit::Yes {
                None
            } else {
                Some(
                    self.why_not
                        .clone()
                        .unwrap_or_else(|| "the vendor's sources refuse it".to_string()),
                )
            },
        }
    }

    /// Sets the fields from `v`.
    pub fn set(&mut self, v: Verdict) {
        self.satisfied = v.fits();
        self.fits = v.fit;
        self.why_not = v.why;
    }

    /// Makes the fields agree ([`DriverVerdict::verdict`]) after a vendor has finished them.
    pub(super) fn settle(&mut self) {
        let v = self.verdict();
        self.set(v);
    }
}
