//! Argument recipes several vendors share: the CDI tier, and the raw render-node tier that AMD,
//! Intel and render-node plug-ins use. Each is parameterized by the vendor's name, CDI kind and
//! PCI vendor id; nothing here knows a particular vendor.

use crate::backend::{Grant, Probe, RunArgs};
use crate::device::Fact;
use crate::drm::{self, RenderNode};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::reason::Reason;

/// `--group-add keep-groups`: keeps the invoking user's groups (render, video) in the
/// container. Honoured by crun only; runc drops the groups silently.
pub const KEEP_GROUPS: [&str; 2] = ["--group-add", "keep-groups"];

/// `--device <kind>=<name>` for a grant on the CDI tier.
///
/// A whole-vendor grant is `<kind>=all` when a spec declares `all`, otherwise every declared
/// name (Intel's generator declares no `all`). An index must be a declared device name.
pub fn cdi_device_args(
    probe: &Probe,
    vendor: &str,
    kind: &str,
    grant: &Grant,
) -> Result<Vec<String>, GpuError> {
    let cdi = probe.cdi();
    let names: Vec<String> = match &grant.indexes {
        None if cdi.has_device(kind, "all") => vec!["all".to_string()],
        None => cdi
            .device_names(kind)
            .into_iter()
            .map(str::to_string)
            .collect(),
        Some(indexes) => {
            let bad: Vec<u32> = indexes
                .iter()
                .copied()
                .filter(|i| !cdi.has_device(kind, &i.to_string()))
                .collect();
            if !bad.is_empty() {
                return Err(GpuError::CdiDeviceUndeclared {
                    vendor: vendor.to_string(),
                    kind: kind.to_string(),
                    bad,
                    declared: cdi
                        .device_names(kind)
                        .into_iter()
                        .map(str::to_string)
                        .collect(),
                });
            }
            indexes.iter().map(u32::to_string).collect()
        }
    };
    Ok(names
        .into_iter()
        .flat_map(|n| ["--device".to_string(), format!("{kind}={n}")])
        .collect())
}

/// One sentence saying which spec files make `kind` available ([`Reason::cdi`] as text).
pub fn cdi_reason(probe: &Probe, kind: &str) -> String {
    Reason::cdi(probe, kind).to_string()
}

/// The stderr warning for an index grant without CDI; `extra` is the vendor's addition to the
/// sentence, led by a space.
pub fn best_effort_warning(vendor: &str, extra: &str) -> Finding {
    Finding::IndexBestEffort {
        vendor: vendor.to_string(),
        note: extra.to_string(),
    }
}

/// The render nodes a grant selects: all of the vendor's, or the ones at the given indexes
/// (PCI-address order). No node at all is an error naming the vendor; an index beyond the
/// nodes is an error listing them.
pub fn select_render_nodes<'p>(
    probe: &'p Probe,
    vendor: &str,
    pci_vendor: &str,
    grant: &Grant,
) -> Result<Vec<&'p RenderNode>, GpuError> {
    let nodes = probe.drm()?.of_vendor(pci_vendor);
    if nodes.is_empty() {
        return Err(GpuError::NoRenderNode {
            vendor: vendor.to_string(),
            dir: drm::DRM_SYSFS.to_string(),
        });
    }
    let Some(indexes) = &grant.indexes else {
        return Ok(nodes);
    };
    let bad: Vec<u32> = indexes
        .iter()
        .copied()
        .filter(|&i| i as usize >= nodes.len())
        .collect();
    if !bad.is_empty() {
        return Err(GpuError::IndexOutOfRange {
            vendor: vendor.to_string(),
            bad,
            available: nodes.iter().map(|n| n.address.clone()).collect(),
        });
    }
    Ok(indexes.iter().map(|&i| nodes[i as usize]).collect())
}

/// The raw render-node recipe: `--device` for each `leading` node (AMD's `/dev/kfd`), then the
/// selected render nodes, their by-path links read-only, and `--group-add keep-groups`.
pub fn render_node_args(
    probe: &Probe,
    vendor: &str,
    pci_vendor: &str,
    grant: &Grant,
    leading: &[&str],
) -> Result<RunArgs, GpuError> {
    let nodes = select_render_nodes(probe, vendor, pci_vendor, grant)?;
    let mut out = RunArgs::default();
    out.warnings.extend(probe.drm()?.warnings.iter().cloned());
    if grant.indexes.is_some() {
        out.warnings.push(best_effort_warning(vendor, ""));
    }
    for node in leading {
        out.args
            .extend(["--device".to_string(), (*node).to_string()]);
    }
    for node in &nodes {
        out.args.extend(["--device".to_string(), node.dev_path()]);
    }
    let (mounts, warnings) = drm::by_path_mounts(probe.host(), &nodes);
    out.args.extend(mounts);
    out.warnings.extend(warnings);
    out.args.extend(KEEP_GROUPS.map(str::to_string));
    Ok(out)
}

/// The devices of a render-node vendor for `detect`: its render nodes in index order.
pub fn render_node_devices(
    probe: &Probe,
    pci_vendor: &str,
) -> Result<Vec<crate::Device>, GpuError> {
    Ok(probe
        .drm()?
        .of_vendor(pci_vendor)
        .iter()
        .enumerate()
        .map(|(i, n)| {
            crate::Device::new(i, Some(n.address.clone()))
                .with(Fact::shown("render_node", n.dev_path()))
        })
        .collect())
}
