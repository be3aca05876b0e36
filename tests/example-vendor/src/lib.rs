//! A made-up vendor, "acme", added to gpuctl from outside its workspace crates: the whole of a
//! third-party backend. Acme accelerators are PCI vendor 0x1e5a (made up), enumerate as DRM
//! render nodes, need the shared control node `/dev/acme-ctl`, and have a CDI kind
//! `acme.example/npu` that a vendor toolkit could declare.
//!
//! Nothing in gpuctl's core names acme: registering is what makes `gpuctl args acme` work.

use gpuctl_core::render_vendor::RenderNodeVendor;

/// Acme's CDI kind.
pub const KIND: &str = "acme.example/npu";
/// The control node every Acme device needs next to its render node.
pub const CTL: &str = "/dev/acme-ctl";

/// The Acme backend. Everything about its tiers is gpuctl's render-node mechanism; Acme
/// supplies its facts and words, and registers the constant.
pub const ACME: RenderNodeVendor = RenderNodeVendor {
    vendor: "acme",
    display: "Acme",
    kind: KIND,
    pci_vendor_id: 0x1e5a,
    shared_node: Some(CTL),
    missing_summary: "no /dev/acme-ctl",
    unserved: "the selection requests 'acme' but this host has neither an 'acme.example/npu' CDI spec nor /dev/acme-ctl — is the acme kernel driver loaded?",
    shared_node_hint: "load the acme driver, which creates it",
    // The rest (order 100: after the built-in vendors; no error patterns) is the default, and
    // a field gpuctl adds later takes its default too.
    ..RenderNodeVendor::DEFAULT
};

gpuctl_core::register_backend!(ACME);
