//! Every fixture host under tests/hosts gives the outputs recorded under tests/expected/<host>/:
//! `args` for `all` and the host's own selections, `detect` in both formats, `requirement`.
//!
//! The recorded files are reviewed like code. After a deliberate change, regenerate them with
//! `GPUCTL_BLESS=1 cargo test -p gpuctl --test hosts` and read the diff before committing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Selections worth recording per host, besides `all`.
fn selections(host: &str) -> &'static [&'static str] {
    match host {
        "dgx-b200" => &["nvidia:3", "nvidia:0,nvidia:7", "nvidia:8", "amd"],
        "nvidia-hook-only" => &["nvidia:1"],
        "nvidia-raw-only" => &["nvidia:0", "nvidia:1", "nvidia:2"],
        "amd-mi300x" => &["amd:0", "amd:1", "amd:8", "amd:x", "intel"],
        "intel-laptop" => &["intel:0", "intel:1", "nvidia"],
        "workstation" => &[
            "nvidia:0,amd:0,intel:0",
            "amd,intel",
            "nvidia:1",
            "nvidia:GPU-e008b0f5-204c-dedb-faeb-a6fac57e9a42",
        ],
        "empty" => &["nvidia", "amd", "intel"],
        "intel-arc-cdi" => &["intel:0", "intel:0000-08-00-0-0x56a5"],
        "amd-ctk-cdi" => &["amd:1", "amd:2"],
        "cdi-broken" => &["nvidia:0"],
        "cdi-override" => &["nvidia:1", "nvidia:2"],
        _ => &[],
    }
}

/// One command's outcome, as recorded.
fn record(root: &Path, args: &[&str]) -> String {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .arg("--root")
        .arg(root)
        .args(args)
        .output()
        .unwrap();
    format!(
        "$ gpuctl {}\nexit: {}\nstdout:\n{}stderr:\n{}\n",
        args.join(" "),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn check(expected: &Path, got: &str) -> Option<String> {
    if std::env::var_os("GPUCTL_BLESS").is_some() {
        fs::create_dir_all(expected.parent().unwrap()).unwrap();
        fs::write(expected, got).unwrap();
        return None;
    }
    match fs::read_to_string(expected) {
        Ok(want) if want == got => None,
        Ok(want) => Some(format!(
            "{} differs:\n--- want\n{want}\n--- got\n{got}",
            expected.display()
        )),
        Err(e) => Some(format!(
            "{}: {e} (run with GPUCTL_BLESS=1 to record it)",
            expected.display()
        )),
    }
}

#[test]
fn every_fixture_host_gives_its_recorded_outputs() {
    let ws = workspace();
    let mut hosts: Vec<PathBuf> = fs::read_dir(ws.join("tests/hosts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    hosts.sort();
    assert!(hosts.len() >= 7, "the fixture hosts are missing");
    let mut failures = Vec::new();
    for root in &hosts {
        let name = root.file_name().unwrap().to_str().unwrap();
        let dir = ws.join("tests/expected").join(name);
        let mut args = record(root, &["args", "all"]);
        for sel in selections(name) {
            args.push_str(&record(root, &["args", sel]));
        }
        args.push_str(&record(root, &["args", "--format", "json", "all"]));
        failures.extend(check(&dir.join("args.txt"), &args));
        failures.extend(check(&dir.join("detect.txt"), &record(root, &["detect"])));
        failures.extend(check(
            &dir.join("detect.json"),
            &record(root, &["detect", "--format", "json"]),
        ));
        failures.extend(check(
            &dir.join("requirement.txt"),
            &record(root, &["requirement"]),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn detect_json_has_the_contracted_shape_on_every_host() {
    let ws = workspace();
    for entry in fs::read_dir(ws.join("tests/hosts")).unwrap() {
        let root = entry.unwrap().path();
        if !root.is_dir() {
            continue;
        }
        let out = cargo_bin_cmd!("gpuctl")
            .env_clear()
            .arg("--root")
            .arg(&root)
            .args(["detect", "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", root.display());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let vendors: Vec<&str> = v["vendors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["vendor"].as_str().unwrap())
            .collect();
        assert_eq!(vendors, ["nvidia", "amd", "intel"]);
        for vendor in v["vendors"].as_array().unwrap() {
            assert!(vendor["usable"].is_boolean());
            assert!(
                vendor["tier"].is_null()
                    || ["cdi", "hook", "raw"].contains(&vendor["tier"].as_str().unwrap())
            );
            for (i, d) in vendor["devices"].as_array().unwrap().iter().enumerate() {
                assert_eq!(d["index"], i);
                assert!(d["pci_address"].is_string());
                match vendor["vendor"].as_str().unwrap() {
                    "nvidia" => {
                        for key in ["device_id", "generation", "compute", "requirement"] {
                            assert!(d.get(key).is_some(), "{key} in {d}");
                        }
                    }
                    _ => assert!(d["render_node"].is_string()),
                }
            }
        }
        for spec in v["cdi_specs"].as_array().unwrap() {
            for key in ["path", "kind", "cdi_version", "devices", "error"] {
                assert!(spec.get(key).is_some(), "{key} in {spec}");
            }
        }
        // Each warning is an object: a stable code, its facts, and the sentence stderr shows.
        let stderr = String::from_utf8_lossy(&out.stderr);
        for w in v["warnings"].as_array().unwrap() {
            let code = w["code"].as_str().unwrap();
            assert!(
                !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{w}"
            );
            let message = w["message"].as_str().unwrap();
            assert!(
                stderr.contains(&format!("gpuctl: warning: {message}\n")),
                "{w}"
            );
        }
    }
}

/// The other renderings of `args`, recorded per host next to args.txt: `all` and the host's
/// selections in quadlet, compose and docker form. docker's groups follow the fixture's nodes'
/// group and mode: group 0 and mode 0644 where root checked the tree out with umask 022 (CI,
/// the development machines), so no group opens them and stderr says so; elsewhere the docker
/// recording is not compared.
#[test]
fn every_fixture_host_gives_its_recorded_renderings() {
    use std::os::unix::fs::MetadataExt;
    let ws = workspace();
    let kfd = fs::metadata(ws.join("tests/hosts/amd-mi300x/dev/kfd")).unwrap();
    let root_owned = fs::metadata(ws.join("tests/hosts")).unwrap().gid() == 0
        && kfd.gid() == 0
        && kfd.mode() & 0o777 == 0o644;
    let mut failures = Vec::new();
    let mut hosts: Vec<PathBuf> = fs::read_dir(ws.join("tests/hosts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    hosts.sort();
    for root in &hosts {
        let name = root.file_name().unwrap().to_str().unwrap();
        for format in ["quadlet", "compose", "docker"] {
            if format == "docker" && !root_owned {
                eprintln!(
                    "{name}: docker recording skipped (the checkout is not group 0, mode 0644)"
                );
                continue;
            }
            let mut text = String::new();
            for sel in std::iter::once(&"all").chain(selections(name)) {
                text.push_str(&record(root, &["args", "--format", format, sel]));
            }
            let file = format!("args-{format}.txt");
            failures.extend(check(
                &ws.join("tests/expected").join(name).join(file),
                &text,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
