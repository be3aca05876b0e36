//! What one call has read from the host, shared by every vendor so two vendors never read the
//! same files twice.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use crate::drm::{self, DrmScan};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::host::Host;
use crate::plan::Tier;
use gpuctl_cdi::CdiRegistry;
use gpuctl_cdi::podman::PodmanCeiling;

/// Everything a backend may look at while answering one call: the host and what was already
/// read from it, so two vendors never read the same files twice.
pub struct Probe {
    host: Host,
    cdi: CdiRegistry,
    drm: OnceLock<Result<DrmScan, GpuError>>,
    tiers: Mutex<Vec<(&'static str, Option<Tier>)>>,
}

impl Probe {
    /// Reads the CDI specs of `cdi_dirs` (in priority order) once, for every vendor; with a
    /// podman version, specs that podman cannot load count as invalid.
    pub fn new(host: &Host, cdi_dirs: &[PathBuf], podman: Option<&PodmanCeiling>) -> Self {
        let cdi = CdiRegistry::scan_for(host, cdi_dirs, podman);
        Probe::with_cdi(host, cdi)
    }

    /// A probe over an already-read CDI registry (tests, callers with their own specs).
    pub fn with_cdi(host: &Host, cdi: CdiRegistry) -> Self {
        Probe {
            host: host.clone(),
            cdi,
            drm: OnceLock::new(),
            tiers: Mutex::new(Vec::new()),
        }
    }

    /// The host.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The CDI specs found.
    pub fn cdi(&self) -> &CdiRegistry {
        &self.cdi
    }

    /// What the CDI scan skipped and why, as findings.
    pub fn cdi_findings(&self) -> Vec<Finding> {
        self.cdi.warnings().into_iter().map(Finding::from).collect()
    }

    /// The tier remembered for `vendor`, or `decide`'s answer, remembered from now on.
    pub(crate) fn cached_tier(
        &self,
        vendor: &'static str,
        decide: impl FnOnce() -> Result<Option<Tier>, GpuError>,
    ) -> Result<Option<Tier>, GpuError> {
        if let Ok(cache) = self.tiers.lock()
            && let Some((_, tier)) = cache.iter().find(|(v, _)| *v == vendor)
        {
            return Ok(*tier);
        }
        let tier = decide()?;
        if let Ok(mut cache) = self.tiers.lock() {
            cache.push((vendor, tier));
        }
        Ok(tier)
    }

    /// The DRM render nodes under `/sys/class/drm`, read once on first use.
    pub fn drm(&self) -> Result<&DrmScan, GpuError> {
        self.drm
            .get_or_init(|| drm::scan(&self.host))
            .as_ref()
            .map_err(Clone::clone)
    }
}
