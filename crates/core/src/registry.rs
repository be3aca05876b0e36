//! The registered vendors, in canonical order.
//!
//! Vendor crates register with [`register_backend!`](crate::register_backend); the registry is
//! built once per process from what the linker kept. Iteration order of `inventory` is
//! unspecified, so the registry sorts by each backend's `order()` and then by name.

use std::sync::OnceLock;

use crate::backend::GpuBackend;
use crate::finding::Finding;

/// One vendor backend handed to `inventory`. Public only so the macro can build it.
#[doc(hidden)]
pub struct BackendRegistration(pub &'static dyn GpuBackend);

inventory::collect!(BackendRegistration);

/// Registers a vendor backend: `gpuctl_core::register_backend!(MyVendor);` where `MyVendor` is
/// a constant expression of a type implementing [`GpuBackend`].
#[macro_export]
macro_rules! register_backend {
    ($backend:expr) => {
        $crate::__private::inventory::submit! {
            $crate::registry::BackendRegistration(&$backend)
        }
    };
}

/// Selector words that can never be a vendor name.
pub const RESERVED_NAMES: [&str; 4] = ["all", "true", "none", "false"];

/// The vendors gpuctl knows, in canonical order.
pub struct Registry {
    backends: Vec<&'static dyn GpuBackend>,
    rejected: Vec<Finding>,
}

impl Registry {
    /// Every backend linked into this program.
    pub fn discovered() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| {
            Registry::from_backends(
                inventory::iter::<BackendRegistration>
                    .into_iter()
                    .map(|r| r.0),
            )
        })
    }

    /// A registry of exactly these backends (tests, embedders with their own list).
    /// A backend with an invalid or already-taken name is left out and reported by
    /// [`Registry::rejected`].
    pub fn from_backends(backends: impl IntoIterator<Item = &'static dyn GpuBackend>) -> Registry {
        let mut list: Vec<&'static dyn GpuBackend> = backends.into_iter().collect();
        list.sort_by(|a, b| a.order().cmp(&b.order()).then(a.vendor().cmp(b.vendor())));
        let mut kept: Vec<&'static dyn GpuBackend> = Vec::new();
        let mut rejected = Vec::new();
        for b in list {
            let name = b.vendor();
            if !valid_vendor_name(name) {
                rejected.push(Finding::VendorNameInvalid {
                    vendor: name.to_string(),
                });
            } else if kept.iter().any(|k| k.vendor() == name) {
                rejected.push(Finding::VendorNameTaken {
                    vendor: name.to_string(),
                });
            } else {
                kept.push(b);
            }
        }
        Registry {
            backends: kept,
            rejected,
        }
    }

    /// The backends in canonical order.
    pub fn backends(&self) -> &[&'static dyn GpuBackend] {
        &self.backends
    }

    /// The vendor names in canonical order.
    pub fn names(&self) -> Vec<&'static str> {
        self.backends.iter().map(|b| b.vendor()).collect()
    }

    /// The backend of a vendor name.
    pub fn get(&self, vendor: &str) -> Option<&'static dyn GpuBackend> {
        self.backends.iter().copied().find(|b| b.vendor() == vendor)
    }

    /// The backends that could not be registered.
    pub fn rejected(&self) -> &[Finding] {
        &self.rejected
    }
}

/// Whether `name` can be a selector token.
pub fn valid_vendor_name(name: &str) -> bool {
    !name.is_empty()
        && !RESERVED_NAMES.contains(&name)
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}
