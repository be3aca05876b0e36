//! `containers.conf` read as podman reads it (containers-common's `pkg/config`): TOML, the
//! files in podman's order, each file overriding the keys it sets. Doctor needs one key, the
//! OCI runtime under `[engine]`, and whether podman can read the files at all (it refuses to
//! start on a file that is not valid TOML). The order and its sources: docs/containers-conf.md.

use std::path::{Path, PathBuf};

use crate::host::Host;

/// The largest containers.conf gpuctl reads (the shipped default is about 30 KiB).
const CONF_SIZE_LIMIT: u64 = 1024 * 1024;

/// What the invoking user's environment says about where podman reads containers.conf. The
/// paths are host paths, read under the host root like every other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfEnv {
    /// `CONTAINERS_CONF`: when set, the only file read before the override.
    pub containers_conf: Option<String>,
    /// `CONTAINERS_CONF_OVERRIDE`: read last, over everything else.
    pub containers_conf_override: Option<String>,
    /// `$XDG_CONFIG_HOME`, or `$HOME/.config` when it is unset: the user's own files.
    pub config_home: Option<String>,
}

/// One file podman would read, and whether podman fails when it is absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfFile {
    /// The host path.
    pub path: String,
    /// Named by an environment variable: podman refuses to start when it does not exist.
    pub required: bool,
}

/// The files podman reads, lowest precedence first. `uid` picks the rootful or rootless
/// drop-in directories; when it is unknown, neither is read (and the caller says so).
pub fn files(host: &Host, env: &ConfEnv, uid: Option<u32>) -> Vec<ConfFile> {
    let mut out = Vec::new();
    let plain = |p: String| ConfFile {
        path: p,
        required: false,
    };
    if let Some(only) = &env.containers_conf {
        out.push(ConfFile {
            path: only.clone(),
            required: true,
        });
    } else {
        for base in ["/usr/share/containers", "/etc/containers"] {
            out.push(plain(format!("{base}/containers.conf")));
            let mut dirs = vec![format!("{base}/containers.conf.d")];
            match uid {
                Some(0) => dirs.push(format!("{base}/containers.rootful.conf.d")),
                Some(u) => {
                    dirs.push(format!("{base}/containers.rootless.conf.d"));
                    dirs.push(format!("{base}/containers.rootless.conf.d/{u}"));
                }
                None => {}
            }
            for d in dirs {
                out.extend(drop_ins(host, &d).into_iter().map(plain));
            }
        }
        if let Some(home) = &env.config_home {
            out.push(plain(format!("{home}/containers/containers.conf")));
            out.extend(
                drop_ins(host, &format!("{home}/containers/containers.conf.d"))
                    .into_iter()
                    .map(plain),
            );
        }
    }
    if let Some(last) = &env.containers_conf_override {
        out.push(ConfFile {
            path: last.clone(),
            required: true,
        });
    }
    out
}

/// The rootful and rootless drop-in directories the host has: which of them podman reads
/// depends on who runs it.
pub fn per_user_dirs(host: &Host) -> Vec<String> {
    ["/usr/share/containers", "/etc/containers"]
        .iter()
        .flat_map(|b| {
            [
                format!("{b}/containers.rootful.conf.d"),
                format!("{b}/containers.rootless.conf.d"),
            ]
        })
        .filter(|d| host.is_dir(Path::new(d)).unwrap_or(true))
        .collect()
}

/// The `*.conf` entries of a drop-in directory that are not directories, in byte order of their
/// names (Go's `os.ReadDir` order); none when the directory is absent or unreadable.
fn drop_ins(host: &Host, dir: &str) -> Vec<String> {
    host.list_dir(Path::new(dir))
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !e.is_dir)
        .filter_map(|e| e.name_str().map(str::to_string))
        .filter(|n| n.ends_with(".conf"))
        .map(|n| PathBuf::from(dir).join(n).display().to_string())
        .collect()
}

/// What the files say, merged as podman merges them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineConf {
    /// `[engine] runtime` of the last file that sets it, and that file.
    pub runtime: Option<(String, String)>,
    /// The files that exist and were read, in order.
    pub read: Vec<String>,
    /// Files podman refuses (not TOML, a key of the wrong type, a required file missing): podman
    /// does not start while any is there.
    pub refused: Vec<String>,
    /// Files gpuctl could not look at (permission, size): it cannot tell what they set.
    pub unknown: Vec<String>,
}

/// Reads `files` in order.
pub fn read(host: &Host, files: &[ConfFile]) -> EngineConf {
    let mut conf = EngineConf::default();
    for f in files {
        let text = match host.read_to_string(Path::new(&f.path), CONF_SIZE_LIMIT) {
            Ok(t) => t,
            Err(e) if e.is_absent() && !f.required => continue,
            Err(e) if e.is_absent() => {
                conf.refused.push(format!(
                    "{} does not exist, and podman refuses to start without a file its environment names",
                    f.path
                ));
                continue;
            }
            Err(e) => {
                conf.unknown.push(e.to_string());
                continue;
            }
        };
        conf.read.push(f.path.clone());
        match engine_runtime(&text) {
            Ok(Some(r)) => conf.runtime = Some((r, f.path.clone())),
            Ok(None) => {}
            Err(why) => conf.refused.push(format!(
                "{} is not a containers.conf podman can read: {why}",
                f.path
            )),
        }
    }
    conf
}

/// The `runtime` key of the `[engine]` table of one file: `Ok(None)` when the file does not set
/// it, `Err` when the file is not valid TOML or the key is not a string (podman's decoder
/// refuses both). An empty string counts as unset, as podman treats it.
pub fn engine_runtime(text: &str) -> Result<Option<String>, String> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| one_line(&e.to_string()))?;
    let Some(engine) = table.get("engine") else {
        return Ok(None);
    };
    let engine = engine
        .as_table()
        .ok_or_else(|| "'engine' is not a table".to_string())?;
    match engine.get("runtime") {
        None => Ok(None),
        Some(toml::Value::String(s)) if s.is_empty() => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err("[engine] runtime is not a string".to_string()),
    }
}

/// The TOML parser's message, which spans lines (a source excerpt), as one clause.
fn one_line(msg: &str) -> String {
    msg.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|') && !l.starts_with("-->"))
        .collect::<Vec<_>>()
        .join(" ")
}
