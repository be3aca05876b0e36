//! `gpuctl requirement` from its arguments to its [`Report`]: device ids and `--driver` specs
//! split among the registered vendors, the host's GPUs when no id is given, each vendor's
//! requirement model, and the report. The same for every vendor: what differs is in the
//! vendors' [`RequirementModel`](crate::requirement::RequirementModel)s.
//!
//! Beside the model, not inside it: it walks the vendor registry, and the plug-in interface
//! (`backend`) is built on the model, so the model must not import the registry back.

use crate::pci::{self, PciDevice};
use crate::requirement::report::{GpuInput, Report, VendorInput, report};
use crate::requirement::{
    GpuRequirement, MAX_DEVICE_IDS, Requirement, RequirementInputError, RequirementSource,
    SpecError, StackSpec, VendorRequest, parse_spec, registered_components,
};
use crate::{
    backend::{GpuBackend, Registry},
    host::Host,
};

/// What `gpuctl requirement` was asked.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Device ids as given; empty: the host's GPUs.
    pub ids: &'a [String],
    /// `--driver` specs as given.
    pub specs: &'a [String],
    /// What the vendors' models may read: a site table, a toolkit, an image's environment.
    pub vendor: VendorRequest<'a>,
}

/// The answer to `request` on `host` with `registry`'s vendors.
pub fn answer(
    host: &Host,
    registry: &Registry,
    request: Request<'_>,
) -> Result<Report, RequirementInputError> {
    answer_over(host, None, registry, request)
}

/// As [`answer`], over the PCI bus a probe has already walked (`probe.pci()`), so a caller
/// that also detects or runs doctor walks it once.
pub fn answer_scanned(
    host: &Host,
    scan: &pci::PciScan,
    registry: &Registry,
    request: Request<'_>,
) -> Result<Report, RequirementInputError> {
    answer_over(host, Some(scan), registry, request)
}

fn answer_over(
    host: &Host,
    scanned: Option<&pci::PciScan>,
    registry: &Registry,
    request: Request<'_>,
) -> Result<Report, RequirementInputError> {
    let ids = split_ids(request.ids, registry)?;
    let specs = split_specs(request.specs, registry)?;
    // Every model sees the request before any GPU is looked at, so what a vendor cannot take
    // is refused whichever GPUs are asked about; its sources build their tables lazily.
    let mut sources: Vec<(&'static str, Box<dyn RequirementSource>)> = Vec::new();
    for backend in registry.backends() {
        if let Some(m) = backend.requirements().requirement_model() {
            sources.push((backend.vendor(), m.source(&request.vendor)?));
        }
    }
    let source_of = |vendor: &str| {
        sources
            .iter()
            .find(|(v, _)| *v == vendor)
            .map(|(_, s)| s.as_ref())
    };
    let host_mode = request.ids.is_empty();
    // The bus is walked once, for every vendor.
    let read;
    let scan = match (host_mode, scanned) {
        (false, _) => None,
        (true, Some(s)) => Some(s),
        (true, None) => {
            read = pci::PciScan::read(host);
            Some(&read)
        }
    };
    let mut warnings: Vec<String> = Vec::new();
    let mut inputs: Vec<(&'static dyn GpuBackend, Vec<GpuInput>)> = Vec::new();
    for backend in order(registry, &ids, host_mode) {
        let model = backend.requirements().requirement_model();
        let devices: Vec<PciDevice> = if let Some(scan) = scan {
            let (devices, w) = scan.gpus_of(backend.pci_vendor_id(), backend.pci_classes());
            for w in w.iter().map(ToString::to_string) {
                // The requirement report's warnings stay sentences: its JSON contract has
                // strings. Every vendor walks the same bus, so a broken entry is said once.
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            devices
        } else {
            ids.iter()
                // By name: backends are often unit structs, whose addresses can coincide.
                .filter(|(b, _)| b.vendor() == backend.vendor())
                .map(|(b, id)| by_id(*b, *id))
                .collect()
        };
        let listed = model.is_some_and(|m| m.wording().none_found.is_some()) && host_mode;
        if devices.is_empty() && !listed {
            continue;
        }
        let found = host_mode.then_some(host);
        let reqs = match source_of(backend.vendor()) {
            Some(s) if !devices.is_empty() => s.requirements(found, &devices),
            _ => default_requirements(backend, &devices),
        };
        let gpus = devices
            .iter()
            .zip(reqs)
            .map(|(d, r)| GpuInput {
                vendor: backend.vendor(),
                pci_address: host_mode.then(|| d.address.clone()),
                requirement: r.requirement,
                left_out: r.left_out,
                floors: r.floors,
            })
            .collect();
        inputs.push((backend, gpus));
    }
    check_specs_have_gpus(&specs, &inputs, registry)?;
    let vendors = inputs
        .into_iter()
        .map(|(backend, gpus)| VendorInput {
            vendor: backend.vendor(),
            display: gpus.first().map_or_else(
                || backend.display_name().to_string(),
                |g| g.requirement.vendor().to_string(),
            ),
            gpus,
            model: backend.requirements().requirement_model(),
            source: source_of(backend.vendor()),
        })
        .collect();
    report(vendors, &specs, warnings)
}

/// The vendors to answer for: on the host, every one in canonical order; for ids, the order
/// their vendors first appear, but a vendor whose combined line names no vendor (Rex's
/// `combined:`) first, as it always was.
fn order(registry: &Registry, ids: &Ids, host_mode: bool) -> Vec<&'static dyn GpuBackend> {
    if host_mode {
        return registry.backends().to_vec();
    }
    let mut order: Vec<&'static dyn GpuBackend> = Vec::new();
    for (b, _) in ids {
        if !order.iter().any(|o| o.vendor() == b.vendor()) {
            order.push(*b);
        }
    }
    order.sort_by_key(|b| {
        !b.requirements()
            .requirement_model()
            .is_some_and(|m| m.wording().bare_combined)
    });
    order
}

/// A device named by id: no address, no revision.
fn by_id(backend: &dyn GpuBackend, device_id: u16) -> PciDevice {
    PciDevice {
        address: String::new(),
        vendor_id: backend.pci_vendor_id(),
        device_id,
        class: 0x03_00_00,
        revision: None,
    }
}

/// The requirements of a vendor with no model of its own: its backend's per-device answer. A
/// device it has no answer for is one gpuctl has no requirement data for: said so in the
/// vendor's words, never "any driver", and no `--driver` can be said to satisfy it.
fn default_requirements(backend: &dyn GpuBackend, devices: &[PciDevice]) -> Vec<GpuRequirement> {
    devices
        .iter()
        .map(|d| {
            GpuRequirement::counted(backend.requirements().driver_requirement(d).unwrap_or_else(
                || {
                    Requirement::new(backend.display_name(), backend.pci_vendor_id())
                        .with_noun(backend.device_noun())
                        .with_device_id(d.device_id)
                        .with_unknown(NO_REQUIREMENT_DATA)
                },
            ))
        })
        .collect()
}

/// What a device reads as when its vendor gives no requirement for it.
pub const NO_REQUIREMENT_DATA: &str = "unknown: no requirement data";

type Ids = Vec<(&'static dyn GpuBackend, u16)>;

/// Splits device-id arguments: `VVVV:DDDD` goes to the vendor whose PCI id is VVVV, unless that
/// vendor parses its own forms; anything else to the vendor that parses bare ids.
fn split_ids(tokens: &[String], registry: &Registry) -> Result<Ids, RequirementInputError> {
    if tokens.len() > MAX_DEVICE_IDS {
        return Err(RequirementInputError::TooManyIds {
            limit: MAX_DEVICE_IDS,
        });
    }
    let hex4 = |s: &str| {
        (s.len() == 4 && s.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u16::from_str_radix(s, 16).ok())
            .flatten()
    };
    let own = |backend: &'static dyn GpuBackend, token: &str| {
        backend
            .requirements()
            .requirement_model()
            .and_then(|m| m.parse_bare_id(token))
            .map(|r| {
                r.map(|id| (backend, id))
                    .map_err(RequirementInputError::VendorId)
            })
    };
    let mut ids = Vec::with_capacity(tokens.len());
    for token in tokens {
        let Some((vendor, device)) = token.split_once(':') else {
            let parsed = registry.backends().iter().find_map(|b| own(*b, token));
            ids.push(parsed.unwrap_or_else(|| {
                Err(RequirementInputError::BadPciId {
                    token: token.clone(),
                })
            })?);
            continue;
        };
        let vendor_id = hex4(vendor);
        let backend = registry
            .backends()
            .iter()
            .find(|b| Some(b.pci_vendor_id()) == vendor_id);
        // A vendor with forms of its own (NVIDIA's 10de:XXXX) parses and words its ids; any
        // other `X:Y` that is not two hex quartets gets the VVVV:DDDD sentence.
        if let Some(parsed) = backend.and_then(|b| own(*b, token)) {
            ids.push(parsed?);
            continue;
        }
        let (Some(vendor_id), Some(device_id)) = (vendor_id, hex4(device)) else {
            return Err(RequirementInputError::BadPciId {
                token: token.clone(),
            });
        };
        let Some(backend) = backend else {
            return Err(RequirementInputError::UnknownVendorId {
                token: token.clone(),
                vendor_id,
                known: registry
                    .backends()
                    .iter()
                    .map(|b| format!("{:04x} ({})", b.pci_vendor_id(), b.vendor()))
                    .collect(),
            });
        };
        ids.push((*backend, device_id));
    }
    Ok(ids)
}

/// The `--driver` specs: registered components' forms first (`rocm:6.2`, `kernel:6.8`, `xe`),
/// then the vendors' own (NVIDIA's `open:580`), one of those per vendor.
fn split_specs(
    specs: &[String],
    registry: &Registry,
) -> Result<Vec<StackSpec>, RequirementInputError> {
    let registered = registered_components();
    let mut out: Vec<StackSpec> = Vec::new();
    for spec in specs {
        let known = match parse_spec(spec, &registered) {
            Ok(s) => {
                out.push(s);
                continue;
            }
            Err(SpecError::BadVersion { reason, .. }) => {
                return Err(RequirementInputError::BadStackSpec {
                    spec: spec.clone(),
                    reason,
                });
            }
            Err(SpecError::Unknown { known, .. }) => known,
        };
        let mut refusal = None;
        let mut taken = false;
        for backend in registry.backends() {
            let Some(model) = backend.requirements().requirement_model() else {
                continue;
            };
            match model.parse_spec(spec) {
                None => {}
                Some(Ok(s)) => {
                    if out.iter().any(|o| o.whole_stack && o.vendors == s.vendors) {
                        return Err(RequirementInputError::SecondVendorSpec {
                            spec: spec.clone(),
                            display: display_name(*backend),
                        });
                    }
                    out.push(s);
                    taken = true;
                    break;
                }
                Some(Err(reason)) => {
                    refusal.get_or_insert(reason);
                }
            }
        }
        if taken {
            continue;
        }
        let forms: Vec<&str> = registry
            .backends()
            .iter()
            .filter_map(|b| b.requirements().requirement_model())
            .map(|m| m.wording().spec_forms)
            .filter(|f| !f.is_empty())
            .collect();
        return Err(RequirementInputError::BadDriverSpec {
            reason: refusal
                .unwrap_or_else(|| format!("'{}' is not a driver spec", spec.escape_debug())),
            known,
            forms: forms.iter().map(|f| format!(", or {f}")).collect(),
        });
    }
    Ok(out)
}

/// The vendor's name in sentences.
fn display_name(backend: &dyn GpuBackend) -> String {
    backend.display_name().to_string()
}

/// Refuses a spec none of whose vendors has a GPU in the request. With no GPU of any vendor, a
/// vendor's own whole-stack spec is still taken (satisfied: nothing to drive), as Rex's model
/// has always answered "no NVIDIA GPU found".
fn check_specs_have_gpus(
    specs: &[StackSpec],
    inputs: &[(&'static dyn GpuBackend, Vec<GpuInput>)],
    registry: &Registry,
) -> Result<(), RequirementInputError> {
    let any_gpu = inputs.iter().any(|(_, g)| !g.is_empty());
    for s in specs {
        let mut mine = inputs
            .iter()
            .filter(|(b, _)| s.vendors.contains(&b.vendor()));
        let listed = mine.clone().next().is_some();
        if mine.any(|(_, g)| !g.is_empty()) || (!any_gpu && s.whole_stack && listed) {
            continue;
        }
        let backends = || {
            registry
                .backends()
                .iter()
                .filter(|b| s.vendors.contains(&b.vendor()))
        };
        let vendors = if s.whole_stack {
            backends().map(|b| display_name(*b)).collect()
        } else {
            s.vendors.iter().map(ToString::to_string).collect()
        };
        let example = backends()
            .find_map(|b| b.requirements().requirement_model())
            .map_or("VVVV:DDDD", |m| m.wording().example_id);
        return Err(RequirementInputError::SpecWithoutGpu {
            spec: s.spec.clone(),
            vendors,
            whole_stack: s.whole_stack,
            example: example.to_string(),
        });
    }
    Ok(())
}

#[path = "requirement_answer_verdict.rs"]
mod verdict;
pub use verdict::{check_request, loaded_specs, verdicts};

#[cfg(test)]
#[path = "requirement_answer_tests.rs"]
mod tests;
