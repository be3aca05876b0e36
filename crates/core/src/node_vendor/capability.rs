//! The capabilities a [`NodeVendor`] hands out, read from its data: its diagnostics and CDI
//! tooling (which need its layout: the node families, the spec's devices), and its
//! requirements (its [`VendorFacts`] alone). Nothing here is forwarded to another backend.

use super::{NodeVendor, VendorFacts, families};
use crate::backend::{CdiTooling, Diagnostics, Requirements};
use crate::check::{Check, CheckCode, DoctorContext};
use crate::families::Family;
use crate::family::FamilyCode;
use crate::pci::PciDevice;
use crate::probe::Probe;
use crate::requirement::Requirement;

impl Diagnostics for NodeVendor {
    /// The vendor's own families, then (for numbered nodes) the node-missing and node-denied
    /// families built from its nodes and group.
    fn families(&self) -> &'static [Family] {
        families::of(self)
    }

    fn gpu_words(&self) -> &'static [&'static str] {
        self.facts.gpu_words
    }

    fn components(&self) -> &'static [crate::reading::vocabulary::Component] {
        self.facts.components
    }

    fn emitter_rules(&self) -> &'static [crate::reading::EmitterRule] {
        self.facts.emitter_rules
    }

    fn explain_details(&self, code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
        self.facts
            .explain_details
            .map(|f| f(code, text, probe))
            .unwrap_or_default()
    }

    fn host_checks(&self, probe: &Probe, ctx: &DoctorContext) -> Vec<Check> {
        self.facts
            .host_checks
            .map(|f| f(probe, ctx))
            .unwrap_or_default()
    }

    fn check_codes(&self) -> &'static [CheckCode] {
        self.facts.check_codes
    }
}

impl CdiTooling for NodeVendor {
    fn cdi_regenerate(&self, _probe: &Probe, spec_path: &str) -> Option<String> {
        crate::backend::cdi_generate_command(self, spec_path).map(|c| format!("'{c}'"))
    }

    fn cdi_draft(
        &self,
        probe: &Probe,
    ) -> Option<Result<crate::cdi_tool::generate::CdiDraft, crate::cdi_tool::generate::GenerateError>>
    {
        let naming = self.facts.cdi_naming?;
        if self.is_render() {
            return Some(self.render_draft(probe, naming));
        }
        Some(self.draft(probe, naming))
    }

    fn cdi_generator(&self) -> Option<&'static str> {
        self.facts.cdi_generator
    }

    fn cdi_output_args(&self) -> &'static str {
        self.facts.cdi_output_args
    }

    fn cdi_tool(&self) -> Option<&'static str> {
        self.facts
            .cdi_tool
            .or(self.facts.cdi_generator.map(crate::backend::program_of))
    }
}

impl Requirements for VendorFacts {
    fn loaded_driver(
        &self,
        host: &crate::host::Host,
        kernel: Option<crate::requirement::Version>,
        gpus: &[crate::requirement::GpuOnHost],
    ) -> Option<crate::requirement::LoadedDriver> {
        self.loaded_driver.map(|f| f(host, kernel, gpus))
    }

    fn driver_requirement(&self, device: &PciDevice) -> Option<Requirement> {
        self.requirement.and_then(|h| (h.requirement)(device))
    }
}
