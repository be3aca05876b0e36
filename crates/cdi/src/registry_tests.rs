//! The registry over the machine's own filesystem ([`Fs`]). gpuctl's fixture-host tests of the
//! same rules, read under a root, are in `crates/core/tests/cdi_registry.rs`.

use super::*;

fn spec(kind: &str, names: &[&str]) -> String {
    let mut s = format!("cdiVersion: 0.5.0\nkind: {kind}\ndevices:\n");
    for n in names {
        s += &format!(
            "- name: \"{n}\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/null\n"
        );
    }
    s
}

struct Dirs {
    _tmp: tempfile::TempDir,
    low: PathBuf,
    high: PathBuf,
}

fn dirs() -> Dirs {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (low, high) = (tmp.path().join("etc/cdi"), tmp.path().join("run/cdi"));
    for d in [&low, &high] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    Dirs {
        _tmp: tmp,
        low,
        high,
    }
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

#[test]
fn the_later_directory_wins_and_a_missing_one_is_no_error() {
    let d = dirs();
    write(&d.low, "a.yaml", &spec("vendor.com/gpu", &["0", "old"]));
    write(&d.high, "a.json", &spec("vendor.com/gpu", &["0", "new"]));
    let missing = d.high.join("absent");
    let reg = CdiRegistry::scan(&Fs, &[d.low.clone(), d.high.clone(), missing]);
    assert_eq!(reg.device_names("vendor.com/gpu"), ["0", "new", "old"]);
    let winner = reg.specs_for("vendor.com/gpu");
    assert_eq!(winner.len(), 2);
    assert!(reg.warnings().is_empty(), "{:?}", reg.warnings());
}

#[test]
fn a_device_twice_in_one_directory_is_nobodys() {
    let d = dirs();
    write(&d.low, "a.yaml", &spec("vendor.com/gpu", &["0", "1"]));
    write(&d.low, "b.yaml", &spec("vendor.com/gpu", &["1"]));
    let reg = CdiRegistry::scan(&Fs, std::slice::from_ref(&d.low));
    assert_eq!(reg.device_names("vendor.com/gpu"), ["0"]);
    assert!(matches!(
        reg.warnings().as_slice(),
        [Warning::DeviceConflict { device, paths }]
            if device == "vendor.com/gpu=1" && paths.len() == 2
    ));
}

#[test]
fn invalid_and_misnamed_files_are_warnings_not_devices() {
    let d = dirs();
    write(&d.low, "bad.yaml", "cdiVersion: 0.5.0\nkind: nokind\n");
    write(&d.low, "a.yml", &spec("vendor.com/gpu", &["0"]));
    std::fs::create_dir(d.low.join("sub.yaml")).expect("mkdir");
    let reg = CdiRegistry::scan(&Fs, std::slice::from_ref(&d.low));
    assert!(!reg.kind_declared("vendor.com/gpu"));
    let w = reg.warnings();
    assert!(
        matches!(&w[0], Warning::SpecInvalid { path, .. } if path.ends_with("bad.yaml")),
        "{w:?}"
    );
    assert!(
        matches!(&w[1], Warning::SpecWrongExtension { path } if path.ends_with("a.yml")),
        "{w:?}"
    );
    assert_eq!(w.len(), 2);
}

#[test]
fn a_spec_over_the_size_bound_is_not_read() {
    let d = dirs();
    let big = spec("vendor.com/gpu", &["0"]) + &"#".repeat(SPEC_SIZE_LIMIT as usize);
    write(&d.low, "big.yaml", &big);
    let reg = CdiRegistry::scan(&Fs, std::slice::from_ref(&d.low));
    assert_eq!(
        reg.specs()[0].error.as_deref(),
        Some("the file is larger than 4194304 bytes")
    );
}

/// A granted device brings its spec's edits, then its own: amd-ctk's nodes with their gid and
/// mode, Intel's generator's without either, nvidia-ctk's `void` from the spec's own edits.
#[test]
fn device_edits_carry_the_nodes_groups_modes_and_environment_of_real_generators() {
    let d = dirs();
    let amd = include_str!("../../../tests/hosts/amd-ctk-cdi/etc/cdi/amd.json");
    let intel = include_str!("../../../tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu.yaml");
    let nvidia = include_str!("../../../tests/hosts/workstation/etc/cdi/nvidia.yaml");
    write(&d.low, "amd.json", amd);
    write(&d.low, "intel.yaml", intel);
    write(&d.high, "nvidia.yaml", nvidia);
    let reg = CdiRegistry::scan(&Fs, &[d.low.clone(), d.high.clone()]);

    let amd0 = reg.device_edits("amd.com/gpu", "0").expect("amd 0");
    let nodes: Vec<(&str, Option<u32>, Option<u32>)> = amd0
        .device_nodes
        .iter()
        .map(|n| (n.host_path(), n.file_mode, n.gid))
        .collect();
    assert_eq!(
        nodes,
        [
            ("/dev/dri/card1", Some(0o660), Some(44)),
            ("/dev/dri/renderD129", Some(0o660), Some(110)),
            ("/dev/kfd", Some(0o660), Some(110)),
        ]
    );
    assert!(amd0.env.is_empty());

    let intel0 = reg
        .device_edits("intel.com/gpu", "0000-08-00-0-0x56a5")
        .expect("intel device");
    assert_eq!(
        intel0.device_nodes[1],
        edits::NodeEdit {
            path: "/dev/dri/renderD128".into(),
            host_path: "/dev/dri/renderD128".into(),
            file_mode: None,
            gid: None,
        }
    );

    let gpu0 = reg.device_edits("nvidia.com/gpu", "0").expect("nvidia 0");
    assert_eq!(gpu0.env_value("NVIDIA_VISIBLE_DEVICES"), Some("void"));
    let paths: Vec<&str> = gpu0.device_nodes.iter().map(|n| n.host_path()).collect();
    assert_eq!(paths.first(), Some(&"/dev/nvidia-modeset"));
    assert!(paths.contains(&"/dev/nvidia0"), "{paths:?}");
    assert_eq!(reg.device_edits("nvidia.com/gpu", "9"), None);
}

/// The last entry of a name wins, a device's entry after the spec's.
#[test]
fn a_device_s_environment_follows_its_spec_s() {
    let d = dirs();
    let text = "cdiVersion: 0.5.0\nkind: vendor.com/gpu\ncontainerEdits:\n  env: [V=void, W=1]\ndevices:\n- name: a\n  containerEdits:\n    env: [V=all]\n- name: b\n  containerEdits:\n    deviceNodes:\n    - {path: /dev/x, hostPath: /dev/y, gid: 7, fileMode: null}\n";
    write(&d.low, "v.yaml", text);
    let reg = CdiRegistry::scan(&Fs, std::slice::from_ref(&d.low));
    let a = reg.device_edits("vendor.com/gpu", "a").expect("a");
    assert_eq!(a.env_value("V"), Some("all"));
    assert_eq!(a.env_value("W"), Some("1"));
    assert_eq!(a.env_value("X"), None);
    let b = reg.device_edits("vendor.com/gpu", "b").expect("b");
    assert_eq!(b.env_value("V"), Some("void"));
    assert_eq!(b.device_nodes[0].host_path(), "/dev/y");
    assert_eq!(
        (b.device_nodes[0].file_mode, b.device_nodes[0].gid),
        (None, Some(7))
    );
}

/// nvidia-ctk writes a GPU's nodes under its index, its UUID and `all`: the host paths a spec
/// needs (for the stale-spec check) are each listed once, so doctor says a missing node once.
#[test]
fn a_node_several_devices_share_is_one_host_path() {
    let d = dirs();
    write(
        &d.low,
        "nvidia.yaml",
        include_str!("../../../tests/hosts/dgx-b200/var/run/cdi/nvidia.yaml"),
    );
    let reg = CdiRegistry::scan(&Fs, std::slice::from_ref(&d.low));
    let spec = &reg.specs()[0];
    assert!(spec.error.is_none(), "{:?}", spec.error);
    let count = |p: &str| spec.host_nodes.iter().filter(|n| *n == p).count();
    assert_eq!(count("/dev/nvidia7"), 1, "{:?}", spec.host_nodes);
    let mut unique = spec.host_nodes.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), spec.host_nodes.len());
    let mut mounts = spec.host_mounts.clone();
    mounts.sort();
    mounts.dedup();
    assert_eq!(mounts.len(), spec.host_mounts.len());
}
