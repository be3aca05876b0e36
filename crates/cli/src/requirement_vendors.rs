//! The vendors beyond NVIDIA in `gpuctl requirement`: `VVVV:DDDD` ids, per-vendor `--driver`
//! specs, the host's GPUs of every registered vendor, and their lines. NVIDIA keeps its own
//! report (its table, words and JSON shape); everything here is appended after it.

use std::fmt::Write as _;

use gpuctl_core::Registry;
use gpuctl_core::pci::{self, PciDevice};
use gpuctl_core::requirement::report::{GpuInput, Report};
use gpuctl_core::requirement::{
    Requirement, SpecError, StackSpec, parse_spec, registered_components,
};
use gpuctl_core::{GpuBackend, Host};
use gpuctl_nvidia::requirement::{
    DeviceIdError, DriverSpec, MAX_DEVICE_IDS, NVIDIA_VENDOR_ID, parse_driver_spec,
};

use crate::{CliError, RequirementInput};

/// The ids of a request, split by vendor.
#[derive(Default)]
pub struct Ids {
    /// NVIDIA's (bare `DDDD`, `0xDDDD`, `10de:DDDD`), as given.
    pub nvidia: Vec<String>,
    /// Every other vendor's, with its backend.
    pub others: Vec<(&'static dyn GpuBackend, u16)>,
}

/// Splits device-id arguments: `VVVV:DDDD` goes to the vendor whose PCI id is VVVV; anything
/// else is NVIDIA's, parsed (and refused) as it always was.
pub fn split_ids(tokens: &[String], registry: &Registry) -> Result<Ids, CliError> {
    if tokens.len() > MAX_DEVICE_IDS {
        return Err(CliError::DeviceId(DeviceIdError::TooMany {
            limit: MAX_DEVICE_IDS,
        }));
    }
    let mut ids = Ids::default();
    for token in tokens {
        let Some((vendor, device)) = token.split_once(':') else {
            ids.nvidia.push(token.clone());
            continue;
        };
        let hex4 = |s: &str| {
            (s.len() == 4 && s.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u16::from_str_radix(s, 16).ok())
                .flatten()
        };
        let vendor_id = hex4(vendor);
        // `10de:...` keeps NVIDIA's own parsing and sentences; any other `X:Y` that is not two
        // hex quartets is answered with the VVVV:DDDD form, which is what it looks like.
        if vendor_id == Some(NVIDIA_VENDOR_ID) {
            ids.nvidia.push(token.clone());
            continue;
        }
        let (Some(vendor_id), Some(device_id)) = (vendor_id, hex4(device)) else {
            return Err(CliError::Requirement(RequirementInput::BadPciId {
                token: token.clone(),
            }));
        };
        let Some(backend) = registry
            .backends()
            .iter()
            .find(|b| b.pci_vendor_id() == vendor_id)
        else {
            let known: Vec<String> = registry
                .backends()
                .iter()
                .map(|b| format!("{:04x} ({})", b.pci_vendor_id(), b.vendor()))
                .collect();
            return Err(CliError::Requirement(RequirementInput::UnknownVendorId {
                token: token.clone(),
                vendor_id,
                known,
            }));
        };
        ids.others.push((*backend, device_id));
    }
    Ok(ids)
}

/// The `--driver` specs, split: at most one NVIDIA spec (today's forms), and any number of
/// specs of registered components (`rocm:6.2`, `kernel:6.8`, `xe`).
pub fn split_specs(specs: &[String]) -> Result<(Option<DriverSpec>, Vec<StackSpec>), CliError> {
    let registered = registered_components();
    let mut nvidia = None;
    let mut others = Vec::new();
    for spec in specs {
        match parse_spec(spec, &registered) {
            Ok(s) => others.push(s),
            Err(SpecError::BadVersion { reason, .. }) => {
                return Err(CliError::Requirement(RequirementInput::BadStackSpec {
                    spec: spec.clone(),
                    reason,
                }));
            }
            Err(SpecError::Unknown { known, .. }) => match parse_driver_spec(spec) {
                Ok(n) if nvidia.is_none() => nvidia = Some(n),
                Ok(_) => {
                    return Err(CliError::Requirement(RequirementInput::SecondNvidiaSpec {
                        spec: spec.clone(),
                    }));
                }
                Err(e) => {
                    return Err(CliError::Requirement(RequirementInput::BadDriverSpec {
                        error: e,
                        known,
                    }));
                }
            },
        }
    }
    Ok((nvidia, others))
}

/// The requirement a backend gives device `id` asked about by id (no address, no revision),
/// or an unconstrained one naming the vendor when its backend has no table.
fn id_requirement(backend: &dyn GpuBackend, device_id: u16) -> Requirement {
    let dev = PciDevice {
        address: String::new(),
        vendor_id: backend.pci_vendor_id(),
        device_id,
        class: 0x03_00_00,
        revision: None,
    };
    backend.driver_requirement(&dev).unwrap_or_else(|| {
        Requirement::new(backend.vendor(), backend.pci_vendor_id()).with_device_id(device_id)
    })
}

/// The GPUs asked about by id.
pub fn id_gpus(ids: &[(&'static dyn GpuBackend, u16)]) -> Vec<GpuInput> {
    ids.iter()
        .map(|(b, id)| GpuInput {
            vendor: b.vendor(),
            pci_address: None,
            requirement: id_requirement(*b, *id),
        })
        .collect()
}

/// The host's GPUs of every registered vendor but NVIDIA whose backend has a table, in
/// canonical vendor order then bus-address order, and the warnings of the PCI walk.
pub fn host_gpus(host: &Host, registry: &Registry) -> (Vec<GpuInput>, Vec<String>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for b in registry.backends() {
        if b.pci_vendor_id() == NVIDIA_VENDOR_ID {
            continue;
        }
        let (devices, w) = pci::gpus_of_vendor(host, b.pci_vendor_id());
        // The requirement report's warnings stay sentences: its JSON contract has strings.
        warnings.extend(w.iter().map(ToString::to_string));
        out.extend(devices.iter().filter_map(|d| {
            b.driver_requirement(d).map(|requirement| GpuInput {
                vendor: b.vendor(),
                pci_address: Some(d.address.clone()),
                requirement,
            })
        }));
    }
    (out, warnings)
}

/// Refuses a spec none of whose vendors has a GPU in the request.
pub fn check_specs_have_gpus(specs: &[StackSpec], gpus: &[GpuInput]) -> Result<(), CliError> {
    for s in specs {
        if !gpus.iter().any(|g| s.vendors.contains(&g.vendor)) {
            return Err(CliError::Requirement(RequirementInput::SpecWithoutGpu {
                spec: s.spec.clone(),
                vendors: s.vendors.iter().map(|v| v.to_string()).collect(),
            }));
        }
    }
    Ok(())
}

/// Refuses an NVIDIA spec when the request has other vendors' GPUs but no NVIDIA one (by id, or
/// on the host): the spec concerns nothing asked about. With no GPU of any vendor, the NVIDIA
/// answer stays what it has always been ("no NVIDIA GPU found", the spec satisfied).
pub fn check_nvidia_spec_has_gpu(
    spec: Option<&DriverSpec>,
    nvidia_gpus: usize,
    others: &[GpuInput],
) -> Result<(), CliError> {
    match spec {
        Some(d) if nvidia_gpus == 0 && !others.is_empty() => Err(CliError::Requirement(
            RequirementInput::NvidiaSpecWithoutGpu {
                spec: d.spec().to_string(),
            },
        )),
        _ => Ok(()),
    }
}

/// The lines for the vendors beyond NVIDIA.
pub fn render_text(report: &Report) -> String {
    let mut s = String::new();
    for v in &report.vendors {
        for g in &v.gpus {
            if let Some(addr) = &g.pci_address {
                let _ = write!(s, "{addr} ");
            }
            let r = &g.requirement;
            let _ = writeln!(s, "{}: {}", r.who, r.describe);
            for n in &r.notes {
                let _ = writeln!(s, "  note: {n}");
            }
        }
        let display = v
            .gpus
            .first()
            .map_or(v.vendor.as_str(), |g| &g.requirement.vendor);
        match &v.combined {
            Some(c) => {
                let _ = writeln!(s, "{display} combined: {}", c.describe);
            }
            None => {
                let _ = writeln!(s, "{display} combined: none — the GPUs conflict");
            }
        }
        for c in &v.conflicts {
            let _ = writeln!(s, "conflict: {c}");
        }
        match &v.driver {
            Some(d) if d.satisfied => {
                let _ = writeln!(s, "driver {}: satisfies", d.spec);
            }
            Some(d) => {
                let why = d.why_not.as_deref().unwrap_or_default();
                let _ = writeln!(s, "driver {}: does not satisfy — {why}", d.spec);
            }
            None => {}
        }
    }
    for c in &report.host_conflicts {
        let _ = writeln!(s, "conflict: {c}");
    }
    s
}
