//! What the NVIDIA backend offers beyond identity and passthrough: its diagnostics (families,
//! words, doctor's, explain's and the image's checks), its requirements (the generation table,
//! the loaded driver) and its CDI tooling (`nvidia-ctk`), each the module that holds it.

use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::pci::PciDevice;
use gpuctl_core::plugin::requirement::{Requirement, RequirementModel};
use gpuctl_core::plugin::{CdiTooling, Diagnostics, Requirements};
use gpuctl_core::plugin::{Check, CheckCode, DoctorContext};
use gpuctl_core::plugin::{Family, FamilyCode};

use crate::backend::{Nvidia, PCI_VENDOR};
use crate::table::builtin_requirement;

impl Diagnostics for Nvidia {
    fn families(&self) -> &'static [Family] {
        crate::families::FAMILIES
    }

    fn emitter_rules(&self) -> &'static [gpuctl_core::plugin::EmitterRule] {
        &crate::explain_rules::ALL
    }

    fn gpu_words(&self) -> &'static [&'static str] {
        &crate::components::WORDS
    }

    fn components(&self) -> &'static [gpuctl_core::plugin::Component] {
        crate::components::COMPONENTS
    }

    fn explain_details(&self, code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
        crate::explain::details(code, text, probe)
    }

    fn explain_checks(&self, code: FamilyCode, text: &str, probe: &Probe) -> Vec<Check> {
        crate::explain_cuda::checks(code, text, probe)
    }

    fn host_checks(&self, probe: &Probe, ctx: &DoctorContext) -> Vec<Check> {
        crate::doctor::checks(probe, ctx)
    }

    fn check_codes(&self) -> &'static [CheckCode] {
        crate::doctor::CHECKS
    }

    fn image_checks(&self, probe: &Probe, image: &gpuctl_core::plugin::ImageEnv) -> Vec<Check> {
        crate::image_check::image_checks(probe, image)
    }
}

impl Requirements for Nvidia {
    fn loaded_driver(
        &self,
        host: &gpuctl_core::plugin::Host,
        kernel: Option<gpuctl_core::plugin::requirement::Version>,
        gpus: &[gpuctl_core::plugin::requirement::GpuOnHost],
    ) -> Option<gpuctl_core::plugin::requirement::LoadedDriver> {
        Some(crate::loaded::read(host, kernel, gpus))
    }

    fn driver_requirement(&self, device: &PciDevice) -> Option<Requirement> {
        (device.vendor_id == PCI_VENDOR).then(|| builtin_requirement(device.device_id))
    }

    fn requirement_model(&self) -> Option<&'static dyn RequirementModel> {
        Some(&crate::requirement_model::NVIDIA_REQUIREMENTS)
    }
}

impl CdiTooling for Nvidia {
    fn cdi_regenerate(&self, probe: &Probe, spec_path: &str) -> Option<String> {
        Some(crate::doctor::regenerate(probe, spec_path))
    }

    fn cdi_generator(&self) -> Option<&'static str> {
        Some("sudo nvidia-ctk cdi generate")
    }
}
