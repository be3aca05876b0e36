//! `gpuctl requirement` for AMD and Intel GPUs: VVVV:DDDD ids, per-vendor --driver specs,
//! mixed hosts, and the bad input each gets a sentence and exit 2 for.

use predicates::prelude::*;
use rstest::rstest;
use serde_json::json;

use super::{gpuctl, json_of};

fn fixture(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `gpuctl requirement ARGS...`.
fn requirement(args: &[&str]) -> assert_cmd::Command {
    let mut full = vec!["requirement"];
    full.extend_from_slice(args);
    gpuctl(&full)
}

#[test]
fn a_mixed_list_of_ids_gets_one_section_per_vendor_stack() {
    gpuctl(&["requirement", "2901", "1002:74a1", "1002:66af", "8086:e20b"])
        .assert()
        .code(0)
        .stdout(
            "NVIDIA GPU (Blackwell, 10de:2901): open kernel module, driver branch 570 or newer\n\
             \x20\x20first listed: open kernel module 570.86.15 (2025-01-27, open-gpu-kernel-modules README)\n\
             combined: open kernel module, driver branch 570 or newer\n\
             \x20\x20driver floor (the first releases listing every GPU): open kernel module 570.86.15 or newer\n\
             AMD Instinct MI300X (gfx942, 1002:74a1): ROCm 6.0.0 or newer, Linux kernel 6.5 or newer\n\
             AMD Radeon VII (gfx906, 1002:66af): ROCm 6.2.2 or older, Linux kernel 4.20 or newer\n  \
             note: ROCm lists gfx906 from 5.5.1, the oldest list in the sources, or earlier\n  \
             note: ROCm lists gfx906 as deprecated\n\
             AMD combined: ROCm 6.0.0 to 6.2.2, Linux kernel 6.5 or newer\n\
             Intel GPU (Battlemage, 8086:e20b): xe kernel driver (before Linux 6.12 needs \
             xe.force_probe=e20b and i915.force_probe=!e20b), Linux kernel 6.10 or newer\n  \
             note: compute runtime: OpenCL 3.0, Level Zero 1.17\n\
             Intel combined: Linux kernel 6.10 or newer\n",
        )
        .stderr("");
}

#[test]
fn an_amd_requirement_line_carries_the_kernel_its_chip_needs() {
    // crates/amd/data/amdgpu-pciids.tsv: amdgpu's pciidlist binds Navi10 from Linux 5.3.
    gpuctl(&["requirement", "1002:731f"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "AMD Radeon RX 5700 XT 50th Anniversary (gfx1010, 1002:731f): Linux kernel 5.3 or newer\n",
        ))
        .stdout(predicate::str::contains("AMD combined: Linux kernel 5.3 or newer\n"));
}

#[test]
fn intel_xe_says_when_force_probe_stopped_being_needed() {
    gpuctl(&["requirement", "8086:e20b"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "xe kernel driver (before Linux 6.12 needs xe.force_probe=e20b and \
             i915.force_probe=!e20b), Linux kernel 6.10 or newer\n",
        ));
}

#[test]
fn two_amd_gpus_whose_rocm_ranges_do_not_overlap_conflict() {
    // gfx906 is last listed by ROCm 6.2; gfx1201 first by ROCm 6.4.1.
    gpuctl(&["requirement", "1002:66af", "1002:7550"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "AMD combined: none — the GPUs conflict\n",
        ))
        .stdout(predicate::str::contains(
            "conflict: AMD Radeon RX 9070 XT (gfx1201, 1002:7550) needs ROCm 6.4.1 or newer, \
             but AMD Radeon VII (gfx906, 1002:66af) is supported only up to ROCm 6.2.2\n",
        ));
}

#[rstest]
#[case(&["--driver", "rocm:6.2", "--driver", "kernel:6.8", "1002:74a1"], 0,
       "driver rocm:6.2, kernel:6.8: satisfies")]
// MI300X needs Linux 6.5 (crates/amd/data/amdgpu-kernel.tsv, by target): a spec that leaves the kernel out
// cannot say it is served, as with Intel's kernel driver.
#[case(&["--driver", "rocm:6.2", "1002:74a1"], 1,
       "driver rocm:6.2: unknown — AMD Instinct MI300X (gfx942, 1002:74a1): Linux kernel not known, 6.5 or newer is needed")]
#[case(&["--driver", "rocm:6.2", "--driver", "kernel:6.1", "1002:74a1"], 1,
       "driver rocm:6.2, kernel:6.1: does not satisfy — AMD Instinct MI300X (gfx942, 1002:74a1): kernel 6.1 is older than 6.5")]
#[case(&["--driver", "rocm:5.7", "--driver", "kernel:6.8", "1002:74a1"], 1,
       "driver rocm:5.7, kernel:6.8: does not satisfy — AMD Instinct MI300X (gfx942, 1002:74a1): ROCm 5.7 is older than 6.0.0")]
#[case(&["--driver", "rocm:6.3.2", "1002:66af"], 1,
       "driver rocm:6.3.2: does not satisfy — AMD Radeon VII (gfx906, 1002:66af): ROCm 6.3.2 is newer than 6.2.2")]
// Vega20 needs Linux 4.20 (crates/amd/data/amdgpu-pciids.tsv), so the spec names the kernel.
#[case(&["--driver", "rocm:6.2.2", "--driver", "kernel:6.8", "1002:66af"], 0,
       "driver rocm:6.2.2, kernel:6.8: satisfies")]
#[case(&["--driver", "xe", "--driver", "kernel:6.12", "8086:e20b"], 0, "driver xe, kernel:6.12: satisfies")]
#[case(&["--driver", "i915", "8086:e20b"], 1,
       "driver i915: does not satisfy — Intel GPU (Battlemage, 8086:e20b): i915 kernel driver, the xe one is needed")]
// A kernel alone says which driver binds each device: xe binds Battlemage from its floor on.
#[case(&["--driver", "kernel:6.8+", "8086:e20b"], 1,
       "driver kernel:6.8+: unknown — Intel GPU (Battlemage, 8086:e20b): installs the newest kernel it carries, known only to be 6.8 or newer; 6.10 is needed")]
#[case(&["--driver", "kernel:6.12", "8086:e20b"], 0, "driver kernel:6.12: satisfies")]
#[case(&["--driver", "kernel:6.1", "8086:9b41"], 0, "driver kernel:6.1: satisfies")]
// crates/amd/data/amdgpu-pciids.tsv: amdgpu's pciidlist binds Polaris12 (1002:6980) from 4.11,
// but no ROCm release read lists gfx803 (rocm-gpus.tsv): unofficial, never a pass (issue 24).
#[case(&["--driver", "kernel:6.1", "1002:6980"], 1,
       "driver kernel:6.1: unknown — AMD Radeon Pro WX 3100 (gfx803, 1002:6980): unofficial: no ROCm release read (5.5.1 to 7.2.3) lists gfx803 officially; none is counted as a pass")]
// Vega20's floor (4.20, amdgpu-pciids.tsv) still decides where ROCm lists the target.
#[case(&["--driver", "rocm:6.2", "--driver", "kernel:4.19", "1002:66af"], 1,
       "driver rocm:6.2, kernel:4.19: does not satisfy — AMD Radeon VII (gfx906, 1002:66af): kernel 4.19 is older than 4.20")]
#[case(&["--driver", "xe", "--driver", "kernel:6.1", "8086:e20b"], 1,
       "driver xe, kernel:6.1: does not satisfy — Intel GPU (Battlemage, 8086:e20b): kernel 6.1 is older than 6.10")]
fn per_vendor_driver_verdicts(#[case] args: &[&str], #[case] code: i32, #[case] line: &str) {
    requirement(args)
        .assert()
        .code(code)
        .stdout(predicate::str::ends_with(format!("{line}\n")));
}

#[test]
fn json_carries_each_constraint_as_data_in_the_vendors_entry() {
    let v = json_of(
        &[
            "requirement",
            "--format",
            "json",
            "--driver",
            "rocm:6.2",
            "--driver",
            "kernel:6.8",
            "1002:74a1",
        ],
        0,
    );
    // AMD ids only: no NVIDIA entry, and nothing at the top level but the three lists.
    assert_eq!(v["vendors"].as_array().map(Vec::len), Some(1));
    assert_eq!(v.as_object().map(|o| o.len()), Some(3));
    let amd = &v["vendors"][0];
    assert_eq!(amd["vendor"], json!("amd"));
    assert_eq!(
        amd["driver"],
        json!({"spec": "rocm:6.2, kernel:6.8", "specs": ["rocm:6.2", "kernel:6.8"],
               "satisfied": true, "fits": "yes", "why_not": null})
    );
    let gpu = &amd["gpus"][0];
    assert_eq!(gpu["device_id"], json!("74a1"));
    assert_eq!(gpu["label"], json!("gfx942"));
    assert_eq!(
        gpu["constraints"],
        json!([{"component": "rocm", "kind": "range", "scope": "host", "min": "6.0.0",
                "max": null, "describe": "ROCm 6.0.0 or newer"},
               {"component": "kernel", "kind": "range", "scope": "host", "min": "6.5",
                "max": null, "describe": "Linux kernel 6.5 or newer"}])
    );
    assert_eq!(
        gpu["driver"],
        json!({"satisfied": true, "fits": "yes", "why_not": null})
    );
    assert_eq!(v["host_conflicts"], json!([]));
}

#[test]
fn the_workstation_host_lists_every_vendor_in_one_shape() {
    let root = fixture("workstation");
    let v = json_of(&["--root", &root, "requirement", "--format", "json"], 0);
    let vendors: Vec<&str> = v["vendors"]
        .as_array()
        .expect("vendors")
        .iter()
        .filter_map(|x| x["vendor"].as_str())
        .collect();
    assert_eq!(vendors, ["nvidia", "amd", "intel"]);
    assert_eq!(
        v["vendors"][0]["gpus"][0]["generation"],
        json!("Turing/Ampere/Ada/Hopper")
    );
    assert_eq!(
        v["vendors"][1]["gpus"][0]["pci_address"],
        json!("0000:03:00.0")
    );
    assert_eq!(v["vendors"][2]["gpus"][0]["label"], json!("Comet Lake"));
}

#[rstest]
#[case(&["1234:5678"], "'1234:5678': no vendor gpuctl knows has PCI vendor id 1234; known: ")]
#[case(&["1002:zz"], "'1002:zz' is not a PCI device id; give VVVV:DDDD")]
#[case(&["1002:"], "'1002:' is not a PCI device id; give VVVV:DDDD")]
#[case(&["1002:74a1:00"], "'1002:74a1:00' is not a PCI device id; give VVVV:DDDD")]
#[case(&["--driver", "rocm:", "1002:74a1"], "--driver 'rocm:' is not a driver spec: ")]
#[case(&["--driver", "kernel:6.8", "2901"], "--driver 'kernel:6.8' is for amd or intel GPUs, and none is in the request")]
#[case(&["zz:74a1"], "'zz:74a1' is not a PCI device id")]
// Not NVIDIA's `10de:`, so the VVVV:DDDD sentence, not NVIDIA's four-digit one.
#[case(&["xyz:qq"], "'xyz:qq' is not a PCI device id; give VVVV:DDDD")]
#[case(&["--driver", "rocm:six", "1002:74a1"], "--driver 'rocm:six' is not a driver spec: ")]
#[case(&["--driver", "xe", "1002:74a1"], "--driver 'xe' is for intel GPUs, and none is in the request")]
#[case(&["--driver", "rocm:6.2", "2901"], "--driver 'rocm:6.2' is for amd GPUs, and none is in the request")]
#[case(&["--driver", "open:580", "1002:74a1"], "--driver 'open:580' is for NVIDIA GPUs, and none is in the request")]
#[case(&["--driver", "open:580", "--driver", "open:570", "2901"], "--driver 'open:570' is a second NVIDIA driver spec")]
fn bad_input_is_one_sentence_and_exit_2(#[case] args: &[&str], #[case] message: &str) {
    requirement(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(format!(
            "gpuctl: error: {message}"
        )));
}

#[rstest]
#[case("xe", "--driver 'xe' is for intel GPUs, and none is in the request")]
// The host has GPUs, all AMD: an NVIDIA spec concerns none of them, as with ids.
#[case(
    "open:580",
    "--driver 'open:580' is for NVIDIA GPUs, and none is in the request"
)]
fn a_spec_for_a_vendor_the_host_lacks_is_invalid(#[case] spec: &str, #[case] message: &str) {
    gpuctl(&[
        "--root",
        &fixture("amd-mi300x"),
        "requirement",
        "--driver",
        spec,
    ])
    .assert()
    .code(2)
    .stdout("")
    .stderr(predicate::str::starts_with(format!(
        "gpuctl: error: {message}"
    )));
}

/// An NVIDIA and an AMD GPU never conflict (they share no component of a stack), and each
/// vendor's specs are checked against its own GPUs: one vendor's "no" is the answer's exit 1.
#[rstest]
#[case(&["open:580", "rocm:6.2", "kernel:6.8"], 0,
       "driver open:580: satisfies\n", "driver rocm:6.2, kernel:6.8: satisfies\n")]
#[case(&["open:565", "rocm:6.2", "kernel:6.8"], 1,
       "driver open:565: does not satisfy — branch 565 is older than 570\n",
       "driver rocm:6.2, kernel:6.8: satisfies\n")]
#[case(&["open:580", "rocm:5.7", "kernel:6.8"], 1, "driver open:580: satisfies\n",
       "driver rocm:5.7, kernel:6.8: does not satisfy — AMD Instinct MI300X (gfx942, 1002:74a1): \
        ROCm 5.7 is older than 6.0.0\n")]
fn nvidia_and_amd_specs_each_judge_their_own_gpus(
    #[case] specs: &[&str],
    #[case] code: i32,
    #[case] nvidia: &str,
    #[case] amd: &str,
) {
    let mut args = vec!["2901", "1002:74a1"];
    for s in specs {
        args.extend(["--driver", s]);
    }
    requirement(&args)
        .assert()
        .code(code)
        .stderr("")
        .stdout(predicate::str::contains(
            "combined: open kernel module, driver branch 570 or newer\n",
        ))
        .stdout(predicate::str::contains(nvidia))
        .stdout(predicate::str::ends_with(amd));
}

#[test]
fn vendor_ids_take_any_case() {
    requirement(&["1002:74A1", "8086:E20B", "10DE:2901"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("(gfx942, 1002:74a1): "))
        .stdout(predicate::str::contains("(Battlemage, 8086:e20b): "))
        .stdout(predicate::str::starts_with(
            "NVIDIA GPU (Blackwell, 10de:2901): ",
        ));
}

#[test]
fn conflicting_amd_gpus_in_json() {
    let v = json_of(
        &["requirement", "--format", "json", "1002:66af", "1002:7550"],
        1,
    );
    let amd = &v["vendors"][0];
    assert_eq!(amd["combined"], json!(null));
    let conflicts = amd["conflicts"].as_array().expect("conflicts");
    assert_eq!(conflicts.len(), 1);
    let c = conflicts[0].as_str().unwrap_or_default();
    assert!(
        c.starts_with("AMD Radeon RX 9070 XT (gfx1201, 1002:7550) needs ROCm ")
            && c.contains(", but AMD Radeon VII (gfx906, 1002:66af) is supported only up to ROCm "),
        "{c}"
    );
    assert_eq!(v["host_conflicts"], json!([]));
}

/// An Intel GPU's kernel driver is a choice whose every alternative is data: its value, what it
/// needs besides (xe: a kernel), its note (`force_probe`), and the device scope.
#[test]
fn an_intel_choice_is_data_in_json() {
    let v = json_of(&["requirement", "--format", "json", "8086:56a0"], 0);
    let gpu = &v["vendors"][0]["gpus"][0];
    let driver = &gpu["constraints"][0];
    assert_eq!(driver["component"], json!("intel-kernel-driver"));
    assert_eq!(driver["kind"], json!("choice"));
    assert_eq!(driver["scope"], json!("device"));
    let allowed = driver["allowed"].as_array().expect("allowed");
    let values: Vec<&str> = allowed.iter().filter_map(|a| a["value"].as_str()).collect();
    assert_eq!(values, ["i915", "xe"]);
    let xe = &allowed[1];
    assert_eq!(xe["needs"][0]["component"], json!("kernel"));
    assert_eq!(xe["needs"][0]["kind"], json!("range"));
    assert!(
        xe["note"]
            .as_str()
            .is_some_and(|n| n.contains("xe.force_probe=56a0"))
    );
    assert_eq!(
        gpu["describe"]
            .as_str()
            .map(|d| d.starts_with("i915 kernel driver")),
        Some(true)
    );
}

/// Text and JSON say the same of a vendor whose constraints are all per device (Skylake 1912:
/// i915 alone, listed by every release read, so no kernel floor; Battlemage e220, the example
/// before issue 24, now has one from the kernel releases read: 7.2.13).
#[test]
fn a_per_device_choice_is_no_host_wide_constraint_in_text_and_json() {
    let v = json_of(&["requirement", "--format", "json", "8086:1912"], 0);
    assert_eq!(
        v["vendors"][0]["combined"]["describe"],
        json!("no host-wide constraint (each GPU's requirement above is its own)")
    );
    assert_eq!(v["vendors"][0]["combined"]["constraints"], json!([]));
    requirement(&["8086:1912"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Intel combined: no host-wide constraint (each GPU's requirement above is its own)\n",
        ));
}
