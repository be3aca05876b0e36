//! The raw render-node tier of a [`NodeVendor`](crate::node_vendor::NodeVendor) whose devices
//! are DRM render nodes (AMD, Intel): which render nodes are the vendor's, which of them a grant
//! selects, and the nodes, by-path links and groups it adds to a plan.

use std::path::Path;

use super::best_effort_warning;
use crate::backend::Grant;
use crate::detect::Fact;
use crate::devnode;
use crate::drm::{self, RenderNode};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::pci;
use crate::plan::{Need, VendorPlan};
use crate::probe::Probe;

/// The render nodes of the vendor's GPUs, sorted by PCI address: sysfs shows each node's PCI
/// function and its vendor ([`crate::drm::scan`]), and a node whose function the PCI bus lists
/// under a base class outside `classes` is another device of the same vendor id (Intel's NPU, a
/// 0x12 function, under Intel's 0x8086), never one of its GPUs (docs/vendors.md#intel-npu).
pub fn vendor_render_nodes<'p>(
    probe: &'p Probe,
    pci_vendor_id: u16,
    classes: &[u8],
) -> Result<Vec<&'p RenderNode>, GpuError> {
    let nodes = probe.drm()?.of_vendor(&format!("0x{pci_vendor_id:04x}"));
    // Each node's own function's class, read from its `class` file: the bus is not walked (a
    // host of 4,096 NVIDIA GPUs and two AMD ones asks this on every `args all`). A function of
    // a GPU class the vendor does not count (Intel's NPU, 0x12) is not its GPU; one whose class
    // cannot be read is kept, as the drm scan found it the vendor's.
    let host = probe.host();
    Ok(nodes
        .into_iter()
        .filter(|n| {
            pci::function_base_class(host, &n.address).is_none_or(|base| {
                !pci::GPU_BASE_CLASSES.contains(&base) || classes.contains(&base)
            })
        })
        .collect())
}

/// The render nodes a grant selects: all of the vendor's, or the ones at the given indexes
/// (PCI-address order). No node at all is an error naming the vendor; an index beyond the
/// nodes is an error listing them.
pub fn select_render_nodes<'p>(
    probe: &'p Probe,
    vendor: &str,
    (pci_vendor_id, classes): (u16, &[u8]),
    grant: &Grant,
) -> Result<Vec<&'p RenderNode>, GpuError> {
    let nodes = vendor_render_nodes(probe, pci_vendor_id, classes)?;
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
        return Err(GpuError::index_out_of_range(
            vendor,
            bad,
            (0u32..).zip(nodes.iter().map(|n| n.address.clone())),
        ));
    }
    Ok(indexes.iter().map(|&i| nodes[i as usize]).collect())
}

/// The raw render-node recipe, added to `plan`: each `leading` node (AMD's `/dev/kfd`), then
/// the selected render nodes, their by-path links read-only, and the user's groups kept. A node
/// or by-path link that is a symbolic link is granted only when it leads to the vendor's own
/// node ([`devnode`]); the rest are left out with one warning naming them, and a grant left with
/// no render node is refused.
pub fn render_nodes(
    probe: &Probe,
    owner: (u16, &[u8]),
    grant: &Grant,
    leading: &[&str],
    plan: &mut VendorPlan,
) -> Result<(), GpuError> {
    let vendor = plan.vendor();
    let host = probe.host();
    let nodes = select_render_nodes(probe, vendor, owner, grant)?;
    let all = vendor_render_nodes(probe, owner.0, owner.1)?;
    let own_render =
        |t: &Path| devnode::is_node_in(t, drm::DRI_DIR, |n| all.iter().any(|x| x.name == n));
    let mut left_out = Vec::new();
    let mut leading_kept = Vec::new();
    for node in leading {
        match devnode::vet_node(host, Path::new(node), |t| t == Path::new(node)) {
            Ok(()) => leading_kept.push(*node),
            Err(why) => left_out.push(format!("{node} ({})", why.0)),
        }
    }
    let mut kept = Vec::new();
    for node in nodes {
        match devnode::vet_node(host, Path::new(&node.dev_path()), own_render) {
            Ok(()) => kept.push(node),
            Err(why) => left_out.push(format!("{} ({})", node.dev_path(), why.0)),
        }
    }
    let (links, warnings) = drm::by_path_links(host, &kept);
    let mut kept_links = Vec::new();
    for (node, link) in links {
        // udev's link leads to the node's own entry (which may itself be a vetted link).
        let dev = node.dev_path();
        let same = |t: &Path| host.canonical(Path::new(&dev)).is_ok_and(|d| d == t);
        match devnode::vet_link(host, Path::new(&link), same) {
            Ok(_) => kept_links.push((node, link)),
            Err(why) => left_out.push(format!("{link} ({})", why.0)),
        }
    }
    let not_granted = (!left_out.is_empty()).then(|| left_out.join(", "));
    if kept.is_empty() {
        return Err(GpuError::Unserved {
            vendor: vendor.to_string(),
            message: format!(
                "not granted: {} — a {vendor} device node that is a symbolic link is passed only when it leads to the vendor's own node; check the host's /dev",
                not_granted.unwrap_or_default()
            ),
        });
    }
    for w in &probe.drm()?.warnings {
        plan.notice(w.clone());
    }
    if grant.indexes.is_some() {
        plan.notice(best_effort_warning(vendor, ""));
    }
    if let Some(entries) = not_granted {
        plan.notice(Finding::DeviceLinksNotGranted {
            vendor: vendor.to_string(),
            entries,
        });
    }
    for node in leading_kept {
        plan.add(Need::DeviceNode(node.to_string()), None);
    }
    for node in &kept {
        plan.add(Need::DeviceNode(node.dev_path()), Some(&node.address));
    }
    for (node, link) in kept_links {
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
    (pci_vendor_id, classes): (u16, &[u8]),
) -> Result<Vec<crate::detect::Device>, GpuError> {
    Ok(vendor_render_nodes(probe, pci_vendor_id, classes)?
        .iter()
        .enumerate()
        .map(|(i, n)| {
            crate::detect::Device::new(i, Some(n.address.clone()))
                .with(Fact::shown("render_node", n.dev_path()))
        })
        .collect())
}
