//! The answer for a vendor with no requirement data: unknown in its own words, never "any
//! driver" (docs/plugins.md).

use super::{NO_REQUIREMENT_DATA, Request, answer};
use crate::backend::{MockGpuBackend, NoCapability, Requirements};
use crate::requirement::text::render;
use crate::{
    backend::{GpuBackend, Registry},
    host::Host,
};

/// A plug-in shaped as Huawei's Ascend would be: PCI vendor 19e5, devices called NPUs, and no
/// requirement table.
fn ascend() -> &'static dyn GpuBackend {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const("ascend");
    m.expect_display_name().return_const("Ascend");
    m.expect_device_noun().return_const("NPU");
    m.expect_pci_vendor_id().return_const(0x19e5_u16);
    m.expect_order().return_const(100_u32);
    // No requirement table and no model of its own.
    m.expect_requirements()
        .return_const(Box::new(NoCapability) as Box<dyn Requirements>);
    Box::leak(Box::new(m))
}

#[test]
fn a_device_without_requirement_data_reads_as_unknown_in_the_vendors_words() {
    let registry = Registry::from_backends([ascend()]);
    let ids = ["19e5:d802".to_string(), "19e5:d803".to_string()];
    let request = Request {
        ids: &ids,
        specs: &[],
        vendor: Default::default(),
    };
    let report = answer(&Host::system(), &registry, request).expect("a valid request");
    assert_eq!(
        render(&report),
        format!(
            "Ascend NPU (19e5:d802): {NO_REQUIREMENT_DATA}\n\
             Ascend NPU (19e5:d803): {NO_REQUIREMENT_DATA}\n\
             Ascend combined: Ascend NPU (19e5:d802): {NO_REQUIREMENT_DATA}; Ascend NPU \
             (19e5:d803): {NO_REQUIREMENT_DATA}\n"
        )
    );
    assert!(!render(&report).contains("any driver"));
    let gpu = &report.vendors[0].gpus[0].requirement;
    assert_eq!(gpu.unknown.as_deref(), Some(NO_REQUIREMENT_DATA));
    assert!(gpu.constraints.is_empty());
}
