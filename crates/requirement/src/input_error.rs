//! What `gpuctl requirement` refuses among its device ids, `--driver` specs and the vendors'
//! inputs (a site table, a toolkit, an image's environment): one sentence each, exit 2.

use thiserror::Error;

/// The most device ids one call takes: one per possible PCI device id. More cannot be a list of
/// real GPUs, and the cap bounds the memory one call can ask for.
pub const MAX_DEVICE_IDS: usize = 65_536;

/// What `requirement` cannot take among its device ids, `--driver` specs and table (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RequirementInputError {
    /// More than [`MAX_DEVICE_IDS`] ids.
    #[error(
        "more than {limit} device ids were given, one per possible PCI device id; pass one id per GPU"
    )]
    TooManyIds {
        /// The limit.
        limit: usize,
    },
    /// A vendor's own id form that does not parse (the vendor's sentence).
    #[error("{0}")]
    VendorId(String),
    /// `VVVV:DDDD` with a part that is not four hex digits.
    #[error(
        "'{}' is not a PCI device id; give VVVV:DDDD, four hex digits each (e.g. 1002:74a1), \
         or an NVIDIA id as DDDD",
        token.escape_debug()
    )]
    BadPciId {
        /// The argument as given.
        token: String,
    },
    /// `VVVV:DDDD` whose vendor id no registered backend has.
    #[error(
        "'{}': no vendor gpuctl knows has PCI vendor id {vendor_id:04x}; known: {}",
        token.escape_debug(),
        known.join(", ")
    )]
    UnknownVendorId {
        /// The argument as given.
        token: String,
        /// Its vendor id.
        vendor_id: u16,
        /// The known vendor ids, as `1002 (amd)`.
        known: Vec<String>,
    },
    /// A `--driver` spec of a known component whose version does not parse.
    #[error("--driver '{}' is not a driver spec: {reason}", spec.escape_debug())]
    BadStackSpec {
        /// The spec as given.
        spec: String,
        /// What is wrong with the version.
        reason: String,
    },
    /// A second whole-stack spec of one vendor.
    #[error(
        "--driver '{}' is a second {display} driver spec; give one {display} driver source at a time",
        spec.escape_debug()
    )]
    SecondVendorSpec {
        /// The spec as given.
        spec: String,
        /// The vendor's name in sentences.
        display: String,
    },
    /// A `--driver` spec that no component and no vendor's own forms take.
    #[error("--driver {reason}; write {known} for the other vendors' stacks{forms}")]
    BadDriverSpec {
        /// Why the vendor that tried it refused it, or the neutral parser's sentence.
        reason: String,
        /// The stack forms that would be understood.
        known: String,
        /// `, or ...`: the vendors' own forms.
        forms: String,
    },
    /// A spec none of whose vendors has a GPU in the request.
    #[error(
        "--driver '{}' is for {} GPUs, and none is in the request; {}",
        spec.escape_debug(),
        vendors.join(" or "),
        if *whole_stack { format!("name one (e.g. {example}) or drop the spec") }
        else { "name such a GPU (VVVV:DDDD) or drop the spec".to_string() }
    )]
    SpecWithoutGpu {
        /// The spec as given.
        spec: String,
        /// The vendors whose requirements use it.
        vendors: Vec<String>,
        /// A vendor's own whole-stack form.
        whole_stack: bool,
        /// A device id to suggest.
        example: String,
    },
    /// A site table the vendor cannot use (its sentence, naming the file and the remedy).
    #[error("{0}")]
    Table(String),
    /// A compute toolkit version (`--cuda`) the vendor cannot use.
    #[error("--cuda '{}': {reason}", text.escape_debug())]
    Toolkit {
        /// The version as given.
        text: String,
        /// Why it cannot be used, with the remedy.
        reason: String,
    },
    /// An image environment (`--image-env`) that cannot be read or checked.
    #[error("--image-env {file}: {reason}; give the image's KEY=VALUE environment lines")]
    ImageEnv {
        /// Where it was read.
        file: String,
        /// What is wrong.
        reason: String,
    },
}
