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
