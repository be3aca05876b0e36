//! Habana (Intel) Gaudi accelerators for gpuctl, written as data from docs/plugins.md alone
//! (`gpuctl_core::plugin::NodeVendor` with its device-class fields).
//!
//! The facts, with where they come from (docs/plugins.md, "Device classes", has the links):
//! - PCI vendor 0x1da3 (Habana Labs; the habanalabs driver's PCI id table).
//! - Since the driver moved to the kernel's accel subsystem (drivers/accel/habanalabs, Linux
//!   6.2), each device is `/dev/accel/accelN` with a control node `/dev/accel/accel_controlDN`
//!   beside it (Habana's hl-thunk library opens exactly these two names). `/dev/accel` is shared
//!   with every other accel driver (Intel's NPU is `accel0` on many laptops and servers), so a
//!   node is a Gaudi's only when `/sys/class/accel/accelN/device` is a 1da3 function.
//! - The older driver (drivers/misc/habanalabs) made `/dev/hlN` and `/dev/hl_controlDN` in the
//!   sysfs class `habanalabs`: the alternative layout.
//! - `HABANA_VISIBLE_DEVICES`: the devices a container may use, read by Habana's container
//!   runtime, whose docker runtime name is `habana`.
//! - CDI kind: no Habana CDI generator is known to us, so the kind is the Kubernetes resource
//!   name of Habana's device plug-in (`habana.ai/gaudi`), and `gpuctl cdi generate gaudi` writes
//!   a spec in amd-ctk's shape (`0`, `1`, ... by the driver's numbers, each device's node and its
//!   control node, and `all`).

use gpuctl_core::plugin::CdiNaming;
use gpuctl_core::plugin::{NodeLayout, NodeVendor, VendorFacts};

/// The Gaudi backend: its layouts, kind and variable; everything else is the default.
pub const GAUDI: NodeVendor = NodeVendor {
    facts: VendorFacts {
        device_noun: "accelerator",
        missing_summary: "no /dev/accel/accelN of a 1da3 function",
        cdi_naming: Some(CdiNaming::AmdCtk),
        gpu_words: &["/dev/accel/accel", "HABANA_VISIBLE_DEVICES", "hl-smi"],
        ..VendorFacts::new("gaudi", "Gaudi", "habana.ai/gaudi", 0x1da3)
    },
    device_node: "/dev/accel/accel",
    sysfs_class: Some("accel"),
    companions: &["/dev/accel/accel_controlD"],
    alt_layouts: &[NodeLayout {
        device_node: "/dev/hl",
        sysfs_class: Some("habanalabs"),
        companions: &["/dev/hl_controlD"],
    }],
    visible_devices: Some("HABANA_VISIBLE_DEVICES"),
    ..NodeVendor::DEFAULT
};

gpuctl_core::plugin::register_backend!(GAUDI);
