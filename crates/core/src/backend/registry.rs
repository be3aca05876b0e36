//! The registry of vendor backends: how a vendor crate registers
//! ([`register_backend!`](crate::plugin::register_backend)), the names a vendor may take, and the turning
//! of a selection into one [`Plan`], each granted vendor's plan in canonical order.

use std::sync::OnceLock;

use super::{GpuBackend, Grant};
use crate::error::GpuError;
use crate::finding::Finding;
use crate::plan::{Plan, Tier};
use crate::probe::Probe;
use crate::selector::{Pick, Selection};

/// One vendor backend handed to `inventory`. Public only so the macro can build it.
#[doc(hidden)]
pub struct BackendRegistration(pub &'static dyn GpuBackend);

inventory::collect!(BackendRegistration);

/// Registers a vendor backend (exported as `gpuctl_core::plugin::register_backend`; a
/// `#[macro_export]` macro lives at the crate root, under a hidden name here): `gpuctl_core::plugin::register_backend!(MyVendor);` where `MyVendor` is
/// a constant expression of a type implementing [`GpuBackend`].
#[doc(hidden)]
#[macro_export]
macro_rules! __register_backend {
    ($backend:expr) => {
        $crate::__private::inventory::submit! {
            $crate::__private::BackendRegistration(&$backend)
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

/// From a selection to one plan.
impl Registry {
    /// The vendors a selection grants, with what is granted of each, in canonical order. `All`
    /// resolves to every vendor usable now and fails when there is none.
    pub fn grants(
        &self,
        probe: &Probe,
        selection: &Selection,
    ) -> Result<Vec<(&'static dyn GpuBackend, Grant)>, GpuError> {
        match selection {
            Selection::None => Ok(Vec::new()),
            Selection::All => {
                let mut plan = Vec::new();
                for backend in self.backends() {
                    if probe.tier_of(*backend)?.is_some() {
                        plan.push((*backend, Grant::whole()));
                    }
                }
                if plan.is_empty() {
                    let mut missing = vec!["no vendor CDI spec".to_string()];
                    missing.extend(
                        self.backends()
                            .iter()
                            .map(|b| b.missing_summary().to_string()),
                    );
                    let noun = super::devices_noun(self.backends().iter().copied());
                    return Err(GpuError::NoUsableGpu { missing, noun });
                }
                Ok(plan)
            }
            Selection::Grants(grants) => {
                let mut plan: Vec<(&'static dyn GpuBackend, Grant)> = Vec::new();
                for backend in self.backends() {
                    let mine: Vec<&Option<Pick>> = grants
                        .iter()
                        .filter(|(v, _)| v == backend.vendor())
                        .map(|(_, p)| p)
                        .collect();
                    if mine.is_empty() {
                        continue;
                    }
                    let grant = if mine.iter().any(|p| p.is_none()) {
                        Grant::whole()
                    } else {
                        let mut indexes = Vec::new();
                        let mut names = Vec::new();
                        for pick in mine.into_iter().flatten() {
                            match pick {
                                Pick::Index(i) => indexes.push(*i),
                                Pick::Name(n) => names.push(n.clone()),
                            }
                        }
                        Grant::devices(indexes, names)
                    };
                    plan.push((*backend, grant));
                }
                Ok(plan)
            }
        }
    }

    /// The plan for a selection: every granted vendor's plan, in canonical order. The tier each
    /// vendor is served on is decided here, once, and handed to its backend.
    pub fn plan(&self, probe: &Probe, selection: &Selection) -> Result<Plan, GpuError> {
        let mut vendors = Vec::new();
        let grants = self.grants(probe, selection)?;
        let noun = super::devices_noun(grants.iter().map(|(b, _)| *b));
        for (backend, grant) in grants {
            let tier = probe.tier_of(backend)?;
            if let Some(tier) = tier
                && tier != Tier::Cdi
                && !grant.names.is_empty()
            {
                return Err(GpuError::DeviceNameOffCdi {
                    vendor: backend.vendor().to_string(),
                    names: grant.names,
                    tier: tier.as_str(),
                    kind: backend.cdi_kind().to_string(),
                });
            }
            let mut block = backend.plan(probe, tier, &grant)?;
            if let Some(group) = backend.node_group() {
                block.set_node_group(group);
            }
            // Only docker's note on a hook tier says them.
            if block.tier() == Tier::Hook {
                block.set_hook_words(crate::plan::HookWords {
                    display: backend.display_name(),
                    noun: backend.device_noun(),
                    runtime: backend.hook_runtime(),
                });
            }
            tracing::debug!("{}: {:?}", backend.vendor(), block.items());
            vendors.push(block);
        }
        Ok(Plan::new(vendors).with_noun(noun))
    }
}
