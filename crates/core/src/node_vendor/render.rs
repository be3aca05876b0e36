//! A [`NodeVendor`] whose devices are DRM render nodes ([`RENDER_NODE`]): AMD and Intel. The
//! nodes are found through `/sys/class/drm`, each granted only when sysfs shows it belongs to one
//! of the vendor's PCI functions of its PCI classes ([`vendor_render_nodes`]); `vendor:N` is the
//! N-th of them in PCI-address order; a shared node (AMD's `/dev/kfd`) is passed first and
//! required; the raw tier passes udev's by-path links read-only beside the nodes
//! ([`render_nodes`]). Kept apart from the numbered-node recipe, whose nodes are named by the
//! driver's own numbers.

use super::NodeVendor;
use crate::backend::Grant;
use crate::detect::VendorReport;
use crate::error::GpuError;
use crate::plan::{Tier, VendorPlan};
use crate::probe::Probe;
use crate::render_recipe::requirement::with_requirements;
use crate::render_recipe::{
    cdi_reason, render_node_devices, render_nodes, select_render_nodes, vendor_render_nodes,
};

/// The `device_node` of a vendor whose devices are DRM render nodes (`/dev/dri/renderD128`),
/// listed by the kernel's `drm` class in `/sys/class/drm`.
pub const RENDER_NODE: &str = "/dev/dri/renderD";

impl NodeVendor {
    /// True when the vendor's devices are DRM render nodes.
    pub fn is_render(&self) -> bool {
        self.device_node == RENDER_NODE
    }

    /// Whose render nodes are the vendor's: its PCI vendor id and classes.
    fn owner(&self) -> (u16, &'static [u8]) {
        (self.facts.pci_vendor_id, self.facts.pci_classes)
    }

    /// Every shared node exists (a dangling link counts as absent).
    fn has_shared_nodes(&self, probe: &Probe) -> Result<bool, GpuError> {
        Ok(self.missing_shared(probe)?.is_empty())
    }

    /// The shared nodes in a sentence (`/dev/kfd`).
    fn shared_text(&self) -> Option<String> {
        (!self.shared_nodes.is_empty()).then(|| self.shared_nodes.join(", "))
    }

    /// CDI when a valid spec declares a kind; raw when the shared nodes and at least one of the
    /// vendor's render nodes exist (a shared node alone is no GPU).
    pub(super) fn render_tier(&self, probe: &Probe) -> Result<Option<Tier>, GpuError> {
        let (id, classes) = self.owner();
        Ok(if self.declared_kind(probe).is_some() {
            Some(Tier::Cdi)
        } else if self.has_shared_nodes(probe)?
            && !vendor_render_nodes(probe, id, classes)?.is_empty()
        {
            Some(Tier::Raw)
        } else {
            None
        })
    }

    /// Why an unusable render-node vendor cannot be granted: with the shared nodes present but
    /// no render node, the recipe's "no render node" error; otherwise the vendor's own sentence.
    pub(super) fn render_unusable(&self, probe: &Probe, grant: &Grant) -> GpuError {
        let facts = &self.facts;
        if !self.shared_nodes.is_empty() {
            match self.has_shared_nodes(probe) {
                Err(e) => return e,
                Ok(true) => {
                    if let Err(e) = select_render_nodes(probe, facts.vendor, self.owner(), grant) {
                        return e;
                    }
                }
                Ok(false) => {}
            }
        }
        GpuError::Unserved {
            vendor: facts.vendor.to_string(),
            message: facts.unserved.to_string(),
        }
    }

    /// The raw tier's plan: the shared nodes, then the granted render nodes.
    pub(super) fn render_plan(
        &self,
        probe: &Probe,
        grant: &Grant,
        plan: &mut VendorPlan,
    ) -> Result<(), GpuError> {
        render_nodes(probe, self.owner(), grant, self.shared_nodes, plan)
    }

    /// `gpuctl cdi generate`'s draft in the shape of the vendor's own generator.
    pub(super) fn render_draft(
        &self,
        probe: &Probe,
        naming: crate::cdi_tool::generate::CdiNaming,
    ) -> Result<crate::cdi_tool::generate::CdiDraft, crate::cdi_tool::generate::GenerateError> {
        let f = &self.facts;
        let (id, classes) = self.owner();
        let nodes = vendor_render_nodes(probe, id, classes)
            .map_err(crate::cdi_tool::generate::GenerateError::Host)?;
        let shared = self.shared_nodes.first().copied();
        let draft = crate::cdi_tool::generate::render_node_draft;
        draft(probe, f.vendor, f.kind, &nodes, shared, naming)
    }

    /// The report for `detect`: the tier, why, and the render nodes in index order.
    pub(super) fn render_report(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
    ) -> Result<VendorReport, GpuError> {
        let f = &self.facts;
        let found = render_node_devices(probe, self.owner())?;
        let mut devices = with_requirements(f.requirement, f.pci_vendor_id, probe, found);
        if let Some(facts) = f.device_facts {
            for device in &mut devices {
                let more = facts(probe, device);
                device.facts.extend(more);
            }
        }
        let (d, kind, n, noun) = (f.name(), f.kind, devices.len(), f.device_noun);
        let shared = self
            .shared_text()
            .map(|s| (s, self.has_shared_nodes(probe)));
        // GPUs the bus lists but no driver serves are not "no GPU": doctor says why.
        let on_bus = match tier {
            None => probe.pci().gpus_of(f.pci_vendor_id, f.pci_classes).0.len(),
            Some(_) => 0,
        };
        let none = if on_bus > 0 {
            format!(
                "{on_bus} {d} {noun}(s) on the PCI bus but none usable ('gpuctl doctor' says why)"
            )
        } else {
            format!("no {d} {noun}")
        };
        let reason = match (tier, shared) {
            (Some(Tier::Cdi), _) => cdi_reason(probe, self.declared_kind(probe).unwrap_or(kind)),
            (Some(_), Some((s, _))) => format!(
                "raw device nodes: {s} and {n} {d} render node(s) under /sys/class/drm (no valid CDI spec declares {kind})"
            ),
            (Some(_), None) => format!(
                "raw device nodes: {n} {d} render node(s) under /sys/class/drm (no valid CDI spec declares {kind})"
            ),
            (None, Some((s, Ok(true)))) => format!(
                "{s} exists but no {d} render node is under /sys/class/drm, and no valid CDI spec declares {kind}"
            ),
            (None, Some((s, _))) if n > 0 => format!(
                "{n} {d} render node(s) but no {s}: {}",
                self.shared_node_hint
            ),
            (None, Some((s, _))) => {
                format!("{none}: no valid CDI spec declares {kind}, no {s}, no {d} render node")
            }
            (None, None) => format!(
                "{none}: no valid CDI spec declares {kind} and no {d} render node is under /sys/class/drm"
            ),
        };
        Ok(
            VendorReport::new(probe, f.vendor, kind, tier, reason, devices)
                .with_cdi_kinds(probe, &f.cdi_kinds()),
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::backend::GpuBackend;
    use crate::host::Host;
    use crate::node_vendor::VendorFacts;
    use crate::plan::Need;
    use gpuctl_testkit::Tree;

    /// Intel as its crate writes it: display controllers only.
    const GPUS_ONLY: NodeVendor = NodeVendor {
        facts: VendorFacts {
            pci_classes: &[0x03],
            ..VendorFacts::new("intel", "Intel", "intel.com/gpu", 0x8086)
        },
        device_node: RENDER_NODE,
        ..NodeVendor::DEFAULT
    };

    /// An Intel GPU (class 0x0300) and a render node of an Intel 0x12 function (an NPU), both
    /// under vendor 0x8086 in sysfs.
    fn host_with_npu() -> Tree {
        let t = Tree::new();
        t.pci("0000:00:02.0", 0x8086, 0x56a0, 0x030000);
        t.render_node("renderD128", "0x8086", "0000:00:02.0");
        t.pci("0000:00:0b.0", 0x8086, 0x7d1d, 0x120000);
        t.render_node("renderD129", "0x8086", "0000:00:0b.0");
        t.dev(&["dri/renderD128", "dri/renderD129"]);
        t
    }

    #[test]
    fn a_render_node_of_another_pci_class_is_never_the_vendor_s() {
        let t = host_with_npu();
        let host = Host::at(t.root()).unwrap();
        let probe = Probe::new(&host, &[], None);
        let report = GPUS_ONLY.detect(&probe).unwrap();
        let addresses: Vec<_> = report
            .devices
            .iter()
            .map(|d| d.pci_address.clone())
            .collect();
        assert_eq!(addresses, [Some("0000:00:02.0".to_string())]);
        let tier = GPUS_ONLY.tier(&probe).unwrap();
        assert_eq!(tier, Some(Tier::Raw));
        let plan = GPUS_ONLY.plan(&probe, tier, &Grant::whole()).unwrap();
        let nodes: Vec<&Need> = plan
            .items()
            .iter()
            .map(|i| &i.need)
            .filter(|n| matches!(n, Need::DeviceNode(_)))
            .collect();
        assert_eq!(nodes, [&Need::DeviceNode("/dev/dri/renderD128".into())]);
        // `intel:1` is no device: the NPU's node has no index.
        let e = GPUS_ONLY
            .plan(&probe, tier, &Grant::indexes(vec![1]))
            .unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("[1]") && e.contains(": intel:0=0000:00:02.0;"),
            "{e}"
        );
    }

    #[test]
    fn every_gpu_class_counts_when_the_vendor_does_not_narrow_them() {
        let t = host_with_npu();
        let host = Host::at(t.root()).unwrap();
        let probe = Probe::new(&host, &[], None);
        let every = NodeVendor {
            facts: VendorFacts {
                pci_classes: crate::pci::GPU_BASE_CLASSES,
                ..GPUS_ONLY.facts
            },
            ..GPUS_ONLY
        };
        assert_eq!(every.detect(&probe).unwrap().devices.len(), 2);
    }
}
