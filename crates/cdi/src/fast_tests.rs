//! The fast path against the full reader: wherever the fast path decodes a spec, the full reader
//! decodes it to the same thing; near misses of its subset fall back. The library's verdict
//! cases (`library_verdicts_tests.rs`) and `spec_tests.rs` run the same check on every input.

use std::path::{Path, PathBuf};

use rstest::rstest;

use super::fast_path_agrees;

/// A spec in the shape `nvidia-ctk cdi generate` writes (block YAML, sequences at their key's
/// column), with every field the fast path reads.
const YAML: &str = r#"---
cdiVersion: 0.6.0
kind: nvidia.com/gpu
annotations:
  owner: team-a
  note: "a: b # c"
containerEdits:
  env:
  - NVIDIA_VISIBLE_DEVICES=void
  deviceNodes:
  - path: /dev/nvidiactl
    hostPath: /dev/nvidiactl
    type: c
    major: 195
    minor: 255
    fileMode: 438
    permissions: rw
    uid: 0
    gid: 44
  hooks:
  - hookName: createContainer
    path: /usr/bin/nvidia-cdi-hook
    args:
    - nvidia-cdi-hook
    - --link
    - libcuda.so.1::/usr/lib/x86_64-linux-gnu/libcuda.so
    env:
    - NVIDIA_CTK_DEBUG=false
    timeout: 30
  mounts:
  - hostPath: /usr/bin/nvidia-smi
    containerPath: '/usr/bin/nvidia-smi'
    options:
    - ro
    - nosuid
    type: bind
  netDevices:
  - hostInterfaceName: eth1
    name: net0
  additionalGids:
  - 44
  - 4294967295
devices:
- name: "0"
  annotations: {}
  containerEdits:
    deviceNodes:
      - path: /dev/nvidia0
      - path: /dev/dri/by-path/pci-0000:08:00.0-card
    intelRdt:
      closID: clos-a
      l3CacheSchema: L3:0=ff
      schemata: []
      enableMonitoring: true
- name: all
  containerEdits:
    env: []
    mounts: []
"#;

/// The same spec as compact JSON, as `nvidia-ctk --format json` writes it.
const JSON: &str = r#"{"cdiVersion":"0.6.0","kind":"nvidia.com/gpu","annotations":{"owner":"team-a"},"containerEdits":{"env":["NVIDIA_VISIBLE_DEVICES=void"],"deviceNodes":[{"path":"/dev/nvidiactl","type":"c","major":195,"minor":255,"fileMode":438,"permissions":"rw","uid":0,"gid":44}],"hooks":[{"hookName":"createContainer","path":"/usr/bin/nvidia-cdi-hook","args":["nvidia-cdi-hook","--link"],"env":["A=b"],"timeout":30}],"additionalGids":[44],"netDevices":[{"hostInterfaceName":"eth1","name":"net0"}]},"devices":[{"name":"0","annotations":{},"containerEdits":{"deviceNodes":[{"path":"/dev/nvidia0"}],"intelRdt":{"closID":"a","schemata":[],"enableMonitoring":false}}},{"name":"all","containerEdits":{"env":[],"mounts":[]}}]}"#;

#[track_caller]
fn agrees(text: &str) -> bool {
    fast_path_agrees(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n---\n{text}"))
}

#[test]
fn the_fast_path_reads_the_generators_shapes() {
    assert!(agrees(YAML));
    assert!(agrees(JSON));
    let pretty = JSON.replace(',', ",\n\t ").replace('{', "{\r\n  ");
    assert!(agrees(&pretty));
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        // Fixture hosts hold links that loop: never follow one.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, out);
        } else if kind.is_file()
            && path
                .extension()
                .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        {
            out.push(path);
        }
    }
}

/// Every spec file the tests hold (fixture hosts, CLI test material, fuzz regressions): the two
/// readers agree on each, and the fast path takes the generators' own.
#[test]
fn every_spec_file_the_tests_hold_reads_the_same() {
    let mut files = Vec::new();
    for dir in ["tests/hosts", "crates/cli/tests", "fuzz/regressions"] {
        walk(&repo().join(dir), &mut files);
    }
    assert!(files.len() >= 10, "found only {files:?}");
    let mut taken = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_default();
        match fast_path_agrees(&bytes) {
            Ok(true) => taken.push(path.strip_prefix(repo()).unwrap_or(path).to_path_buf()),
            Ok(false) => {}
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    for generated in [
        "tests/hosts/workstation/etc/cdi/nvidia.yaml",
        "tests/hosts/dgx-b200/run/cdi/nvidia.yaml",
        "tests/hosts/amd-ctk-cdi/etc/cdi/amd.json",
        "tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu.yaml",
    ] {
        assert!(
            taken.iter().any(|p| p == Path::new(generated)),
            "{generated} fell back; taken: {taken:?}"
        );
    }
}

/// Inputs a step outside the subset: the fast path must leave each to the full reader (which
/// may accept it, with a different reading than a naive one, or refuse it in its own words).
#[rstest]
#[case::case_folded_key("kind: nvidia.com/gpu", "Kind: nvidia.com/gpu")]
#[case::octal_mode("fileMode: 438", "fileMode: 0666")]
#[case::hex_int("major: 195", "major: 0xC3")]
#[case::float_int("major: 195", "major: 195.0")]
#[case::negative_int("minor: 255", "minor: -1")]
#[case::too_big_u32("- 4294967295", "- 4294967296")]
#[case::signed_int("uid: 0", "uid: +0")]
#[case::underscore_int("gid: 44", "gid: 4_4")]
#[case::yaml11_bool("enableMonitoring: true", "enableMonitoring: yes")]
#[case::yaml11_bool_on("enableMonitoring: true", "enableMonitoring: on")]
#[case::capital_bool("enableMonitoring: true", "enableMonitoring: True")]
#[case::bool_as_string("type: c", "type: y")]
#[case::off_as_string("permissions: rw", "permissions: off")]
#[case::int_as_string("name: \"0\"", "name: 0")]
#[case::float_as_string("cdiVersion: 0.6.0", "cdiVersion: 1.0")]
#[case::inf_as_string("type: c", "type: .inf")]
#[case::null_value("type: c", "type: ~")]
#[case::null_word("type: c", "type: null")]
#[case::empty_value("type: c", "type:")]
#[case::merge_value("type: c", "type: <<")]
#[case::duplicate_key("type: c", "type: c\n    type: b")]
#[case::duplicate_annotation("owner: team-a", "owner: team-a\n  owner: b")]
#[case::tab("type: c", "type:\tc")]
#[case::carriage_return("type: c", "type: c\r")]
#[case::comment_line("  env:\n", "  # env\n  env:\n")]
#[case::trailing_comment("type: c", "type: c # char")]
#[case::quoted_key("type: c", "\"type\": c")]
#[case::single_quoted_key("type: c", "'type': c")]
#[case::escaped_string("name: \"0\"", "name: \"\\x30\"")]
#[case::doubled_quote("containerPath: '/usr/bin/nvidia-smi'", "containerPath: 'it''s'")]
#[case::multi_line_plain("hookName: createContainer", "hookName: create\n      Container")]
#[case::multi_line_quoted("name: \"0\"", "name: \"0\n    1\"")]
#[case::block_scalar("hookName: createContainer", "hookName: |\n      createContainer")]
#[case::folded_scalar("hookName: createContainer", "hookName: >-\n      createContainer")]
#[case::anchor("type: c", "type: &t c")]
#[case::alias("permissions: rw", "permissions: *p")]
#[case::tag("type: c", "type: !!str c")]
#[case::flow_sequence_in_yaml("- NVIDIA_VISIBLE_DEVICES=void", "- [a]")]
#[case::flow_sequence_value("schemata: []", "schemata: [a]")]
#[case::flow_mapping_content("annotations: {}", "annotations: {a: b}")]
#[case::second_document("- name: all\n", "- name: all\n---\n")]
#[case::document_end("- name: all\n", "- name: all\n...\n")]
#[case::directive("---\n", "%YAML 1.1\n---\n")]
#[case::document_start_content("---\n", "--- # spec\n")]
#[case::bom("---\n", "\u{feff}---\n")]
#[case::non_ascii("owner: team-a", "owner: équipe")]
#[case::control_char("owner: team-a", "owner: team\u{7f}a")]
#[case::unknown_field("type: c", "typ: c")]
#[case::wrong_indent("    minor: 255", "     minor: 255")]
#[case::dash_without_space("- name: all", "-name: all")]
// Found by the cdi_fast fuzz target (fuzz/regressions/cdi_fast/): yaml.v2 drops underscores
// before reading a number, so `+_3` is the integer 3; a lone `-` is a sequence entry.
#[case::signed_underscore_int("cdiVersion: 0.6.0", "cdiVersion: +_3")]
#[case::signed_underscore_float("cdiVersion: 0.6.0", "cdiVersion: -_.5")]
#[case::lone_dash_value("kind: nvidia.com/gpu", "kind: -")]
#[case::lone_dash_last(
    "- name: all\n  containerEdits:\n    env: []\n    mounts: []\n",
    "- name: all\n  containerEdits:\n    env: []\n    mounts: []\n  annotations:\n    a: -"
)]
#[case::empty_item("  - 44\n", "  -\n")]
#[case::nested_sequence("  - 44\n", "  - - 44\n")]
#[case::complex_key("type: c", "? type\n    : c")]
#[case::trailing_space("type: c", "type: c ")]
#[case::space_before_colon("type: c", "type : c")]
#[case::value_ends_with_colon("type: c", "type: c:")]
#[case::scalar_on_next_line("kind: nvidia.com/gpu", "kind:\n  nvidia.com/gpu")]
#[case::key_with_nested_value("owner: team-a", "owner:\n    deep: x")]
fn yaml_near_misses_fall_back(#[case] from: &str, #[case] to: &str) {
    assert!(YAML.contains(from), "{from:?} is not in the base spec");
    let text = YAML.replacen(from, to, 1);
    assert!(!agrees(&text), "the fast path took:\n{text}");
}

/// Variants the fast path still takes, and reads as the full reader does: yaml.v2 keeps a
/// timestamp as a string, plain scalars may hold `#`, `:` and brackets mid-text, a dash starts
/// a plain scalar before a non-space, sequences may be indented under their key or not.
#[rstest]
#[case::timestamp_name("name: all", "name: 2001-12-14")]
#[case::number_like_name("name: all", "name: 0000-08-00-0-0x56a5")]
#[case::hex_like_text("type: c", "type: 0x")]
#[case::hash_inside("permissions: rw", "permissions: r#w")]
#[case::colon_inside("type: c", "type: a:b")]
#[case::brackets_inside("permissions: rw", "permissions: r[w]{,}")]
#[case::dash_text("type: c", "type: -c")]
#[case::dotted_text("type: c", "type: .c")]
#[case::long_word("type: c", "type: nullable")]
#[case::extra_spaces("type: c", "type:    c")]
#[case::blank_lines("  env:\n", "\n  env:\n\n")]
#[case::no_document_start("---\n", "")]
#[case::indented_sequence("  env:\n  - NVIDIA", "  env:\n    - NVIDIA")]
#[case::quoted_empty("type: c", "type: \"\"")]
#[case::single_quoted_hash("type: c", "type: ' # '")]
#[case::zero("minor: 255", "minor: 0")]
#[case::empty_device(
    "- name: all\n  containerEdits:",
    "- {}\n- name: all\n  containerEdits:"
)]
fn yaml_variants_read_the_same(#[case] from: &str, #[case] to: &str) {
    assert!(YAML.contains(from), "{from:?} is not in the base spec");
    let text = YAML.replacen(from, to, 1);
    assert!(agrees(&text), "the fast path declined:\n{text}");
}

#[rstest]
#[case::case_folded_key("\"kind\"", "\"KIND\"")]
#[case::trailing_comma("\"mounts\":[]}}]}", "\"mounts\":[],}}]}")]
#[case::trailing_garbage("\"mounts\":[]}}]}", "\"mounts\":[]}}]} x")]
#[case::second_value("\"mounts\":[]}}]}", "\"mounts\":[]}}]}{}")]
#[case::escape("\"team-a\"", "\"team\\u002da\"")]
#[case::slash_escape("\"/dev/nvidia0\"", "\"\\/dev/nvidia0\"")]
#[case::null("\"type\":\"c\"", "\"type\":null")]
#[case::number_as_string("\"name\":\"0\"", "\"name\":0")]
#[case::bool_as_string("\"type\":\"c\"", "\"type\":true")]
#[case::string_as_number("\"major\":195", "\"major\":\"195\"")]
#[case::float("\"major\":195", "\"major\":195.0")]
#[case::exponent("\"major\":195", "\"major\":1e2")]
#[case::negative("\"minor\":255", "\"minor\":-1")]
#[case::leading_zero("\"fileMode\":438", "\"fileMode\":0666")]
#[case::too_big_u32("\"gid\":44", "\"gid\":4294967296")]
#[case::duplicate_key("\"type\":\"c\"", "\"type\":\"c\",\"type\":\"b\"")]
#[case::key_colon_on_next_line("\"type\":\"c\"", "\"type\"\n:\"c\"")]
#[case::unquoted_key("\"type\":\"c\"", "type:\"c\"")]
#[case::single_quotes("\"type\":\"c\"", "'type':'c'")]
#[case::comment("{\"cdiVersion\"", "# spec\n{\"cdiVersion\"")]
#[case::yaml_bool("\"enableMonitoring\":false", "\"enableMonitoring\":no")]
#[case::control_in_string("\"team-a\"", "\"team\u{1}a\"")]
#[case::tab_in_string("\"team-a\"", "\"team\ta\"")]
#[case::newline_in_string("\"team-a\"", "\"team\na\"")]
#[case::non_ascii("\"team-a\"", "\"équipe\"")]
#[case::null_entry(
    "\"deviceNodes\":[{\"path\":\"/dev/nvidia0\"}]",
    "\"deviceNodes\":[null]"
)]
#[case::unknown_field("\"type\":\"c\"", "\"typ\":\"c\"")]
fn json_near_misses_fall_back(#[case] from: &str, #[case] to: &str) {
    assert!(JSON.contains(from), "{from:?} is not in the base spec");
    let text = JSON.replacen(from, to, 1);
    assert!(!agrees(&text), "the fast path took:\n{text}");
}

/// Hostile and degenerate texts: nothing for the fast path, and no panic in it.
#[rstest]
#[case::empty("")]
#[case::blank("\n  \n")]
#[case::only_start("---\n")]
#[case::scalar_document("nvidia")]
#[case::sequence_document("- a\n")]
#[case::indented_root("  kind: x\n")]
#[case::json_array("[]")]
#[case::open_brace("{")]
#[case::open_string("{\"kind")]
#[case::open_quote_yaml("kind: \"")]
#[case::lone_quote_yaml("kind: '")]
#[case::deep_json(&"{\"containerEdits\":".repeat(100))]
#[case::long_key(&format!("{}: x\n", "a".repeat(2000)))]
fn degenerate_texts_fall_back(#[case] text: &str) {
    assert!(!agrees(text));
}

/// The eight-bytes-at-a-time tests the readers skip text with: a flag for every lane that
/// matches, and the lowest flag always a true match.
#[rstest]
#[case::none(*b"abcdefgh", b':', None)]
#[case::first(*b":bcdefgh", b':', Some(0))]
#[case::last(*b"abcdefg:", b':', Some(7))]
#[case::two(*b"ab:de:gh", b':', Some(2))]
#[case::line_feed(*b"abc\ndefg", b'\n', Some(3))]
fn eight_byte_lanes(#[case] bytes: [u8; 8], #[case] byte: u8, #[case] first: Option<u32>) {
    use crate::fast_source::{has_below, has_byte};
    let hit = has_byte(u64::from_le_bytes(bytes), byte);
    assert_eq!((hit != 0).then(|| hit.trailing_zeros() / 8), first);
    let below = has_below(u64::from_le_bytes(bytes), b' ');
    let control = bytes.iter().position(|&b| b < b' ');
    assert_eq!(
        (below != 0).then(|| below.trailing_zeros() as usize / 8),
        control
    );
}
