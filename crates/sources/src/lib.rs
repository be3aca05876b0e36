//! Driver sources per distribution release (docs/requirement.md#driver-sources): the packages
//! and repository streams that install a GPU driver stack, as data with their source and the
//! date they were read, and which of them drives a host's GPUs.
//!
//! A source is what the Perl module's Setup classes call a driver source: a package that
//! installs one stack, written as the `--driver` specs that stack is (`proprietary:535.261.03`
//! for Debian 12's `nvidia-driver`, `open:580+` for a repository that carries the newest
//! branch, at least 580). Each is judged by THE verdict
//! ([`gpuctl_core::plugin::requirement::Verdict`]), exactly as `requirement --driver` judges the same
//! specs, so a source is never said to fit where `--driver` would not.
//!
//! The catalogue knows no vendor: its rows name a vendor and carry that vendor's own specs.

mod catalogue;
mod choose;
mod error;
mod host;
mod site;
mod source;
pub mod text;

pub use catalogue::{Catalogue, Release};
pub use choose::{DistroReport, SourceVerdict, VendorChoice, choose};
pub use error::SourcesError;
pub use host::{OsRelease, driver_package_check};
pub use site::{MAX_FILE_BYTES, MAX_ROWS, load_site_sources};
pub use source::Source;
