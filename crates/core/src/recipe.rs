//! Plan recipes several vendors share: the CDI tier, and the raw render-node tier that AMD,
//! Intel and render-node plug-ins use. Each adds typed needs to a [`VendorPlan`] and is
//! parameterized by the vendor's CDI kind and PCI vendor id; nothing here knows a particular
//! vendor, and nothing here spells a podman flag.

use crate::backend::{Grant, Probe};
use crate::device::Fact;
use crate::drm::{self, RenderNode};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::plan::{Need, VendorPlan};
use crate::reason::Reason;

/// The CDI devices of a grant on the CDI tier, added to `plan`.
///
/// A whole-vendor grant is `<kind>=all` when a spec declares `all`, otherwise every declared
/// name (Intel's generator declares no `all`). An index must be a declared device name.
pub fn cdi_devices(
    probe: &Probe,
    kind: &str,
    grant: &Grant,
    plan: &mut VendorPlan,
) -> Result<(), GpuError> {
    let vendor = plan.vendor();
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
    for n in names {
        let device = (n != "all").then_some(n.as_str());
        plan.add(Need::CdiDevice(format!("{kind}={n}")), device);
    }
    Ok(())
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

/// The raw render-node recipe, added to `plan`: each `leading` node (AMD's `/dev/kfd`), then
/// the selected render nodes, their by-path links read-only, and the user's groups kept.
pub fn render_nodes(
    probe: &Probe,
    pci_vendor: &str,
    grant: &Grant,
    leading: &[&str],
    plan: &mut VendorPlan,
) -> Result<(), GpuError> {
    let vendor = plan.vendor();
    let nodes = select_render_nodes(probe, vendor, pci_vendor, grant)?;
    for w in &probe.drm()?.warnings {
        plan.notice(w.clone());
    }
    if grant.indexes.is_some() {
        plan.notice(best_effort_warning(vendor, ""));
    }
    for node in leading {
        plan.add(Need::DeviceNode((*node).to_string()), None);
    }
    for node in &nodes {
        plan.add(Need::DeviceNode(node.dev_path()), Some(&node.address));
    }
    let (links, warnings) = drm::by_path_links(probe.host(), &nodes);
    for (node, link) in links {
        plan.add(Need::BindReadOnly(link), Some(&node.address));
    }
    for w in warnings {
        plan.notice(w);
    }
    plan.add(Need::KeepGroups, None);
    Ok(())
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
