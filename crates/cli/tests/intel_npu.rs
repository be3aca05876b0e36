//! An Intel NPU is not an Intel GPU. Meteor Lake and newer laptops carry an NPU (`8086:7d1d`,
//! driven by `intel_vpu`, a `/dev/accel/accel0` node) beside the integrated GPU, under the same
//! PCI vendor id; lspci lists it as "Processing accelerators" (base class 0x12) and the GPU as
//! "VGA compatible controller" (0x03) (system76/firmware-open#580,
//! intel/intel-device-plugins-for-kubernetes#2197). Counted as a GPU it was "an Intel GPU no
//! kernel table lists": an extra device on the bus, and every such laptop's stack unknown.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

const NPU: &str = "0000:00:0b.0";

/// Meteor Lake's GPU (7d55, which i915 binds unasked from Linux 6.8) bound to i915 with its
/// render node, and, when `gpu` is false, only the NPU; the NPU bound to `intel_vpu` with its
/// accel node either way.
fn laptop(gpu: bool) -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", "mtl\n")
        .file("/proc/sys/kernel/osrelease", "6.12.0-1-amd64\n")
        .pci(NPU, 0x8086, 0x7d1d, 0x12_00_00)
        .link(
            &format!("/sys/devices/pci0000:00/{NPU}/driver"),
            "../../../bus/pci/drivers/intel_vpu",
        )
        .dir("/sys/bus/pci/drivers/intel_vpu")
        .class_node("accel", "accel0", NPU, "/dev/accel/accel0");
    if gpu {
        t.pci("0000:00:02.0", 0x8086, 0x7d55, 0x03_00_00)
            .link(
                "/sys/devices/pci0000:00/0000:00:02.0/driver",
                "../../../bus/pci/drivers/i915",
            )
            .dir("/sys/bus/pci/drivers/i915")
            .render_node("renderD128", "0x8086", "0000:00:02.0")
            .by_path("0000:00:02.0", "renderD128");
    }
    t
}

fn gpuctl(t: &Tree, args: &[&str]) -> (i32, String) {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .arg("--root")
        .arg(t.root())
        .args(["-q", "--podman-version", "5.4.0"])
        .args(args)
        .output()
        .unwrap();
    let mut text = String::from_utf8(out.stdout).unwrap();
    text.push_str(&String::from_utf8(out.stderr).unwrap());
    (out.status.code().unwrap(), text)
}

fn json(t: &Tree, args: &[&str]) -> Value {
    let (_, out) = gpuctl(t, args);
    let body = &out[..out.rfind('}').map_or(out.len(), |i| i + 1)];
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

#[test]
fn the_npu_is_no_intel_gpu_in_detect_or_report() {
    let t = laptop(true);
    let report = json(&t, &["report"]);
    let text = report.to_string();
    assert!(text.contains("7d55"), "the GPU is reported: {text}");
    assert!(
        !text.contains("7d1d"),
        "the NPU is not an Intel GPU: {text}"
    );
    let (_, detect) = gpuctl(&t, &["detect"]);
    assert!(!detect.contains("0b.0"), "{detect}");
}

#[test]
fn the_laptop_s_stack_is_judged_on_its_gpu_alone() {
    let t = laptop(true);
    let (code, out) = gpuctl(&t, &["requirement"]);
    assert!(out.contains("8086:7d55"), "{out}");
    assert!(!out.contains("7d1d"), "{out}");
    assert_eq!(code, 0, "{out}");
    let (_, nfd) = gpuctl(&t, &["report", "--format", "nfd"]);
    assert!(nfd.contains("gpuctl.io/intel.driver.fits=yes"), "{nfd}");
}

#[test]
fn doctor_does_not_call_the_npu_an_unbound_gpu() {
    let t = laptop(true);
    let (_, out) = gpuctl(&t, &["doctor"]);
    assert!(!out.contains("7d1d"), "{out}");
    assert!(!out.contains("intel_vpu"), "{out}");
}

#[test]
fn a_host_with_only_the_npu_has_no_intel_gpu_on_its_bus() {
    let t = laptop(false);
    let (_, out) = gpuctl(&t, &["detect"]);
    assert!(!out.contains("on the PCI bus"), "{out}");
    let (_, req) = gpuctl(&t, &["requirement"]);
    assert!(!req.contains("7d1d"), "{req}");
}
