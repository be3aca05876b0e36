//! What a given podman release can load: each release vendors a fixed CDI library that rejects
//! newer `cdiVersion`s (docs/cdi.md#podman-ceilings). Told the podman version, gpuctl treats a spec
//! that podman would drop as invalid, instead of granting a device podman cannot resolve.

use super::version::{Version, format_version};

/// The limits of one podman release's CDI library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodmanCeiling {
    /// The podman version as given (`4.3.1`).
    pub podman: String,
    /// The newest `cdiVersion` it loads; `None` before podman 4.1, which has no CDI.
    pub max_cdi: Option<Version>,
    /// Whether device names may start with a digit (CDI library 0.5 and later, podman 4.3+).
    pub digit_names: bool,
    /// Major and minor release (`(4, 3)`), for what depends on the release rather than on
    /// the CDI library (Quadlet's keys).
    pub release: (u32, u32),
}

/// A `--podman-version` that is not a podman version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PodmanVersionError {
    /// No leading major number.
    #[error(
        "podman version '{text}' is not a version like 4.3.1; pass what 'podman version --format {{{{.Client.Version}}}}' prints"
    )]
    NotAVersion {
        /// The text as given.
        text: String,
    },
    /// A major number followed by something that is not a minor number.
    #[error("podman version '{text}' is not a version like 4.3.1")]
    BadMinor {
        /// The text as given.
        text: String,
    },
}

impl PodmanCeiling {
    /// Parses a podman version (`4.3.1`, `5.4`, `v5.2.0`, `6.0.0-dev`).
    pub fn parse(text: &str) -> Result<PodmanCeiling, PodmanVersionError> {
        let t = text.trim().strip_prefix('v').unwrap_or(text.trim());
        let core = t.split(['-', '+', '~']).next().unwrap_or("");
        let mut parts = core.split('.').map(|p| p.parse::<u32>());
        let (Some(Ok(major)), minor) = (parts.next(), parts.next()) else {
            return Err(PodmanVersionError::NotAVersion {
                text: text.to_string(),
            });
        };
        let minor = match minor {
            None => 0,
            Some(Ok(m)) => m,
            Some(Err(_)) => {
                return Err(PodmanVersionError::BadMinor {
                    text: text.to_string(),
                });
            }
        };
        let max_cdi = match (major, minor) {
            (0..=3, _) | (4, 0) => None,
            (4, 1..=2) => Some((0, 4, 0)),
            (4, 3..=6) => Some((0, 5, 0)),
            (4, _) | (5, 0) => Some((0, 6, 0)),
            (5, 1) => Some((0, 7, 0)),
            (5, 2..=4) => Some((0, 8, 0)),
            (5, _) => Some((1, 0, 0)),
            _ => Some((1, 1, 0)),
        };
        let digit_names = (major, minor) >= (4, 3);
        Ok(PodmanCeiling {
            podman: text.trim().to_string(),
            max_cdi,
            digit_names,
            release: (major, minor),
        })
    }

    /// Whether its library takes the root Intel RDT CLOS (`closID: "/"`): CDI library v1.1.0
    /// (podman 6.0) is the first (`pkg/cdi/container-edits.go`, `IntelRdt.Validate`).
    pub fn root_clos(&self) -> bool {
        self.max_cdi.is_some_and(|v| v >= (1, 1, 0))
    }

    /// Why this podman cannot load a spec of `version` with these device names, if it cannot.
    pub fn rejects(&self, version: Version, device_names: &[String]) -> Option<String> {
        let Some(max) = self.max_cdi else {
            return Some(format!(
                "podman {} has no CDI support (podman 4.1 is the first)",
                self.podman
            ));
        };
        if version > max {
            return Some(format!(
                "cdiVersion {} is newer than podman {} can load (its CDI library reads up to {})",
                format_version(version),
                self.podman,
                format_version(max)
            ));
        }
        if !self.digit_names
            && let Some(name) = device_names
                .iter()
                .find(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        {
            return Some(format!(
                "device name \"{name}\" starts with a digit, which podman {} cannot load (podman 4.3 is the first that can; nvidia-ctk's --device-name-strategy=type-index writes names like gpu0)",
                self.podman
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("4.3.1", Some((0, 5, 0)), true)]
    #[case("4.9.3", Some((0, 6, 0)), true)]
    #[case("5.0.1", Some((0, 6, 0)), true)]
    #[case("5.1.0", Some((0, 7, 0)), true)]
    #[case("5.4.2", Some((0, 8, 0)), true)]
    #[case("5.8", Some((1, 0, 0)), true)]
    #[case("v6.0.0-dev", Some((1, 1, 0)), true)]
    #[case("4.2.0", Some((0, 4, 0)), false)]
    #[case("4.0.2", None, false)]
    #[case("3.4.4", None, false)]
    fn ceilings(#[case] podman: &str, #[case] max: Option<Version>, #[case] digits: bool) {
        let c = PodmanCeiling::parse(podman).map(|c| (c.max_cdi, c.digit_names));
        assert_eq!(c, Ok((max, digits)));
    }

    #[rstest]
    #[case("")]
    #[case("four")]
    #[case("4.x")]
    fn bad_versions(#[case] text: &str) {
        assert!(PodmanCeiling::parse(text).is_err());
    }

    #[test]
    fn what_podman_4_3_1_rejects() -> Result<(), PodmanVersionError> {
        let c = PodmanCeiling::parse("4.3.1")?;
        let names = vec!["0".to_string(), "all".to_string()];
        assert_eq!(c.rejects((0, 5, 0), &names), None);
        assert_eq!(
            c.rejects((0, 6, 0), &names).as_deref(),
            Some(
                "cdiVersion 0.6.0 is newer than podman 4.3.1 can load (its CDI library reads up to 0.5.0)"
            )
        );
        let old = PodmanCeiling::parse("4.2.0")?;
        assert!(
            old.rejects((0, 4, 0), &names)
                .is_some_and(|w| w.contains("starts with a digit"))
        );
        assert_eq!(old.rejects((0, 4, 0), &["gpu0".to_string()]), None);
        Ok(())
    }
}
