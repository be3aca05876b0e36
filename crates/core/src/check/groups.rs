//! The groups a vendor's device nodes are given so that a user may open them, as doctor's
//! `render-groups` check names them ([`crate::backend::GpuBackend::node_groups`]).

/// What a vendor's nodes need of the user who runs podman rootless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NodeGroups {
    /// DRM render nodes: the `render` or `video` group that udev's rules for `renderD*` give
    /// them (the check's words for AMD, Intel and every render-node vendor).
    Render,
    /// The groups the vendor's driver or udev rules give its nodes (`HwHiAiUser`), named by the
    /// check; none named: "the group the driver gives them", in the vendor's name.
    Named(&'static [&'static str]),
    /// The nodes need no group (the driver makes them open to every user, or the vendor's own
    /// checks look at them): the check leaves them out.
    None,
}
