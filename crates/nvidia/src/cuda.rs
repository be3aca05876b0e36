//! CUDA toolkit releases and the Linux driver each needs, from NVIDIA's CUDA release notes
//! (Table 3, `data/cuda-drivers.tsv`; docs/requirement.md, "CUDA toolkit floors"). A CUDA
//! application built with toolkit X.Y.Z runs on a driver at least that row's release; the
//! newest CUDA a driver runs is the newest toolkit whose floor it meets. Minor-version
//! compatibility (a 12.x application on any 525+ driver, with limits) and the
//! forward-compatibility packages (data-center GPUs) are notes, never counted as a pass.

use std::fmt;
use std::sync::OnceLock;

use crate::release::DriverRelease;

const CUDA_DRIVERS: &str = include_str!("../data/cuda-drivers.tsv");

/// A CUDA toolkit version: `12.8`, `12.8.1` (an update), `13.0.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CudaVersion {
    /// Major (12).
    pub major: u32,
    /// Minor (8).
    pub minor: u32,
    /// The update, when given (`12.8.1`: 1; the table's GA is 0).
    pub update: Option<u32>,
}

/// Text that is not a CUDA version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaVersionError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for CudaVersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a CUDA version; give X.Y or X.Y.Z, e.g. 12.8 or 12.8.1",
            self.text.escape_debug()
        )
    }
}

impl std::error::Error for CudaVersionError {}

impl CudaVersion {
    /// Reads `X.Y` or `X.Y.Z` (digits, at most 4 per part). A CUDA image's `CUDA_VERSION`
    /// (`12.8.1`) and a toolkit requirement's `12.8` both read.
    pub fn parse(text: &str) -> Result<Self, CudaVersionError> {
        let err = || CudaVersionError {
            text: text.to_string(),
        };
        let mut nums = Vec::new();
        for part in text.split('.') {
            if part.is_empty() || part.len() > 4 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            nums.push(part.parse::<u32>().map_err(|_| err())?);
        }
        match nums[..] {
            [major, minor] => Ok(Self {
                major,
                minor,
                update: None,
            }),
            [major, minor, update] => Ok(Self {
                major,
                minor,
                update: Some(update),
            }),
            _ => Err(err()),
        }
    }

    /// Major and minor only (`12.8` of `12.8.1`).
    pub fn minor_line(self) -> Self {
        Self {
            update: None,
            ..self
        }
    }
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.update {
            Some(u) => write!(f, "{}.{}.{u}", self.major, self.minor),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

/// One row of Table 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolkitFloor {
    /// The toolkit as the table names it (`CUDA 12.8 Update 1`).
    pub label: String,
    /// Its version in gpuctl's reading (`12.8.1`; GA is `.0`).
    pub version: CudaVersion,
    /// The minimum Linux x86_64 driver.
    pub driver: DriverRelease,
}

/// Table 3's rows, newest first as the table lists them.
pub fn toolkit_floors() -> &'static [ToolkitFloor] {
    static ROWS: OnceLock<Vec<ToolkitFloor>> = OnceLock::new();
    ROWS.get_or_init(|| parse_rows(CUDA_DRIVERS))
}

/// Reads the TSV's rows; a row that does not read is skipped (a test reads every row).
pub fn parse_rows(text: &str) -> Vec<ToolkitFloor> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let label = cols.next()?.to_string();
            let version = CudaVersion::parse(cols.next()?).ok()?;
            let driver = DriverRelease::parse(cols.next()?).ok()?;
            Some(ToolkitFloor {
                label,
                version,
                driver,
            })
        })
        .collect()
}

/// The row a toolkit version needs: `12.8.1` its own row; `12.8` (no update) the GA row, the
/// least any 12.8 needs. `None` when the table has no such toolkit (12.7, 14.0).
pub fn toolkit_floor(version: CudaVersion) -> Option<&'static ToolkitFloor> {
    let rows = toolkit_floors();
    let want = CudaVersion {
        update: Some(version.update.unwrap_or(0)),
        ..version
    };
    rows.iter().find(|r| r.version == want).or_else(|| {
        // An update the table does not list (12.4.2): the newest listed update below it of
        // that line, which is the least it can need.
        rows.iter()
            .filter(|r| r.version.minor_line() == version.minor_line() && r.version <= want)
            .max_by_key(|r| r.version)
    })
}

/// The minimum Linux driver for a CUDA toolkit version (see [`toolkit_floor`]).
pub fn min_driver_for_cuda(version: CudaVersion) -> Option<&'static DriverRelease> {
    toolkit_floor(version).map(|r| &r.driver)
}

/// The newest CUDA toolkit (major.minor, with its newest update the driver meets) that a
/// driver release runs without compatibility packages: the newest Table 3 row whose floor the
/// driver meets. `None` for a driver older than every row (before CUDA 7.0's 346.46).
///
/// A branch-only release (`570`) counts as its first release (`570.0.0`), so it answers for
/// every release of the branch only when the answer is the same for all of them; use a full
/// release where one is known.
pub fn newest_cuda_for_driver(driver: &DriverRelease) -> Option<CudaVersion> {
    toolkit_floors()
        .iter()
        .filter(|r| &r.driver <= driver)
        .map(|r| r.version)
        .max()
}

/// The newest CUDA line (major.minor) a driver runs, e.g. `12.8` for 570.124.06: what an
/// image's `NVIDIA_REQUIRE_CUDA="cuda>=12.8"` is compared with.
pub fn driver_cuda_line(driver: &DriverRelease) -> Option<CudaVersion> {
    newest_cuda_for_driver(driver).map(CudaVersion::minor_line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn rel(s: &str) -> DriverRelease {
        DriverRelease::parse(s).unwrap()
    }

    fn cuda(s: &str) -> CudaVersion {
        CudaVersion::parse(s).unwrap()
    }

    #[test]
    fn every_row_of_the_file_reads() {
        let rows = CUDA_DRIVERS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(toolkit_floors().len(), rows);
        assert!(rows >= 60, "{rows}");
    }

    // The figures, which are Table 3's.
    #[rstest]
    #[case("12.4", "550.54.14")]
    #[case("12.4.1", "550.54.15")]
    #[case("12.8", "570.26")]
    #[case("12.8.0", "570.26")]
    #[case("12.8.1", "570.124.06")]
    #[case("12.9", "575.51.03")]
    #[case("13.0", "580.65.06")]
    #[case("12.4.2", "550.54.15")]
    #[case("11.8", "520.61.05")]
    fn toolkits_need_their_rows_driver(#[case] version: &str, #[case] driver: &str) {
        assert_eq!(min_driver_for_cuda(cuda(version)), Some(&rel(driver)));
    }

    #[rstest]
    #[case("12.7")]
    #[case("14.0")]
    #[case("6.5")]
    fn toolkits_the_table_lacks_have_no_floor(#[case] version: &str) {
        assert_eq!(min_driver_for_cuda(cuda(version)), None);
    }

    #[rstest]
    #[case("550.54.14", Some("12.4.0"))]
    #[case("550.54.15", Some("12.4.1"))]
    #[case("550.163.01", Some("12.4.1"))]
    #[case("570.26", Some("12.8.0"))]
    #[case("570.124.06", Some("12.8.1"))]
    #[case("575.51.02", Some("12.8.1"))]
    #[case("580.65.06", Some("13.0.0"))]
    #[case("535.54.03", Some("12.2.0"))]
    #[case("470.256.02", Some("11.4.4"))]
    #[case("340.108", None)]
    fn the_newest_cuda_a_driver_runs(#[case] driver: &str, #[case] want: Option<&str>) {
        assert_eq!(newest_cuda_for_driver(&rel(driver)), want.map(cuda));
    }

    #[test]
    fn the_driver_cuda_line_drops_the_update() {
        assert_eq!(driver_cuda_line(&rel("570.124.06")), Some(cuda("12.8")));
    }

    #[rstest]
    #[case("12")]
    #[case("12.")]
    #[case("12.8.1.1")]
    #[case("v12.8")]
    #[case("12.8 ")]
    fn bad_cuda_versions_are_refused(#[case] text: &str) {
        assert!(CudaVersion::parse(text).is_err());
    }
}
