//! `gpuctl report` on the fixture hosts: the JSON report read back with its own types and
//! checked against `detect`; the NFD file read by a reader written to NFD's rules
//! (kubernetes-sigs/node-feature-discovery, source/local/local.go); `--output` atomic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod nfd_reader;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_fleet::model::Report;

const NOW: u64 = 1_796_108_400; // 2026-12-01T07:00:00Z

fn host(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
}

fn hosts() -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(host(""))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn gpuctl(root: &str, args: &[&str]) -> std::process::Output {
    cargo_bin_cmd!("gpuctl")
        .env("SOURCE_DATE_EPOCH", NOW.to_string())
        .arg("--root")
        .arg(host(root))
        .args(args)
        .output()
        .unwrap()
}

fn report(root: &str) -> Report {
    let out = gpuctl(root, &["report"]);
    assert_eq!(out.status.code(), Some(0), "{root}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_fixture_host_reports_its_name_kernel_and_detects_tiers() {
    for name in hosts() {
        let out = gpuctl(&name, &["report"]);
        let r: Report = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r.schema, "gpuctl.report/1");
        assert_eq!(r.host.name.as_deref(), Some(name.as_str()));
        assert!(r.host.kernel.is_some(), "{name}");
        // Read back with its own types, it prints the same JSON: nothing is lost on the way.
        let again = serde_json::to_string_pretty(&r).unwrap() + "\n";
        assert_eq!(again, String::from_utf8(out.stdout).unwrap(), "{name}");
        // The tiers and devices are detect's.
        let detect = cargo_bin_cmd!("gpuctl")
            .arg("--root")
            .arg(host(&name))
            .args(["detect", "--format", "json"])
            .output()
            .unwrap();
        let d: serde_json::Value = serde_json::from_slice(&detect.stdout).unwrap();
        for (v, dv) in r.vendors.iter().zip(d["vendors"].as_array().unwrap()) {
            assert_eq!(v.vendor, dv["vendor"]);
            assert_eq!(
                v.tier.as_deref(),
                dv["tier"].as_str(),
                "{name} {}",
                v.vendor
            );
            assert_eq!(v.devices.len(), dv["devices"].as_array().unwrap().len());
        }
    }
}

#[test]
fn dgx_b200_report_says_what_requirement_and_doctor_say() {
    let r = report("dgx-b200");
    let nv = &r.vendors[0];
    assert_eq!(nv.devices.len(), 8);
    assert_eq!(nv.devices[0].id.as_deref(), Some("10de:2901"));
    assert_eq!(nv.devices[0].generation.as_deref(), Some("Blackwell"));
    let combined = nv.requirement.combined.as_ref().unwrap();
    assert_eq!(
        combined.describe,
        "open kernel module, driver branch 570 or newer"
    );
    assert_eq!(nv.driver.version.as_deref(), Some("580.95.05"));
    assert_eq!(nv.driver.kernel_module.as_deref(), Some("open"));
    assert_eq!(nv.driver.fits.as_str(), "yes");
    // 580.95.05 is past 580.65.06, CUDA 13.0 GA's minimum (CUDA release notes, Table 3).
    assert_eq!(nv.driver.cuda_ceiling.as_deref(), Some("13.0"));
    assert!(r.doctor.checks.iter().any(|c| c.code == "nvidia-driver"));
    // Podman is never run, so its check is not in a report.
    assert!(r.doctor.checks.iter().all(|c| c.code != "podman"));
}

#[test]
fn amd_without_dkms_is_in_kernel_and_rocm_is_unknown() {
    let r = report("amd-mi300x");
    let amd = r.vendors.iter().find(|v| v.vendor == "amd").unwrap();
    assert_eq!(amd.driver.state, "in-kernel");
    assert_eq!(amd.driver.version, None);
    assert_eq!(amd.driver.fits.as_str(), "unknown");
    assert!(amd.driver.why.as_deref().unwrap().contains("ROCm"));
}

#[test]
fn intel_reports_the_bound_driver_and_force_probe() {
    let r = report("intel-laptop");
    let intel = r.vendors.iter().find(|v| v.vendor == "intel").unwrap();
    let b = &intel.driver.bound[0];
    assert_eq!(b.driver.as_deref(), Some("xe"));
    // Tiger Lake binds xe only with force_probe (docs/requirement.md).
    assert_eq!(b.needs_force_probe, Some(true));
}

fn nfd(root: &str) -> String {
    let out = gpuctl(root, &["report", "--format", "nfd"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // cdi-broken warns about its specs; no host has a label left out.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("left out"), "{err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_label_of_every_host_passes_nfd() {
    for name in hosts() {
        let text = nfd(&name);
        let read = nfd_reader::read("gpuctl", text.as_bytes(), NOW);
        assert!(read.dropped.is_empty(), "{name}: {:?}", read.dropped);
        let lines = text.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(read.labels.len(), lines, "{name}");
        assert!(read.labels.keys().all(|k| k.starts_with("gpuctl.io/")));
        // An hour later they are gone: a node whose gpuctl stopped loses them.
        assert!(
            nfd_reader::read("gpuctl", text.as_bytes(), NOW + 3601)
                .labels
                .is_empty()
        );
    }
}

#[test]
fn dgx_b200_labels() {
    let read = nfd_reader::read("gpuctl", nfd("dgx-b200").as_bytes(), NOW);
    let l = |k: &str| read.labels.get(&format!("gpuctl.io/{k}")).cloned();
    assert_eq!(l("nvidia.count").as_deref(), Some("8"));
    assert_eq!(l("nvidia.product").as_deref(), Some("NVIDIA-B200"));
    assert_eq!(l("nvidia.kernel-module.required").as_deref(), Some("open"));
    assert_eq!(l("nvidia.driver-branch.min").as_deref(), Some("570"));
    assert_eq!(l("nvidia.driver.kernel-module").as_deref(), Some("open"));
    assert_eq!(l("nvidia.driver.version").as_deref(), Some("580.95.05"));
    assert_eq!(l("nvidia.tier").as_deref(), Some("cdi"));
    assert_eq!(l("amd.present"), None);
    assert_eq!(l("nvidia.cuda.max").as_deref(), Some("13.0"));
    // Beside GFD's labels (issue 28, item 6): integers for nodeAffinity's Gt/Lt, the chip's
    // facts from NVIDIA's tables, the machine type from DMI.
    assert_eq!(l("nvidia.cuda.max.major").as_deref(), Some("13"));
    assert_eq!(l("nvidia.cuda.max.minor").as_deref(), Some("0"));
    assert_eq!(l("nvidia.architecture").as_deref(), Some("blackwell"));
    assert_eq!(l("nvidia.compute.major").as_deref(), Some("10"));
    assert_eq!(l("nvidia.compute.minor").as_deref(), Some("0"));
    assert_eq!(l("nvidia.mig.capable").as_deref(), Some("true"));
    assert_eq!(l("machine").as_deref(), Some("DGX-B200"));
}

/// An RTX 4080 is Ada Lovelace at compute capability 8.9, whatever row of the requirement
/// table it falls in; the MIG guide does not list it, so no MIG label is guessed; a host
/// without a DMI product name has no machine label; kernel bounds come apart as integers.
#[test]
fn workstation_labels_name_the_architecture() {
    let read = nfd_reader::read("gpuctl", nfd("workstation").as_bytes(), NOW);
    let l = |k: &str| read.labels.get(&format!("gpuctl.io/{k}")).cloned();
    assert_eq!(
        l("nvidia.generation").as_deref(),
        Some("turing-ampere-ada-hopper")
    );
    assert_eq!(l("nvidia.architecture").as_deref(), Some("ada-lovelace"));
    assert_eq!(l("nvidia.compute.major").as_deref(), Some("8"));
    assert_eq!(l("nvidia.compute.minor").as_deref(), Some("9"));
    assert_eq!(l("nvidia.mig.capable"), None);
    assert_eq!(l("machine"), None);
    assert_eq!(l("amd.kernel.min").as_deref(), Some("6.0"));
    assert_eq!(l("amd.kernel.min.major").as_deref(), Some("6"));
    assert_eq!(l("amd.kernel.min.minor").as_deref(), Some("0"));
    // AMD's chip is not NVIDIA's: no architecture label from NVIDIA's tables.
    assert_eq!(l("amd.architecture"), None);
}

/// A node without a GPU of any vendor has no problem, so an alert on `doctor.problems > 0`
/// stays quiet on CPU-only nodes (issue 28, item 2); one with only NVIDIA GPUs counts no AMD
/// or Intel problem either.
#[test]
fn a_vendor_the_node_does_not_have_is_not_a_problem() {
    for (name, problems) in [("empty", "0"), ("dgx-b200", "0"), ("nvidia-hook-only", "0")] {
        let read = nfd_reader::read("gpuctl", nfd(name).as_bytes(), NOW);
        assert_eq!(
            read.labels
                .get("gpuctl.io/doctor.problems")
                .map(String::as_str),
            Some(problems),
            "{name}"
        );
    }
}

#[test]
fn output_writes_atomically_and_replaces_a_link_without_following_it() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    fs::write(&victim, "keep me\n").unwrap();
    let target = dir.path().join("gpuctl");
    std::os::unix::fs::symlink(&victim, &target).unwrap();
    let out = gpuctl(
        "dgx-b200",
        &[
            "report",
            "--format",
            "nfd",
            "--output",
            target.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me\n");
    let meta = fs::symlink_metadata(&target).unwrap();
    assert!(meta.file_type().is_file());
    assert_eq!(fs::read_to_string(&target).unwrap(), nfd("dgx-b200"));
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

#[test]
fn a_failed_write_leaves_the_old_file_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be: the rename fails, the directory stays.
    let target = dir.path().join("gpuctl.fact");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("inside"), "old").unwrap();
    let out = gpuctl(
        "workstation",
        &["report", "--output", target.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot replace it"), "{err}");
    assert!(err.contains("the old file is left as it was"), "{err}");
    assert_eq!(fs::read_to_string(target.join("inside")).unwrap(), "old");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    // A directory that does not exist: nothing is created.
    let missing = dir.path().join("no/such/dir/gpuctl");
    let out = gpuctl(
        "workstation",
        &["report", "--output", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the temporary file"));
}
