//! Driver-stack specs as the command line gives them (`rocm:6.2`, `kernel:6.8+`, `xe`), read
//! against the components vendors register, so a plug-in vendor's components are accepted
//! with no core change.

use thiserror::Error;

use super::{Component, KERNEL_PARAMETERS, Known, Stack, Version};

/// The components of one vendor's driver stack, registered with
/// [`register_components!`](crate::register_components).
#[derive(Debug)]
pub struct VendorComponents {
    /// The vendor's selector name (`amd`).
    pub vendor: &'static str,
    /// The components its requirements constrain.
    pub components: &'static [Component],
}

inventory::collect!(VendorComponents);

/// Registers the components of a vendor's driver stack:
/// `gpuctl_core::register_components!("amd", &[ROCM, LINUX_KERNEL]);` (core re-exports it).
#[macro_export]
macro_rules! register_components {
    ($vendor:expr, $components:expr) => {
        $crate::__private::inventory::submit! {
            $crate::VendorComponents { vendor: $vendor, components: $components }
        }
    };
}

/// Every registration the linker kept, by vendor name.
pub fn registered_components() -> Vec<&'static VendorComponents> {
    let mut all: Vec<&'static VendorComponents> =
        inventory::iter::<VendorComponents>.into_iter().collect();
    all.sort_by_key(|v| v.vendor);
    all
}

/// What one spec sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// A choice's value.
    Choice(String),
    /// What is known of a version.
    Version(Known),
    /// A kernel parameter set (`i915.force_probe=56c0`), for [`KERNEL_PARAMETERS`].
    Parameter(String),
}

/// One parsed spec: the text, what it sets (one component for `rocm:6.2`; a vendor's own
/// forms may set several, as NVIDIA's `open:580` sets the kernel module and the branch), and
/// the vendors that use those components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackSpec {
    /// The spec as given.
    pub spec: String,
    /// Each component it sets, with what it sets it to.
    pub settings: Vec<(Component, Setting)>,
    /// The vendors whose requirements use the components.
    pub vendors: Vec<&'static str>,
    /// True for a vendor's own whole-stack form (NVIDIA's `open:580`), of which a request
    /// takes one per vendor.
    pub whole_stack: bool,
}

impl StackSpec {
    /// `stack` with this spec's settings added.
    pub fn apply(&self, mut stack: Stack) -> Stack {
        for (component, setting) in &self.settings {
            stack = match setting {
                Setting::Choice(v) => stack.with_choice(component.key, v),
                Setting::Version(k) => stack.with_version(component.key, *k),
                Setting::Parameter(p) => stack.with_setting(p),
            };
        }
        stack
    }
}

/// A spec that names no registered component, or a version that is not one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Neither `COMPONENT:VERSION` nor a value of a choice.
    #[error("'{}' names no driver-stack component gpuctl knows (known: {known})", spec.escape_debug())]
    Unknown {
        /// The spec as given.
        spec: String,
        /// The forms that would be understood, for the message.
        known: String,
    },
    /// A known component with a version that does not parse.
    #[error("'{}': {reason}", spec.escape_debug())]
    BadVersion {
        /// The spec as given.
        spec: String,
        /// Why the version is not one.
        reason: String,
    },
}

/// Parses `COMPONENT:VERSION` (exactly that version), `COMPONENT:VERSION+` (the newest a
/// repository carries, at least that), `COMPONENT:VALUE` or a bare `VALUE` of a choice. The
/// component is matched by key or short noun, values by name, any case. Where a vendor
/// registers [`KERNEL_PARAMETERS`], `MODULE.PARAMETER=VALUE` is a kernel parameter the stack
/// sets, the parameter's `-` read as `_` as the kernel reads it.
pub fn parse_spec(spec: &str, registered: &[&VendorComponents]) -> Result<StackSpec, SpecError> {
    let every = || registered.iter().flat_map(|v| v.components.iter());
    let parameters = every().any(|c| c.key == KERNEL_PARAMETERS.key);
    if let Some(p) = parameters.then(|| parameter(spec)).flatten() {
        return Ok(StackSpec {
            spec: spec.to_string(),
            vendors: vendors_of(registered, &KERNEL_PARAMETERS),
            settings: vec![(KERNEL_PARAMETERS, Setting::Parameter(p))],
            whole_stack: false,
        });
    }
    // The parameters' component has no `COMPONENT:VERSION` form.
    let all = || every().filter(|c| c.key != KERNEL_PARAMETERS.key);
    let found = |component: Component, setting| {
        Ok(StackSpec {
            spec: spec.to_string(),
            vendors: vendors_of(registered, &component),
            settings: vec![(component, setting)],
            whole_stack: false,
        })
    };
    let names = |c: &Component, word: &str| {
        c.key.eq_ignore_ascii_case(word) || c.short.eq_ignore_ascii_case(word)
    };
    let value_of = |c: &Component, word: &str| {
        c.values
            .iter()
            .find(|v| v.eq_ignore_ascii_case(word))
            .map(|v| v.to_string())
    };
    if let Some((word, rest)) = spec.split_once(':') {
        if let Some(c) = all().find(|c| names(c, word)) {
            if !c.values.is_empty() {
                if let Some(v) = value_of(c, rest) {
                    return found(*c, Setting::Choice(v));
                }
            } else {
                let (text, at_least) = match rest.strip_suffix('+') {
                    Some(t) => (t, true),
                    None => (rest, false),
                };
                let version = Version::parse(text).map_err(|e| SpecError::BadVersion {
                    spec: spec.to_string(),
                    reason: e.to_string(),
                })?;
                let known = if at_least {
                    Known::AtLeast(version)
                } else {
                    Known::Exact(version)
                };
                return found(*c, Setting::Version(known));
            }
        }
    } else if let Some((c, v)) = all().find_map(|c| value_of(c, spec).map(|v| (c, v))) {
        return found(*c, Setting::Choice(v));
    }
    let mut known: Vec<String> = Vec::new();
    for c in all() {
        let form = if c.values.is_empty() {
            format!("{}:VERSION", c.key)
        } else {
            c.values.join(", ")
        };
        if !known.contains(&form) {
            known.push(form);
        }
    }
    if parameters {
        known.push("MODULE.PARAMETER=VALUE".to_string());
    }
    Err(SpecError::Unknown {
        spec: spec.to_string(),
        known: known.join(", "),
    })
}

/// The vendors that register component `c`.
fn vendors_of(registered: &[&VendorComponents], c: &Component) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = registered
        .iter()
        .filter(|r| r.components.iter().any(|x| x.key == c.key))
        .map(|r| r.vendor)
        .collect();
    v.dedup();
    v
}

/// `MODULE.PARAMETER=VALUE` as the kernel command line gives a module's parameter, with the
/// parameter's `-` read as `_` (the kernel's `parameq`); `None` for anything else.
fn parameter(spec: &str) -> Option<String> {
    let (name, value) = spec.split_once('=')?;
    let (module, param) = name.split_once('.')?;
    let word = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let plain = !value.is_empty() && value.chars().all(|c| c.is_ascii_graphic());
    (word(module) && word(param) && plain).then(|| {
        format!(
            "{}.{}={value}",
            module.replace('-', "_"),
            param.replace('-', "_")
        )
    })
}
