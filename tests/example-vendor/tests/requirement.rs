//! A plug-in vendor's driver requirements go through everything `gpuctl requirement` does with
//! the built-in vendors' (describe, who, intersect and its conflicts, across vendors too, the
//! JSON with each constraint as data, `--driver` on a shared component, host enumeration) with
//! no change to the core: Acme's table and components are all in its own crate.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use predicates::prelude::*;
use serde_json::{Value, json};

fn gpuctl_acme(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl-acme");
    cmd.env_clear().args(args);
    cmd
}

fn json_of(args: &[&str], code: i32) -> Value {
    let out = gpuctl_acme(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn two_acme_gpus_combine_into_one_stack() {
    gpuctl_acme(&["requirement", "1e5a:0001", "1e5a:0002"])
        .assert()
        .code(0)
        .stderr("")
        .stdout(
            "Acme GPU (NPU1, 1e5a:0001): Linux kernel 4.19 or older\n\
             Acme GPU (NPU2, 1e5a:0002): Acme firmware 2.0 or newer\n\
             Acme combined: Linux kernel 4.19 or older, Acme firmware 2.0 or newer\n",
        );
}

/// The kernel is shared by every vendor whose driver runs in it, so an Acme GPU whose driver
/// stops at 4.19 and an AMD GPU that needs a newer amdgpu cannot share one host's kernel.
#[test]
fn an_acme_and_an_amd_gpu_conflict_on_the_kernel() {
    gpuctl_acme(&["requirement", "1e5a:0001", "1002:74a1"])
        .assert()
        .code(1)
        .stderr("")
        .stdout(predicate::str::starts_with(
            "Acme GPU (NPU1, 1e5a:0001): Linux kernel 4.19 or older\n\
             Acme combined: Linux kernel 4.19 or older\n\
             AMD Instinct MI300X (gfx942, 1002:74a1): ",
        ))
        .stdout(predicate::str::contains(
            "\nconflict: AMD Instinct MI300X (gfx942, 1002:74a1) needs Linux kernel ",
        ))
        .stdout(predicate::str::ends_with(
            " or newer, but Acme GPU (NPU1, 1e5a:0001) is supported only up to kernel 4.19\n",
        ));
    // Acme's firmware is Acme's alone: NPU2 meets AMD nowhere, so nothing conflicts.
    gpuctl_acme(&["requirement", "1e5a:0002", "1002:74a1"])
        .assert()
        .code(0);
}

#[test]
fn json_carries_acmes_constraints_and_the_cross_vendor_conflict() {
    let v = json_of(
        &[
            "requirement",
            "--format",
            "json",
            "1e5a:0001",
            "1e5a:0002",
            "1002:74a1",
        ],
        1,
    );
    let acme = &v["vendors"][0];
    assert_eq!(acme["vendor"], json!("acme"));
    assert_eq!(acme["gpus"][1]["label"], json!("NPU2"));
    assert_eq!(
        acme["gpus"][1]["constraints"],
        json!([{"component": "acme-firmware", "kind": "range", "scope": "host", "min": "2.0",
                "max": null, "describe": "Acme firmware 2.0 or newer"}])
    );
    assert_eq!(
        acme["combined"]["constraints"],
        json!([{"component": "kernel", "kind": "range", "scope": "host", "min": null,
                "max": "4.19", "describe": "Linux kernel 4.19 or older"},
               {"component": "acme-firmware", "kind": "range", "scope": "host", "min": "2.0",
                "max": null, "describe": "Acme firmware 2.0 or newer"}])
    );
    assert_eq!(
        acme["combined"]["who"],
        json!("Acme GPU (NPU1, 1e5a:0001), Acme GPU (NPU2, 1e5a:0002)")
    );
    assert_eq!(acme["conflicts"], json!([]));
    let conflicts = v["host_conflicts"].as_array().expect("host_conflicts");
    assert_eq!(conflicts.len(), 1);
    assert!(
        conflicts[0]
            .as_str()
            .is_some_and(|c| c.ends_with("is supported only up to kernel 4.19")),
        "{conflicts:?}"
    );
}

#[test]
fn a_kernel_spec_is_checked_against_acme_gpus_too() {
    gpuctl_acme(&[
        "requirement",
        "--driver",
        "kernel:4.19",
        "--driver",
        "acme-firmware:2.1",
        "1e5a:0001",
        "1e5a:0002",
    ])
    .assert()
    .code(0)
    .stdout(predicate::str::ends_with(
        "driver kernel:4.19, acme-firmware:2.1: satisfies\n",
    ));
    gpuctl_acme(&["requirement", "--driver", "kernel:5.4", "1e5a:0001"])
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            "driver kernel:5.4: does not satisfy — Acme GPU (NPU1, 1e5a:0001): kernel 5.4 is \
             newer than 4.19\n",
        ));
}

/// With no id, the host's Acme GPUs are found on the PCI bus like any vendor's.
#[test]
fn the_hosts_acme_gpus_are_enumerated() {
    let t = Tree::new();
    t.pci("0000:41:00.0", 0x1e5a, 0x0002, 0x12_00_00);
    t.pci("0000:81:00.0", 0x1e5a, 0x0001, 0x12_00_00);
    gpuctl_acme(&["--root", &t.root().to_string_lossy(), "requirement"])
        .assert()
        .code(0)
        .stdout(
            "no NVIDIA GPU found\n\
             0000:41:00.0 Acme GPU (NPU2, 1e5a:0002): Acme firmware 2.0 or newer\n\
             0000:81:00.0 Acme GPU (NPU1, 1e5a:0001): Linux kernel 4.19 or older\n\
             Acme combined: Acme firmware 2.0 or newer, Linux kernel 4.19 or older\n",
        );
}

/// A device Acme's table says nothing of is unknown in Acme's words ("Acme NPU"), never "any
/// driver", and no `--driver` can be said to satisfy it (docs/plugins.md).
#[test]
fn a_device_without_requirement_data_is_unknown_never_any_driver() {
    gpuctl_acme(&["requirement", "1e5a:0003"])
        .assert()
        .code(0)
        .stdout(
            "Acme NPU (1e5a:0003): unknown: no requirement data\n\
             Acme combined: unknown: no requirement data\n",
        );
    gpuctl_acme(&["requirement", "1e5a:0003", "1e5a:0002"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "Acme combined: Acme firmware 2.0 or newer; Acme NPU (1e5a:0003): unknown: no \
             requirement data\n",
        ))
        .stdout(predicate::str::contains("any driver").not());
    gpuctl_acme(&["requirement", "--driver", "kernel:5.4", "1e5a:0003"])
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            // A plug-in's id no source lists is THE verdict's unknown, never a pass.
            "driver kernel:5.4: unknown — Acme NPU (1e5a:0003): unknown: no requirement \
             data\n",
        ));
    let v = json_of(&["requirement", "--format", "json", "1e5a:0003"], 0);
    let gpu = &v["vendors"][0]["gpus"][0];
    assert_eq!(gpu["who"], json!("Acme NPU (1e5a:0003)"));
    assert_eq!(gpu["unknown"], json!("unknown: no requirement data"));
    assert_eq!(gpu["constraints"], json!([]));
}
