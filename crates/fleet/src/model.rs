//! The report's types: what `gpuctl report` prints and `gpuctl fleet` reads back. Every type
//! both serializes and deserializes, so a stored report is read with the same definitions that
//! wrote it; the `schema` field names the shape (docs/fleet.md#the-report).

use serde::{Deserialize, Serialize};

/// The shape and version of a report: another value is a report gpuctl cannot read.
pub const SCHEMA: &str = "gpuctl.report/1";

/// What a field holds when gpuctl could not find it out (never a guess).
pub const UNKNOWN: &str = "unknown";

/// One host's whole answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA`].
    pub schema: String,
    /// Which host.
    pub host: HostInfo,
    /// One entry per registered vendor, in canonical order.
    pub vendors: Vec<VendorEntry>,
    /// Doctor's checks that read only files.
    pub doctor: DoctorSummary,
    /// What could not be read, one sentence each.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The host's name and kernel, as the tree says them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostInfo {
    /// `/proc/sys/kernel/hostname`, else `/etc/hostname`; `null` when neither is readable.
    pub name: Option<String>,
    /// `/proc/sys/kernel/osrelease` (`6.8.0-60-generic`); `null` when unreadable.
    pub kernel: Option<String>,
    /// `/etc/machine-id` hashed for gpuctl (never the id itself: [`crate::machine_id`]);
    /// `null` when the tree has no valid one. Added within version 1.
    #[serde(default)]
    pub machine_id: Option<String>,
    /// The machine type, `/sys/class/dmi/id/product_name` trimmed (`DGX B200`); absent when the
    /// tree has none. Added within version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
}

/// One vendor on the host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendorEntry {
    /// The vendor's selector name (`nvidia`).
    pub vendor: String,
    /// Whether a container can be given its GPUs.
    pub usable: bool,
    /// `cdi`, `hook` or `raw`; `null` when unusable.
    pub tier: Option<String>,
    /// Why, in detect's words.
    pub reason: String,
    /// The GPUs, in the vendor's index order.
    pub devices: Vec<DeviceEntry>,
    /// What the GPUs need of the driver stack.
    pub requirement: VendorRequirement,
    /// The driver the host has loaded, as far as files say.
    pub driver: DriverState,
    /// The vendor's PCI functions (of its device classes) that no driver is bound to and that
    /// are not among `devices`: cards the host has but cannot use yet. Left out when there are
    /// none. Added within version 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unbound: Vec<UnboundEntry>,
}

/// A PCI function of the vendor with no driver bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnboundEntry {
    /// The PCI bus address.
    pub pci_address: String,
    /// `vvvv:dddd`.
    pub id: String,
}

/// One GPU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceEntry {
    /// The vendor's index (`nvidia:0`).
    pub index: usize,
    /// The PCI bus address, when the GPU is a PCI function.
    pub pci_address: Option<String>,
    /// `vvvv:dddd`, when known.
    pub id: Option<String>,
    /// The product name, when a table or pci.ids gives one.
    pub name: Option<String>,
    /// NVIDIA's generation (`Blackwell`): the row of gpuctl's requirement table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<String>,
    /// NVIDIA: the architecture of the GPU's chip (`ada-lovelace`), from pci.ids' chip name
    /// (gpuctl_nvidia::chips). Added within version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// NVIDIA: the CUDA compute capability (`8.9`) of the chip, from NVIDIA's CUDA GPUs tables;
    /// absent when no table gives it. Added within version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<String>,
    /// NVIDIA: whether the MIG user guide lists the GPU (`false` for architectures before
    /// Ampere); absent when unknown. Added within version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mig_capable: Option<bool>,
    /// AMD's LLVM target (`gfx942`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Intel's platform (`Tiger Lake`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// The kernel driver bound to the function (`nvidia`, `amdgpu`, `i915`, `xe`); `null` when
    /// none is.
    pub bound_driver: Option<String>,
}

/// What a vendor's GPUs need: each GPU's requirement, the one the host must meet, and why
/// there is none when they conflict.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VendorRequirement {
    /// Per GPU, in bus-address order.
    pub gpus: Vec<GpuNeed>,
    /// The combined requirement; `null` without GPUs or when they conflict.
    pub combined: Option<Need>,
    /// Why the GPUs cannot share one stack, one sentence each.
    pub conflicts: Vec<String>,
}

/// One GPU's requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuNeed {
    /// The bus address.
    pub pci_address: Option<String>,
    /// Who, in requirement's words (`NVIDIA B200 (Blackwell, 10de:2901)`).
    pub who: String,
    /// The constraints.
    #[serde(flatten)]
    pub need: Need,
    /// False for a GPU left out of the combined requirement (NVIDIA's Kepler and older).
    pub counted: bool,
    /// Why nothing is known of what it needs (`unknown device: no source lists it`); absent
    /// when a source lists it. Such a GPU fits no stack the fleet plans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
}

/// A requirement as data: its sentence and its constraints.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Need {
    /// In words (`open kernel module, driver branch 570 or newer`).
    pub describe: String,
    /// One per component.
    pub constraints: Vec<ConstraintEntry>,
}

/// Whether a component is chosen among values or versioned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// One of `allowed` (empty: any).
    Choice,
    /// From `min` to `max`, both inclusive, `max` with its point releases.
    Range,
}

/// A restriction on one component of a driver stack (core's `Constraint`, as data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstraintEntry {
    /// The component's key (`nvidia-kernel-module`, `rocm`, `kernel`).
    pub component: String,
    /// Its noun in sentences (`kernel module`, `ROCm`, `Linux kernel`).
    pub noun: String,
    /// Choice or range.
    pub kind: Kind,
    /// `host` (one value for all GPUs) or `device` (each GPU binds its own).
    pub scope: String,
    /// A choice's acceptable values; empty for any value or a range.
    #[serde(default)]
    pub allowed: Vec<String>,
    /// A range's lower bound.
    #[serde(default)]
    pub min: Option<String>,
    /// A range's upper bound.
    #[serde(default)]
    pub max: Option<String>,
    /// In words.
    pub describe: String,
}

/// Whether what the host runs meets what its GPUs need: THE verdict's word
/// (docs/requirement.md#one-verdict), `yes`, `no` or `unknown`.
pub use gpuctl_core::plugin::requirement::Fit;

/// The driver a vendor's GPUs run with on this host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverState {
    /// `loaded`, `not-loaded`, or `in-kernel` (AMD's amdgpu without a version of its own).
    pub state: String,
    /// The file that said so.
    pub source: Option<String>,
    /// The driver's release (`580.95.05`, AMD's DKMS `6.10.5`); `null` when it has none.
    pub version: Option<String>,
    /// NVIDIA: `open` or `proprietary`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_module: Option<String>,
    /// NVIDIA: the newest CUDA the loaded driver runs (`12.9`), or [`UNKNOWN`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_ceiling: Option<String>,
    /// Intel: per GPU, the driver bound and what `force_probe` says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bound: Vec<BoundDriver>,
    /// The loaded stack as `gpuctl requirement --driver` specs (`open:570.86.15`): what
    /// THE verdict was asked, and what `fleet --cuda` asks it again with a toolkit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specs: Vec<String>,
    /// Whether it meets the GPUs' requirement: THE verdict, as `gpuctl requirement --driver`
    /// on `specs` gives it.
    pub fits: Fit,
    /// Why not, or what could not be checked.
    pub why: Option<String>,
}

/// The driver bound to one GPU, and whether that needs `force_probe`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundDriver {
    /// The bus address.
    pub pci_address: String,
    /// `i915`, `xe`, or `null` when none is bound.
    pub driver: Option<String>,
    /// Whether the driver binds this GPU only with `force_probe` on this kernel; `null` when
    /// the sources or the kernel release do not say.
    pub needs_force_probe: Option<bool>,
    /// The module's `force_probe` parameter as `/sys/module/<driver>/parameters` shows it.
    pub force_probe: Option<String>,
}

/// Doctor's file-only checks.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DoctorSummary {
    /// Checks with status `problem`.
    pub problems: usize,
    /// Checks with status `warning`.
    pub warnings: usize,
    /// Every check, in doctor's order.
    pub checks: Vec<CheckEntry>,
}

/// One doctor check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckEntry {
    /// Its code (`nvidia-spec-driver`).
    pub code: String,
    /// `ok`, `skipped`, `warning` or `problem`.
    pub status: String,
    /// What it looked at.
    pub subject: String,
    /// What it saw.
    pub facts: Vec<String>,
}
