//! gpuctl's verdict on a spec, case by case, is the CDI library's. Each case names the library
//! code that decides it (tags.cncf.io/container-device-interface v1.1.0 unless said; `yaml.v2`
//! is gopkg.in/yaml.v2 as vendored in sigs.k8s.io/yaml v1.4.0). Every verdict here was checked
//! against the library's own parsing and validation code, built from its v1.1.0 sources.

use rstest::rstest;

use super::*;

/// A spec's devices, or a fragment of the reason it is refused.
type Verdict = Result<&'static [&'static str], &'static str>;

const H: &str = "cdiVersion: \"0.5.0\"\nkind: vendor.com/gpu\n";
const NODE: &str =
    "devices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/x\n";

fn verdict(text: &str) -> Result<Vec<String>, String> {
    parse_spec(text.as_bytes(), SpecFormat::Yaml)
        .map(|s| s.device_names)
        .map_err(|e| e.reason().to_string())
}

fn check(text: &str, want: Verdict) {
    match (verdict(text), want) {
        (Ok(got), Ok(names)) => assert_eq!(got, names, "{text}"),
        (Err(got), Err(part)) => assert!(got.contains(part), "{got:?} lacks {part:?}"),
        (got, want) => panic!("{text:?}: got {got:?}, the library's verdict is {want:?}"),
    }
}

fn with(spec: &str) -> String {
    spec.replace("{H}", H).replace("{NODE}", NODE)
}

#[rstest]
// specs-go/version.go, requiredVersionMap.isValidVersion: "v" + TrimPrefix(v, "v") looked up exactly.
#[case::version_short(
    "cdiVersion: \"0.3\"\nkind: vendor.com/gpu\n{NODE}",
    Err("invalid version \"0.3\"")
)]
#[case::version_05(
    "cdiVersion: \"0.5\"\nkind: vendor.com/gpu\n{NODE}",
    Err("invalid version \"0.5\"")
)]
#[case::version_1(
    "cdiVersion: \"1\"\nkind: vendor.com/gpu\n{NODE}",
    Err("invalid version \"1\"")
)]
#[case::version_padded(
    "cdiVersion: \"0.03.0\"\nkind: vendor.com/gpu\n{NODE}",
    Err("invalid version \"0.03.0\"")
)]
#[case::version_v("cdiVersion: v0.5.0\nkind: vendor.com/gpu\n{NODE}", Ok(&["0"][..]))]
// sigs.k8s.io/yaml convertToJSONableObject: a float bound for a string is FormatFloat(f, 'g', -1, 32).
#[case::version_float(
    "cdiVersion: 1.0\nkind: vendor.com/gpu\n{NODE}",
    Err("invalid version \"1\"")
)]
// specs-go/version.go, requiresV110: Schemata != nil, so an empty list needs 1.1.0.
#[case::schemata_empty(
    "cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {schemata: []}\n",
    Err("must be at least v1.1.0")
)]
#[case::schemata_null("cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {schemata: ~}\n", Ok(&["0"][..]))]
#[case::monitoring_yes(
    "cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {enableMonitoring: yes}\n",
    Err("must be at least v1.1.0")
)]
// specs-go/version.go, requiresV060: any annotation.
#[case::annotations_need_060("{H}annotations: {a: b}\n{NODE}", Err("must be at least v0.6.0"))]
// pkg/cdi/container-edits.go, IntelRdt.Validate: len >= 4096, ".", "..", "/" or "\n" refused.
#[case::clos_newline(
    "cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {closID: \"a\\nb\"}\n",
    Err("invalid ClosID")
)]
#[case::clos_dotdot(
    "cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {closID: \"..\"}\n",
    Err("invalid ClosID")
)]
#[case::clos_root("cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {closID: /}\n", Ok(&["0"][..]))]
// pkg/cdi/container-edits.go, ValidateNetDevices: HostInterfaceName and Name each unique.
#[case::net_dup_host(
    "cdiVersion: \"1.1.0\"\nkind: vendor.com/gpu\n{NODE}    netDevices: [{hostInterfaceName: eth0, name: a}, {hostInterfaceName: eth0, name: b}]\n",
    Err("duplicate HostInterfaceName \"eth0\"")
)]
#[case::net_dup_name(
    "cdiVersion: \"1.1.0\"\nkind: vendor.com/gpu\n{NODE}    netDevices: [{hostInterfaceName: eth0, name: a}, {hostInterfaceName: eth1, name: a}]\n",
    Err("duplicate Name \"a\"")
)]
#[case::net_empty(
    "cdiVersion: \"1.1.0\"\nkind: vendor.com/gpu\n{NODE}    netDevices: [{name: a}]\n",
    Err("empty HostInterfaceName")
)]
// pkg/cdi/container-edits.go, DeviceNode.Validate: each permission character r, w or m.
#[case::permissions_none(
    "{H}{NODE}      permissions: none\n",
    Err("invalid permissions \"none\"")
)]
#[case::permissions_rw("{H}{NODE}      permissions: rw\n", Ok(&["0"][..]))]
#[case::node_type("{H}{NODE}      type: x\n", Err("invalid type \"x\""))]
// internal/validation/validate.go, ValidateSpecAnnotations: only a map[string]interface{} is
// inspected; Spec.Annotations is a map[string]string, so keys and sizes are never checked.
#[case::annotation_key("cdiVersion: \"0.6.0\"\nkind: vendor.com/gpu\nannotations: {\"bad key!\": x}\n{NODE}", Ok(&["0"][..]))]
#[case::annotation_device("cdiVersion: \"0.6.0\"\nkind: vendor.com/gpu\ndevices:\n- name: a\n  annotations: {\"$$\": 1}\n  containerEdits: {env: [A=1]}\n", Ok(&["a"][..]))]
// ... but encoding/json still wants strings there.
#[case::annotation_list(
    "cdiVersion: \"0.6.0\"\nkind: vendor.com/gpu\nannotations: {a: [b]}\n{NODE}",
    Err("cannot unmarshal array")
)]
// pkg/cdi/spec.go, ParseSpec: sigs.k8s.io/yaml.UnmarshalStrict for .json and .yaml alike.
#[case::trailing_commas("{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=1\"],},},],}", Ok(&["0"][..]))]
#[case::two_json_objects("{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=1\"]}}]}{\"a\":1}", Ok(&["0"][..]))]
// JSON is read as YAML flow: yaml.v2 scannerc.go yaml_parser_scan_flow_scalar knows no `\/`
// escape and refuses surrogate `\u` escapes; yaml_parser_stale_simple_keys drops a key whose ':'
// is a line or more than 1024 characters away; yaml_parser_scan_to_next_token takes no tab at a
// line start outside brackets.
#[case::json_slash_escape(
    "{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com\\/gpu\",\"devices\":[]}",
    Err("found unknown escape character")
)]
#[case::json_surrogate(
    "{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=\\ud83d\\ude00\"]}}]}",
    Err("found invalid Unicode character escape code")
)]
#[case::json_key_line(
    "{\"cdiVersion\":\"0.5.0\",\"kind\"\n:\"vendor.com/gpu\",\"devices\":[]}",
    Err("did not find expected ',' or '}'")
)]
#[case::json_tab_first(
    "\t{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[]}",
    Err("found character that cannot start any token")
)]
#[case::json_tab_last(
    "{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=1\"]}}]}\n\t\n",
    Err("found character that cannot start any token")
)]
#[case::json_tab_inside("{\"cdiVersion\":\"0.5.0\",\n\t\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=\\u00e9\"]}}]}", Ok(&["0"][..]))]
// The same libyaml rules in YAML text (parserc.go: only %YAML 1.1).
#[case::yaml_slash_escape(
    "{H}devices:\n- name: a\n  containerEdits: {env: [\"A=\\/\"]}\n",
    Err("found unknown escape character")
)]
#[case::yaml_tab_after_dash(
    "{H}devices:\n-\tname: a\n  containerEdits: {env: [A=1]}\n",
    Err("found character that cannot start any token")
)]
#[case::yaml_tab_after_colon("cdiVersion:\t\"0.5.0\"\nkind:\tvendor.com/gpu\ndevices:\n- name:\t\ta\n  containerEdits: {env: [A=1]}\n", Ok(&["a"][..]))]
#[case::yaml_directive_12("%YAML 1.2\n---\n{H}{NODE}", Err("found incompatible YAML document"))]
#[case::yaml_directive_11("%YAML 1.1\n---\n{H}{NODE}", Ok(&["0"][..]))]
// yaml.v2 decode.go, unmarshal: the first document only.
#[case::multi_document("{H}{NODE}---\nthis: is [ not: valid\n", Ok(&["0"][..]))]
// encoding/json: field names match case-insensitively (bytes.EqualFold), in key byte order.
#[case::capitalised("CdiVersion: \"0.5.0\"\nKind: vendor.com/gpu\nDEVICES:\n- NAME: \"0\"\n  ContainerEdits: {Env: [A=1]}\n", Ok(&["0"][..]))]
#[case::kelvin_sign("cdiVersion: \"0.5.0\"\n\u{212A}ind: vendor.com/gpu\n{NODE}", Ok(&["0"][..]))]
#[case::case_duplicate("{H}KIND: other.com/x\n{NODE}", Ok(&["0"][..]))]
// encoding/json Decoder.DisallowUnknownFields (UnmarshalStrict).
#[case::unknown_top("{H}extra: 1\n{NODE}", Err("json: unknown field \"extra\""))]
#[case::unknown_nested("{H}{NODE}      bogus: 1\n", Err("json: unknown field \"bogus\""))]
#[case::int_key("{H}1: x\n{NODE}", Err("json: unknown field \"1\""))]
// yaml.v2 resolve.go: YAML 1.1 ints (0666 octal, 0x, underscores), yes/no booleans.
#[case::octal_mode("{H}{NODE}      fileMode: 0666\n      major: 0x10\n      minor: 1_0\n      uid: 1e3\n      gid: 1.0\n", Ok(&["0"][..]))]
#[case::yes_name("{H}devices:\n- name: yes\n  containerEdits: {env: [A=1]}\n", Ok(&["true"][..]))]
#[case::hex_name("{H}devices:\n- name: 0x10\n  containerEdits: {env: [A=1]}\n", Ok(&["16"][..]))]
#[case::float_name(
    "{H}devices:\n- name: 1e6\n  containerEdits: {env: [A=1]}\n",
    Err("invalid character '+' in device name \"1e+06\"")
)]
#[case::timestamp_name("{H}devices:\n- name: 2001-12-14\n  containerEdits: {env: [A=1]}\n", Ok(&["2001-12-14"][..]))]
#[case::binary_path("{H}devices:\n- name: a\n  containerEdits:\n    deviceNodes: [{path: !!binary L2Rldi94}]\n", Ok(&["a"][..]))]
#[case::bad_tag(
    "{H}devices:\n- name: !!int abc\n  containerEdits: {env: [A=1]}\n",
    Err("cannot decode !!str `abc` as a !!int")
)]
// encoding/json: numbers through their JSON text, into int64 / uint32.
#[case::mode_string("{H}{NODE}      fileMode: \"0666\"\n", Err("cannot unmarshal string"))]
#[case::mode_fraction("{H}{NODE}      fileMode: 1.5\n", Err("cannot unmarshal number"))]
#[case::mode_negative("{H}{NODE}      fileMode: -1\n", Err("cannot unmarshal number -1"))]
#[case::mode_negative_zero("{H}{NODE}      fileMode: -0.0\n", Err("cannot unmarshal number -0"))]
#[case::major_negative_zero("{H}{NODE}      major: -0.0\n", Ok(&["0"][..]))]
#[case::mode_too_big(
    "{H}{NODE}      fileMode: 4294967296\n",
    Err("cannot unmarshal number 4294967296")
)]
#[case::major_nan("{H}{NODE}      major: .nan\n", Err("cannot unmarshal number"))]
#[case::timeout_fraction(
    "{H}devices:\n- name: a\n  containerEdits:\n    hooks: [{hookName: prestart, path: /x, timeout: 1.5}]\n",
    Err("cannot unmarshal number")
)]
#[case::monitoring_string(
    "cdiVersion: \"1.1.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {enableMonitoring: \"true\"}\n",
    Err("cannot unmarshal string")
)]
#[case::nulls("{H}{NODE}      fileMode: ~\n      major: null\n", Ok(&["0"][..]))]
// yaml.v2 decode.go, setMapIndex under UnmarshalStrict: a key twice, merged keys included.
#[case::duplicate_key("{H}kind: other.com/x\n{NODE}", Err("a key is set twice"))]
#[case::merge_overlap(
    "{H}devices:\n- &d {name: a, containerEdits: {env: [A=1]}}\n- <<: *d\n  name: b\n",
    Err("a key is set twice")
)]
#[case::merge(
    "{H}devices:\n- &d {containerEdits: {env: [A=1]}}\n- <<: *d\n  name: b\n",
    Err("invalid (empty) device name")
)]
#[case::anchors("{H}devices:\n- name: a\n  containerEdits: &e {env: [A=1]}\n- name: b\n  containerEdits: *e\n", Ok(&["a", "b"][..]))]
#[case::self_alias("{H}x: &a [*a]\n{NODE}", Err("contains itself"))]
// sigs.k8s.io/yaml convertToJSONableObject: a null key has no JSON form.
#[case::null_key("{H}~: 1\n{NODE}", Err("unsupported map key"))]
// pkg/cdi/spec.go, ReadSpec: "no Spec data" for an empty or null document.
#[case::empty("", Err("no Spec data"))]
#[case::comment_only("# nothing\n", Err("no Spec data"))]
#[case::list(
    "- a\n",
    Err("cannot unmarshal array into Go value of type specs.Spec")
)]
// pkg/cdi/device.go, Device.validate: non-empty edits; spec.go, Spec.validate: devices.
#[case::null_edits(
    "{H}devices:\n- name: a\n  containerEdits: ~\n",
    Err("invalid device, empty device edits")
)]
#[case::null_device("{H}devices: [~]\n", Err("invalid (empty) device name"))]
#[case::null_gid("cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\ndevices:\n- name: a\n  containerEdits: {additionalGids: [~]}\n", Ok(&["a"][..]))]
#[case::env_number(
    "{H}devices:\n- name: a\n  containerEdits: {env: [1]}\n",
    Err("invalid environment variable \"1\"")
)]
// specs-go/version.go, requiresV050 (and Hook.Validate): a nil entry is dereferenced and the
// library panics; gpuctl refuses the spec instead.
#[case::null_node(
    "{H}devices:\n- name: a\n  containerEdits: {deviceNodes: [~]}\n",
    Err("crashes")
)]
#[case::null_hook(
    "{H}devices:\n- name: a\n  containerEdits: {env: [A=1], hooks: [~]}\n",
    Err("crashes")
)]
// yaml.v2 readerc.go: control characters refused, wherever they are.
#[case::control_char("{H}{NODE}# \u{1}\n", Err("control characters are not allowed"))]
// Brackets in a comment or string are text (issue 11 item 8).
#[case::brackets_in_comment("# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n{H}{NODE}", Ok(&["0"][..]))]
fn the_library_verdict(#[case] spec: &str, #[case] want: Verdict) {
    check(&with(spec), want);
}

#[rstest]
#[case::bom(b"\xef\xbb\xbf{\"cdiVersion\":\"0.5.0\",\"kind\":\"vendor.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=1\"]}}]}".to_vec())]
#[case::utf16_le({
    let mut b = vec![0xFF, 0xFE];
    b.extend(with("{H}{NODE}").encode_utf16().flat_map(u16::to_le_bytes));
    b
})]
// yaml.v2 readerc.go, yaml_parser_determine_encoding: a BOM picks UTF-8 or UTF-16.
fn byte_order_marks_are_read(#[case] bytes: Vec<u8>) {
    assert!(parse_spec(&bytes, SpecFormat::Json).is_ok());
}

#[test]
fn a_json_key_of_more_than_1024_characters_is_refused() {
    let key = "k".repeat(1100);
    let text = format!(
        "{{\"cdiVersion\":\"0.6.0\",\"kind\":\"vendor.com/gpu\",\"annotations\":{{\"{key}\":\"v\"}},\"devices\":[]}}"
    );
    check(&text, Err("did not find expected ',' or '}'"));
}

#[test]
fn clos_id_length_is_below_4096_bytes() {
    let spec = |n: usize| {
        format!(
            "cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {{closID: {}}}\n",
            "a".repeat(n)
        )
    };
    check(&spec(4095), Ok(&["0"][..]));
    check(&spec(4096), Err("invalid ClosID"));
}

#[test]
fn the_root_clos_is_valid_only_since_library_1_1_0() {
    let text =
        with("cdiVersion: \"0.7.0\"\nkind: vendor.com/gpu\n{NODE}    intelRdt: {closID: /}\n");
    let old = parse_spec_with(
        text.as_bytes(),
        SpecFormat::Yaml,
        Rules { root_clos: false },
    );
    assert_eq!(
        old.map_err(|e| e.reason().to_string()).err().as_deref(),
        Some("failed add device \"0\": invalid device \"0\": invalid ClosID")
    );
    assert!(parse_spec(text.as_bytes(), SpecFormat::Yaml).is_ok_and(|s| s.root_clos));
}

// The library's own test data and generator outputs (origins in testdata/cdi/README.md).
#[rstest]
#[case::schema_minimal(include_str!("../testdata/library-schema-good-minimal.json"), Ok(&["myDevice"][..]))]
#[case::schema_example(include_str!("../testdata/library-schema-good-spec-example.json"), Ok(&["myDevice"][..]))]
#[case::schema_empty(include_str!("../testdata/library-schema-bad-empty.json"), Err("no Spec data"))]
#[case::schema_explicit_empty(include_str!("../testdata/library-schema-bad-explicit-empty.json"), Err("invalid version \"\""))]
#[case::nvidia_ctk(include_str!("../testdata/nvidia-ctk-generate-default.yaml"), Ok(&["0", "all"][..]))]
#[case::amd_ctk(include_str!("../../../tests/hosts/amd-ctk-cdi/etc/cdi/amd.json"), Ok(&["0", "1", "all"][..]))]
#[case::intel_generator(include_str!("../../../tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu.yaml"), Ok(&["0000-08-00-0-0x56a5"][..]))]
#[case::intel_mei(include_str!("../../../tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu-mei.yaml"), Ok(&["mei0"][..]))]
fn fixtures(#[case] text: &str, #[case] want: Verdict) {
    check(text, want);
}
