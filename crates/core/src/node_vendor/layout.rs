//! The device-class recipe: which of a host's numbered device nodes are one vendor's, proven by
//! sysfs rather than by name. A node `/dev/<dir>/<stem>N` of a [`NodeLayout`] with a sysfs class
//! is the vendor's only when `/sys/class/<class>/<stem>N/device` is one of its PCI functions
//! (that function's `vendor` file is the vendor's id): `/dev/accel` is the kernel's accel class
//! for every driver (Intel's NPU driver, Habana's, AMD's XDNA), so `accel0` by name belongs to
//! nobody in particular. DRM render nodes, which AMD and Intel grant, are decided by the same
//! reads ([`devnode::function_vendor`], [`devnode::function_link`], in [`crate::drm::scan`]);
//! this is the rule for the other classes.
//!
//! A layout also names per-device companion nodes (Habana's `accel_controlDN` beside `accelN`),
//! passed with their device; a vendor lists alternative layouts (Habana's older driver made
//! `/dev/hlN` and `/dev/hl_controlDN`, class `habanalabs`), and the first that has any of the
//! vendor's nodes on the host is the one used (docs/plugins.md, "Device classes").

use std::path::Path;

use super::nodes::{NumberedNode, numbered_nodes, split_prefix};
use crate::devnode;
use crate::error::GpuError;
use crate::host::Host;
use crate::pci::is_pci_address;
use crate::text::escape_controls;
use gpuctl_cdi::ReadProblem;

/// The sysfs class of `/dev/accel/accelN`: the kernel's compute-accelerator subsystem
/// (Documentation/accel/introduction.rst) names every driver's nodes there.
pub const ACCEL_CLASS: &str = "accel";

/// One way a driver lays out its per-device nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeLayout {
    /// Every device's node without its number (`/dev/accel/accel`: `/dev/accel/accel0`, ...).
    pub device_node: &'static str,
    /// The sysfs class that lists the nodes (`accel`: `/sys/class/accel/accel0/device` is the
    /// node's PCI function). A node is granted only when that function is the vendor's. `None`
    /// under `/dev/accel` means `accel`; `None` elsewhere: the name alone decides, for a driver
    /// that owns its names (`/dev/davinciN`) and makes no class.
    pub sysfs_class: Option<&'static str>,
    /// Nodes the driver makes beside each device's node, without the device's number
    /// (`/dev/accel/accel_controlD`: `accel_controlD1` beside `accel1`), passed with it.
    pub companions: &'static [&'static str],
}

impl NodeLayout {
    /// A layout of `device_node` with no class and no companions.
    pub const fn new(device_node: &'static str) -> Self {
        NodeLayout {
            device_node,
            sysfs_class: None,
            companions: &[],
        }
    }

    /// The class whose sysfs entries decide whose a node is: the layout's own, else `accel`
    /// for a node under `/dev/accel`, a directory every accelerator driver shares.
    pub fn owner_class(&self) -> Option<&'static str> {
        self.sysfs_class
            .or_else(|| (split_prefix(self.device_node).0 == "/dev/accel").then_some(ACCEL_CLASS))
    }
}

/// The PCI function sysfs shows a class node belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciFunction {
    /// The function's `vendor` file, stripped (`0x1da3`).
    pub vendor: String,
    /// The function's PCI address (`0000:33:00.0`).
    pub address: String,
}

/// The PCI function of the class node `name` (`/sys/class/<class>/<name>/device`), or why sysfs
/// shows none, in a few words.
pub fn pci_function(host: &Host, class: &str, name: &str) -> Result<PciFunction, String> {
    let class_dir = format!("/sys/class/{class}");
    let device = format!("{class_dir}/{name}/device");
    let vendor = match devnode::function_vendor(host, &class_dir, name) {
        Ok(vendor) => vendor,
        Err(e) if e.problem == ReadProblem::NotFound => {
            return Err(format!("{device} is no PCI function"));
        }
        Err(e) => return Err(format!("{device}/vendor: {}", e.problem)),
    };
    let address = devnode::function_link(host, &class_dir, name)
        .ok()
        .and_then(|target| {
            target
                .file_name()
                .and_then(|n| n.to_str())
                .filter(|n| is_pci_address(n))
                .map(str::to_string)
        });
    let Some(address) = address else {
        return Err(format!("{device} does not lead to a PCI address"));
    };
    Ok(PciFunction { vendor, address })
}

/// The vendor's nodes of one layout, by number. With an owner class, a node whose PCI function
/// is another vendor's is not listed at all (it is not this vendor's device, and its number is
/// not one `vendor:N` may name); one sysfs shows no function for is listed with why it is left
/// out. A node that is a link is judged by the node it leads to, which is what podman would
/// pass. Each grantable node carries its companions that pass ([`devnode::vet_node`]); a
/// companion absent or leading elsewhere is noted in [`NumberedNode::companions_left_out`].
pub fn layout_nodes(
    host: &Host,
    layout: &NodeLayout,
    pci_vendor_id: u16,
) -> Result<Vec<NumberedNode>, GpuError> {
    let mut nodes = numbered_nodes(host, layout.device_node)?;
    if let Some(class) = layout.owner_class() {
        let want = format!("0x{pci_vendor_id:04x}");
        nodes.retain_mut(|node| {
            if node.left_out.is_some() {
                return true;
            }
            let target = host.canonical(Path::new(&node.path)).ok();
            let name = target
                .as_deref()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            match pci_function(host, class, name) {
                Ok(f) if f.vendor == want => {
                    node.address = Some(f.address);
                    true
                }
                Ok(f) => {
                    tracing::debug!("{}: {} at {}, not ours", node.path, f.vendor, f.address);
                    false
                }
                Err(why) => {
                    node.left_out = Some(why);
                    true
                }
            }
        });
    }
    for node in nodes.iter_mut().filter(|n| n.left_out.is_none()) {
        for stem in layout.companions {
            let path = format!("{stem}{}", node.number);
            let itself = |t: &Path| t == Path::new(&path);
            let why = match devnode::vet_node(host, Path::new(&path), itself) {
                Err(why) => Some(why.0),
                Ok(()) => match host.exists(Path::new(&path)) {
                    Ok(true) => None,
                    Ok(false) => Some("missing".to_string()),
                    Err(e) => Some(e.problem.to_string()),
                },
            };
            match why {
                None => node.companions.push(path),
                Some(why) => node
                    .companions_left_out
                    .push(format!("{} ({why})", escape_controls(&path))),
            }
        }
    }
    Ok(nodes)
}

/// The first of `layouts` with any node on the host, and its nodes; the first layout and no
/// node when none has one.
pub fn active_layout(
    host: &Host,
    layouts: &[NodeLayout],
    pci_vendor_id: u16,
) -> Result<(NodeLayout, Vec<NumberedNode>), GpuError> {
    for layout in layouts.iter().filter(|l| !l.device_node.is_empty()) {
        let nodes = layout_nodes(host, layout, pci_vendor_id)?;
        if !nodes.is_empty() {
            return Ok((*layout, nodes));
        }
    }
    let first = layouts.first().copied().unwrap_or(NodeLayout::new(""));
    Ok((first, Vec::new()))
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
