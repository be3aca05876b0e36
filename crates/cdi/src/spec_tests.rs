//! Spec parsing and validation, case by case, with the CDI library's reasons.

use super::*;
use rstest::rstest;

fn yaml(text: &str) -> Result<ParsedSpec, String> {
    parse_spec(text.as_bytes(), SpecFormat::Yaml).map_err(|e| e.reason().to_string())
}

const NODE: &str = "    containerEdits:\n      deviceNodes:\n        - path: /dev/x\n";

fn spec(version: &str, kind: &str, devices: &[&str]) -> String {
    let mut s = format!("cdiVersion: \"{version}\"\nkind: \"{kind}\"\ndevices:\n");
    for d in devices {
        s.push_str(&format!("  - name: \"{d}\"\n{NODE}"));
    }
    s
}

#[test]
fn an_nvidia_ctk_style_spec_parses() {
    let text = r#"---
cdiVersion: 0.5.0
kind: nvidia.com/gpu
containerEdits:
  env:
  - NVIDIA_VISIBLE_DEVICES=void
  deviceNodes:
  - path: /dev/nvidiactl
  - path: /dev/nvidia-uvm
  hooks:
  - hookName: createContainer
    path: /usr/bin/nvidia-cdi-hook
    args: [nvidia-cdi-hook, update-ldcache, --folder, /usr/lib/x86_64-linux-gnu]
  mounts:
  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05
    containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05
    options: [ro, nosuid, nodev, bind]
devices:
- name: "0"
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
    - path: /dev/dri/renderD128
      hostPath: /dev/dri/renderD128
- name: GPU-5a2e3f1c-0d4b-4c55-9a3e-0123456789ab
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
- name: all
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
"#;
    let s = yaml(text).expect("valid");
    assert_eq!(s.kind, "nvidia.com/gpu");
    assert_eq!(s.cdi_version, "0.5.0");
    assert_eq!(
        s.device_names,
        ["0", "GPU-5a2e3f1c-0d4b-4c55-9a3e-0123456789ab", "all"]
    );
    assert!(s.host_nodes.contains(&"/dev/nvidiactl".to_string()));
}

/// The host paths come out each once, in the order the spec first names them (the spec's own
/// edits, then each device's), whether a path repeats in one device or across devices; a
/// `hostPath` stands for the node's `path`.
#[test]
fn host_paths_are_listed_once_in_first_named_order() {
    let mut text = String::from(
        "cdiVersion: 0.5.0\nkind: v.com/gpu\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/ctl\n  mounts:\n  - {hostPath: /lib/b, containerPath: /b}\n  - {hostPath: /lib/a, containerPath: /a}\ndevices:\n",
    );
    for i in (0..40).rev() {
        text.push_str(&format!(
            "- name: \"{i}\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/n{i}\n    - path: /dev/ctl\n    - {{path: /dev/r, hostPath: /dev/n{i}}}\n    hooks:\n    - {{hookName: createContainer, path: /bin/h{}}}\n    mounts:\n    - {{hostPath: /lib/a, containerPath: /a}}\n",
            i % 3
        ));
    }
    let s = yaml(&text).expect("valid");
    let mut nodes = vec!["/dev/ctl".to_string()];
    nodes.extend((0..40).rev().map(|i| format!("/dev/n{i}")));
    assert_eq!(s.host_nodes, nodes);
    assert_eq!(s.host_mounts, ["/lib/b", "/lib/a"]);
    assert_eq!(s.hook_paths, ["/bin/h0", "/bin/h2", "/bin/h1"]);
}

#[test]
fn an_amd_ctk_style_json_spec_parses() {
    let text = r#"{"cdiVersion":"0.6.0","kind":"amd.com/gpu","devices":[
      {"name":"0","containerEdits":{"deviceNodes":[
        {"path":"/dev/dri/renderD128","type":"c","major":226,"minor":128,"fileMode":8624,"permissions":"rwm","uid":0,"gid":110},
        {"path":"/dev/kfd","type":"c","major":235,"minor":0,"permissions":"rwm"}]}},
      {"name":"all","containerEdits":{"deviceNodes":[{"path":"/dev/kfd"}]}}]}"#;
    let s = parse_spec(text.as_bytes(), SpecFormat::Json).expect("valid");
    assert_eq!(s.device_names, ["0", "all"]);
}

#[rstest]
#[case::unknown_version(&spec("0.9.9", "x.com/gpu", &["a"]), "invalid version \"0.9.9\"")]
#[case::newer_than_known(&spec("1.2.0", "x.com/gpu", &["a"]), "invalid version \"1.2.0\"")]
#[case::no_vendor(&spec("0.5.0", "gpu", &["a"]), "invalid (empty) vendor name")]
#[case::digit_vendor(&spec("0.5.0", "1x.com/gpu", &["a"]), "invalid vendor \"1x.com\", should start with letter")]
#[case::digit_name_needs_050(&spec("0.4.0", "x.com/gpu", &["0"]), "the spec version must be at least v0.5.0")]
#[case::dotted_class_needs_060(&spec("0.5.0", "x.com/g.pu", &["a"]), "the spec version must be at least v0.6.0")]
#[case::no_devices(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\ndevices: []\n",
    "invalid spec, no devices"
)]
#[case::devices_missing(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\n",
    "invalid spec, no devices"
)]
#[case::duplicate(&spec("0.5.0", "x.com/gpu", &["a", "a"]), "invalid spec, multiple device \"a\"")]
#[case::bad_name(&spec("0.5.0", "x.com/gpu", &["a b"]), "failed add device \"a b\": invalid character ' ' in device name \"a b\"")]
#[case::empty_edits(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\ndevices:\n  - name: a\n",
    "failed add device \"a\": invalid device, empty device edits"
)]
#[case::node_without_path(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\ndevices:\n  - name: \"0\"\n    containerEdits:\n      deviceNodes:\n        - hostPath: /dev/null\n",
    "failed add device \"0\": invalid device \"0\": invalid (empty) device path"
)]
#[case::bad_env(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\ndevices:\n  - name: a\n    containerEdits:\n      env: [\"=x\"]\n",
    "failed add device \"a\": invalid device \"a\": invalid container edits: invalid environment variable \"=x\""
)]
#[case::bad_hook(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\ncontainerEdits:\n  hooks:\n    - hookName: whenever\n      path: /bin/true\ndevices:\n  - name: a\n{NODE}",
    "invalid hook name \"whenever\""
)]
#[case::unknown_field(
    "cdiVersion: \"0.5.0\"\nkind: \"x.com/gpu\"\nextra: 1\ndevices: []\n",
    "failed to parse CDI Spec: json: unknown field \"extra\""
)]
#[case::additional_gids_needs_070(
    "cdiVersion: \"0.6.0\"\nkind: \"x.com/gpu\"\ndevices:\n  - name: a\n    containerEdits:\n      additionalGids: [44]\n",
    "the spec version must be at least v0.7.0"
)]
fn rejected_specs(#[case] text: &str, #[case] reason: &str) {
    let text = text.replace("{NODE}", NODE.trim_end_matches('\n'));
    assert_eq!(yaml(&text).err().as_deref(), Some(reason));
}

#[rstest]
#[case("cdiVersion: \"0.5.0\"\nkind: [\n")]
#[case("\u{0}\u{1}binary")]
#[case("- just\n- a list\n")]
#[case(
    "cdiVersion: 0.5.0\nkind: x.com/gpu\ndevices:\n  - name: a\n    containerEdits:\n      deviceNodes:\n        - path: /dev/x\n          major: notanumber\n"
)]
fn unparsable_specs_are_errors_not_panics(#[case] text: &str) {
    let err = yaml(text).expect_err("must fail");
    assert!(err.starts_with("failed to parse CDI Spec: "), "{err}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse_spec(deep.as_bytes(), SpecFormat::Json).is_err());
    let deep_yaml = format!(
        "cdiVersion: {}1{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let err = yaml(&deep_yaml).expect_err("too deep");
    assert_eq!(
        err,
        "failed to parse CDI Spec: collections nest deeper than 64 levels"
    );
}

#[test]
fn an_alias_bomb_is_refused() {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (prev, next) in ["a", "b", "c", "d", "e", "f", "g", "h"]
        .iter()
        .zip(["b", "c", "d", "e", "f", "g", "h", "i"])
    {
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{next}: &{next} [{refs}]\n"));
    }
    assert!(yaml(&text).is_err());
}
