//! DRM render nodes, found the way the Python tool finds them: `/sys/class/drm/renderD*`, the
//! PCI vendor from `<node>/device/vendor`, the PCI address from the last component of the raw
//! `<node>/device` link. Used by every vendor whose raw tier hands out render nodes.

use std::path::Path;

use crate::devnode;
use crate::finding::Finding;
use crate::pci::is_pci_address;
use crate::text::escape_controls;
use crate::{Host, HostError};
use gpuctl_cdi::ReadProblem;

/// Where sysfs lists DRM devices.
pub const DRM_SYSFS: &str = "/sys/class/drm";
/// Where the emitted render nodes live (never probed: the sysfs name decides).
pub const DRI_DIR: &str = "/dev/dri";
/// Where udev puts the stable per-PCI-address links.
pub const DRI_BY_PATH_DIR: &str = "/dev/dri/by-path";

/// One render node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderNode {
    /// The sysfs name, `renderD128`.
    pub name: String,
    /// The PCI vendor file's text, stripped (`0x1002`).
    pub vendor: String,
    /// The PCI address (`0000:03:00.0`), or the sysfs name when `device` is not a link.
    pub address: String,
}

impl RenderNode {
    /// The host path of the node, `/dev/dri/renderD128`.
    pub fn dev_path(&self) -> String {
        format!("{DRI_DIR}/{}", self.name)
    }

    /// The udev by-path link of the node, `/dev/dri/by-path/pci-0000:03:00.0-render`.
    pub fn by_path_link(&self) -> String {
        format!("{DRI_BY_PATH_DIR}/pci-{}-render", self.address)
    }
}

/// Every render node of the host, read once per call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DrmScan {
    /// The nodes whose vendor could be read, in sysfs name order.
    pub nodes: Vec<RenderNode>,
    /// Nodes that could not be read.
    pub warnings: Vec<Finding>,
}

impl DrmScan {
    /// The nodes of one PCI vendor (`"0x1002"`, compared exactly), sorted by PCI address and
    /// then node name: index N of a vendor is the N-th of these.
    pub fn of_vendor(&self, pci_vendor: &str) -> Vec<&RenderNode> {
        let mut nodes: Vec<&RenderNode> = self
            .nodes
            .iter()
            .filter(|n| n.vendor == pci_vendor)
            .collect();
        nodes.sort_by(|a, b| a.address.cmp(&b.address).then_with(|| a.name.cmp(&b.name)));
        nodes
    }
}

/// What to check when [`scan`] cannot list `/sys/class/drm`: the remedy its caller prints with
/// the error.
pub const SCAN_REMEDY: &str = "check that /sys is sysfs and readable";

/// Reads `/sys/class/drm/renderD*`. A missing directory is a host without DRM; an unreadable
/// one is an error ([`SCAN_REMEDY`] says what to check), since the answer would otherwise
/// silently lack devices.
pub fn scan(host: &Host) -> Result<DrmScan, HostError> {
    let mut out = DrmScan::default();
    let entries = match host.list_dir(Path::new(DRM_SYSFS)) {
        Ok(e) => e,
        Err(e) if e.is_absent() => return Ok(out),
        Err(e) => return Err(e),
    };
    for entry in entries {
        if !entry.name.as_encoded_bytes().starts_with(b"renderD") {
            continue;
        }
        // The kernel names render minors renderD<number>; anything else there is no node, and
        // its name (a blank, a newline) must never reach a podman argument.
        let Some(name) = entry.name_str().filter(|n| is_render_node_name(n)) else {
            out.warnings.push(Finding::DrmNodeNameInvalid {
                path: format!(
                    "{DRM_SYSFS}/{}",
                    entry.name.to_string_lossy().escape_debug()
                ),
            });
            continue;
        };
        let vendor = match devnode::function_vendor(host, DRM_SYSFS, name) {
            Ok(vendor) => vendor,
            // A platform or virtual DRM device has no PCI vendor file: not a vendor's GPU.
            Err(e) if e.problem == ReadProblem::NotFound => continue,
            Err(e) if e.problem == ReadProblem::NotADirectory => {
                out.warnings.push(Finding::DrmDeviceNotALink {
                    node: name.to_string(),
                    path: format!("{DRM_SYSFS}/{name}/device"),
                });
                continue;
            }
            Err(e) => {
                out.warnings.push(Finding::DrmNodeUnreadable {
                    node: name.to_string(),
                    error: e,
                });
                continue;
            }
        };
        let address = match devnode::function_link(host, DRM_SYSFS, name) {
            // The link's last part becomes a by-path mount and text: a name that is not a PCI
            // address (a ',' or a line break in it) is no PCI device.
            Ok(target) => match target.file_name().and_then(|n| n.to_str()) {
                Some(last) if is_pci_address(last) => last.to_string(),
                _ => {
                    let last = target.file_name().unwrap_or(target.as_os_str());
                    out.warnings.push(Finding::PciAddressInvalid {
                        path: format!("{DRM_SYSFS}/{name}/device"),
                        name: escape_controls(&last.to_string_lossy()).into_owned(),
                    });
                    continue;
                }
            },
            Err(e) => {
                out.warnings.push(Finding::DrmAddressUnknown {
                    node: name.to_string(),
                    error: e,
                });
                name.to_string()
            }
        };
        tracing::debug!("{name}: vendor {vendor}, PCI address {address}");
        out.nodes.push(RenderNode {
            name: name.to_string(),
            vendor,
            address,
        });
    }
    Ok(out)
}

/// True for `renderD` followed by a decimal number, the only render node names the kernel's
/// DRM core makes.
pub fn is_render_node_name(name: &str) -> bool {
    name.strip_prefix("renderD")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The by-path links of `nodes` that exist, in order, to bind read-only, with a warning for
/// each link that is broken (an absent link is normal: udev may not create them).
pub fn by_path_links<'n>(
    host: &Host,
    nodes: &[&'n RenderNode],
) -> (Vec<(&'n RenderNode, String)>, Vec<Finding>) {
    let mut links = Vec::new();
    let mut warnings = Vec::new();
    for node in nodes {
        let link = node.by_path_link();
        match host.exists(Path::new(&link)) {
            Ok(true) => links.push((*node, link)),
            Ok(false) => {}
            Err(e) => warnings.push(Finding::ByPathLinkUnreadable { error: e }),
        }
    }
    (links, warnings)
}

#[cfg(test)]
mod tests;
