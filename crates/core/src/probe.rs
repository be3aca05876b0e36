//! What one call has read from the host, shared by every vendor so two vendors never read the
//! same files twice.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use crate::drm::{self, DrmScan};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::host::Host;
use crate::pci::PciScan;
use crate::plan::Tier;
use gpuctl_cdi::CdiRegistry;
use gpuctl_cdi::podman::PodmanCeiling;

/// Everything a backend may look at while answering one call: the host and what was already
/// read from it, so two vendors never read the same files twice.
pub struct Probe {
    host: Host,
    cdi: CdiRegistry,
    drm: OnceLock<Result<DrmScan, GpuError>>,
    pci: OnceLock<PciScan>,
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
            pci: OnceLock::new(),
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

    /// The GPU-class PCI functions of every vendor, read once on first use: every vendor, the
    /// checks and explain's details share one walk of the bus
    /// ([`PciScan::gpus_of_vendor`] for one vendor's).
    pub fn pci(&self) -> &PciScan {
        self.pci.get_or_init(|| PciScan::read(&self.host))
    }

    /// The same host and what was read from it, with CDI specs read again from `cdi_dirs`
    /// (doctor judges specs against podman itself, so explain's check of the host keeps them
    /// all): the PCI bus and the DRM nodes are not walked a second time.
    pub fn with_specs(&self, cdi_dirs: &[PathBuf], podman: Option<&PodmanCeiling>) -> Probe {
        let cdi = CdiRegistry::scan_for(&self.host, cdi_dirs, podman);
        Probe {
            host: self.host.clone(),
            cdi,
            drm: self.drm.clone(),
            pci: self.pci.clone(),
            // A tier depends on the specs, so it is decided again.
            tiers: Mutex::new(Vec::new()),
        }
    }

    /// The DRM render nodes under `/sys/class/drm`, read once on first use.
    pub fn drm(&self) -> Result<&DrmScan, GpuError> {
        self.drm
            .get_or_init(|| drm::scan(&self.host).map_err(|e| GpuError::host(e, drm::SCAN_REMEDY)))
            .as_ref()
            .map_err(Clone::clone)
    }
}
