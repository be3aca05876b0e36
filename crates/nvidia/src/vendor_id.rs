//! NVIDIA's PCI vendor id, below the requirement model and the requirement answer that both
//! name it; its public path is `requirement::NVIDIA_VENDOR_ID`.

/// NVIDIA's PCI vendor id.
pub const NVIDIA_VENDOR_ID: u16 = 0x10de;
