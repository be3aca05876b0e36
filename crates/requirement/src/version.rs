//! Dotted version numbers (`580`, `6.2`, `6.8.0`), as driver branches, ROCm releases and
//! kernel releases are written.

use std::cmp::Ordering;
use std::fmt;

use thiserror::Error;

/// The most dotted parts a version may have (`6.2.4.1` is four).
pub const MAX_PARTS: usize = 4;

/// A version: one to [`MAX_PARTS`] decimal parts. Missing parts count as zero when compared, so
/// `6.2` equals `6.2.0`; the text keeps the parts as written.
#[derive(Debug, Clone, Copy)]
pub struct Version {
    parts: [u32; MAX_PARTS],
    len: u8,
}

/// Text that is not a version.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "'{}' is not a version: write up to {MAX_PARTS} dot-separated numbers, like 6.2 or 580",
    text.escape_debug()
)]
pub struct VersionError {
    /// The text as given.
    pub text: String,
}

impl Version {
    /// A one-part version (an NVIDIA driver branch).
    pub const fn major(n: u32) -> Version {
        Version {
            parts: [n, 0, 0, 0],
            len: 1,
        }
    }

    /// A two-part version (`6.2`).
    pub const fn new(major: u32, minor: u32) -> Version {
        Version {
            parts: [major, minor, 0, 0],
            len: 2,
        }
    }

    /// Parses `6.2`, `580`, `6.8.0`: ASCII digits separated by single dots.
    pub fn parse(text: &str) -> Result<Version, VersionError> {
        let fail = || VersionError {
            text: text.to_string(),
        };
        let mut parts = [0u32; MAX_PARTS];
        let mut len = 0usize;
        for piece in text.split('.') {
            if len == MAX_PARTS || piece.is_empty() || !piece.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fail());
            }
            parts[len] = piece.parse().map_err(|_| fail())?;
            len += 1;
        }
        Ok(Version {
            parts,
            len: len as u8,
        })
    }

    /// The parts as written.
    pub fn parts(&self) -> &[u32] {
        &self.parts[..usize::from(self.len)]
    }

    /// True when `self` is at most `max` read as a release line: `6.3.2` is within "up to 6.3",
    /// because a release line's point releases belong to it.
    pub fn within_max(&self, max: &Version) -> bool {
        let n = usize::from(max.len);
        self.parts[..n] <= max.parts[..n]
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl Eq for Version {}

impl std::hash::Hash for Version {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.parts.hash(state);
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.parts.cmp(&other.parts)
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.parts().iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse(s)
    }
}

impl serde::Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
