//! The CDI specs of the fake machine: a valid NVIDIA spec in the shape `nvidia-ctk cdi
//! generate` writes (sorted keys, leading `---`), and specs that both podman's CDI library and
//! gpuctl must reject. Device nodes name only `path`: the fake nodes sit at the host paths the
//! container sees, and podman reads their numbers from the host (rootful CDI).

use super::universe::{NVIDIA_GPUS, NVIDIA_SHARED};

/// The first line of every spec this task writes, so that a person finding one knows where it
/// came from.
pub const MARK: &str = "# written by `cargo xtask integration --fake`; removed when it ends";

/// The spec directory podman and gpuctl read first.
pub const ETC_CDI: &str = "/etc/cdi";
/// The spec directory whose specs win over /etc/cdi's, name by name.
pub const RUN_CDI: &str = "/var/run/cdi";

/// A spec file: its directory, its name there, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecFile {
    /// [`ETC_CDI`] or [`RUN_CDI`].
    pub dir: &'static str,
    /// The file name (`gpuctl-xtask-nvidia.yaml`).
    pub name: String,
    /// The text.
    pub text: String,
}

impl SpecFile {
    /// The host path (`/etc/cdi/gpuctl-xtask-nvidia.yaml`).
    pub fn host_path(&self) -> String {
        format!("{}/{}", self.dir, self.name)
    }

    /// The same spec in another directory.
    pub fn in_dir(mut self, dir: &'static str) -> Self {
        self.dir = dir;
        self
    }
}

fn nodes_yaml(indent: &str, paths: &[String]) -> String {
    paths
        .iter()
        .map(|p| format!("{indent}- path: {p}\n"))
        .collect()
}

fn shared_nodes() -> Vec<String> {
    NVIDIA_SHARED
        .iter()
        .map(|(n, _, _)| format!("/dev/{n}"))
        .collect()
}

/// The NVIDIA spec at `version`: devices `"0"`, `"1"` (NVML index order = PCI order), each
/// GPU's UUID, and `all`; the shared nodes and `NVIDIA_VISIBLE_DEVICES=void` at spec level.
pub fn nvidia(name: &str, version: &str) -> SpecFile {
    nvidia_with(name, version, false)
}

/// The NVIDIA spec without the spec-level `NVIDIA_VISIBLE_DEVICES=void`, as toolkits before
/// 1.15 and hand-written specs have it.
pub fn nvidia_without_void(name: &str, version: &str) -> SpecFile {
    let mut spec = nvidia_with(name, version, false);
    spec.text = spec
        .text
        .replace("  env:\n  - NVIDIA_VISIBLE_DEVICES=void\n", "");
    spec
}

/// A stale NVIDIA spec, written before the Device Minors changed: it maps index N to
/// `/dev/nvidiaN`, which on this machine is the other GPU.
pub fn nvidia_stale(name: &str, version: &str) -> SpecFile {
    nvidia_with(name, version, true)
}

fn nvidia_with(name: &str, version: &str, stale: bool) -> SpecFile {
    let mut devices: Vec<(String, Vec<String>)> = Vec::new();
    for (i, g) in NVIDIA_GPUS.iter().enumerate() {
        let minor = if stale { i as u32 } else { g.minor };
        let node = vec![format!("/dev/nvidia{minor}")];
        devices.push((format!("\"{i}\""), node.clone()));
        devices.push((g.uuid.to_string(), node));
    }
    devices.push((
        "all".to_string(),
        NVIDIA_GPUS
            .iter()
            .map(|g| format!("/dev/nvidia{}", g.minor))
            .collect(),
    ));
    let mut text = format!(
        "{MARK}\n---\ncdiVersion: {version}\ncontainerEdits:\n  deviceNodes:\n{}  env:\n  - NVIDIA_VISIBLE_DEVICES=void\ndevices:\n",
        nodes_yaml("  ", &shared_nodes())
    );
    for (name, nodes) in devices {
        text.push_str(&format!(
            "- containerEdits:\n    deviceNodes:\n{}  name: {name}\n",
            nodes_yaml("    ", &nodes)
        ));
    }
    text.push_str("kind: nvidia.com/gpu\n");
    SpecFile {
        dir: ETC_CDI,
        name: name.to_string(),
        text,
    }
}

/// Specs podman's CDI library and gpuctl both reject, each for another reason
/// (docs/podman-ci.md#cdi lists the library's words for each).
pub fn rejected(version: &str) -> Vec<SpecFile> {
    vec![
        SpecFile {
            dir: ETC_CDI,
            // "invalid (empty) vendor name"
            name: "gpuctl-xtask-nokind.yaml".to_string(),
            text: format!(
                "{MARK}\ncdiVersion: \"{version}\"\nkind: \"gpu\"\ndevices:\n  - name: \"0\"\n    containerEdits:\n      deviceNodes:\n        - path: \"/dev/nvidia1\"\n"
            ),
        },
        SpecFile {
            dir: ETC_CDI,
            // "invalid device \"all\": invalid (empty) device path"
            name: "gpuctl-xtask-nopath.yaml".to_string(),
            text: format!(
                "{MARK}\ncdiVersion: \"{version}\"\nkind: \"nvidia.com/gpu\"\ndevices:\n  - name: \"all\"\n    containerEdits:\n      deviceNodes:\n        - type: \"c\"\n          major: 195\n          minor: 0\n"
            ),
        },
        SpecFile {
            dir: ETC_CDI,
            // A write cut short inside a quoted scalar: not YAML at all.
            name: "gpuctl-xtask-truncated.yaml".to_string(),
            text: format!(
                "{MARK}\n---\ncdiVersion: {version}\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/nvidiactl\ndevices:\n- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia1\n  name: \"0"
            ),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_spec_maps_indexes_through_device_minors() {
        let s = nvidia("n.yaml", "0.5.0");
        assert!(s.text.starts_with(MARK));
        assert!(s.text.contains("cdiVersion: 0.5.0\n"));
        // Index 0 is 0000:01:00.0, whose Device Minor is 1.
        assert!(s.text.contains("    - path: /dev/nvidia1\n  name: \"0\"\n"));
        assert!(s.text.contains("    - path: /dev/nvidia0\n  name: \"1\"\n"));
        assert!(
            s.text
                .contains("    - path: /dev/nvidia1\n    - path: /dev/nvidia0\n  name: all\n")
        );
        assert!(s.text.ends_with("kind: nvidia.com/gpu\n"));
        assert_eq!(s.host_path(), "/etc/cdi/n.yaml");
    }

    #[test]
    fn three_different_rejections() {
        let r = rejected("0.5.0");
        assert_eq!(r.len(), 3);
        assert!(r[0].text.contains("kind: \"gpu\""));
        assert!(!r[1].text.contains("path:"));
        assert!(r[2].text.ends_with("name: \"0"));
    }
}
