//! Why a host cannot serve a GPU request. Each variant carries the facts; its `Display` is the
//! one sentence (with the remedy) the user reads.

use thiserror::Error;

use crate::host::HostError;
use crate::text::{py_int_list, py_repr};

/// A GPU request the host cannot serve.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GpuError {
    /// A vendor was asked for and none of its tiers is available. The message is the vendor's
    /// own sentence, naming what is missing and how to install it.
    #[error("{message}")]
    Unserved {
        /// The vendor asked for.
        vendor: String,
        /// The sentence.
        message: String,
    },

    /// A render-node vendor's shared node is there but none of its render nodes is.
    #[error(
        "the selection requests '{vendor}' but no {vendor} render node was found under {dir} — the kernel driver looks loaded, yet exposes no DRM render device; check the kernel log (dmesg) for the driver's errors"
    )]
    NoRenderNode {
        /// The vendor asked for.
        vendor: String,
        /// Where render nodes are listed (`/sys/class/drm`).
        dir: String,
    },

    /// `all` was asked for and no vendor is usable.
    #[error(
        "the selection is 'all' but no usable {noun} support was detected on this host ({}); run 'gpuctl detect' to see what each vendor lacks",
        missing.join(", ")
    )]
    NoUsableGpu {
        /// What is missing, vendor by vendor, led by "no vendor CDI spec".
        missing: Vec<String>,
        /// What the vendors' devices are called ([`crate::backend::devices_noun`]): `GPU`.
        noun: String,
    },

    /// Indexes that name none of the vendor's devices (beyond its render nodes, or a
    /// `/dev/<prefix>N` the host does not have). Build it with [`GpuError::index_out_of_range`].
    #[error(
        "the selection asks for {vendor} device(s) {} but this host has {} {vendor} device(s): {}; choose an index from that list",
        py_int_list(bad),
        available.len(),
        listing(vendor, available)
    )]
    IndexOutOfRange {
        /// The vendor.
        vendor: String,
        /// Every index beyond the devices, in the order asked.
        bad: Vec<u32>,
        /// The devices in index order: each one's index in the vendor's numbering (a render
        /// node's position in PCI order, a node's own number) and what it is (a PCI address, a
        /// node).
        available: Vec<(u32, String)>,
    },

    /// On the CDI tier, device names (or indexes) that no valid spec declares.
    #[error(
        "the selection asks for {} but no valid CDI spec declares {}{}; the declared {kind} devices are: {} — on the CDI tier '{vendor}:NAME' selects the device the spec names NAME, so select one as {}, or grant the whole vendor ('{vendor}')",
        bad.iter().map(|n| format!("'{vendor}:{n}'")).collect::<Vec<_>>().join(", "),
        bad.iter().map(|n| format!("{kind}={n}")).collect::<Vec<_>>().join(", "),
        case_hint(vendor, bad, declared),
        if declared.is_empty() { "none".to_string() } else { declared.join(", ") },
        example(vendor, declared)
    )]
    CdiDeviceUndeclared {
        /// The vendor.
        vendor: String,
        /// Its CDI kind.
        kind: String,
        /// The names asked for that no spec declares (indexes in decimal).
        bad: Vec<String>,
        /// The declared device names, in the CDI library's order.
        declared: Vec<String>,
    },

    /// A device name (not an index) for a vendor served on a tier without names.
    #[error(
        "bad device index in {}; expected '{vendor}' or '{vendor}:<non-negative integer>' — this host serves {vendor} on the {tier} tier, where devices are numbered (see 'gpuctl detect'); a device name selects a device only where a valid CDI spec declares {kind}",
        names.iter().map(|n| py_repr(&format!("{vendor}:{n}"))).collect::<Vec<_>>().join(", ")
    )]
    DeviceNameOffCdi {
        /// The vendor.
        vendor: String,
        /// The names asked for.
        names: Vec<String>,
        /// The tier that serves the vendor (`raw`, `hook`).
        tier: &'static str,
        /// The vendor's CDI kind.
        kind: String,
    },

    /// A backend was handed a tier its plan does not serve: its `tier` and `plan` disagree.
    #[error(
        "the {vendor} backend chose the '{tier}' tier, which its plan does not serve; this is a bug in the {vendor} plug-in, so report it to its authors and grant another vendor meanwhile"
    )]
    TierUnsupported {
        /// The vendor.
        vendor: String,
        /// The tier's name (`hook`).
        tier: String,
    },

    /// A file the answer depends on could not be read.
    #[error("{source}; gpuctl cannot tell which devices to grant — {remedy}")]
    Host {
        /// The path and the problem.
        source: HostError,
        /// What to check.
        remedy: String,
    },
}

impl GpuError {
    /// `bad` indexes name none of `vendor`'s devices; `available` lists each device as (its
    /// index, what it is), in index order.
    pub fn index_out_of_range(
        vendor: &str,
        bad: Vec<u32>,
        available: impl IntoIterator<Item = (u32, String)>,
    ) -> Self {
        GpuError::IndexOutOfRange {
            vendor: vendor.to_string(),
            bad,
            available: available.into_iter().collect(),
        }
    }

    /// `vendor`'s plan was asked for `tier`, which it does not serve.
    pub fn tier_unsupported(vendor: &str, tier: crate::plan::Tier) -> Self {
        GpuError::TierUnsupported {
            vendor: vendor.to_string(),
            tier: tier.as_str().to_string(),
        }
    }

    /// Wraps a host problem with the remedy to print.
    pub fn host(source: HostError, remedy: impl Into<String>) -> Self {
        GpuError::Host {
            source,
            remedy: remedy.into(),
        }
    }
}

/// How to select one of the declared devices: `'intel:0000-08-00-0-0x56a5'`, or with several
/// names the form and the first name that is not `all`.
fn example(vendor: &str, declared: &[String]) -> String {
    let named: Vec<&String> = declared.iter().filter(|n| *n != "all").collect();
    match named.as_slice() {
        [] => format!("'{vendor}:NAME'"),
        [one] => format!("'{vendor}:{one}'"),
        [first, ..] => format!("'{vendor}:NAME' (for example '{vendor}:{first}')"),
    }
}

/// CDI names are case-sensitive: when a name asked for differs from a declared one only in
/// case, say which one is declared.
fn case_hint(vendor: &str, bad: &[String], declared: &[String]) -> String {
    bad.iter()
        .find_map(|b| declared.iter().find(|d| d.eq_ignore_ascii_case(b)))
        .map(|d| format!(" (CDI names are case-sensitive: '{vendor}:{d}' is declared)"))
        .unwrap_or_default()
}

fn listing(vendor: &str, available: &[(u32, String)]) -> String {
    if available.is_empty() {
        return "none".to_string();
    }
    available
        .iter()
        .map(|(i, a)| format!("{vendor}:{i}={a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_lists_the_devices_like_the_reference() {
        let e = GpuError::index_out_of_range(
            "amd",
            vec![3, 5],
            [(0, "0000:03:00.0".into()), (1, "0000:0b:00.0".into())],
        );
        assert_eq!(
            e.to_string(),
            "the selection asks for amd device(s) [3, 5] but this host has 2 amd device(s): amd:0=0000:03:00.0, amd:1=0000:0b:00.0; choose an index from that list"
        );
    }

    #[test]
    fn out_of_range_keeps_the_vendor_s_own_numbers() {
        let e = GpuError::index_out_of_range(
            "ascend",
            vec![1],
            [(0, "/dev/davinci0".into()), (2, "/dev/davinci2".into())],
        );
        assert_eq!(
            e.to_string(),
            "the selection asks for ascend device(s) [1] but this host has 2 ascend device(s): ascend:0=/dev/davinci0, ascend:2=/dev/davinci2; choose an index from that list"
        );
    }

    #[test]
    fn undeclared_cdi_device_names_the_declared_ones() {
        let e = GpuError::CdiDeviceUndeclared {
            vendor: "nvidia".into(),
            kind: "nvidia.com/gpu".into(),
            bad: vec!["3".into()],
            declared: vec!["0".into(), "1".into(), "all".into()],
        };
        let text = e.to_string();
        assert!(text.contains("nvidia.com/gpu=3"), "{text}");
        assert!(text.contains("are: 0, 1, all"), "{text}");
    }
}
