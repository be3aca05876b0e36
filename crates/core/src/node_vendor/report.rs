//! What a [`NodeVendor`] of numbered nodes finds on a host and says about it: which of its kinds
//! a spec declares, which shared nodes are absent, the `detect` report, and the sentence when
//! nothing serves it (render.rs says the same of render nodes).
//! Kept apart from the [`GpuBackend`](crate::backend::GpuBackend) glue in `mod.rs`, which calls
//! these.

use super::NodeVendor;
use crate::backend::GpuBackend;
use crate::detect::VendorReport;
use crate::detect::{Device, Fact};
use crate::error::GpuError;
use crate::plan::Tier;
use crate::probe::Probe;
use crate::render_recipe::cdi_reason;

impl NodeVendor {
    pub(super) fn declared_kind(&self, probe: &Probe) -> Option<&'static str> {
        self.cdi_kinds()
            .into_iter()
            .find(|k| probe.cdi().kind_declared(k))
    }

    /// The shared nodes that are absent (a dangling link counts as absent).
    pub(super) fn missing_shared(&self, probe: &Probe) -> Result<Vec<&'static str>, GpuError> {
        let mut out = Vec::new();
        for node in self.shared_nodes {
            let there = probe
                .host()
                .exists(std::path::Path::new(node))
                .map_err(|e| GpuError::host(e, "check the host's /dev"))?;
            if !there {
                out.push(*node);
            }
        }
        Ok(out)
    }

    pub(super) fn kinds_text(&self) -> String {
        self.cdi_kinds().join(" or ")
    }

    /// `ascend:N is /dev/davinciN, ...`: how `vendor:N` numbers the devices.
    pub(super) fn numbering(&self) -> String {
        format!(
            "{v}:N is {p}N, the driver's own number, passed without the vendor's container runtime",
            v = self.facts.vendor,
            p = self.device_node
        )
    }

    pub(super) fn unusable(&self, probe: &Probe) -> Result<GpuError, GpuError> {
        if !self.facts.unserved.is_empty() {
            return Ok(GpuError::Unserved {
                vendor: self.facts.vendor.to_string(),
                message: self.facts.unserved.to_string(),
            });
        }
        let missing = self.missing_shared(probe)?;
        let lacks = if self.shared_nodes.is_empty() {
            // With a sysfs class, a node there may be another vendor's: say whose are missing.
            let whose = match self.layouts().first().and_then(|l| l.owner_class()) {
                Some(_) => format!(" of a {:04x} PCI function", self.facts.pci_vendor_id),
                None => String::new(),
            };
            format!("no {}N node{whose}", self.device_node)
        } else if missing.is_empty() {
            format!(
                "no {}N node, though the shared nodes exist",
                self.device_node
            )
        } else {
            format!("no {}", missing.join(", no "))
        };
        Ok(GpuError::Unserved {
            vendor: self.facts.vendor.to_string(),
            message: format!(
                "the selection requests '{}' but no valid CDI spec declares {} and the raw device nodes are incomplete ({lacks}) — is the {} driver loaded?",
                self.facts.vendor,
                self.kinds_text(),
                self.facts.name()
            ),
        })
    }

    pub(super) fn report(
        &self,
        probe: &Probe,
        tier: Option<Tier>,
    ) -> Result<VendorReport, GpuError> {
        let (layout, nodes) = self.nodes(probe.host())?;
        let mut devices = Vec::new();
        let mut left_out = Vec::new();
        for node in &nodes {
            if let Some(why) = &node.left_out {
                left_out.push(format!("{} ({why})", node.path));
                continue;
            }
            left_out.extend(node.companions_left_out.iter().cloned());
            let mut device = Device::new(node.number as usize, node.address.clone())
                .with(Fact::shown("device_node", node.path.as_str()));
            if let Some(facts) = self.facts.device_facts {
                let more = facts(probe, &device);
                device.facts.extend(more);
            }
            devices.push(device);
        }
        let (d, noun, n) = (self.facts.name(), self.facts.device_noun, devices.len());
        let kinds = self.kinds_text();
        let on_bus = probe.pci().gpus_of_vendor(self.facts.pci_vendor_id).0.len();
        let reason = match tier {
            Some(Tier::Cdi) => {
                cdi_reason(probe, self.declared_kind(probe).unwrap_or(self.facts.kind))
            }
            Some(_) => format!(
                "raw device nodes: {}{n} {d} {noun} node(s) {}N ({on_bus} on the PCI bus; no valid CDI spec declares {kinds})",
                self.shared_nodes
                    .iter()
                    .map(|s| format!("{s}, "))
                    .collect::<String>(),
                layout.device_node
            ),
            None => {
                let missing = self.missing_shared(probe)?;
                let mut lacks = vec![format!("no valid CDI spec declares {kinds}")];
                lacks.extend(missing.iter().map(|m| format!("no {m}")));
                if n == 0 {
                    lacks.push(format!("no {}N node", self.device_node));
                }
                let none = if on_bus > 0 {
                    format!(
                        "{on_bus} {d} {noun}(s) on the PCI bus but none usable ('gpuctl doctor' says why)"
                    )
                } else {
                    format!("no {d} {noun}")
                };
                format!("{none}: {}", lacks.join(", "))
            }
        };
        let mut report = VendorReport::new(
            probe,
            self.facts.vendor,
            self.facts.kind,
            tier,
            reason,
            devices,
        )
        .with_cdi_kinds(probe, &self.cdi_kinds());
        if !left_out.is_empty() {
            report
                .warnings
                .push(crate::finding::Finding::DeviceNodesNotGranted {
                    vendor: self.facts.vendor.to_string(),
                    entries: left_out.join(", "),
                });
        }
        Ok(report)
    }
}
