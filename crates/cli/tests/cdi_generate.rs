//! `gpuctl cdi generate VENDOR` (docs/cdi.md#gpuctl-cdi-generate): specs shaped as the vendors'
//! own generators write them (compared with what amd-ctk and intel-cdi-specs-generator wrote on
//! the fixture hosts), at the oldest cdiVersion their content needs, which gpuctl then reads
//! back: `cdi check` accepts them and `args` answers on the CDI tier with their names.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use rstest::rstest;
use serde_json::Value;

fn host(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
        .canonicalize()
        .unwrap()
}

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

fn generate(root: &Path, vendor: &str) -> Value {
    let (code, out, err) = gpuctl(&["--root", root.to_str().unwrap(), "cdi", "generate", vendor]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Each device's name and its device-node paths, in file order.
fn nodes(spec: &Value) -> Vec<(String, Vec<String>)> {
    spec["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let paths = d["containerEdits"]["deviceNodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["path"].as_str().unwrap().to_string())
                .collect();
            (d["name"].as_str().unwrap().to_string(), paths)
        })
        .collect()
}

fn read_spec(path: &Path) -> Value {
    yaml_serde::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn amd_devices_are_named_and_ordered_as_amd_ctk_writes_them() {
    let root = host("amd-ctk-cdi");
    let ours = generate(&root, "amd");
    // What amd-ctk wrote on this host (tests/hosts/README.md#amd-ctk-cdi).
    let theirs = read_spec(&root.join("etc/cdi/amd.json"));
    assert_eq!(nodes(&ours), nodes(&theirs));
    assert_eq!(ours["kind"], theirs["kind"]);
    // amd-ctk writes 0.6.0 whatever the content; digit-leading names need 0.5.0
    // (specs-go/version.go requiresV050), so podman 4.3 to 4.6 loads gpuctl's spec too.
    assert_eq!(ours["cdiVersion"], "0.5.0");
}

#[test]
fn intel_devices_are_what_intel_cdi_specs_generator_writes() {
    let root = host("intel-arc-cdi");
    let ours = generate(&root, "intel");
    // What intel-cdi-specs-generator wrote on this host (tests/hosts/README.md#intel-arc-cdi):
    // the same device, nodes, hostPaths, by-path mounts and cdiVersion.
    let theirs = read_spec(&root.join("etc/cdi/intel.com-gpu.yaml"));
    assert_eq!(ours["devices"], theirs["devices"]);
    assert_eq!(ours["kind"], theirs["kind"]);
    assert_eq!(ours["cdiVersion"], theirs["cdiVersion"]);
}

#[rstest]
#[case::nvidia("dgx-b200", "nvidia", 1, "nvidia-ctk cdi generate")]
#[case::unknown("dgx-b200", "nvidea", 2, "pass one of: nvidia, amd, intel")]
#[case::no_gpu("empty", "amd", 1, "no /dev/kfd")]
#[case::no_render_node("empty", "intel", 1, "no intel render node")]
fn generate_says_when_it_writes_nothing(
    #[case] name: &str,
    #[case] vendor: &str,
    #[case] want: i32,
    #[case] says: &str,
) {
    let root = host(name);
    let (code, out, err) = gpuctl(&["--root", root.to_str().unwrap(), "cdi", "generate", vendor]);
    assert_eq!((code, out.as_str()), (want, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(says), "{err}");
}

/// A copy of a fixture host, links kept as links.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let t = entry.file_type().unwrap();
        if t.is_symlink() {
            symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if t.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

#[rstest]
#[case::amd("amd-mi300x", "amd", "amd.com/gpu", "amd.json", "0")]
#[case::intel(
    "intel-laptop",
    "intel",
    "intel.com/gpu",
    "intel.json",
    "0000-00-02-0-0x9a49"
)]
fn a_generated_spec_round_trips(
    #[case] fixture: &str,
    #[case] vendor: &str,
    #[case] kind: &str,
    #[case] file: &str,
    #[case] first: &str,
) {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("host");
    copy_tree(&host(fixture), &tree);
    let root = tree.to_str().unwrap();
    let (_, before, _) = gpuctl(&["--root", root, "args", vendor]);
    assert!(!before.contains(kind), "{before}");
    let spec = tree.join("etc/cdi").join(file);
    std::fs::create_dir_all(spec.parent().unwrap()).unwrap();
    let (code, out, err) = gpuctl(&[
        "--root",
        root,
        "cdi",
        "generate",
        vendor,
        "--output",
        spec.to_str().unwrap(),
    ]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let (code, checked, _) = gpuctl(&["cdi", "check", "--format", "json", spec.to_str().unwrap()]);
    assert_eq!(code, 0, "{checked}");
    let checked: Value = serde_json::from_str(&checked).unwrap();
    assert_eq!(checked["files"][0]["verdict"], "valid");
    let names: Vec<String> = checked["files"][0]["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert_eq!(names[0], first);
    // args answers on the CDI tier with the generated names.
    let selector = format!("{vendor}:{first}");
    let (code, args, err) = gpuctl(&["--root", root, "args", "--format", "json", &selector]);
    assert_eq!(code, 0, "{err}");
    let args: Vec<String> = serde_json::from_str(&args).unwrap();
    assert_eq!(
        args[..2],
        ["--device".to_string(), format!("{kind}={first}")]
    );
    let (_, listed, _) = gpuctl(&["--root", root, "cdi", "list"]);
    let listed: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut want: Vec<String> = names.iter().map(|n| format!("{kind}={n}")).collect();
    want.sort();
    assert_eq!(listed, want);
}

#[test]
fn output_refuses_a_device_node_and_leaves_it_alone() {
    let root = host("amd-mi300x");
    let (code, out, err) = gpuctl(&[
        "--root",
        root.to_str().unwrap(),
        "cdi",
        "generate",
        "amd",
        "--output",
        "/dev/null",
    ]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("/dev/null") && err.contains("not a regular file"),
        "{err}"
    );
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(
        &meta.file_type()
    ));
}

#[rstest]
// cdiVersion 0.5.0 (digit-leading names) needs podman 4.3 (docs/cdi.md#podman-ceilings): the
// spec is still written, with a warning.
#[case::too_old("4.2.0", 1)]
#[case::new_enough("4.3.1", 0)]
fn generate_warns_when_the_named_podman_cannot_load_it(
    #[case] podman: &str,
    #[case] warnings: usize,
) {
    let root = host("amd-mi300x");
    let (code, out, err) = gpuctl(&[
        "--root",
        root.to_str().unwrap(),
        "--podman-version",
        podman,
        "cdi",
        "generate",
        "amd",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"cdiVersion\": \"0.5.0\""));
    assert_eq!(err.lines().count(), warnings, "{err}");
    if warnings > 0 {
        assert!(
            err.contains("newer than podman 4.2.0 can load") && err.contains("podman 4.3 or later"),
            "{err}"
        );
    }
}
