//! THE verdict as the requirement answer gives it (docs/requirement.md#one-verdict): per
//! vendor, for the callers that ask it of a host's loaded stack (report, doctor) or of a
//! report's GPUs again (fleet), and the checks they make once up front.

use super::{Request, answer_over};
use crate::backend::Registry;
use crate::host::Host;
use crate::pci;
use crate::requirement::{
    RequirementInputError, VendorRequest, Verdict, Version, parse_spec, registered_components,
};

/// THE verdict of each vendor with GPUs in the answer to `request` on `host` (over `scan`
/// when the caller has walked the bus), in the report's vendor order: the one function
/// requirement, doctor, report, NFD and fleet ask "does this stack fit these GPUs (and this
/// toolkit, this image)" (docs/requirement.md#one-verdict).
pub fn verdicts(
    host: &Host,
    scan: Option<&pci::PciScan>,
    registry: &Registry,
    request: Request<'_>,
) -> Result<Vec<(String, Verdict)>, RequirementInputError> {
    let report = answer_over(host, scan, registry, request)?;
    Ok(report
        .vendors
        .iter()
        .filter(|v| !v.gpus.is_empty())
        .filter_map(|v| report.verdict(&v.vendor).map(|x| (v.vendor.clone(), x)))
        .collect())
}

/// Refuses what a vendor's model cannot take in `request` (a toolkit no release notes list, an
/// unreadable site table) as [`super::answer`] would, without looking at any GPU: for callers that
/// ask many times (fleet) and must refuse once, up front.
pub fn check_request(
    registry: &Registry,
    request: &VendorRequest<'_>,
) -> Result<(), RequirementInputError> {
    for backend in registry.backends() {
        if let Some(m) = backend.requirements().requirement_model() {
            m.source(request)?;
        }
    }
    Ok(())
}

/// The `--driver` specs of a host's loaded stack for the vendors in `vendors` (those with
/// GPUs): each one's own specs ([`LoadedDriver::specs`]), and `kernel:X.Y` when `kernel` is
/// known and some of those vendors constrain the kernel (a spec no vendor in the request takes
/// would be refused).
///
/// [`LoadedDriver::specs`]: crate::requirement::LoadedDriver::specs
pub fn loaded_specs(
    vendors: &[&str],
    loaded: &[(&str, Vec<String>)],
    kernel: Option<Version>,
) -> Vec<String> {
    let mut out: Vec<String> = loaded
        .iter()
        .filter(|(v, _)| vendors.contains(v))
        .flat_map(|(_, s)| s.iter().cloned())
        .collect();
    if let Some(k) = kernel {
        let spec = format!("kernel:{k}");
        let takes = parse_spec(&spec, &registered_components())
            .is_ok_and(|s| s.vendors.iter().any(|v| vendors.contains(v)));
        if takes {
            out.push(spec);
        }
    }
    out
}
