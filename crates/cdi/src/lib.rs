//! Reads CDI (Container Device Interface) spec directories the way podman's CDI library
//! (`tags.cncf.io/container-device-interface`) does, so a program can tell which devices
//! `podman run --device vendor.com/class=name` would resolve without running podman:
//!
//! - [`spec`]: one spec file, parsed and validated with the library's verdicts. YAML is read as
//!   yaml.v2 reads it ([`goyaml`]), then decoded with encoding/json's rules; plain JSON and the
//!   generators' own shapes take a fast path that is checked to agree with the full reader.
//! - [`CdiRegistry`]: the top level of each spec directory, `.json` and `.yaml` files only, later
//!   directories winning per fully qualified device name, duplicates within one directory
//!   cancelling each other; what was skipped and why as typed [`Warning`]s.
//! - [`podman`] and [`version`]: the newest `cdiVersion` each podman release loads, and the
//!   validation rules that changed between library versions.
//! - [`grammar`]: the library's rules for kinds and device names.
//!
//! Files are read through a [`SpecSource`]: [`Fs`] for the machine's own filesystem, or the
//! caller's own (gpuctl reads a host tree under `--root` through its own).
//!
//! ```
//! use std::path::PathBuf;
//! use gpuctl_cdi::spec::{SpecFormat, parse_spec};
//! use gpuctl_cdi::{CdiRegistry, Fs};
//!
//! let text = "cdiVersion: 0.5.0\nkind: vendor.com/gpu\ndevices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/card0\n";
//! let spec = parse_spec(text.as_bytes(), SpecFormat::Yaml).expect("a valid spec");
//! assert_eq!(spec.kind, "vendor.com/gpu");
//! assert_eq!(spec.device_names, ["0"]);
//!
//! // A spec directory, read as podman reads /etc/cdi and /var/run/cdi.
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("vendor.yaml"), text)?;
//! std::fs::write(dir.path().join("notes.yml"), "not read")?;
//! let registry = CdiRegistry::scan(&Fs, &[PathBuf::from(dir.path())]);
//! assert_eq!(registry.device_names("vendor.com/gpu"), ["0"]);
//! assert!(registry.has_device("vendor.com/gpu", "0"));
//! assert_eq!(registry.warnings().len(), 1); // the .yml file, which CDI does not read
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! The facts each rule rests on, with their sources, are in gpuctl's `docs/cdi.md` and
//! `docs/cdi-parsing.md`.

pub mod check;
pub mod edits;
pub mod goyaml;
pub mod grammar;
pub mod listing;
pub mod podman;
pub mod spec;
pub mod version;

mod decode;
mod fast;
mod fast_json;
mod fast_source;
mod fast_yaml;
mod model;
mod read;
mod source;
mod validate_edits;
mod warning;

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use edits::Edits;
use podman::PodmanCeiling;
use read::read_spec;
pub use source::{DirEntry, Fs, ReadError, ReadProblem, SpecSource};
use spec::SpecFormat;
pub use warning::Warning;

/// The spec directories podman reads unless told otherwise, lowest priority first.
pub const DEFAULT_SPEC_DIRS: [&str; 2] = ["/etc/cdi", "/var/run/cdi"];

/// The largest spec gpuctl reads. NVIDIA's specs for 8 GPUs with MIG stay well under 1 MiB.
pub const SPEC_SIZE_LIMIT: u64 = 4 * 1024 * 1024;

/// The most spec files read from one directory; a directory with more is not a CDI directory.
pub const MAX_SPECS_PER_DIR: usize = 1024;

/// One spec file as gpuctl found it, valid or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpecReport {
    /// The path.
    pub path: String,
    /// `kind`, when the file is valid.
    pub kind: Option<String>,
    /// `cdiVersion`, when the file is valid.
    pub cdi_version: Option<String>,
    /// The device names it declares, in file order (empty when invalid).
    pub devices: Vec<String>,
    /// Why the file declares nothing, when it is invalid.
    pub error: Option<String>,
    /// Host device nodes the spec injects.
    #[serde(skip)]
    pub host_nodes: Vec<String>,
    /// Host paths the spec's mounts bind.
    #[serde(skip)]
    pub host_mounts: Vec<String>,
    /// Programs the spec's hooks run.
    #[serde(skip)]
    pub hook_paths: Vec<String>,
    /// The spec's own environment and device nodes, which each of its devices brings.
    #[serde(skip)]
    pub edits: Edits,
    /// Each device's own environment and device nodes, in the order of `devices`.
    #[serde(skip)]
    pub device_edits: Vec<Edits>,
    /// True when only the podman named by `--podman-version` cannot load it.
    #[serde(skip)]
    podman_rejects: bool,
    /// What podman does with the file when gpuctl skips it.
    #[serde(skip)]
    podman: PodmanDoes,
    #[serde(skip)]
    priority: usize,
}

/// What podman does with a spec gpuctl skips; the finding says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PodmanDoes {
    Skips,
    Crashes,
    MayLoad,
}

/// The CDI devices a host declares.
#[derive(Debug, Clone, Default)]
pub struct CdiRegistry {
    specs: Vec<SpecReport>,
    /// Resolved devices by fully qualified name, sorted as the library lists them: the index
    /// of the spec that declares each and its place in that spec's `devices`, so a device's
    /// edits are found without a search of the spec's list (issue 26: a search per name made
    /// naming 4096 GPUs quadratic).
    devices: BTreeMap<String, (usize, usize)>,
    warnings: Vec<Warning>,
}

impl CdiRegistry {
    /// Reads every spec under `dirs` (lowest priority first).
    pub fn scan(source: &dyn SpecSource, dirs: &[PathBuf]) -> CdiRegistry {
        CdiRegistry::scan_for(source, dirs, None)
    }

    /// Reads every spec under `dirs`, treating specs that `podman` cannot load as invalid.
    pub fn scan_for(
        source: &dyn SpecSource,
        dirs: &[PathBuf],
        podman: Option<&PodmanCeiling>,
    ) -> CdiRegistry {
        let mut reg = CdiRegistry::default();
        for (priority, dir) in dirs.iter().enumerate() {
            reg.scan_dir(source, dir, priority, podman);
        }
        reg.resolve();
        reg
    }

    fn scan_dir(
        &mut self,
        source: &dyn SpecSource,
        dir: &Path,
        priority: usize,
        podman: Option<&PodmanCeiling>,
    ) {
        let entries = match source.list_dir(dir) {
            Ok(mut e) => {
                // In byte order of the names, as the library's filepath.Walk reads a directory.
                e.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
                e
            }
            Err(e) if e.is_absent() => {
                tracing::debug!("CDI spec directory {} does not exist", dir.display());
                return;
            }
            Err(e) => {
                self.warnings.push(Warning::DirUnreadable { error: e });
                return;
            }
        };
        let mut taken = 0usize;
        for entry in entries {
            let Some(name) = entry.name_str() else {
                continue;
            };
            let path = dir.join(name);
            let format = match Path::new(name).extension().and_then(|e| e.to_str()) {
                Some("json") => SpecFormat::Json,
                Some("yaml") => SpecFormat::Yaml,
                Some("yml") if !entry.is_dir => {
                    self.warnings.push(Warning::SpecWrongExtension {
                        path: path.display().to_string(),
                    });
                    continue;
                }
                _ => continue,
            };
            match source.metadata(&path) {
                Ok(Some(m)) if m.is_file() => {}
                Ok(Some(m)) if !m.is_dir() => {
                    self.warnings.push(Warning::SpecNotRegular {
                        path: path.display().to_string(),
                        kind: special_kind(&m),
                        fifo: m.file_type().is_fifo(),
                    });
                    continue;
                }
                Ok(_) => continue, // a directory (never recursed into), or gone meanwhile
                Err(e) => {
                    self.warnings.push(Warning::SpecUnreadable { error: e });
                    continue;
                }
            }
            taken += 1;
            if taken > MAX_SPECS_PER_DIR {
                self.warnings.push(Warning::DirTooManySpecs {
                    dir: dir.display().to_string(),
                    limit: MAX_SPECS_PER_DIR,
                });
                break;
            }
            self.specs
                .push(read_spec(source, &path, format, priority, podman));
        }
    }

    /// Applies the library's conflict rules: a later directory wins silently, the same device
    /// twice in one directory removes it.
    fn resolve(&mut self) {
        let mut conflicts: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, spec) in self.specs.iter().enumerate() {
            let Some(kind) = &spec.kind else { continue };
            for (at, name) in spec.devices.iter().enumerate() {
                // Built by hand and looked up once (an entry, not a get then an insert): this
                // runs for every device of every spec, 4,096 on the bench's largest host, where
                // `format!` and the second search of the map were 8 M instructions (issue 26).
                let mut qualified = String::with_capacity(kind.len() + 1 + name.len());
                qualified.push_str(kind);
                qualified.push('=');
                qualified.push_str(name);
                match self.devices.entry(qualified) {
                    Entry::Occupied(e) if self.specs[e.get().0].priority == spec.priority => {
                        let old = e.get().0;
                        let entry = conflicts.entry(e.key().clone()).or_default();
                        if !entry.contains(&old) {
                            entry.push(old);
                        }
                        entry.push(i);
                    }
                    Entry::Occupied(mut e) => {
                        e.insert((i, at));
                    }
                    Entry::Vacant(e) => {
                        e.insert((i, at));
                    }
                }
            }
        }
        for (qualified, files) in conflicts {
            self.devices.remove(&qualified);
            let paths = files.iter().map(|&i| self.specs[i].path.clone()).collect();
            self.warnings.push(Warning::DeviceConflict {
                device: qualified,
                paths,
            });
        }
    }

    /// Every spec file found, in directory order then name order.
    pub fn specs(&self) -> &[SpecReport] {
        &self.specs
    }

    fn of_kind<'a>(&'a self, kind: &str) -> impl Iterator<Item = (&'a str, usize)> + 'a {
        let prefix = format!("{kind}=");
        let skip = prefix.len();
        self.devices
            .range(prefix.clone()..)
            .take_while(move |(q, _)| q.starts_with(&prefix))
            .map(move |(q, &(i, _))| (&q[skip..], i))
    }

    /// True when a valid spec declares at least one usable device of `kind`.
    pub fn kind_declared(&self, kind: &str) -> bool {
        self.of_kind(kind).next().is_some()
    }

    /// The device names of `kind`, in the order the CDI library lists them (byte order of the
    /// qualified names: `10` before `2`).
    pub fn device_names(&self, kind: &str) -> Vec<&str> {
        self.of_kind(kind).map(|(n, _)| n).collect()
    }

    /// True when `kind=name` resolves.
    pub fn has_device(&self, kind: &str, name: &str) -> bool {
        self.devices.contains_key(&format!("{kind}={name}"))
    }

    /// What granting `kind=name` does to the container's environment and device nodes: the
    /// edits of the spec that declares it, then the device's own, as podman applies them;
    /// `None` when the name does not resolve.
    pub fn device_edits(&self, kind: &str, name: &str) -> Option<Edits> {
        let &(i, at) = self.devices.get(&format!("{kind}={name}"))?;
        let spec = &self.specs[i];
        Some(spec.edits.then(spec.device_edits.get(at)?))
    }

    /// The spec files that supply the resolved devices of `kind`, in scan order.
    pub fn specs_for(&self, kind: &str) -> Vec<&SpecReport> {
        let mut idx: Vec<usize> = self.of_kind(kind).map(|(_, i)| i).collect();
        idx.sort_unstable();
        idx.dedup();
        idx.into_iter().map(|i| &self.specs[i]).collect()
    }
}

/// What a file that is neither regular nor a directory is, in a few words.
fn special_kind(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device node"
    } else {
        "a special file"
    }
}

impl CdiRegistry {
    /// One finding per invalid spec.
    fn invalid_spec_warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.specs.iter().filter_map(|s| {
            let (path, reason) = (s.path.clone(), s.error.clone()?);
            Some(match s.podman {
                PodmanDoes::Crashes => Warning::SpecCrashesLibrary { path, reason },
                PodmanDoes::MayLoad => Warning::SpecAliasExpansion { path, reason },
                PodmanDoes::Skips if s.podman_rejects => Warning::SpecUnloadable { path, reason },
                PodmanDoes::Skips => Warning::SpecInvalid { path, reason },
            })
        })
    }

    /// The spec-directory entries that were not read as specs (unreadable, of the wrong type or
    /// extension, past the per-directory limit) and the devices two specs of one directory
    /// declare: every warning but the invalid specs'.
    pub fn directory_warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Specs that are skipped, unreadable or in conflict: invalid specs first, then directory
    /// and conflict problems.
    pub fn warnings(&self) -> Vec<Warning> {
        self.invalid_spec_warnings()
            .chain(self.warnings.iter().cloned())
            .collect()
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
