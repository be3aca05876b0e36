//! Every fully qualified device name a scan resolves, as a list: the file that wins each name,
//! the names a later directory shadows, and the files that declare nothing. This is what
//! `nvidia-ctk cdi list` prints from the library's cache (`Cache.ListDevices`, names sorted as
//! strings), with the two things the cache keeps to itself: which file won, and what lost.

use crate::{CdiRegistry, SpecReport};

/// One resolved device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedDevice {
    /// `kind=name`, as `podman run --device` takes it.
    pub name: String,
    /// The spec file that declares it and wins.
    pub path: String,
    /// That file's `cdiVersion`.
    pub cdi_version: String,
}

/// A device a spec declares that another spec, in a later directory, declares too: the later
/// one is the device podman resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShadowedDevice {
    /// `kind=name`.
    pub name: String,
    /// The file whose declaration loses.
    pub path: String,
    /// The file that wins.
    pub by: String,
}

impl CdiRegistry {
    /// Every resolved device, in the library's order (byte order of the qualified names).
    pub fn listed_devices(&self) -> Vec<ListedDevice> {
        self.devices
            .iter()
            .map(|(name, &(i, _))| {
                let spec = &self.specs[i];
                ListedDevice {
                    name: name.clone(),
                    path: spec.path.clone(),
                    cdi_version: spec.cdi_version.clone().unwrap_or_default(),
                }
            })
            .collect()
    }

    /// The declarations a later directory overrides, by qualified name then scan order. A name
    /// declared twice in one directory is a conflict ([`crate::Warning::DeviceConflict`]), not
    /// a shadow.
    pub fn shadowed_devices(&self) -> Vec<ShadowedDevice> {
        let mut out = Vec::new();
        for (i, spec) in self.specs.iter().enumerate() {
            for qualified in qualified_names(spec) {
                let Some(&(winner, _)) = self.devices.get(&qualified) else {
                    continue;
                };
                let by = &self.specs[winner];
                if winner != i && by.priority > spec.priority {
                    out.push(ShadowedDevice {
                        name: qualified,
                        path: spec.path.clone(),
                        by: by.path.clone(),
                    });
                }
            }
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        out
    }
}

fn qualified_names(spec: &SpecReport) -> Vec<String> {
    let Some(kind) = &spec.kind else {
        return Vec::new();
    };
    spec.devices.iter().map(|n| format!("{kind}={n}")).collect()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::{CdiRegistry, Fs, Warning};

    fn spec(names: &[&str]) -> String {
        let mut s = "cdiVersion: 0.5.0\nkind: vendor.com/gpu\ndevices:\n".to_string();
        for n in names {
            s += &format!("- name: \"{n}\"\n  containerEdits: {{env: [A=1]}}\n");
        }
        s
    }

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::create_dir_all(dir).expect("mkdir");
        std::fs::write(dir.join(name), text).expect("write");
    }

    #[test]
    fn the_later_directory_shadows_the_earlier_and_a_conflict_is_no_shadow() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (low, high) = (tmp.path().join("etc"), tmp.path().join("run"));
        write(&low, "a.yaml", &spec(&["10", "2", "old"]));
        write(&high, "b.yaml", &spec(&["2", "new"]));
        write(&high, "c.yaml", &spec(&["dup"]));
        write(&high, "d.yaml", &spec(&["dup"]));
        let reg = CdiRegistry::scan(&Fs, &[PathBuf::from(&low), PathBuf::from(&high)]);
        let names: Vec<(String, String)> = reg
            .listed_devices()
            .into_iter()
            .map(|d| (d.name, d.path))
            .collect();
        let at = |dir: &Path, f: &str| dir.join(f).display().to_string();
        assert_eq!(
            names,
            [
                ("vendor.com/gpu=10".to_string(), at(&low, "a.yaml")),
                ("vendor.com/gpu=2".to_string(), at(&high, "b.yaml")),
                ("vendor.com/gpu=new".to_string(), at(&high, "b.yaml")),
                ("vendor.com/gpu=old".to_string(), at(&low, "a.yaml")),
            ]
        );
        let shadowed = reg.shadowed_devices();
        assert_eq!(shadowed.len(), 1);
        assert_eq!(shadowed[0].name, "vendor.com/gpu=2");
        assert_eq!(shadowed[0].path, at(&low, "a.yaml"));
        assert_eq!(shadowed[0].by, at(&high, "b.yaml"));
        assert!(
            reg.warnings()
                .iter()
                .any(|w| matches!(w, Warning::DeviceConflict { device, .. } if device == "vendor.com/gpu=dup"))
        );
    }
}
