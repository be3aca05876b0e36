//! How a command ends, as values with their facts, and the one mapping from each to its exit code
//! (README's table): commands say what happened, never which number to exit with.

use std::path::PathBuf;

use gpuctl_cdi::podman::PodmanVersionError;
use gpuctl_core::commands::render::UnsafeArgument;
use gpuctl_core::plugin::HostError;
use gpuctl_core::plugin::requirement::RequirementInputError;
use gpuctl_core::{commands::selector::SelectorError, plugin::GpuError};

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
    /// `args` was given no selector at all (an explicit `none` or `''` is one).
    NoSelector {
        /// The linked vendors' selector words, in canonical order.
        vendors: Vec<String>,
    },
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
    /// Another input problem of `requirement`.
    Requirement(RequirementInputError),
    /// `requirement --distro`'s distribution, release or `--sources` file is unusable.
    Sources(gpuctl_sources::SourcesError),
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
    /// `fleet` was given a NodeList it cannot plan (not JSON, another kind, a label gpuctl
    /// does not write).
    NodeList(gpuctl_fleet::nodelist::NodeListError),
    /// `doctor --image`: podman could not give the image's environment.
    Image(gpuctl_core::commands::image_inspect::InspectError),
    /// `run` found an image the host's drivers cannot run (a vendor's image check).
    ImageRefused {
        /// The check's words, as one sentence.
        sentence: String,
    },
    /// `cdi check` was given a path it cannot read.
    CdiCheck(gpuctl_core::commands::cdi_tool::check::CheckInputError),
    /// `cdi generate` was given a name that is no linked vendor.
    CdiVendor {
        /// The name given.
        vendor: String,
        /// The linked vendors, comma-separated.
        known: String,
    },
    /// `cdi generate` for a vendor whose spec only its own generator can write.
    CdiNotOurs {
        /// The vendor.
        vendor: String,
        /// Its generator's whole command, flags and output path included, when known.
        generator: Option<String>,
    },
    /// `cdi generate` could not build the spec.
    CdiGenerate(gpuctl_core::commands::cdi_tool::generate::GenerateError),
    /// `cdi generate --output` could not write its file (the old one is untouched).
    CdiOutput(gpuctl_fleet::output::OutputError),
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
            | CliError::NoSelector { .. }
            | CliError::GpusFlag(_)
            | CliError::Requirement(_)
            | CliError::Sources(_)
            | CliError::ExplainInput { .. }
            | CliError::FleetCuda { .. }
            | CliError::FleetEmpty { .. }
            | CliError::NodeList(_)
            | CliError::CdiCheck(_)
            | CliError::CdiVendor { .. }
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
            | CliError::CdiNotOurs { .. }
            | CliError::CdiGenerate(_)
            | CliError::CdiOutput(_)
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
            CliError::NoSelector { vendors } => write!(
                f,
                "gpuctl args needs a selector: all, a vendor ({}), VENDOR:N (one GPU, by index or CDI name), a comma list of these, or none for no GPU; e.g. 'gpuctl args all'",
                vendors.join(", ")
            ),
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
            CliError::Requirement(e) => write!(f, "{e}"),
            CliError::Sources(e) => write!(f, "{e}"),
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
            // The error names its own remedy: nothing was written, nothing to check.
            CliError::Output(e @ gpuctl_fleet::output::OutputError::NotAFile { .. }) => {
                write!(f, "{e}")
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
            CliError::Image(
                e @ gpuctl_core::commands::image_inspect::InspectError::NoPodman { .. },
            ) => {
                write!(
                    f,
                    "{e}; install podman, or pass the image's environment with --image-env FILE"
                )
            }
            CliError::Image(e) => write!(
                f,
                "{e}; pull it first (podman pull IMAGE), or pass its environment with --image-env FILE"
            ),
            CliError::ImageRefused { sentence } => write!(
                f,
                "refusing to start the container: {sentence}; --no-image-check starts it anyway"
            ),
            CliError::CdiCheck(e) => write!(f, "{e}"),
            CliError::CdiVendor { vendor, known } => write!(
                f,
                "'{vendor}' is not a vendor this gpuctl knows; pass one of: {known}"
            ),
            CliError::CdiNotOurs {
                vendor,
                generator: Some(command),
            } => write!(
                f,
                "gpuctl does not write {vendor}'s CDI spec: its own generator does, with what only it knows (the driver's libraries and hooks); run '{command}'"
            ),
            CliError::CdiNotOurs {
                vendor,
                generator: None,
            } => write!(
                f,
                "gpuctl does not write {vendor}'s CDI spec and knows no generator of it; ask the vendor's container toolkit"
            ),
            CliError::CdiGenerate(e) => write!(f, "{e}"),
            CliError::CdiOutput(gpuctl_fleet::output::OutputError::NotAFile { path, kind }) => {
                write!(
                    f,
                    "{}: it is {kind}, not a regular file, and is left as it was: a spec is written as a file of its own; name one such as /etc/cdi/amd.json, or leave out --output to print it",
                    path.display()
                )
            }
            CliError::CdiOutput(e) => write!(
                f,
                "{e}; the old file is left as it was: check the directory exists and is writable"
            ),
            CliError::NodeList(e) => write!(f, "{e}"),
            CliError::FleetEmpty { paths } => write!(
                f,
                "no gpuctl report was read from the {paths} path(s) given; pass files written by 'gpuctl report' or directories holding them"
            ),
        }
    }
}
