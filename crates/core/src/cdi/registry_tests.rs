//! Spec discovery across directories: scanning rules, priority, conflicts, hostile files.

use super::*;
use gpuctl_testkit::{Tree, cdi_yaml};

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
    let w: Vec<String> = reg.warnings().iter().map(ToString::to_string).collect();
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
    let w: Vec<String> = reg.warnings().iter().map(ToString::to_string).collect();
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
    let w: Vec<String> = reg.warnings().iter().map(ToString::to_string).collect();
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
    let w: Vec<String> = reg.warnings().iter().map(ToString::to_string).collect();
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
