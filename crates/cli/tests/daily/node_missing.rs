//! A missing node that explain quotes is looked for on this host: under CDI the spec that names
//! it is stale, and explain says the host shows the cause instead of "does not show it now".

use super::{gpuctl, host};

/// dgx-b200 with `/dev/nvidia7` gone (a GPU fell off the bus after the spec was written).
fn dgx_without_nvidia7() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copied = std::process::Command::new("cp")
        .arg("-a")
        .arg(host("dgx-b200"))
        .arg(dir.path().join("h"))
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::remove_file(dir.path().join("h/dev/nvidia7")).unwrap();
    dir
}

#[test]
fn a_missing_nvidia_node_named_by_a_stale_spec_is_the_cause_on_this_host() {
    let dir = dgx_without_nvidia7();
    let out = gpuctl(&dir.path().join("h"))
        .arg("explain")
        .write_stdin("Error: stat /dev/nvidia7: no such file or directory\n")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Diagnosis (nvidia-node-missing)"), "{text}");
    assert!(
        text.contains("problem  cdi-stale          /var/run/cdi/nvidia.yaml\n           - on the host, device node /dev/nvidia7 is missing\n"),
        "{text}"
    );
    assert!(
        text.contains("This host shows the cause (see the problem above)."),
        "{text}"
    );
}

#[test]
fn on_a_host_that_has_the_node_the_cause_is_elsewhere() {
    let out = gpuctl(&host("dgx-b200"))
        .arg("explain")
        .write_stdin("Error: stat /dev/nvidia7: no such file or directory\n")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("ok       cdi-stale"), "{text}");
    assert!(
        text.contains("This host does not show the cause now"),
        "{text}"
    );
}
