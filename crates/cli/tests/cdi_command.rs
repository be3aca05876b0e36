//! `gpuctl cdi list|check|generate` (docs/cdi.md#gpuctl-cdi): the names as podman resolves them,
//! in `nvidia-ctk cdi list`'s order; the library's verdicts on the bundled corpora; specs
//! written as the vendors' own generators write them, which gpuctl then reads back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use rstest::rstest;
use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn host(name: &str) -> PathBuf {
    workspace().join("tests/hosts").join(name)
}

/// Runs gpuctl; returns exit code, stdout, stderr.
fn gpuctl(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("gpuctl")
        .args(args)
        .env_remove("GPUCTL_ROOT")
        .env_remove("GPUCTL_PODMAN_VERSION")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x[key].as_str().unwrap().to_string())
        .collect()
}

/// The qualified names a spec file declares, read with a second YAML reader (yaml_serde), not
/// gpuctl's.
fn declared(path: &Path) -> Vec<String> {
    let v: Value = yaml_serde::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let kind = v["kind"].as_str().unwrap();
    v["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{kind}={}", d["name"].as_str().unwrap()))
        .collect()
}

/// What `nvidia-ctk cdi list` prints on stdout for tests/hosts/cdi-override's two spec
/// directories. The command (NVIDIA/nvidia-container-toolkit `cmd/nvidia-ctk/cdi/list/list.go`,
/// `run`) builds the library's cache over `cdi.DefaultSpecDirs` (/etc/cdi, /var/run/cdi), logs
/// the registry errors and "Found N CDI devices" through its logger (stderr), then prints
/// each name of `registry.ListDevices()` with `fmt.Printf("%s\n", device)`; `ListDevices`
/// (container-device-interface `pkg/cdi/cache.go`) is the cache's keys in `sort.Strings`
/// order, and the cache holds each name once, the later directory's declaration winning.
const NVIDIA_CTK_LIST_CDI_OVERRIDE: &str = "\
nvidia.com/gpu=0
nvidia.com/gpu=1
nvidia.com/gpu=GPU-1402c615-b476-2d71-a05a-659f63bee2a7
nvidia.com/gpu=GPU-34af416a-c7b2-7f50-0b09-aa8d4d4d90c0
nvidia.com/gpu=GPU-35c38826-b3f3-1a62-58d3-34e140a02ac5
nvidia.com/gpu=all
";

#[test]
fn list_prints_the_names_in_nvidia_ctk_cdi_lists_order() {
    let root = host("cdi-override");
    let (code, out, _) = gpuctl(&["--root", root.to_str().unwrap(), "cdi", "list"]);
    assert_eq!(code, 0);
    let names: String = out
        .lines()
        .filter(|l| l.contains('='))
        .filter(|l| !l.starts_with("shadowed:"))
        .map(|l| format!("{}\n", l.split_whitespace().next().unwrap()))
        .collect();
    assert_eq!(names, NVIDIA_CTK_LIST_CDI_OVERRIDE);
    // The same from the files themselves, read by another YAML reader and sorted bytewise.
    let mut all: Vec<String> = declared(&root.join("etc/cdi/nvidia.yaml"));
    all.extend(declared(&root.join("var/run/cdi/nvidia.yaml")));
    let oracle: BTreeSet<String> = all.into_iter().collect();
    let oracle: String = oracle.into_iter().map(|n| n + "\n").collect();
    assert_eq!(names, oracle);
}

#[test]
fn list_names_the_winning_file_and_what_the_later_directory_shadows() {
    let root = host("cdi-override");
    let (code, out, _) = gpuctl(&[
        "--root",
        root.to_str().unwrap(),
        "cdi",
        "list",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    let run = declared(&root.join("var/run/cdi/nvidia.yaml"));
    let etc = declared(&root.join("etc/cdi/nvidia.yaml"));
    for d in v["devices"].as_array().unwrap() {
        let name = d["name"].as_str().unwrap().to_string();
        let want = if run.contains(&name) {
            "/var/run/cdi/nvidia.yaml"
        } else {
            "/etc/cdi/nvidia.yaml"
        };
        assert_eq!(d["spec"], want, "{name}");
    }
    let shadowed: BTreeSet<String> = strings(&v["shadowed"], "name").into_iter().collect();
    let both: BTreeSet<String> = etc.into_iter().filter(|n| run.contains(n)).collect();
    assert_eq!(shadowed, both);
    assert!(
        v["shadowed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["spec"] == "/etc/cdi/nvidia.yaml"
                && s["shadowed_by"] == "/var/run/cdi/nvidia.yaml")
    );
    assert_eq!(v["skipped"], Value::Array(vec![]));
}

#[rstest]
// Specs the library refuses, and a .yml it never reads.
#[case::broken(
    "cdi-broken",
    None,
    &["cdi-spec-invalid", "cdi-spec-invalid", "cdi-spec-invalid", "cdi-spec-wrong-extension"][..]
)]
// amd-ctk writes cdiVersion 0.6.0, which podman before 4.7 cannot load.
#[case::ceiling("amd-ctk-cdi", Some("4.6.2"), &["cdi-spec-unloadable"][..])]
#[case::current("amd-ctk-cdi", None, &[][..])]
fn list_says_which_specs_are_skipped_and_why(
    #[case] name: &str,
    #[case] podman: Option<&str>,
    #[case] codes: &[&str],
) {
    let root = host(name);
    let mut args = vec!["--root", root.to_str().unwrap()];
    if let Some(p) = podman {
        args.extend(["--podman-version", p]);
    }
    args.extend(["cdi", "list", "--format", "json"]);
    let (code, out, err) = gpuctl(&args);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(strings(&v["skipped"], "code"), codes);
    // JSON keeps stdout for the report; the person still sees each skipped spec on stderr.
    assert_eq!(err.lines().count(), codes.len(), "{err}");
    if !codes.is_empty() {
        let (_, text, _) = gpuctl(&[&args[..args.len() - 2]].concat());
        assert_eq!(
            text.lines().filter(|l| l.starts_with("skipped: ")).count(),
            codes.len()
        );
    }
}

/// The bundled corpora and the CDI library's verdict on each (the same verdicts
/// crates/cdi/src/library_verdicts_tests.rs `fixtures` records; origins in
/// crates/cdi/testdata/README.md and tests/hosts/README.md): the devices, or a fragment of the
/// library's reason.
#[rstest]
#[case("crates/cdi/testdata/library-schema-good-minimal.json", Ok(&["myDevice"][..]))]
#[case("crates/cdi/testdata/library-schema-good-spec-example.json", Ok(&["myDevice"][..]))]
#[case(
    "crates/cdi/testdata/library-schema-bad-empty.json",
    Err("no Spec data")
)]
#[case(
    "crates/cdi/testdata/library-schema-bad-explicit-empty.json",
    Err("invalid version \"\"")
)]
#[case("crates/cdi/testdata/nvidia-ctk-generate-default.yaml", Ok(&["0", "all"][..]))]
#[case("tests/hosts/amd-ctk-cdi/etc/cdi/amd.json", Ok(&["0", "1", "all"][..]))]
#[case("tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu.yaml", Ok(&["0000-08-00-0-0x56a5"][..]))]
#[case("tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu-mei.yaml", Ok(&["mei0"][..]))]
#[case(
    "tests/hosts/cdi-broken/etc/cdi/old.json",
    Err("invalid version \"0.9.9\"")
)]
#[case(
    "tests/hosts/cdi-broken/etc/cdi/nokind.yaml",
    Err("invalid (empty) vendor name")
)]
fn check_gives_the_librarys_verdict(#[case] file: &str, #[case] want: Result<&[&str], &str>) {
    let path = workspace().join(file);
    let (code, out, _) = gpuctl(&["cdi", "check", "--format", "json", path.to_str().unwrap()]);
    let v = json(&out);
    let f = &v["files"][0];
    match want {
        Ok(names) => {
            assert_eq!(code, 0, "{out}");
            assert_eq!(f["verdict"], "valid");
            assert_eq!(f["devices"], serde_json::json!(names));
        }
        Err(part) => {
            assert_eq!(code, 1, "{out}");
            assert_eq!(f["verdict"], "invalid");
            let reason = f["reason"].as_str().unwrap();
            assert!(reason.contains(part), "{reason:?} lacks {part:?}");
        }
    }
}

#[test]
fn check_counts_every_spec_of_the_bundled_corpora() {
    let w = workspace();
    let mut dirs: Vec<String> = vec![w.join("crates/cdi/testdata").display().to_string()];
    for entry in std::fs::read_dir(w.join("tests/hosts")).unwrap() {
        let h = entry.unwrap().path();
        for d in ["etc/cdi", "var/run/cdi"] {
            if h.join(d).is_dir() {
                dirs.push(h.join(d).display().to_string());
            }
        }
    }
    let mut args = vec!["cdi", "check", "--format", "json"];
    args.extend(dirs.iter().map(String::as_str));
    let (code, out, _) = gpuctl(&args);
    let v = json(&out);
    let files = v["files"].as_array().unwrap();
    // Every .json and .yaml at the top of those directories, as podman's scan reads them.
    let on_disk: usize = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml"))
        .count();
    assert_eq!(files.len(), on_disk);
    let invalid = files.iter().filter(|f| f["verdict"] != "valid").count();
    assert_eq!(invalid, 5, "{out}"); // the two bad schema files and cdi-broken's three
    // The two schema examples declare one device in one directory: a conflict podman drops.
    assert_eq!(v["problems"], invalid + 1);
    assert_eq!(code, 1);
}

#[rstest]
#[case::too_new("4.6.2", 1, "unloadable")]
#[case::new_enough("4.7.0", 0, "valid")]
fn check_applies_the_podman_ceiling(
    #[case] podman: &str,
    #[case] want: i32,
    #[case] verdict: &str,
) {
    let spec = host("amd-ctk-cdi").join("etc/cdi/amd.json");
    let (code, out, _) = gpuctl(&[
        "--podman-version",
        podman,
        "cdi",
        "check",
        "--format",
        "json",
        spec.to_str().unwrap(),
    ]);
    assert_eq!(code, want, "{out}");
    assert_eq!(json(&out)["files"][0]["verdict"], verdict);
}

#[test]
fn check_refuses_what_it_cannot_read_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("absent.yaml");
    let (code, out, err) = gpuctl(&["cdi", "check", missing.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("absent.yaml") && err.contains("pass CDI spec files"));
    let fifo = tmp.path().join("fifo.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, err) = gpuctl(&["cdi", "check", fifo.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn check_says_that_it_reads_this_machines_paths_under_root() {
    let root = host("amd-ctk-cdi");
    let spec = root.join("etc/cdi/amd.json");
    let (code, out, err) = gpuctl(&[
        "--root",
        root.to_str().unwrap(),
        "cdi",
        "check",
        spec.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with(&format!("{}: valid: amd.com/gpu", spec.display())),
        "{out}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not under --root"), "{err}");
}
