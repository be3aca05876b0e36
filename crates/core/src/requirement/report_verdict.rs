//! The verdicts in `gpuctl requirement`'s answer ([`super::report`]): one GPU's and one
//! vendor's, as THE verdict ([`super::Verdict`]) with the keys the JSON has always had.

use serde::Serialize;

use super::report::{GpuInput, GpuView};
use super::{Fit, Stack, Verdict};

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

/// Each counted GPU's verdict, the worst first: `who: reason` for every GPU that fails (or,
/// when none fails, that cannot be told), said once for GPUs alike.
pub(super) fn per_gpu_verdict(gpus: &[GpuInput], views: &[GpuView], stack: &Stack) -> Verdict {
    let verdicts: Vec<(Fit, String)> = gpus
        .iter()
        .zip(views)
        .filter(|(g, _)| g.left_out.is_none())
        .filter_map(|(g, _)| {
            let v = g.requirement.verdict(stack);
            let why = v.why?;
            Some((v.fit, format!("{}: {why}", g.requirement.who())))
        })
        .collect();
    // A failure is not diluted by unknowns: the worst word's lines only.
    let worst = if verdicts.iter().any(|(f, _)| *f == Fit::No) {
        Fit::No
    } else if verdicts.is_empty() {
        return Verdict::FITS;
    } else {
        Fit::Unknown
    };
    let mut lines: Vec<String> = Vec::new();
    for (_, line) in verdicts.into_iter().filter(|(f, _)| *f == worst) {
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    Verdict {
        fit: worst,
        why: Some(lines.join("; ")),
    }
}

/// The GPUs left out of the combined requirement that `stack` does not drive, as
/// `who: reason`; fits when there is none.
pub(super) fn left_out_verdict(gpus: &[GpuInput], stack: &Stack) -> Verdict {
    let mut out = Verdict::FITS;
    for g in gpus.iter().filter(|g| g.left_out.is_some()) {
        let v = g.requirement.verdict(stack);
        if let Some(why) = &v.why {
            let v = Verdict {
                fit: v.fit,
                why: Some(format!("{}: {why}", g.requirement.who())),
            };
            out = out.and(v);
        }
    }
    out
}
