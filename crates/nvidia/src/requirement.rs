//! What `gpuctl requirement` computes: device-id and `--driver` parsing, the host's NVIDIA GPUs
//! from sysfs, each GPU's requirement, the combined one, and the driver verdict, as one
//! serializable [`Report`] in the DESIGN.md JSON shape.
//!
//! Decisions the reference leaves open, made here:
//! - A GPU whose *built-in* row says it is not compute (Kepler or older) is reported with a
//!   warning and left out of the combined requirement, for explicit ids as for host GPUs. Site
//!   rows never change that: detection ignores them, as the reference's `Detect` does.
//! - `combined` is `null` when no GPU counts (none found, or only Kepler-or-older ones) and when
//!   the GPUs conflict; a `--driver` check with no GPU that counts is satisfied.
//! - Names come from a `pci.ids` under the host root for host GPUs only; an explicit id has no
//!   name, so its answer does not depend on the machine it is asked on.

use std::fmt;

use crate::model::{
    BranchKnowledge, CombineError, DriverSource, GenerationTable, KernelModule, Requirement,
    parse_branch,
};
use crate::release::DriverRelease;
use gpuctl_core::Host;
use gpuctl_core::pci;
use serde::Serialize;

use crate::table::builtin_requirement;

/// NVIDIA's PCI vendor id.
pub const NVIDIA_VENDOR_ID: u16 = 0x10de;

/// The most device ids one call takes: one per possible PCI device id. More cannot be a list
/// of real GPUs, and the cap bounds the memory one call can ask for.
pub const MAX_DEVICE_IDS: usize = 65_536;

/// A device-id argument that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceIdError {
    /// Not `XXXX`, `0xXXXX` or `10de:XXXX`.
    Malformed {
        /// The argument as given.
        token: String,
    },
    /// More than [`MAX_DEVICE_IDS`] ids.
    TooMany {
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for DeviceIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceIdError::Malformed { token } => write!(
                f,
                "'{}' is not an NVIDIA PCI device id; give four hex digits as XXXX, 0xXXXX or \
                 10de:XXXX (e.g. 2901)",
                token.escape_debug()
            ),
            DeviceIdError::TooMany { limit } => {
                write!(
                    f,
                    "more than {limit} device ids were given, one per possible PCI device id"
                )
            }
        }
    }
}

impl std::error::Error for DeviceIdError {}

/// Parses one device id: `XXXX`, `0xXXXX` or `10de:XXXX`, four hex digits, any case.
pub fn parse_device_id(token: &str) -> Result<u16, DeviceIdError> {
    let malformed = || DeviceIdError::Malformed {
        token: token.to_string(),
    };
    let digits = match token.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => &token[2..],
        _ => match token.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("10de:") => &token[5..],
            _ => token,
        },
    };
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(malformed());
    }
    u16::from_str_radix(digits, 16).map_err(|_| malformed())
}

/// Parses device-id arguments one at a time, stopping at the first bad one or past
/// [`MAX_DEVICE_IDS`].
pub fn parse_device_ids<I, S>(tokens: I) -> Result<Vec<u16>, DeviceIdError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut ids = Vec::new();
    for token in tokens {
        if ids.len() == MAX_DEVICE_IDS {
            return Err(DeviceIdError::TooMany {
                limit: MAX_DEVICE_IDS,
            });
        }
        ids.push(parse_device_id(token.as_ref())?);
    }
    Ok(ids)
}

/// A `--driver` spec, parsed: the text as given and the source it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverSpec {
    spec: String,
    source: DriverSource,
    release: Option<DriverRelease>,
}

impl DriverSpec {
    /// The spec as the user wrote it.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The driver source it describes.
    pub fn source(&self) -> &DriverSource {
        &self.source
    }

    /// The exact release (`570.124.06`) or branch (`570`) it names, for the release-precision
    /// floor checks; `None` for `open`, `580+` and other specs that name no one release.
    pub fn release(&self) -> Option<&DriverRelease> {
        self.release.as_ref()
    }

    /// The kernel module it names, if any.
    pub fn kernel_module(&self) -> Option<KernelModule> {
        self.source.kernel_module()
    }
}

/// A `--driver` spec that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for DriverSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a driver spec: {}",
            self.spec.escape_debug(),
            self.reason
        )
    }
}

impl std::error::Error for DriverSpecError {}

/// Parses a driver spec: `open:580` (exactly branch 580), `open:580+` (the newest branch a
/// repository carries, at least 580), `open` (branch unknown), `580` or `580+` (module
/// unknown). The module is `open` or `proprietary`, any case.
pub fn parse_driver_spec(spec: &str) -> Result<DriverSpec, DriverSpecError> {
    let fail = |reason: String| DriverSpecError {
        spec: spec.to_string(),
        reason,
    };
    if spec.is_empty() {
        return Err(fail("it is empty".to_string()));
    }
    let (module, branch) = match spec.split_once(':') {
        Some((module, branch)) => (Some(module), Some(branch)),
        None if spec.bytes().next().is_some_and(|b| b.is_ascii_digit()) => (None, Some(spec)),
        None => (Some(spec), None),
    };
    let kernel_module = match module.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("open") => Some(KernelModule::Open),
        Some("proprietary") => Some(KernelModule::Proprietary),
        Some("either") => {
            return Err(fail(
                "a driver installs the open or the proprietary kernel module, not either"
                    .to_string(),
            ));
        }
        Some(_) => {
            let word = module.unwrap_or_default().escape_debug().to_string();
            return Err(fail(format!(
                "the kernel module must be open or proprietary, not '{word}'"
            )));
        }
    };
    // A full release (`570.124.06`) is judged by its branch in Rex-GPU's model and by the
    // release itself against the floors.
    if let Some(text) = branch.filter(|t| t.contains('.')) {
        let release = DriverRelease::parse(text).map_err(|e| fail(e.to_string()))?;
        return Ok(DriverSpec {
            spec: spec.to_string(),
            source: DriverSource::new(kernel_module, BranchKnowledge::Exact(release.branch())),
            release: Some(release),
        });
    }
    let branch = match branch {
        None => BranchKnowledge::Unknown,
        Some(text) => match text.strip_suffix('+') {
            Some(floor) => {
                BranchKnowledge::AtLeast(parse_branch(floor).map_err(|e| fail(e.to_string()))?)
            }
            None => BranchKnowledge::Exact(parse_branch(text).map_err(|e| fail(e.to_string()))?),
        },
    };
    let release = match branch {
        BranchKnowledge::Exact(b) => DriverRelease::parse(&b.to_string()).ok(),
        _ => None,
    };
    Ok(DriverSpec {
        spec: spec.to_string(),
        source: DriverSource::new(kernel_module, branch),
        release,
    })
}

/// One NVIDIA GPU to report on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gpu {
    /// The PCI device id.
    pub device_id: u16,
    /// The name from pci.ids, when known.
    pub name: Option<String>,
    /// The bus address, for a GPU found on the host.
    pub pci_address: Option<String>,
}

/// The host's NVIDIA GPUs (display or processing-accelerator class, so NVSwitches and audio
/// functions are left out) in bus-address order, named from the host's pci.ids when it has one,
/// and a warning for each PCI entry that could not be read.
pub fn host_gpus(host: &Host) -> (Vec<Gpu>, Vec<String>) {
    let (devices, warnings) = pci::gpus_of_vendor(host, NVIDIA_VENDOR_ID);
    let ids: Vec<u16> = devices.iter().map(|d| d.device_id).collect();
    let names = pci::device_names(host, NVIDIA_VENDOR_ID, &ids);
    let gpus = devices
        .into_iter()
        .inspect(|d| tracing::debug!("NVIDIA GPU 10de:{:04x} at {}", d.device_id, d.address))
        .map(|d| Gpu {
            device_id: d.device_id,
            name: names.get(&d.device_id).cloned(),
            pci_address: Some(d.address),
        })
        .collect();
    // The requirement report's warnings stay sentences: its JSON contract has strings.
    (gpus, warnings.iter().map(ToString::to_string).collect())
}

/// A requirement in the JSON shape DESIGN.md fixes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementView {
    /// Four lowercase hex digits, or `null`.
    pub device_id: Option<String>,
    /// The GPU's name, or `null`.
    pub name: Option<String>,
    /// The generation label, or `null`.
    pub generation: Option<String>,
    /// `open`, `proprietary` or `either`.
    pub kernel_module: KernelModule,
    /// The oldest supported branch, or `null`.
    pub min_branch: Option<u32>,
    /// The newest supported branch, or `null`.
    pub max_branch: Option<u32>,
    /// The compute flag, or `null` when the table has no opinion.
    pub compute: Option<bool>,
    /// [`Requirement::describe`].
    pub describe: String,
    /// [`Requirement::who`].
    pub who: String,
}

impl From<&Requirement> for RequirementView {
    fn from(r: &Requirement) -> Self {
        RequirementView {
            device_id: r.device_id().map(str::to_string),
            name: r.name().map(str::to_string),
            generation: r.generation().map(str::to_string),
            kernel_module: r.kernel_module(),
            min_branch: r.min_branch(),
            max_branch: r.max_branch(),
            compute: r.compute(),
            describe: r.describe(),
            who: r.who(),
        }
    }
}

/// One GPU's entry: its requirement plus where it is and whether it counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GpuView {
    /// The requirement.
    #[serde(flatten)]
    pub requirement: RequirementView,
    /// The bus address of a host GPU; `null` for an id given on the command line.
    pub pci_address: Option<String>,
    /// False for a GPU left out of the combined requirement (Kepler or older).
    pub counted: bool,
    /// The first driver releases that list it, per kernel module, in words
    /// ([`crate::floor_check::floor_lines`]); absent when no source gives one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<String>,
}

/// The verdict on a `--driver` spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriverVerdict {
    /// The spec as given.
    pub spec: String,
    /// Whether the driver can drive every GPU that counts.
    pub satisfied: bool,
    /// Why not, when it cannot.
    pub why_not: Option<String>,
}

/// Everything `gpuctl requirement` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Each GPU, in the order given (host GPUs: bus-address order).
    pub gpus: Vec<GpuView>,
    /// The one requirement for every GPU that counts; `null` when none counts or they conflict.
    pub combined: Option<RequirementView>,
    /// Why the GPUs need different drivers; empty when one driver can drive them all.
    pub conflicts: Vec<String>,
    /// The `--driver` verdict, when one was asked for.
    pub driver: Option<DriverVerdict>,
    /// Warnings (each also printed on stderr by the CLI).
    pub warnings: Vec<String>,
    /// The CUDA toolkit asked about (`--cuda`) and the driver it needs; absent when none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda: Option<crate::floor_verdict::CudaView>,
    /// The image's requirements (`--image-env`); absent when none was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<crate::floor_verdict::ImageView>,
}

impl Report {
    /// True when the answer is "no": the GPUs conflict, or the driver does not satisfy them.
    pub fn unserved(&self) -> bool {
        !self.conflicts.is_empty() || self.driver.as_ref().is_some_and(|d| !d.satisfied)
    }
}

/// The report for the host's NVIDIA GPUs.
pub fn host_report(host: &Host, table: &GenerationTable, driver: Option<&DriverSpec>) -> Report {
    let (gpus, warnings) = host_gpus(host);
    report(table, &gpus, driver, warnings)
}

/// The report for device ids given on the command line (no names, no addresses).
pub fn ids_report(table: &GenerationTable, ids: &[u16], driver: Option<&DriverSpec>) -> Report {
    let gpus: Vec<Gpu> = ids
        .iter()
        .map(|&device_id| Gpu {
            device_id,
            name: None,
            pci_address: None,
        })
        .collect();
    report(table, &gpus, driver, Vec::new())
}

/// The report for `gpus`, looked up in `table`; `warnings` come first in the report's list.
pub fn report(
    table: &GenerationTable,
    gpus: &[Gpu],
    driver: Option<&DriverSpec>,
    mut warnings: Vec<String>,
) -> Report {
    let mut views = Vec::with_capacity(gpus.len());
    let mut counted = Vec::with_capacity(gpus.len());
    for gpu in gpus {
        let mut req = table.lookup(gpu.device_id);
        if let Some(name) = &gpu.name {
            req = req.named(name.clone());
        }
        let builtin = builtin_requirement(gpu.device_id);
        // A GPU named by its id always counts; only host-found ones are left out.
        let counts = gpu.pci_address.is_none() || builtin.compute() != Some(false);
        if !counts {
            warnings.push(not_compute_warning(gpu, &builtin));
        }
        views.push(GpuView {
            requirement: RequirementView::from(&req),
            pci_address: gpu.pci_address.clone(),
            counted: counts,
            floors: crate::floor_check::floor_lines(gpu.device_id, req.kernel_module()),
        });
        if counts {
            counted.push(req);
        } else if let Some(why) = driver.and_then(|d| req.why_not(d.source()).map(|w| (d, w))) {
            warnings.push(format!(
                "driver {} will not drive {}: {}",
                why.0.spec(),
                req.who(),
                why.1
            ));
        }
    }
    let (combined, conflicts) = match Requirement::intersect(&counted) {
        Ok(r) => (Some(r), Vec::new()),
        Err(CombineError::Empty) => (None, Vec::new()),
        Err(CombineError::Conflict { conflicts }) => (None, conflicts),
    };
    let driver = driver.map(|spec| {
        let why_not = if conflicts.is_empty() {
            combined.as_ref().and_then(|r| r.why_not(spec.source()))
        } else {
            Some(conflicts.join("; "))
        };
        DriverVerdict {
            spec: spec.spec().to_string(),
            satisfied: why_not.is_none(),
            why_not,
        }
    });
    Report {
        gpus: views,
        combined: combined.as_ref().map(RequirementView::from),
        conflicts,
        driver,
        warnings,
        cuda: None,
        image: None,
    }
}

/// Rex-GPU's Kepler warning (docs/requirement.md#compute), ending in what gpuctl does instead of
/// skipping the install: the GPU is left out of the combination.
fn not_compute_warning(gpu: &Gpu, builtin: &Requirement) -> String {
    let shown = match &gpu.name {
        Some(name) => format!("NVIDIA GPU {name} (10de:{:04x})", gpu.device_id),
        None => format!("NVIDIA GPU (10de:{:04x})", gpu.device_id),
    };
    let generation = builtin.generation().unwrap_or("unsupported");
    let needs = builtin.max_branch().map_or(String::new(), |max| {
        format!(
            ": it needs driver branch {max} or older, which current distributions no longer package"
        )
    });
    format!("{shown} is {generation} silicon{needs} -- left out of the combined requirement")
}
