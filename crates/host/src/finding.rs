//! What gpuctl noticed that did not stop it: a skipped spec, an unreadable sysfs entry, a
//! best-effort selection. Each kind carries its facts; this module is the one place that turns
//! them into the sentence printed on stderr and into the JSON object scripts read
//! (`{"code": ..., <facts>, "message": ...}`). A `code` never changes once released, so scripts
//! match it instead of the sentence.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::HostError;

// The sentence of each finding, printed on stderr and as the JSON object's "message".
mod sentence;

/// Something gpuctl noticed that did not stop it. Non-exhaustive: match on [`Finding::code`]
/// or keep a wildcard arm; a plug-in adds its own with [`Finding::vendor`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Finding {
    /// A CDI spec does not parse or validate, so it declares nothing.
    CdiSpecInvalid {
        /// The spec's host path.
        path: String,
        /// Why, in the CDI library's words where it has them.
        reason: String,
    },
    /// A valid CDI spec that the podman named by `--podman-version` cannot load.
    CdiSpecUnloadable {
        /// The spec's host path.
        path: String,
        /// Why that podman cannot load it.
        reason: String,
    },
    /// A CDI spec on which the CDI library crashes instead of refusing it.
    CdiSpecCrashesLibrary {
        /// The spec's host path.
        path: String,
        /// What in it crashes the library.
        reason: String,
    },
    /// A CDI spec whose YAML aliases expand past gpuctl's bound; the library might still load
    /// it, building gigabytes of text on the way.
    CdiSpecAliasExpansion {
        /// The spec's host path.
        path: String,
        /// How far it expands.
        reason: String,
    },
    /// A CDI spec directory exists but cannot be listed.
    CdiDirUnreadable {
        /// The directory and the problem.
        error: HostError,
    },
    /// A `.yml` file in a spec directory: CDI reads only `.json` and `.yaml`.
    CdiSpecWrongExtension {
        /// The file's host path.
        path: String,
    },
    /// A file named like a spec that is a FIFO, socket or device node: the CDI library would try
    /// to read it (and wait on a FIFO), so gpuctl does not.
    CdiSpecNotRegular {
        /// The file's host path.
        path: String,
        /// What it is, in a few words (`a FIFO`).
        kind: &'static str,
        /// True for a FIFO, which the library would wait on for a writer.
        fifo: bool,
    },
    /// A spec file that cannot be looked at.
    CdiSpecUnreadable {
        /// The file and the problem.
        error: HostError,
    },
    /// A spec directory with more files than gpuctl reads.
    CdiDirTooManySpecs {
        /// The directory's host path.
        dir: String,
        /// How many spec files are read.
        limit: usize,
    },
    /// Two specs in one directory declare the same device, so neither is usable.
    CdiDeviceConflict {
        /// The fully qualified device name (`nvidia.com/gpu=0`).
        device: String,
        /// The specs that declare it.
        paths: Vec<String>,
    },
    /// A valid spec injects host device nodes that do not exist.
    CdiSpecStale {
        /// The spec's host path.
        path: String,
        /// The missing nodes, in the spec's order.
        missing: Vec<String>,
    },
    /// A linked vendor backend whose name cannot be a selector token.
    VendorNameInvalid {
        /// The name it registers.
        vendor: String,
    },
    /// A second linked vendor backend with a name already taken.
    VendorNameTaken {
        /// The name both register.
        vendor: String,
    },
    /// An entry under `/sys/class/drm` that starts like a render node but is not a name the
    /// kernel makes (`renderD<number>`).
    DrmNodeNameInvalid {
        /// The entry's host path, with unprintable characters escaped.
        path: String,
    },
    /// A render node's `device` is a file where sysfs has a link to the PCI device.
    DrmDeviceNotALink {
        /// The render node (`renderD128`).
        node: String,
        /// The `device` entry's host path.
        path: String,
    },
    /// A render node's PCI vendor cannot be read, so the node is skipped.
    DrmNodeUnreadable {
        /// The render node.
        node: String,
        /// The file and the problem.
        error: HostError,
    },
    /// A render node's PCI address cannot be read, so it is ordered by its name.
    DrmAddressUnknown {
        /// The render node.
        node: String,
        /// The link and the problem.
        error: HostError,
    },
    /// A name sysfs gives where a PCI address belongs (a `/sys/bus/pci/devices` entry, the last
    /// part of a render node's `device` link) that is not one, so what it names is skipped.
    PciAddressInvalid {
        /// The sysfs path that holds the name.
        path: String,
        /// The name, with unprintable characters escaped.
        name: String,
    },
    /// Device nodes or by-path links of a raw grant that are symbolic links leading elsewhere
    /// than the vendor's own nodes, left out of the grant.
    DeviceLinksNotGranted {
        /// The vendor.
        vendor: String,
        /// Each entry with why, in parentheses.
        entries: String,
    },
    /// Device nodes or driver files of a raw grant that are not the driver's own (a directory
    /// where a node belongs, a symbolic link leading elsewhere, absent), left out of the grant.
    DeviceNodesNotGranted {
        /// The vendor.
        vendor: String,
        /// Each entry with why, in parentheses.
        entries: String,
    },
    /// A render node's `/dev/dri/by-path` link cannot be looked at, so it is not mounted.
    ByPathLinkUnreadable {
        /// The link and the problem.
        error: HostError,
    },
    /// `/sys/bus/pci/devices` cannot be listed.
    PciUnlistable {
        /// The directory and the problem.
        error: HostError,
    },
    /// One PCI device's attributes cannot be read, so it is skipped.
    PciDeviceUnreadable {
        /// The PCI address.
        address: String,
        /// The file and the problem.
        error: HostError,
    },
    /// An index grant on a tier without CDI: devices are ordered by PCI bus address, or by the
    /// vendor's own numbering when `numbering` says so.
    IndexBestEffort {
        /// The vendor.
        vendor: String,
        /// The vendor's addition to the sentence, led by a space, or empty.
        note: String,
        /// How `vendor:N` numbers the devices when it is not PCI bus-address order (`ascend:N
        /// is /dev/davinciN, the driver's own number`); `None`: PCI bus-address order.
        numbering: Option<String>,
    },
    /// A plug-in's own finding, with its own code and facts.
    Vendor(VendorFinding),
}

/// A finding only one vendor knows about. Its code should start with the vendor's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VendorFinding {
    /// The vendor.
    pub vendor: String,
    /// The stable code (`nvidia-hook-beside-cdi`).
    pub code: &'static str,
    /// The facts, as JSON keys and text values.
    pub facts: Vec<(&'static str, String)>,
    /// The sentence, with its remedy.
    pub message: String,
}

impl Finding {
    /// A plug-in's own finding.
    pub fn vendor(
        vendor: &str,
        code: &'static str,
        facts: Vec<(&'static str, String)>,
        message: String,
    ) -> Self {
        Finding::Vendor(VendorFinding {
            vendor: vendor.to_string(),
            code,
            facts,
            message,
        })
    }

    /// The stable code scripts match (listed in the README).
    pub fn code(&self) -> &'static str {
        match self {
            Finding::CdiSpecInvalid { .. } => "cdi-spec-invalid",
            Finding::CdiSpecUnloadable { .. } => "cdi-spec-unloadable",
            Finding::CdiSpecCrashesLibrary { .. } => "cdi-spec-crashes-library",
            Finding::CdiSpecAliasExpansion { .. } => "cdi-spec-alias-expansion",
            Finding::CdiDirUnreadable { .. } => "cdi-dir-unreadable",
            Finding::CdiSpecWrongExtension { .. } => "cdi-spec-wrong-extension",
            Finding::CdiSpecNotRegular { .. } => "cdi-spec-not-regular-file",
            Finding::CdiSpecUnreadable { .. } => "cdi-spec-unreadable",
            Finding::CdiDirTooManySpecs { .. } => "cdi-dir-too-many-specs",
            Finding::CdiDeviceConflict { .. } => "cdi-device-conflict",
            Finding::CdiSpecStale { .. } => "cdi-spec-stale",
            Finding::VendorNameInvalid { .. } => "vendor-name-invalid",
            Finding::VendorNameTaken { .. } => "vendor-name-taken",
            Finding::DrmNodeNameInvalid { .. } => "drm-node-name-invalid",
            Finding::DrmDeviceNotALink { .. } => "drm-device-not-a-link",
            Finding::DrmNodeUnreadable { .. } => "drm-node-unreadable",
            Finding::DrmAddressUnknown { .. } => "drm-address-unknown",
            Finding::PciAddressInvalid { .. } => "pci-address-invalid",
            Finding::DeviceLinksNotGranted { .. } => "device-links-not-granted",
            Finding::DeviceNodesNotGranted { .. } => "device-nodes-not-granted",
            Finding::ByPathLinkUnreadable { .. } => "by-path-link-unreadable",
            Finding::PciUnlistable { .. } => "pci-unlistable",
            Finding::PciDeviceUnreadable { .. } => "pci-device-unreadable",
            Finding::IndexBestEffort { .. } => "index-best-effort",
            Finding::Vendor(v) => v.code,
        }
    }

    /// The facts, as they appear in JSON beside `code` and `message`.
    pub fn facts(&self) -> Vec<(&'static str, Value)> {
        let host = |e: &HostError| {
            vec![
                ("path", Value::from(e.path.display().to_string())),
                ("problem", Value::from(e.problem.code())),
            ]
        };
        let text = |s: &str| Value::from(s);
        match self {
            Finding::CdiSpecInvalid { path, reason }
            | Finding::CdiSpecUnloadable { path, reason }
            | Finding::CdiSpecCrashesLibrary { path, reason }
            | Finding::CdiSpecAliasExpansion { path, reason } => {
                vec![("path", text(path)), ("reason", text(reason))]
            }
            Finding::CdiDirUnreadable { error }
            | Finding::CdiSpecUnreadable { error }
            | Finding::ByPathLinkUnreadable { error }
            | Finding::PciUnlistable { error } => host(error),
            Finding::CdiSpecWrongExtension { path } | Finding::DrmNodeNameInvalid { path } => {
                vec![("path", text(path))]
            }
            Finding::CdiSpecNotRegular { path, kind, .. } => {
                vec![("path", text(path)), ("kind", text(kind))]
            }
            Finding::CdiDirTooManySpecs { dir, limit } => {
                vec![("path", text(dir)), ("limit", Value::from(*limit))]
            }
            Finding::CdiDeviceConflict { device, paths } => {
                vec![
                    ("device", text(device)),
                    ("paths", Value::from(paths.clone())),
                ]
            }
            Finding::CdiSpecStale { path, missing } => {
                vec![
                    ("path", text(path)),
                    ("missing", Value::from(missing.clone())),
                ]
            }
            Finding::VendorNameInvalid { vendor }
            | Finding::VendorNameTaken { vendor }
            | Finding::IndexBestEffort { vendor, .. } => vec![("vendor", text(vendor))],
            Finding::DrmDeviceNotALink { node, path } => {
                vec![("node", text(node)), ("path", text(path))]
            }
            Finding::PciAddressInvalid { path, name } => {
                vec![("path", text(path)), ("name", text(name))]
            }
            Finding::DeviceLinksNotGranted { vendor, entries }
            | Finding::DeviceNodesNotGranted { vendor, entries } => {
                vec![("vendor", text(vendor)), ("entries", text(entries))]
            }
            Finding::DrmNodeUnreadable { node, error }
            | Finding::DrmAddressUnknown { node, error } => {
                let mut facts = vec![("node", text(node))];
                facts.extend(host(error));
                facts
            }
            Finding::PciDeviceUnreadable { address, error } => {
                let mut facts = vec![("pci_address", text(address))];
                facts.extend(host(error));
                facts
            }
            Finding::Vendor(v) => {
                let mut facts = vec![("vendor", text(&v.vendor))];
                facts.extend(v.facts.iter().map(|(k, s)| (*k, text(s))));
                facts
            }
        }
    }
}

impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let facts = self.facts();
        let mut map = serializer.serialize_map(Some(facts.len() + 2))?;
        map.serialize_entry("code", self.code())?;
        for (key, value) in &facts {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("message", &self.to_string())?;
        map.end()
    }
}

/// Drops repeated findings, keeping the first of each.
pub fn unique<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests;
