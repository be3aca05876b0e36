//! NVIDIA driver releases (`570.124.06`, `535.98`, `570.26`): the numbers a driver reports in
//! `/proc/driver/nvidia/version` (read by [`crate::doctor::parse_proc_version`]), that `--driver` takes and that the floors name. Releases are
//! compared part by part as numbers, so `570.124.06` is newer than `570.26` and `525.47.35` is
//! older than `525.78.01`; the first part is the branch.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// One driver release, as its dotted numbers; the text it was read from is kept for display
/// (`580.65.06` keeps its leading zero).
#[derive(Debug, Clone, Eq)]
pub struct DriverRelease {
    parts: Vec<u32>,
    text: String,
}

/// Text that is not a driver release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not an NVIDIA driver release; give its numbers as the driver prints them, \
             e.g. 570.124.06",
            self.text.escape_debug()
        )
    }
}

impl std::error::Error for ReleaseError {}

impl DriverRelease {
    /// Reads `B`, `B.M` or `B.M.P` (digits only, at most 6 per part); a branch alone is a
    /// release with one part.
    pub fn parse(text: &str) -> Result<Self, ReleaseError> {
        let err = || ReleaseError {
            text: text.to_string(),
        };
        let mut parts = Vec::new();
        for part in text.split('.') {
            if part.is_empty() || part.len() > 6 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            parts.push(part.parse::<u32>().map_err(|_| err())?);
        }
        if parts.len() > 3 {
            return Err(err());
        }
        Ok(Self {
            parts,
            text: text.to_string(),
        })
    }

    /// The branch: the first number (570 of 570.124.06).
    pub fn branch(&self) -> u32 {
        self.parts.first().copied().unwrap_or(0)
    }

    /// Whether only a branch was given (`570`), so release-level comparisons cannot be made.
    pub fn is_branch_only(&self) -> bool {
        self.parts.len() == 1
    }

    /// The release as it was written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl FromStr for DriverRelease {
    type Err = ReleaseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl PartialEq for DriverRelease {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Ord for DriverRelease {
    /// Part by part, a missing part counting as 0 (`570` = `570.0.0`).
    fn cmp(&self, other: &Self) -> Ordering {
        let n = self.parts.len().max(other.parts.len());
        (0..n)
            .map(|i| {
                let a = self.parts.get(i).copied().unwrap_or(0);
                let b = other.parts.get(i).copied().unwrap_or(0);
                a.cmp(&b)
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl PartialOrd for DriverRelease {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for DriverRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn r(s: &str) -> DriverRelease {
        DriverRelease::parse(s).unwrap()
    }

    #[rstest]
    #[case("570.124.06", "570.26", Ordering::Greater)]
    #[case("525.47.35", "525.78.01", Ordering::Less)]
    #[case("580.65.06", "580.65.6", Ordering::Equal)]
    #[case("570", "570.0.0", Ordering::Equal)]
    #[case("535.98", "535.104.05", Ordering::Less)]
    #[case("595.45.04", "580.142", Ordering::Greater)]
    fn releases_compare_part_by_part(#[case] a: &str, #[case] b: &str, #[case] want: Ordering) {
        assert_eq!(r(a).cmp(&r(b)), want);
    }

    #[rstest]
    #[case("")]
    #[case("570.")]
    #[case(".570")]
    #[case("570.1.2.3")]
    #[case("57o")]
    #[case("-570")]
    #[case("5700000000")]
    #[case("570.124.06 ")]
    fn bad_releases_are_refused(#[case] text: &str) {
        let err = DriverRelease::parse(text).unwrap_err();
        assert!(err.to_string().contains("is not an NVIDIA driver release"));
    }

    #[test]
    fn branch_and_text_are_kept() {
        let rel = r("580.65.06");
        assert_eq!((rel.branch(), rel.as_str()), (580, "580.65.06"));
        assert!(r("580").is_branch_only());
        assert!(!rel.is_branch_only());
    }
}
