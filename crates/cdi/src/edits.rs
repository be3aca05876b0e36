//! What a spec's container edits do to a container that gpuctl's callers need to know: the
//! environment they set and the device nodes they create, with the owner group and mode the
//! spec gives them. Kept per device and for the spec's own edits, so that a caller can say
//! which nodes and which environment one granted device brings (podman applies the spec's
//! edits once, then each device's: `Cache.InjectDevices`, `pkg/cdi/cache.go`).

/// One `deviceNodes` entry, as the spec writes it (`specs.DeviceNode`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeEdit {
    /// `path`: where the node appears in the container.
    pub path: String,
    /// `hostPath`, empty when the spec leaves it out (then `path` is the host's path too).
    pub host_path: String,
    /// `fileMode` as the spec gives it (Go's `os.FileMode` bits; the runtime creates the node
    /// with the permission bits among them), `None` when absent or `null`.
    pub file_mode: Option<u32>,
    /// `gid`, the group the runtime gives the node, `None` when absent or `null`.
    pub gid: Option<u32>,
}

impl NodeEdit {
    /// The host's node: `hostPath`, or `path` where the spec gives none (the library's
    /// `fillMissingInfo`).
    pub fn host_path(&self) -> &str {
        if self.host_path.is_empty() {
            &self.path
        } else {
            &self.host_path
        }
    }
}

/// The environment and device nodes of one set of container edits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edits {
    /// `env`, `NAME=value` entries in file order.
    pub env: Vec<String>,
    /// `deviceNodes`, in file order.
    pub device_nodes: Vec<NodeEdit>,
}

impl Edits {
    /// The value the last `NAME=` entry sets, as the container's process sees it (the runtime
    /// keeps the last of repeated names), or `None` when no entry sets it.
    pub fn env_value(&self, name: &str) -> Option<&str> {
        self.env
            .iter()
            .rev()
            .find_map(|e| e.strip_prefix(name).and_then(|rest| rest.strip_prefix('=')))
    }

    /// These edits followed by `more`, as podman appends a device's edits to its spec's.
    pub fn then(&self, more: &Edits) -> Edits {
        Edits {
            env: self.env.iter().chain(&more.env).cloned().collect(),
            device_nodes: self
                .device_nodes
                .iter()
                .chain(&more.device_nodes)
                .cloned()
                .collect(),
        }
    }
}

impl From<&super::model::RawEdits<'_>> for Edits {
    fn from(raw: &super::model::RawEdits<'_>) -> Self {
        Edits {
            env: raw.env.iter().flatten().map(|e| e.to_string()).collect(),
            device_nodes: raw
                .device_nodes
                .iter()
                .flatten()
                .flatten()
                .map(|n| NodeEdit {
                    path: n.path.to_string(),
                    host_path: n.host_path.to_string(),
                    file_mode: n.file_mode,
                    gid: n.gid,
                })
                .collect(),
        }
    }
}
