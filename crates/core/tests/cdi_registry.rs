//! Spec discovery across directories, read under a fixture host's root as gpuctl reads it:
//! scanning rules, priority, conflicts, hostile files, and the findings that word each skip.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use gpuctl_cdi::podman::PodmanCeiling;
use gpuctl_cdi::{CdiRegistry, DEFAULT_SPEC_DIRS, SPEC_SIZE_LIMIT};
use gpuctl_core::plugin::{Finding, Host};
use gpuctl_testkit::{Tree, cdi_yaml};

/// The scan's warnings as gpuctl prints them.
fn texts(reg: &CdiRegistry) -> Vec<String> {
    reg.warnings()
        .into_iter()
        .map(|w| Finding::from(w).to_string())
        .collect()
}

fn scan(t: &Tree) -> CdiRegistry {
    let host = Host::at(t.root()).expect("root");
    let dirs: Vec<PathBuf> = DEFAULT_SPEC_DIRS.iter().map(PathBuf::from).collect();
    CdiRegistry::scan(&host, &dirs)
}

#[test]
fn only_top_level_json_and_yaml_files_count() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/sub/nvidia.yaml", "nvidia.com/gpu", &["0"]);
    t.cdi_spec("/etc/cdi/nvidia.yml", "nvidia.com/gpu", &["1"]);
    t.cdi_spec("/etc/cdi/nvidia.conf", "nvidia.com/gpu", &["2"]);
    t.cdi_spec("/etc/cdi/amd.yaml", "amd.com/gpu", &["0"]);
    let reg = scan(&t);
    assert!(!reg.kind_declared("nvidia.com/gpu"));
    assert!(reg.kind_declared("amd.com/gpu"));
    assert_eq!(reg.specs().len(), 1);
    let w: Vec<String> = texts(&reg);
    assert!(
        w.iter()
            .any(|w| w.contains("/etc/cdi/nvidia.yml is not read")),
        "{w:?}"
    );
}

#[test]
fn a_kind_is_declared_only_by_a_valid_spec_not_by_a_mention() {
    let t = Tree::new();
    t.file(
        "/etc/cdi/comment.yaml",
        "# amd.com/gpu intel.com/gpu nvidia.com/gpu\n",
    );
    t.cdi_spec("/etc/cdi/mei.yaml", "intel.com/gpu-mei", &["mei0"]);
    let reg = scan(&t);
    for kind in ["nvidia.com/gpu", "amd.com/gpu", "intel.com/gpu"] {
        assert!(!reg.kind_declared(kind), "{kind}");
    }
    assert!(reg.kind_declared("intel.com/gpu-mei"));
    assert_eq!(reg.device_names("intel.com/gpu"), Vec::<&str>::new());
}

#[test]
fn the_later_directory_wins_per_device_and_stale_names_remain() {
    let t = Tree::new();
    t.cdi_spec(
        "/etc/cdi/nvidia.yaml",
        "nvidia.com/gpu",
        &["0", "1", "GPU-old", "all"],
    );
    t.link("/var/run", "../run");
    t.cdi_spec(
        "/run/cdi/nvidia.yaml",
        "nvidia.com/gpu",
        &["0", "1", "GPU-new", "all"],
    );
    let reg = scan(&t);
    assert_eq!(
        reg.device_names("nvidia.com/gpu"),
        ["0", "1", "GPU-new", "GPU-old", "all"]
    );
    let paths: Vec<&str> = reg
        .specs_for("nvidia.com/gpu")
        .iter()
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(paths, ["/etc/cdi/nvidia.yaml", "/var/run/cdi/nvidia.yaml"]);
    assert!(reg.warnings().is_empty());
}

#[test]
fn the_same_device_twice_in_one_directory_cancels_it() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/a.yaml", "example.com/gpu", &["0", "1"]);
    t.cdi_spec("/etc/cdi/dup.yaml", "example.com/gpu", &["0"]);
    let reg = scan(&t);
    assert_eq!(reg.device_names("example.com/gpu"), ["1"]);
    let w: Vec<String> = texts(&reg);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("conflicting CDI device \"example.com/gpu=0\" (specs /etc/cdi/a.yaml, /etc/cdi/dup.yaml)"), "{w:?}");
}

#[test]
fn a_broken_spec_does_not_block_a_valid_one_and_is_explained() {
    let t = Tree::new();
    t.file("/etc/cdi/bad.yaml", "cdiVersion: \"0.5.0\"\nkind: [\n");
    t.file(
        "/etc/cdi/old.json",
        &cdi_yaml("nvidia.com/gpu", &["9"]).replace("0.5.0", "0.9.9"),
    );
    t.cdi_spec("/etc/cdi/test.yaml", "nvidia.com/gpu", &["0"]);
    let reg = scan(&t);
    assert_eq!(reg.device_names("nvidia.com/gpu"), ["0"]);
    let w: Vec<String> = texts(&reg);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].starts_with("CDI spec /etc/cdi/bad.yaml is skipped: failed to parse CDI Spec: "),
        "{w:?}"
    );
    assert!(w[1].contains("/etc/cdi/old.json is skipped: "), "{w:?}");
}

#[test]
fn device_names_follow_the_cdi_library_order() {
    let t = Tree::new();
    t.cdi_spec(
        "/etc/cdi/n.yaml",
        "nvidia.com/gpu",
        &["all", "2", "10", "1", "GPU-x"],
    );
    assert_eq!(
        scan(&t).device_names("nvidia.com/gpu"),
        ["1", "10", "2", "GPU-x", "all"]
    );
}

#[test]
fn an_oversized_spec_is_skipped_with_a_reason() {
    let t = Tree::new();
    let mut big = cdi_yaml("nvidia.com/gpu", &["0"]);
    big.push_str(&format!("# {}\n", "x".repeat(SPEC_SIZE_LIMIT as usize)));
    t.file("/etc/cdi/big.yaml", &big);
    let reg = scan(&t);
    assert!(!reg.kind_declared("nvidia.com/gpu"));
    assert_eq!(
        reg.specs()[0].error.as_deref(),
        Some("the file is larger than 4194304 bytes")
    );
}

#[test]
fn a_looping_or_dangling_spec_link_is_a_warning() {
    let t = Tree::new();
    t.link("/etc/cdi/loop.yaml", "loop.yaml");
    t.link("/etc/cdi/gone.json", "/nowhere/spec.json");
    let reg = scan(&t);
    let w: Vec<String> = texts(&reg);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w.iter()
            .any(|w| w.contains("/etc/cdi/loop.yaml is a loop of symbolic links")),
        "{w:?}"
    );
    assert!(
        w.iter().any(
            |w| w.contains("/etc/cdi/gone.json is a symbolic link whose target does not exist")
        ),
        "{w:?}"
    );
}

#[test]
fn missing_directories_are_silent() {
    let t = Tree::new();
    let reg = scan(&t);
    assert!(reg.specs().is_empty());
    assert!(reg.warnings().is_empty());
}

#[test]
fn fifos_sockets_and_device_nodes_named_as_specs_are_warnings() {
    let t = Tree::new();
    t.dir("/etc/cdi");
    let fifo = t.path("/etc/cdi/fifo.yaml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let _socket = std::os::unix::net::UnixListener::bind(t.path("/etc/cdi/sock.json"));
    t.link("/etc/cdi/zero.yaml", "/dev/null");
    let reg = scan(&t);
    let w: Vec<String> = texts(&reg);
    assert!(
        w.iter().any(|w| w
            == "/etc/cdi/sock.json is not read: it is a socket, not a regular file; podman's CDI library would try to read it, so remove it from the CDI directory"),
        "{w:?}"
    );
    if made.is_ok_and(|s| s.success()) {
        assert!(
            w.iter().any(|w| w
                == "/etc/cdi/fifo.yaml is not read: it is a FIFO, not a regular file; podman's CDI library would try to read it and wait for a writer, so remove it from the CDI directory"),
            "{w:?}"
        );
    }
    assert!(reg.specs().is_empty());
}

#[test]
fn brackets_in_a_comment_do_not_skip_a_spec() {
    // Issue 11 item 8: 65 '[' in a comment once skipped the spec with "podman skips it too".
    let t = Tree::new();
    let mut text = format!("# {}\n", "[".repeat(65));
    text.push_str(&cdi_yaml("nvidia.com/gpu", &["0"]));
    t.file("/etc/cdi/nvidia.yaml", &text);
    let reg = scan(&t);
    assert!(reg.kind_declared("nvidia.com/gpu"));
    assert!(reg.warnings().is_empty(), "{:?}", reg.warnings());
}

#[test]
fn podman_skips_it_too_is_said_only_when_true() {
    let t = Tree::new();
    t.file(
        "/etc/cdi/old.yaml",
        &cdi_yaml("nvidia.com/gpu", &["0"]).replace("0.5.0", "0.5"),
    );
    let mut bomb = cdi_yaml("amd.com/gpu", &["0"]);
    bomb.push_str(&format!("annotations: {{a: &a {}}}\n", "x".repeat(100_000)));
    bomb = bomb.replace("cdiVersion: \"0.5.0\"", "cdiVersion: \"0.6.0\"");
    bomb.push_str("x-refs:\n");
    for _ in 0..50 {
        bomb.push_str("- *a\n");
    }
    t.file("/etc/cdi/amd.yaml", &bomb);
    t.file(
        "/etc/cdi/intel.yaml",
        &cdi_yaml("intel.com/gpu", &["0"]).replace("path: ", "permissions: none\n          path: "),
    );
    let w: Vec<String> = texts(&scan(&t));
    assert_eq!(w.len(), 3, "{w:?}");
    assert!(w[0].starts_with("CDI spec /etc/cdi/amd.yaml is skipped: aliases expand the document by more than 4194304 bytes; podman's CDI library may still load it"), "{w:?}");
    assert!(
        w[1].contains("invalid permissions \"none\"; podman skips it too"),
        "{w:?}"
    );
    assert!(
        w[2].contains("invalid version \"0.5\"; podman skips it too"),
        "{w:?}"
    );
}

#[test]
fn the_root_clos_follows_the_library_podman_carries() {
    // pkg/cdi/container-edits.go IntelRdt.Validate: "/" is valid from library v1.1.0 (podman 6.0).
    let t = Tree::new();
    let spec = cdi_yaml("nvidia.com/gpu", &["0"]).replace("0.5.0", "0.7.0")
        + "containerEdits:\n  intelRdt:\n    closID: /\n";
    t.file("/etc/cdi/nvidia.yaml", &spec);
    let host = Host::at(t.root()).expect("root");
    let dirs: Vec<PathBuf> = DEFAULT_SPEC_DIRS.iter().map(PathBuf::from).collect();
    let old = PodmanCeiling::parse("5.8.0").expect("version");
    let reg = CdiRegistry::scan_for(&host, &dirs, Some(&old));
    assert_eq!(reg.specs()[0].error.as_deref(), Some("invalid ClosID"));
    let new = PodmanCeiling::parse("6.0.0").expect("version");
    assert!(CdiRegistry::scan_for(&host, &dirs, Some(&new)).kind_declared("nvidia.com/gpu"));
    assert!(scan(&t).kind_declared("nvidia.com/gpu"));
}
