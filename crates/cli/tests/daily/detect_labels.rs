//! On a CDI tier `detect` labels each GPU with the CDI names that select it (`intel:0` is no
//! selector there), shows the GPU's name, and JSON adds `cdi_names` per device; every label it
//! prints is a selector `args` accepts.

use rstest::rstest;

use super::{host, run};

#[rstest]
#[case::intel(
    "intel-arc-cdi",
    "intel:0000-08-00-0-0x56a5  0000:08:00.0  device 56a5  DG2 [Arc A380]  /dev/dri/renderD128"
)]
#[case::amd(
    "amd-ctk-cdi",
    "amd:1  0000:0b:00.0  device 747e  AMD Radeon RX 7800 XT  /dev/dri/renderD128"
)]
#[case::nvidia(
    "workstation",
    "nvidia:0 or nvidia:GPU-e008b0f5-204c-dedb-faeb-a6fac57e9a42  0000:09:00.0  device 2704  NVIDIA GeForce RTX 4080  /dev/nvidia0"
)]
fn cdi_tier_devices_are_labelled_by_their_cdi_names(#[case] name: &str, #[case] line: &str) {
    let root = host(name);
    let (code, out, err) = run(&root, &["detect"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with(&format!("  {line}"))),
        "{out}"
    );
    // Every label on a device line is a selector args accepts.
    let labels = out
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split("  ").next())
        .filter(|first| {
            ["nvidia:", "amd:", "intel:"]
                .iter()
                .any(|v| first.starts_with(v))
        })
        .flat_map(|l| l.split(" or ").map(str::to_string).collect::<Vec<_>>())
        .collect::<Vec<_>>();
    assert!(!labels.is_empty(), "{out}");
    for label in labels {
        let (code, _, err) = run(&root, &["args", &label]);
        assert_eq!(code, 0, "args {label}: {err}");
    }
}

#[test]
fn json_adds_cdi_names_and_keeps_its_keys() {
    let (code, out, err) = run(&host("intel-arc-cdi"), &["detect", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let intel = &v["vendors"][2];
    assert_eq!(intel["vendor"], "intel");
    let dev = &intel["devices"][0];
    assert_eq!(dev["cdi_names"], serde_json::json!(["0000-08-00-0-0x56a5"]));
    assert_eq!(dev["index"], 0);
    assert_eq!(dev["render_node"], "/dev/dri/renderD128");
    assert_eq!(dev["name"], "DG2 [Arc A380]");
    assert_eq!(
        intel["cdi_devices"],
        serde_json::json!(["0000-08-00-0-0x56a5"])
    );
    // A raw tier keeps its index labels, and an empty list.
    let (_, raw, _) = run(&host("intel-laptop"), &["detect", "--format", "json"]);
    let raw: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(
        raw["vendors"][2]["devices"][0]["cdi_names"],
        serde_json::json!([])
    );
}
