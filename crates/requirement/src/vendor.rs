//! What a vendor adds to the requirement answer beyond one requirement per device
//! (the plug-in interface's `Requirements::driver_requirement`, in core): its own id and `--driver` forms, a site table, GPUs it
//! leaves out of the host's combined line, lines under a GPU (first listings), sections of its
//! own (a toolkit's driver floor, an image's requirements), verdicts finer than the
//! requirement's, its own way of combining, and its wording. NVIDIA's generation table (Rex's
//! model) is the one built-in user; a vendor without one gets the defaults, which are what AMD,
//! Intel and plug-ins use.
//!
//! [`Requirements::driver_requirement`]: crate::backend::Requirements::driver_requirement

use std::path::Path;

use super::RequirementInputError;
use super::report_entry::{VendorStack, Wording};
use super::{CombineError, Requirement, StackSpec};
use crate::image_env::ImageEnv;
use gpuctl_host::Host;
use gpuctl_host::pci::PciDevice;

/// One GPU's requirement, and why it is left out of the combined requirement when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuRequirement {
    /// The requirement.
    pub requirement: Requirement,
    /// For a GPU found on the host that the vendor leaves out of the host's combined line
    /// (NVIDIA's Kepler and older): the warning that says so.
    pub left_out: Option<String>,
    /// The first driver releases that list the device, in words (JSON `floors`, text lines
    /// under the GPU); empty when the vendor has none.
    pub floors: Vec<String>,
}

impl GpuRequirement {
    /// A requirement that counts, with no floor lines.
    pub fn counted(requirement: Requirement) -> Self {
        GpuRequirement {
            requirement,
            left_out: None,
            floors: Vec::new(),
        }
    }
}

/// What a request asks beyond ids and specs, for any vendor to read: the vendors that know a
/// field use it, the others ignore it.
#[derive(Debug, Clone, Copy, Default)]
pub struct VendorRequest<'a> {
    /// `--table`: site rows the vendor puts in front of its own table.
    pub table: Option<&'a Path>,
    /// `--cuda`: a compute toolkit's version, whose minimum driver joins the requirement.
    pub toolkit: Option<&'a str>,
    /// `--image-env`: an image's environment, `KEY=VALUE` pairs in order, and where it was read.
    pub image_env: Option<&'a ImageEnv>,
}

/// A vendor's requirement model for one request.
pub trait RequirementSource {
    /// The requirements of `devices` (in order, one each), for GPUs found on `host` or, when
    /// `host` is `None`, named by id.
    fn requirements(&self, host: Option<&Host>, devices: &[PciDevice]) -> Vec<GpuRequirement>;

    /// Adds what the vendor says beyond its requirements to its finished entry: sections
    /// ([`VendorStack::sections`]), lines, conflicts, and a verdict finer than the
    /// requirement's (a release checked against first listings). `specs` are the `--driver`
    /// specs that concern the vendor. An error is a sentence about the request (exit 2).
    fn finish(
        &self,
        _entry: &mut VendorStack,
        _specs: &[&StackSpec],
    ) -> Result<(), RequirementInputError> {
        Ok(())
    }
}

/// What a vendor's requirement model adds to core's `Requirements::driver_requirement`; see the
/// module docs.
pub trait RequirementModel: Send + Sync {
    /// The model for one request. Called for every registered model before any GPU is looked
    /// at, so a request the vendor cannot take (an unreadable site table, a toolkit it does
    /// not know) is refused even when none of its GPUs is asked about; anything costly (a
    /// table) is best built on the first [`RequirementSource::requirements`].
    fn source(
        &self,
        request: &VendorRequest<'_>,
    ) -> Result<Box<dyn RequirementSource>, RequirementInputError>;

    /// Parses a device id given without a vendor id (`2704`, `0x2704`) or in a form of the
    /// vendor's own; `None` when the token is not the vendor's to parse.
    fn parse_bare_id(&self, _token: &str) -> Option<Result<u16, String>> {
        None
    }

    /// Parses a `--driver` spec in the vendor's own forms (`open:580`); `None` when the spec
    /// is not the vendor's, else the spec or why it is none (`'x' is not a driver spec: ...`).
    fn parse_spec(&self, _spec: &str) -> Option<Result<StackSpec, String>> {
        None
    }

    /// The one requirement for `reqs` (the counted GPUs, at least one).
    fn combine(&self, reqs: &[&Requirement]) -> Result<Requirement, CombineError> {
        Requirement::intersect(reqs.iter().copied())
    }

    /// How its part of the answer is worded.
    fn wording(&self) -> Wording {
        Wording::DEFAULT
    }
}
