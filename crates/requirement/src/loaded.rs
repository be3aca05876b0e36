//! What a host's files say of a vendor's loaded driver (core's `Requirements::loaded_driver`):
//! its state and release, and the component values a requirement's constraints are checked
//! against. `gpuctl report` (the fleet report) asks every backend for it, so generic code reads
//! no vendor's driver files (docs/fleet.md#drivers).

use super::Version;

/// Whether the vendor's kernel driver runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadState {
    /// Loaded, with a release of its own when [`LoadedDriver::version`] says one.
    Loaded,
    /// The kernel's own driver, with no release apart from the kernel's (AMD's in-tree amdgpu).
    InKernel,
    /// Not loaded, and why in a few words (`no NVIDIA kernel module is loaded`).
    NotLoaded(String),
}

impl LoadState {
    /// `loaded`, `in-kernel`, `not-loaded`: the report's words.
    pub fn as_str(&self) -> &'static str {
        match self {
            LoadState::Loaded => "loaded",
            LoadState::InKernel => "in-kernel",
            LoadState::NotLoaded(_) => "not-loaded",
        }
    }
}

/// One GPU of the vendor on this host, as the report sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct GpuOnHost {
    /// The PCI bus address, when the GPU is a PCI function.
    pub pci_address: Option<String>,
    /// The PCI device id, when known.
    pub device_id: Option<u16>,
    /// The kernel driver bound to the function, when one is.
    pub bound_driver: Option<String>,
}

impl GpuOnHost {
    /// A GPU at `pci_address` with device id `device_id`, bound to `bound_driver`.
    pub fn new(
        pci_address: Option<String>,
        device_id: Option<u16>,
        bound_driver: Option<String>,
    ) -> Self {
        GpuOnHost {
            pci_address,
            device_id,
            bound_driver,
        }
    }
}

/// The driver bound to one GPU, and whether it binds that GPU only with the kernel module's
/// `force_probe` parameter (i915's and xe's, for GPUs newer than the kernel's default support).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BoundDriver {
    /// The bus address.
    pub pci_address: String,
    /// The driver bound, or `None`.
    pub driver: Option<String>,
    /// Whether it needs `force_probe` on this kernel; `None` when the sources or the kernel
    /// release do not say.
    pub needs_force_probe: Option<bool>,
    /// The module's `force_probe` parameter as `/sys/module/<driver>/parameters` shows it.
    pub force_probe: Option<String>,
}

impl BoundDriver {
    /// One GPU's bound driver and what `force_probe` says.
    pub fn new(
        pci_address: String,
        driver: Option<String>,
        needs_force_probe: Option<bool>,
        force_probe: Option<String>,
    ) -> Self {
        BoundDriver {
            pci_address,
            driver,
            needs_force_probe,
            force_probe,
        }
    }
}

/// What the host's files say of the vendor's loaded driver.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadedDriver {
    /// Loaded, in the kernel, or not loaded and why.
    pub state: LoadState,
    /// The file or directory that said so.
    pub source: String,
    /// The driver's release (`580.95.05`, AMD's DKMS `6.10.5`), when it has one.
    pub version: Option<String>,
    /// The kernel module's flavour (NVIDIA's `open` or `proprietary`), when the vendor has
    /// several.
    pub kernel_module: Option<String>,
    /// The newest release line of the vendor's user space the loaded driver runs (NVIDIA: the
    /// CUDA line, `12.9`), or `unknown` where the vendor's table cannot place the release;
    /// `None` when the vendor has no such ceiling.
    pub ceiling: Option<String>,
    /// Component values the requirement's choices are checked against, by component key
    /// (`nvidia-kernel-module` = `open`).
    pub choices: Vec<(&'static str, String)>,
    /// Component versions the requirement's ranges are checked against, by component key
    /// (`nvidia-driver-branch` = 580). The kernel's is the caller's.
    pub versions: Vec<(&'static str, Version)>,
    /// Per GPU bus address, a device-scoped choice (`intel-kernel-driver` = `xe`).
    pub device_choices: Vec<(String, &'static str, String)>,
    /// Per GPU, the driver bound and what `force_probe` says.
    pub bound: Vec<BoundDriver>,
    /// The loaded driver as `gpuctl requirement --driver` specs in the vendor's own forms
    /// (NVIDIA's `open:570.86.15`, Intel's `xe`): what report and doctor ask THE verdict
    /// about (core's `requirement_answer::verdicts`). The kernel's spec is the caller's.
    pub specs: Vec<String>,
}

impl LoadedDriver {
    /// A driver in `state` as `source` says, with nothing else known.
    pub fn new(state: LoadState, source: &str) -> Self {
        LoadedDriver {
            state,
            source: source.to_string(),
            version: None,
            kernel_module: None,
            ceiling: None,
            choices: Vec::new(),
            versions: Vec::new(),
            device_choices: Vec::new(),
            bound: Vec::new(),
            specs: Vec::new(),
        }
    }

    /// Not loaded, as `source` says, and why.
    pub fn not_loaded(source: &str, why: &str) -> Self {
        LoadedDriver::new(LoadState::NotLoaded(why.to_string()), source)
    }
}

/// A vendor's reader of its loaded driver, for vendors made of data
/// (core's `node_vendor::VendorFacts` of a `node_vendor::NodeVendor`): the host, the kernel's
/// `major.minor` when known, and the vendor's GPUs on the host.
pub type LoadedDriverHook = fn(&gpuctl_host::Host, Option<Version>, &[GpuOnHost]) -> LoadedDriver;
