//! How a command ends, as values with their facts, and the one mapping from each to its exit code
//! (README's table): commands say what happened, never which number to exit with.

use std::path::PathBuf;

use gpuctl_cdi::podman::PodmanVersionError;
use gpuctl_core::host::HostError;
use gpuctl_core::render::UnsafeArgument;
use gpuctl_core::{GpuError, SelectorError};
use gpuctl_nvidia::model::site::{MAX_FILE_BYTES, MAX_ROWS, SiteError};
use gpuctl_nvidia::requirement::{DeviceIdError, DriverSpecError};

/// Exit code: the request was served.
pub const EXIT_OK: u8 = 0;
/// Exit code: the host cannot serve the request, the driver does not satisfy the requirement,
/// the GPUs need conflicting drivers, or `explain` found no GPU problem.
pub const EXIT_UNSERVED: u8 = 1;
/// Exit code: invalid input (selector, device id, driver spec, table file, flags).
pub const EXIT_INVALID: u8 = 2;

/// How a command that did not fail ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The answer is printed and it is "yes" (or there is no yes or no to it).
    Served,
    /// The answer is printed and it is "no": the driver does not satisfy the GPUs, or the GPUs
    /// need conflicting drivers.
    NotSatisfied,
    /// `explain` found no GPU problem in the text.
    NothingFound,
    /// `--help` or `--version` was printed.
    Help,
    /// A command that runs a container engine ended with the engine's own exit code, which
    /// gpuctl passes on.
    Engine(u8),
}

/// Why a command failed: the facts, printed as one sentence with its remedy.
#[derive(Debug)]
pub enum CliError {
    /// clap rejected the command line (and has printed why).
    Flags,
    /// `--root` names no directory.
    Root(HostError),
    /// `--podman-version` is not a podman version.
    PodmanVersion(PodmanVersionError),
    /// A selector word is not one gpuctl knows.
    Selector(SelectorError),
    /// `run --gpus` is not a selection.
    GpusFlag(SelectorError),
    /// The container engine `run` should start is not on PATH.
    EngineMissing {
        /// Its program name.
        program: &'static str,
    },
    /// The container engine could not be started.
    EngineStart {
        /// Its program name.
        program: &'static str,
        /// The operating system's words.
        reason: String,
    },
    /// The host cannot serve the selection.
    Unserved(GpuError),
    /// An argument the shell would split or expand, so plain output refuses the whole list.
    UnsafePlain(UnsafeArgument),
    /// A device id argument of `requirement`.
    DeviceId(DeviceIdError),
    /// `requirement --driver`.
    DriverSpec(DriverSpecError),
    /// Another input problem of `requirement`.
    Requirement(RequirementInput),
    /// `requirement --table`.
    SiteTable(SiteError),
    /// `explain`'s input could not be read: the file, or standard input when `None`.
    ExplainInput {
        /// The file named on the command line.
        file: Option<PathBuf>,
        /// The operating system's words.
        reason: String,
    },
    /// The result could not be encoded as JSON.
    Encode {
        /// What was being encoded (`report`, `answer`).
        what: &'static str,
        /// serde's words.
        reason: String,
    },
    /// `report --output` could not write its file (the old one is untouched).
    Output(gpuctl_fleet::output::OutputError),
    /// `report --format nfd` would not fit what NFD reads.
    Nfd(gpuctl_fleet::nfd::NfdError),
    /// `fleet --cuda` is not a version.
    FleetCuda {
        /// The value given.
        value: String,
        /// Why.
        reason: String,
    },
    /// `fleet` read no report from any path.
    FleetEmpty {
        /// How many paths were given.
        paths: usize,
    },
    /// `doctor --image`: podman could not give the image's environment.
    Image(gpuctl_core::image::InspectError),
    /// `run` found an image the host's drivers cannot run (a vendor's image check).
    ImageRefused {
        /// The check's words, as one sentence.
        sentence: String,
    },
    /// The result could not be written to stdout.
    Write {
        /// The operating system's words.
        reason: String,
    },
}

/// The exit code of a command's end: the one place the numbers are chosen.
pub fn exit_code(end: &Result<Outcome, CliError>) -> u8 {
    match end {
        Ok(Outcome::Served | Outcome::Help) => EXIT_OK,
        Ok(Outcome::NotSatisfied | Outcome::NothingFound) => EXIT_UNSERVED,
        Ok(Outcome::Engine(code)) => *code,
        Err(e) => match e {
            CliError::Flags
            | CliError::Root(_)
            | CliError::PodmanVersion(_)
            | CliError::Selector(_)
            | CliError::GpusFlag(_)
            | CliError::DeviceId(_)
            | CliError::DriverSpec(_)
            | CliError::SiteTable(_)
            | CliError::Requirement(_)
            | CliError::ExplainInput { .. }
            | CliError::FleetCuda { .. }
            | CliError::FleetEmpty { .. }
            | CliError::Image(_) => EXIT_INVALID,
            // A name where the host numbers its devices is a bad index, as on the reference
            // tool's raw tiers (docs/selector.md#device-names).
            CliError::Unserved(GpuError::DeviceNameOffCdi { .. }) => EXIT_INVALID,
            CliError::Unserved(_)
            | CliError::EngineMissing { .. }
            | CliError::EngineStart { .. }
            | CliError::UnsafePlain(_)
            | CliError::Encode { .. }
            | CliError::Output(_)
            | CliError::Nfd(_)
            | CliError::ImageRefused { .. }
            | CliError::Write { .. } => EXIT_UNSERVED,
        },
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Flags => f.write_str("the command line is not valid; see 'gpuctl --help'"),
            CliError::Root(e) => write!(
                f,
                "the root directory {e}; pass --root (or GPUCTL_ROOT) an existing directory"
            ),
            CliError::PodmanVersion(e) => write!(f, "{e}"),
            CliError::Selector(e) => write!(f, "{e}"),
            CliError::Unserved(e) => write!(f, "{e}"),
            CliError::GpusFlag(e) => write!(f, "--gpus: {e}"),
            CliError::EngineMissing { program } => write!(
                f,
                "{program} is not on PATH; install it, or pick the engine with --engine"
            ),
            CliError::EngineStart { program, reason } => {
                write!(f, "cannot start {program} ({reason})")
            }
            CliError::UnsafePlain(e) => write!(f, "{e}"),
            CliError::DeviceId(e @ DeviceIdError::Malformed { .. }) => write!(f, "{e}"),
            CliError::DeviceId(e @ DeviceIdError::TooMany { .. }) => {
                write!(f, "{e}; pass one id per GPU")
            }
            CliError::DriverSpec(e) => write!(
                f,
                "--driver {e}; write open:580 (exactly 580), open:580+ (580 or newer), open \
                 (branch unknown) or 580 (module unknown)"
            ),
            CliError::SiteTable(e) => write!(f, "site table {e}; {}", site_remedy(e)),
            CliError::Requirement(e) => write!(f, "{e}"),
            CliError::ExplainInput {
                file: Some(path),
                reason,
            } => write!(
                f,
                "cannot read {} ({reason}); pass a file holding podman's stderr, or pipe it on standard input",
                path.display()
            ),
            CliError::ExplainInput { file: None, reason } => write!(
                f,
                "cannot read standard input ({reason}); pass podman's stderr as a FILE instead"
            ),
            CliError::Encode { what, reason } => {
                write!(f, "cannot encode the {what} as JSON ({reason})")
            }
            CliError::Write { reason } => {
                write!(f, "cannot write the result to stdout ({reason})")
            }
            CliError::Output(e) => write!(
                f,
                "{e}; the old file is left as it was: check the directory exists and is writable"
            ),
            CliError::Nfd(e) => write!(f, "{e}; report it as a gpuctl bug"),
            CliError::FleetCuda { value, reason } => write!(
                f,
                "--cuda {value:?} is not a CUDA version ({reason}); pass one like 12.4"
            ),
            CliError::Image(e @ gpuctl_core::image::InspectError::NoPodman { .. }) => write!(
                f,
                "{e}; install podman, or pass the image's environment with --image-env FILE"
            ),
            CliError::Image(e) => write!(
                f,
                "{e}; pull it first (podman pull IMAGE), or pass its environment with --image-env FILE"
            ),
            CliError::ImageRefused { sentence } => write!(
                f,
                "refusing to start the container: {sentence}; --no-image-check starts it anyway"
            ),
            CliError::FleetEmpty { paths } => write!(
                f,
                "no gpuctl report was read from the {paths} path(s) given; pass files written by 'gpuctl report' or directories holding them"
            ),
        }
    }
}

/// What `requirement` cannot take among its device ids and `--driver` specs (exit 2).
#[derive(Debug)]
pub enum RequirementInput {
    /// `VVVV:DDDD` with a part that is not four hex digits.
    BadPciId {
        /// The argument as given.
        token: String,
    },
    /// `VVVV:DDDD` whose vendor id no registered backend has.
    UnknownVendorId {
        /// The argument as given.
        token: String,
        /// Its vendor id.
        vendor_id: u16,
        /// The known vendor ids, as `1002 (amd)`.
        known: Vec<String>,
    },
    /// A `--driver` spec of a known component whose version does not parse.
    BadStackSpec {
        /// The spec as given.
        spec: String,
        /// What is wrong with the version.
        reason: String,
    },
    /// A second NVIDIA `--driver` spec.
    SecondNvidiaSpec {
        /// The spec as given.
        spec: String,
    },
    /// A `--driver` spec that is neither a stack spec nor an NVIDIA one.
    BadDriverSpec {
        /// Why it is no NVIDIA spec.
        error: DriverSpecError,
        /// The stack forms that would be understood.
        known: String,
    },
    /// A stack spec none of whose vendors has a GPU in the request.
    SpecWithoutGpu {
        /// The spec as given.
        spec: String,
        /// The vendors whose requirements use its component.
        vendors: Vec<String>,
    },
    /// An NVIDIA spec with only other vendors' ids in the request.
    NvidiaSpecWithoutGpu {
        /// The spec as given.
        spec: String,
    },
    /// `--image-env` cannot be read, or a requirement in it does not parse.
    BadImageEnv {
        /// The file (`-`: standard input).
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// `--cuda` is not a CUDA version Table 3 lists.
    BadCuda {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl std::fmt::Display for RequirementInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequirementInput::BadPciId { token } => write!(
                f,
                "'{}' is not a PCI device id; give VVVV:DDDD, four hex digits each (e.g. \
                 1002:74a1), or an NVIDIA id as DDDD",
                token.escape_debug()
            ),
            RequirementInput::UnknownVendorId {
                token,
                vendor_id,
                known,
            } => write!(
                f,
                "'{}': no vendor gpuctl knows has PCI vendor id {vendor_id:04x}; known: {}",
                token.escape_debug(),
                known.join(", ")
            ),
            RequirementInput::BadStackSpec { spec, reason } => write!(
                f,
                "--driver '{}' is not a driver spec: {reason}",
                spec.escape_debug()
            ),
            RequirementInput::BadImageEnv { file, reason } => write!(
                f,
                "--image-env {}: {reason}; give the image's KEY=VALUE environment lines",
                file.display()
            ),
            RequirementInput::BadCuda { text, reason } => {
                write!(f, "--cuda '{}': {reason}", text.escape_debug())
            }
            RequirementInput::SecondNvidiaSpec { spec } => write!(
                f,
                "--driver '{}' is a second NVIDIA driver spec; give one NVIDIA driver \
                 source at a time",
                spec.escape_debug()
            ),
            RequirementInput::BadDriverSpec { error, known } => write!(
                f,
                "--driver {error}; write {known} for the other vendors' stacks, or open:580 \
                 (exactly 580), open:580+ (580 or newer), open (branch unknown), 580 \
                 (module unknown) or a full release such as open:570.124.06"
            ),
            RequirementInput::SpecWithoutGpu { spec, vendors } => write!(
                f,
                "--driver '{}' is for {} GPUs, and none is in the request; name such a GPU \
                 (VVVV:DDDD) or drop the spec",
                spec.escape_debug(),
                vendors.join(" or ")
            ),
            RequirementInput::NvidiaSpecWithoutGpu { spec } => write!(
                f,
                "--driver '{}' is for NVIDIA GPUs, and none is in the request; name one (e.g. 2901) \
                 or drop the spec",
                spec.escape_debug()
            ),
        }
    }
}

fn site_remedy(e: &SiteError) -> String {
    match e {
        SiteError::Unreadable { .. } => "pass --table a readable file".to_string(),
        SiteError::UnknownFormat { .. } => "name it .json, .yaml or .yml".to_string(),
        SiteError::TooLarge { .. } | SiteError::TooManyRows { .. } => {
            format!("a site table holds at most {MAX_ROWS} rows in at most {MAX_FILE_BYTES} bytes")
        }
        SiteError::NotText { .. } | SiteError::Syntax { .. } => {
            "write a list of rows with first and last (hex device ids), kernel_module, \
             min_branch, max_branch, generation, compute"
                .to_string()
        }
        SiteError::BadRow { .. } => "fix or remove that row".to_string(),
    }
}
