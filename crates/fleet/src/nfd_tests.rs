//! The GFD-side labels ([`crate::nfd_chip`], products and versions in [`crate::nfd`]) on
//! reports no fixture host has: several products, architectures or MIG answers on one host.

use rstest::rstest;
use serde_json::{Value, json};

use crate::model::Report;
use crate::nfd::labels;

/// A report of one NVIDIA vendor entry with these devices and this CUDA ceiling.
fn report(devices: Value, cuda: &str) -> Report {
    let r = json!({
        "schema": "gpuctl.report/1",
        "host": {"name": "n1", "kernel": "6.8.0"},
        "vendors": [{
            "vendor": "nvidia", "usable": true, "tier": "cdi", "reason": "test",
            "devices": devices,
            "requirement": {"gpus": [], "combined": null, "conflicts": []},
            "driver": {"state": "loaded", "source": null, "version": "580.95.05",
                       "cuda_ceiling": cuda, "fits": "yes", "why": null}
        }],
        "doctor": {"problems": 0, "warnings": 0, "checks": []}
    });
    serde_json::from_value(r).unwrap_or_else(|e| panic!("{e}"))
}

fn dev(name: Option<&str>, arch: Option<&str>, cc: Option<&str>, mig: Option<bool>) -> Value {
    json!({"index": 0, "pci_address": null, "id": null, "name": name, "bound_driver": null,
           "architecture": arch, "compute_capability": cc, "mig_capable": mig})
}

/// The `gpuctl.io/nvidia.` labels whose name starts with `part`, as `name=value`.
fn got(r: &Report, part: &str) -> Vec<String> {
    let (out, dropped) = labels(r);
    assert!(dropped.is_empty(), "{dropped:?}");
    out.iter()
        .filter_map(|l| {
            let short = l.name.strip_prefix("gpuctl.io/nvidia.")?;
            short
                .starts_with(part)
                .then(|| format!("{short}={}", l.value))
        })
        .collect()
}

#[rstest]
// One product: the one label, as before.
#[case(&[Some("NVIDIA A100-SXM4-80GB"), Some("NVIDIA A100-SXM4-80GB")],
       &["product=NVIDIA-A100-SXM4-80GB"])]
// Two products: `mixed`, and a count per product in the order the GPUs come.
#[case(&[Some("NVIDIA H100 PCIe"), Some("NVIDIA L40S"), Some("NVIDIA H100 PCIe")],
       &["product=mixed", "product.NVIDIA-H100-PCIe=2", "product.NVIDIA-L40S=1"])]
// One named product beside a GPU pci.ids does not name: not known to be mixed.
#[case(&[Some("NVIDIA L40S"), None], &["product.NVIDIA-L40S=1"])]
#[case(&[None, None], &[])]
// Two names that make one label value are one product to a selector, not two lines.
#[case(&[Some("NVIDIA A/B"), Some("NVIDIA A B")], &["product=NVIDIA-A-B"])]
fn products_on_mixed_hosts(#[case] names: &[Option<&str>], #[case] want: &[&str]) {
    let devices = names.iter().map(|n| dev(*n, None, None, None)).collect();
    assert_eq!(got(&report(Value::Array(devices), "13.0"), "product"), want);
}

type Chip = (Option<&'static str>, Option<&'static str>, Option<bool>);

#[rstest]
#[case(&[(Some("hopper"), Some("9.0"), Some(true))],
       &["architecture=hopper", "compute.major=9", "compute.minor=0", "mig.capable=true"])]
// Any MIG-capable GPU makes the node MIG-capable, as GFD's label; two architectures, no label.
#[case(&[(Some("hopper"), Some("9.0"), Some(true)), (Some("ada-lovelace"), Some("8.9"), None)],
       &["mig.capable=true"])]
// `false` only when every GPU is known not to be; one unknown leaves the label out.
#[case(&[(Some("volta"), Some("7.0"), Some(false)), (Some("volta"), Some("7.0"), Some(false))],
       &["architecture=volta", "compute.major=7", "compute.minor=0", "mig.capable=false"])]
#[case(&[(Some("turing"), Some("7.5"), Some(false)), (Some("turing"), None, Some(false))],
       &["architecture=turing", "mig.capable=false"])]
#[case(&[(Some("ada-lovelace"), None, None)], &["architecture=ada-lovelace"])]
// A GPU pci.ids gives no chip: nothing of its chip is said.
#[case(&[(None, None, None)], &[])]
fn chip_labels_say_only_what_every_gpu_shares(#[case] chips: &[Chip], #[case] want: &[&str]) {
    let devices = chips
        .iter()
        .map(|(a, c, m)| dev(Some("NVIDIA X"), *a, *c, *m))
        .collect();
    let r = report(Value::Array(devices), "13.0");
    let mut all = got(&r, "architecture");
    all.extend(got(&r, "compute."));
    all.extend(got(&r, "mig."));
    assert_eq!(all, want);
}

/// A version label comes with its major and minor as integers, for nodeAffinity's `Gt`/`Lt`.
#[rstest]
#[case("13.0", &["cuda.max=13.0", "cuda.max.major=13", "cuda.max.minor=0"])]
#[case("12.10", &["cuda.max=12.10", "cuda.max.major=12", "cuda.max.minor=10"])]
#[case("13", &["cuda.max=13"])]
fn versions_come_apart(#[case] cuda: &str, #[case] want: &[&str]) {
    let r = report(Value::Array(vec![dev(None, None, None, None)]), cuda);
    assert_eq!(got(&r, "cuda."), want);
}
