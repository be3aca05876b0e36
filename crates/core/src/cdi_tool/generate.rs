//! `gpuctl cdi generate VENDOR`: a CDI spec for a vendor whose nodes gpuctl knows as data, one
//! device per GPU named as the vendor's own generator names it, at the oldest `cdiVersion` the
//! spec's content needs (the CDI library's `MinimumRequiredVersion` rules, which gpuctl-cdi
//! keeps). The shapes, with their sources, are in docs/cdi.md#gpuctl-cdi-generate:
//!
//! - [`CdiNaming::AmdCtk`], after ROCm/container-toolkit `internal/cdi/cdi.go` (`GenerateSpec`):
//!   devices `0`, `1`, ... in the GPUs' order, each its card and render node then `/dev/kfd`,
//!   and `all` with every GPU's nodes then `/dev/kfd`.
//! - [`CdiNaming::IntelGenerator`], after intel/intel-resource-drivers-for-kubernetes
//!   `pkg/gpu/cdihelpers` (`addDRMEdits`, `addBypathMounts`) and `DeviceUIDFromPCIinfo`: one
//!   device per GPU named by its PCI address with `-` for `:` and `.`, then its device id
//!   (`0000-0f-00-0-0x56c0`), its card and render nodes with `hostPath`, its by-path links
//!   bound.

use std::path::Path;

use gpuctl_cdi::check::required_version;
use gpuctl_cdi::spec::{SpecFormat, parse_spec};
use gpuctl_cdi::version::{format_version, min_podman};
use serde::Serialize;
use thiserror::Error;

use crate::drm::{DRI_BY_PATH_DIR, DRI_DIR, RenderNode};
use crate::error::GpuError;
use crate::pci::is_pci_address;
use crate::probe::Probe;

/// How a vendor's own CDI generator names and shapes its devices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CdiNaming {
    /// `amd-ctk cdi generate`: `0`, `1`, ... and `all`; the shared node after each GPU's nodes.
    AmdCtk,
    /// `intel-cdi-specs-generator gpu`: PCI address and device id, nodes with `hostPath`.
    IntelGenerator,
}

/// One device of a spec being written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftDevice {
    /// The device name (`0`, `0000-0f-00-0-0x56c0`).
    pub name: String,
    /// Host device nodes, bound at the same path.
    pub nodes: Vec<String>,
    /// Whether each node names its `hostPath` too (Intel's generator does).
    pub host_path: bool,
    /// Host files (udev's by-path links) bound at the same path, read-write as Intel's
    /// generator binds them (a read-only mount would refuse opening the node for writing).
    pub mounts: Vec<String>,
}

/// A spec before its `cdiVersion` is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdiDraft {
    /// The vendor, for sentences.
    pub vendor: String,
    /// `kind`.
    pub kind: String,
    /// The devices, in the order the vendor's generator writes them.
    pub devices: Vec<DraftDevice>,
}

/// A spec ready to write, with what `generate` says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedSpec {
    /// `kind`.
    pub kind: String,
    /// The `cdiVersion` chosen: the oldest the content needs.
    pub cdi_version: String,
    /// The oldest podman that loads it.
    pub min_podman: &'static str,
    /// The device names, in file order.
    pub devices: Vec<String>,
    /// The spec as JSON, ending in a newline.
    pub text: String,
}

/// Why no spec was written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The vendor's GPUs are not there to name.
    #[error("{vendor}: {why}, so there is no device to write a CDI spec for")]
    NoDevices {
        /// The vendor.
        vendor: String,
        /// What is missing.
        why: String,
    },
    /// The spec gpuctl built is one the CDI library refuses (a host name it cannot take).
    #[error(
        "the {vendor} CDI spec gpuctl built is one podman's CDI library refuses ({reason}); report it as a gpuctl bug with the host's /sys/class/drm"
    )]
    Invalid {
        /// The vendor.
        vendor: String,
        /// The library's reason.
        reason: String,
    },
    /// The vendor's naming needs a fact its nodes do not carry: the PCI-address form names a
    /// render node's PCI function, and a numbered node (`/dev/davinciN`) has none gpuctl reads.
    #[error(
        "{vendor}: the plug-in's cdi_naming {naming:?} needs each device's PCI address, which gpuctl cannot read for {nodes}N nodes; set cdi_naming to CdiNaming::AmdCtk (devices named by the driver's numbers) in the plug-in"
    )]
    Unnameable {
        /// The vendor.
        vendor: String,
        /// The naming the plug-in asked for.
        naming: CdiNaming,
        /// The vendor's per-device node without its number (`/dev/davinci`).
        nodes: String,
    },
    /// The host could not be read.
    #[error("{0}")]
    Host(GpuError),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SpecOut<'a> {
    cdi_version: String,
    kind: &'a str,
    devices: Vec<DeviceOut<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeviceOut<'a> {
    name: &'a str,
    container_edits: EditsOut<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EditsOut<'a> {
    device_nodes: Vec<NodeOut<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mounts: Vec<MountOut<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NodeOut<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_path: Option<&'a str>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MountOut<'a> {
    host_path: &'a str,
    container_path: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    options: [&'static str; 2],
}

impl CdiDraft {
    fn encode(&self, version: &str) -> Result<String, GenerateError> {
        let spec = SpecOut {
            cdi_version: version.to_string(),
            kind: &self.kind,
            devices: self
                .devices
                .iter()
                .map(|d| DeviceOut {
                    name: &d.name,
                    container_edits: EditsOut {
                        device_nodes: d
                            .nodes
                            .iter()
                            .map(|n| NodeOut {
                                path: n,
                                host_path: d.host_path.then_some(n.as_str()),
                                kind: d.host_path.then_some("c"),
                            })
                            .collect(),
                        mounts: d
                            .mounts
                            .iter()
                            .map(|m| MountOut {
                                host_path: m,
                                container_path: m,
                                kind: "none",
                                options: ["bind", "rw"],
                            })
                            .collect(),
                    },
                })
                .collect(),
        };
        let mut text = serde_json::to_string_pretty(&spec).map_err(|e| self.invalid(e))?;
        text.push('\n');
        Ok(text)
    }

    fn invalid(&self, reason: impl std::fmt::Display) -> GenerateError {
        GenerateError::Invalid {
            vendor: self.vendor.clone(),
            reason: reason.to_string(),
        }
    }

    /// The spec at the oldest `cdiVersion` its content needs, checked with the CDI library's
    /// rules before it is handed out.
    pub fn finish(&self) -> Result<GeneratedSpec, GenerateError> {
        let probe_text = self.encode("0.3.0")?;
        let version =
            required_version(probe_text.as_bytes()).map_err(|e| self.invalid(e.reason()))?;
        let text = self.encode(&format_version(version))?;
        let parsed =
            parse_spec(text.as_bytes(), SpecFormat::Json).map_err(|e| self.invalid(e.reason()))?;
        Ok(GeneratedSpec {
            kind: parsed.kind,
            cdi_version: parsed.cdi_version,
            min_podman: min_podman(version),
            devices: parsed.device_names,
            text,
        })
    }
}

/// One GPU of a render-node vendor, as a generator sees it.
struct Gpu {
    address: String,
    device_id: Option<u16>,
    card: Option<String>,
    render: String,
    links: Vec<String>,
}

/// The draft for a render-node vendor: its GPUs (`nodes`, the vendor's render nodes in
/// PCI-address order, the order of `vendor:N`), each with its card node from the PCI function's `drm/` directory and
/// the by-path links udev made, named and shaped as `naming` says.
pub fn render_node_draft(
    probe: &Probe,
    vendor: &str,
    kind: &str,
    nodes: &[&RenderNode],
    shared_node: Option<&str>,
    naming: CdiNaming,
) -> Result<CdiDraft, GenerateError> {
    let host = probe.host();
    let none = |why: String| GenerateError::NoDevices {
        vendor: vendor.to_string(),
        why,
    };
    if let Some(node) = shared_node {
        let there = host
            .exists(Path::new(node))
            .map_err(|e| GenerateError::Host(GpuError::host(e, "check the host's /dev")))?;
        if !there {
            return Err(none(format!("the host has no {node}")));
        }
    }
    let mut gpus = Vec::new();
    for node in nodes {
        // Only a PCI function's name becomes a device name or a path (docs/output-safety.md).
        if !is_pci_address(&node.address) {
            continue;
        }
        let card = card_of(probe, &node.address);
        let mut links = Vec::new();
        for (suffix, present) in [("card", card.is_some()), ("render", true)] {
            let link = format!("{DRI_BY_PATH_DIR}/pci-{}-{suffix}", node.address);
            if present && host.exists(Path::new(&link)).unwrap_or(false) {
                links.push(link);
            }
        }
        gpus.push(Gpu {
            address: node.address.clone(),
            device_id: probe
                .pci()
                .gpus()
                .iter()
                .find(|d| d.address == node.address)
                .map(|d| d.device_id),
            card,
            render: node.dev_path(),
            links,
        });
    }
    if gpus.is_empty() {
        return Err(none(format!(
            "no {vendor} render node is under /sys/class/drm"
        )));
    }
    let devices = match naming {
        CdiNaming::AmdCtk => {
            let indexed: Vec<IndexedDevice> = gpus
                .iter()
                .enumerate()
                .map(|(i, g)| IndexedDevice {
                    name: i.to_string(),
                    nodes: gpu_nodes(g),
                    links: g.links.clone(),
                })
                .collect();
            amd_ctk(&indexed, shared_node.as_slice())
        }
        CdiNaming::IntelGenerator => intel_generator(&gpus).map_err(none)?,
    };
    Ok(CdiDraft {
        vendor: vendor.to_string(),
        kind: kind.to_string(),
        devices,
    })
}

/// The card node beside a render node: `drm/cardN` of the same PCI function.
fn card_of(probe: &Probe, address: &str) -> Option<String> {
    let dir = format!("/sys/bus/pci/devices/{address}/drm");
    let entries = probe.host().list_dir(Path::new(&dir)).ok()?;
    let mut cards: Vec<String> = entries
        .into_iter()
        .filter_map(|e| e.name_str().map(str::to_string))
        .filter(|n| {
            n.strip_prefix("card")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    cards.sort();
    let card = format!("{DRI_DIR}/{}", cards.first()?);
    probe
        .host()
        .exists(Path::new(&card))
        .unwrap_or(false)
        .then_some(card)
}

fn gpu_nodes(g: &Gpu) -> Vec<String> {
    g.card.iter().cloned().chain([g.render.clone()]).collect()
}

/// One device before `amd-ctk`'s shape is applied: its index name, its own nodes, its links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexedDevice {
    /// The name (`0`): the GPU's position for a render-node vendor, the driver's number for a
    /// node vendor (the `N` of `vendor:N` either way).
    pub(crate) name: String,
    /// The device's own nodes, without the shared ones.
    pub(crate) nodes: Vec<String>,
    /// Its by-path links, bound at the same path.
    pub(crate) links: Vec<String>,
}

/// `amd-ctk`'s shape: each device's own nodes then the shared nodes, then `all` with every
/// device's nodes then the shared nodes once.
pub(crate) fn amd_ctk(devices: &[IndexedDevice], shared: &[&str]) -> Vec<DraftDevice> {
    let shared: Vec<String> = shared.iter().map(|s| s.to_string()).collect();
    let mut out: Vec<DraftDevice> = devices
        .iter()
        .map(|d| DraftDevice {
            name: d.name.clone(),
            nodes: d.nodes.iter().cloned().chain(shared.clone()).collect(),
            host_path: false,
            mounts: d.links.clone(),
        })
        .collect();
    out.push(DraftDevice {
        name: "all".to_string(),
        nodes: devices
            .iter()
            .flat_map(|d| d.nodes.clone())
            .chain(shared)
            .collect(),
        host_path: false,
        mounts: devices.iter().flat_map(|d| d.links.clone()).collect(),
    });
    out
}

/// Intel's names need the device id: a GPU whose id the PCI scan did not read has no name.
fn intel_generator(gpus: &[Gpu]) -> Result<Vec<DraftDevice>, String> {
    gpus.iter()
        .map(|g| {
            let id = g.device_id.ok_or_else(|| {
                format!(
                    "the PCI device id of {} cannot be read (/sys/bus/pci/devices/{}/device)",
                    g.address, g.address
                )
            })?;
            Ok(DraftDevice {
                name: format!("{}-0x{id:04x}", g.address.replace([':', '.'], "-")),
                nodes: gpu_nodes(g),
                host_path: true,
                mounts: g.links.clone(),
            })
        })
        .collect()
}
