//! The CDI tier's recipe, which every vendor with a CDI kind shares (NVIDIA, the render-node
//! and node vendors, plug-ins), and the best-effort notice of an index grant without CDI.

use crate::backend::Grant;
use crate::error::GpuError;
use crate::finding::Finding;
use crate::plan::VendorPlan;
use crate::probe::Probe;
use crate::reason::Reason;

/// The CDI devices of a grant on the CDI tier, added to `plan`: [`cdi_devices_of`] with one
/// kind. Returns the fully qualified names granted (`amd.com/gpu=all`).
pub fn cdi_devices(
    probe: &Probe,
    kind: &str,
    grant: &Grant,
    plan: &mut VendorPlan,
) -> Result<Vec<String>, GpuError> {
    cdi_devices_of(probe, &[kind], grant, plan)
}

/// The CDI devices of a grant on the CDI tier, for a vendor with one or more kinds (its main kind
/// first), added to `plan`. Returns the fully qualified names granted, in plan order.
///
/// A whole-vendor grant is, for each kind a valid spec declares, `<kind>=all` when a spec
/// declares `all`, otherwise every declared name (Intel's generator declares no `all`). An index
/// or a name must be a device name a valid spec declares, matched with its case
/// (docs/selector.md#device-names), and is granted from the first of the kinds that declares it.
pub fn cdi_devices_of(
    probe: &Probe,
    kinds: &[&str],
    grant: &Grant,
    plan: &mut VendorPlan,
) -> Result<Vec<String>, GpuError> {
    let vendor = plan.vendor();
    let cdi = probe.cdi();
    let declared_kinds: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| cdi.kind_declared(k))
        .collect();
    // (kind, name) of each device granted, in plan order.
    let mut granted: Vec<(&str, String)> = Vec::new();
    match grant.cdi_names() {
        None => {
            for kind in &declared_kinds {
                if cdi.has_device(kind, "all") {
                    granted.push((kind, "all".to_string()));
                } else {
                    granted.extend(
                        cdi.device_names(kind)
                            .iter()
                            .map(|n| (*kind, n.to_string())),
                    );
                }
            }
        }
        Some(asked) => {
            let mut bad = Vec::new();
            for n in asked {
                match declared_kinds.iter().find(|k| cdi.has_device(k, &n)) {
                    Some(kind) => granted.push((kind, n)),
                    None => bad.push(n),
                }
            }
            if !bad.is_empty() {
                let kind = declared_kinds
                    .first()
                    .or(kinds.first())
                    .copied()
                    .unwrap_or_default();
                let mut declared: Vec<String> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for k in &declared_kinds {
                    for n in cdi.device_names(k) {
                        if seen.insert(n) {
                            declared.push(n.to_string());
                        }
                    }
                }
                return Err(GpuError::CdiDeviceUndeclared {
                    vendor: vendor.to_string(),
                    kind: kind.to_string(),
                    bad,
                    declared,
                });
            }
        }
    }
    let mut names = Vec::new();
    for (kind, n) in granted {
        let device = (n != "all").then_some(n.as_str());
        // What the spec says the device creates and sets (its nodes' gid and mode: docker's
        // groups on the CDI tier).
        let edits = cdi.device_edits(kind, &n).unwrap_or_default();
        plan.add_cdi(format!("{kind}={n}"), device, edits);
        names.push(format!("{kind}={n}"));
    }
    Ok(names)
}

/// One sentence saying which spec files make `kind` available ([`Reason::cdi`] as text).
pub fn cdi_reason(probe: &Probe, kind: &str) -> String {
    Reason::cdi(probe, kind).to_string()
}

/// The stderr warning for an index grant without CDI, devices numbered in PCI bus-address
/// order; `extra` is the vendor's addition to the sentence, led by a space.
pub fn best_effort_warning(vendor: &str, extra: &str) -> Finding {
    Finding::IndexBestEffort {
        vendor: vendor.to_string(),
        note: extra.to_string(),
        numbering: None,
    }
}

/// The same warning for a vendor whose `vendor:N` is its own numbering, which `numbering`
/// states (`ascend:N is /dev/davinciN, the driver's own number`).
pub fn best_effort_warning_numbered(vendor: &str, numbering: &str, extra: &str) -> Finding {
    Finding::IndexBestEffort {
        vendor: vendor.to_string(),
        note: extra.to_string(),
        numbering: Some(numbering.to_string()),
    }
}
