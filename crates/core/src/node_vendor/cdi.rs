//! `gpuctl cdi generate` for a [`NodeVendor`] that names its generator's shape
//! ([`NodeVendor::cdi_naming`]): one device per `/dev/<prefix>N` the raw tier would pass, named
//! by the driver's number N (so `vendor:N` means the same node on the CDI tier as on the raw
//! tier), its node then every shared node, and `all` — amd-ctk's shape, built by the same code
//! as AMD's spec ([`crate::cdi_tool::generate`]).

use super::NodeVendor;
use super::nodes::vet_shared;
use crate::cdi_tool::generate::{CdiDraft, CdiNaming, GenerateError, IndexedDevice, amd_ctk};
use crate::probe::Probe;
use crate::text::escape_controls;

impl NodeVendor {
    /// The draft of the vendor's spec from the host's nodes. Every shared node must be one the
    /// raw tier passes (a spec without one would give containers an unusable device); a
    /// per-device entry the raw tier leaves out (a directory, a link to elsewhere) is not a
    /// device of the spec either.
    pub(super) fn draft(
        &self,
        probe: &Probe,
        naming: CdiNaming,
    ) -> Result<CdiDraft, GenerateError> {
        let none = |why: String| GenerateError::NoDevices {
            vendor: self.facts.vendor.to_string(),
            why,
        };
        if naming != CdiNaming::AmdCtk {
            return Err(GenerateError::Unnameable {
                vendor: self.facts.vendor.to_string(),
                naming,
                nodes: self.device_node.to_string(),
            });
        }
        let host = probe.host();
        for node in self.shared_nodes {
            if let Some(why) = vet_shared(host, node) {
                return Err(none(format!(
                    "the shared node {} is not passable ({why})",
                    escape_controls(node)
                )));
            }
        }
        let (_, nodes) = self.nodes(host).map_err(GenerateError::Host)?;
        let devices: Vec<IndexedDevice> = nodes
            .iter()
            .filter(|n| n.left_out.is_none())
            .map(|n| IndexedDevice {
                name: n.number.to_string(),
                nodes: std::iter::once(&n.path)
                    .chain(&n.companions)
                    .cloned()
                    .collect(),
                links: Vec::new(),
            })
            .collect();
        if devices.is_empty() {
            return Err(none(format!("the host has no {}N node", self.device_node)));
        }
        Ok(CdiDraft {
            vendor: self.facts.vendor.to_string(),
            kind: self.facts.kind.to_string(),
            devices: amd_ctk(&devices, self.shared_nodes),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::backend::GpuBackend;
    use crate::host::Host;
    use gpuctl_testkit::Tree;

    const NPU: NodeVendor = NodeVendor {
        facts: crate::node_vendor::VendorFacts {
            cdi_naming: Some(CdiNaming::AmdCtk),
            ..crate::node_vendor::VendorFacts::new("npu", "", "npu.example/chip", 0)
        },
        device_node: "/dev/npu",
        shared_nodes: &["/dev/npu_ctl", "/dev/npu_mem"],
        ..NodeVendor::DEFAULT
    };

    fn draft(vendor: &NodeVendor, t: &Tree) -> Option<Result<CdiDraft, GenerateError>> {
        let host = Host::at(t.root()).unwrap();
        vendor
            .cdi_tooling()
            .cdi_draft(&Probe::new(&host, &[], None))
    }

    /// (name, nodes) of each device, in file order.
    fn shape(d: &CdiDraft) -> Vec<(String, Vec<String>)> {
        d.devices
            .iter()
            .map(|d| (d.name.clone(), d.nodes.clone()))
            .collect()
    }

    #[test]
    fn devices_are_the_driver_s_numbers_then_all_each_with_the_shared_nodes() {
        let t = Tree::new();
        t.dev(&["npu_ctl", "npu_mem", "npu0", "npu2", "npu_x"]);
        t.dir("/dev/npu3");
        let d = draft(&NPU, &t).unwrap().unwrap();
        let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shape(&d),
            vec![
                (
                    "0".into(),
                    v(&["/dev/npu0", "/dev/npu_ctl", "/dev/npu_mem"])
                ),
                (
                    "2".into(),
                    v(&["/dev/npu2", "/dev/npu_ctl", "/dev/npu_mem"])
                ),
                (
                    "all".into(),
                    v(&["/dev/npu0", "/dev/npu2", "/dev/npu_ctl", "/dev/npu_mem"])
                ),
            ]
        );
        assert_eq!(d.kind, "npu.example/chip");
        assert!(
            d.devices
                .iter()
                .all(|d| !d.host_path && d.mounts.is_empty())
        );
        let spec = d.finish().unwrap();
        assert_eq!(spec.cdi_version, "0.5.0");
    }

    #[test]
    fn a_vendor_without_naming_writes_no_spec() {
        let t = Tree::new();
        t.dev(&["npu_ctl", "npu_mem", "npu0"]);
        let mut plain = NPU;
        plain.facts.cdi_naming = None;
        assert!(draft(&plain, &t).is_none());
    }

    #[test]
    fn a_missing_shared_node_or_no_device_node_is_no_spec() {
        let t = Tree::new();
        t.dev(&["npu_ctl", "npu0"]);
        let e = draft(&NPU, &t).unwrap().unwrap_err().to_string();
        assert!(
            e.contains("the shared node /dev/npu_mem is not passable"),
            "{e}"
        );
        t.dev(&["npu_mem"]);
        std::fs::remove_file(t.path("/dev/npu0")).unwrap();
        let e = draft(&NPU, &t).unwrap().unwrap_err().to_string();
        assert!(e.contains("the host has no /dev/npuN node"), "{e}");
    }

    #[test]
    fn the_pci_address_form_is_refused_with_the_remedy() {
        let t = Tree::new();
        t.dev(&["npu_ctl", "npu_mem", "npu0"]);
        let mut intel = NPU;
        intel.facts.cdi_naming = Some(CdiNaming::IntelGenerator);
        let e = draft(&intel, &t).unwrap().unwrap_err();
        assert!(matches!(e, GenerateError::Unnameable { .. }), "{e}");
        assert!(e.to_string().contains("CdiNaming::AmdCtk"), "{e}");
    }
}
