//! `gpuctl doctor`'s AMD and Intel driver checks on trees built per test: the driver bound to
//! each GPU, and for one with none, why (module, kernel floor, `force_probe`), with the remedy
//! as its own `Hint: `. podman is kept off PATH and `--podman-version` names a current one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

fn doctor(t: &Tree) -> (i32, Vec<Value>) {
    let empty = tempfile::tempdir().unwrap();
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("PATH", empty.path())
        .arg("--root")
        .arg(t.root())
        .args(["--podman-version", "5.4.0", "doctor", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (
        out.status.code().unwrap(),
        v["checks"].as_array().unwrap().clone(),
    )
}

fn text(t: &Tree) -> String {
    let empty = tempfile::tempdir().unwrap();
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("PATH", empty.path())
        .arg("--root")
        .arg(t.root())
        .args(["--podman-version", "5.4.0", "doctor"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn only<'a>(checks: &'a [Value], code: &str) -> &'a Value {
    let found: Vec<&Value> = checks.iter().filter(|c| c["code"] == code).collect();
    assert_eq!(found.len(), 1, "{code}: {checks:#?}");
    found[0]
}

fn facts(c: &Value) -> Vec<&str> {
    c["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect()
}

/// A Radeon RX 7900 XTX (1002:744c, Linux 6.0 floor) on the bus with no driver bound.
fn amd_unbound(release: &str) -> Tree {
    let t = Tree::new();
    t.pci("0000:03:00.0", 0x1002, 0x744c, 0x030000);
    t.file("/proc/sys/kernel/osrelease", &format!("{release}\n"));
    t
}

/// An Arc A770 (8086:56a0) on the bus with no driver bound, i915 loaded with `force_probe`
/// set to `force_probe`.
fn a770(release: &str, force_probe: &str) -> Tree {
    let t = Tree::new();
    t.pci("0000:03:00.0", 0x8086, 0x56a0, 0x030000);
    t.file("/proc/sys/kernel/osrelease", &format!("{release}\n"));
    t.file(
        "/sys/module/i915/parameters/force_probe",
        &format!("{force_probe}\n"),
    );
    t
}

/// Binds the PCI function at `addr` to `driver`, as the kernel links it.
fn bind(t: &Tree, addr: &str, driver: &str) {
    t.link(
        &format!("/sys/devices/pci0000:00/{addr}/driver"),
        &format!("../../../bus/pci/drivers/{driver}"),
    );
    t.dir(&format!("/sys/bus/pci/drivers/{driver}"));
}

#[test]
fn an_amd_gpu_with_no_driver_and_no_module_says_load_amdgpu() {
    let t = amd_unbound("6.8.0-49-generic");
    let (code, checks) = doctor(&t);
    assert_eq!(code, 1);
    let c = only(&checks, "amd-driver");
    assert_eq!(c["status"], "problem");
    assert_eq!(
        c["subject"],
        "0000:03:00.0 (1002:744c, AMD Radeon RX 7900 XTX, gfx1100)"
    );
    assert_eq!(
        facts(c),
        [
            "no kernel driver is bound to it",
            "the amdgpu module is not loaded (no /sys/module/amdgpu)"
        ]
    );
    assert!(
        c["remedy"]
            .as_str()
            .unwrap()
            .starts_with("Hint: load it: 'sudo modprobe amdgpu'"),
        "{c:#}"
    );
    // /dev/kfd follows from the driver: not a second problem.
    assert_eq!(only(&checks, "amd-kfd")["status"], "skipped");
    // detect no longer says there is no AMD GPU.
    let tier = checks
        .iter()
        .find(|c| c["code"] == "tier" && c["subject"] == "amd")
        .unwrap();
    assert!(
        facts(tier)[0].starts_with("1 AMD GPU(s) on the PCI bus but none usable"),
        "{tier:#}"
    );
}

#[test]
fn an_amd_gpu_on_a_kernel_older_than_its_floor_says_which_kernel() {
    // MI300X (1002:74a1): amdgpu binds it from Linux 6.5 (the AMD table).
    let t = Tree::new();
    t.pci("0000:05:00.0", 0x1002, 0x74a1, 0x120000);
    t.file("/proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
    t.dir("/sys/module/amdgpu");
    let (code, checks) = doctor(&t);
    assert_eq!(code, 1);
    let c = only(&checks, "amd-driver");
    assert_eq!(
        facts(c)[1],
        "Linux 6.1.0-18-amd64: kernel 6.1 is older than 6.5"
    );
    assert!(
        c["remedy"]
            .as_str()
            .unwrap()
            .starts_with("Hint: boot Linux 6.5 or newer"),
        "{c:#}"
    );
    // The same GPU on 6.8 with amdgpu loaded and still unbound: the kernel log has the cause.
    t.file("/proc/sys/kernel/osrelease", "6.8.0-49-generic\n");
    let (_, checks) = doctor(&t);
    let c = only(&checks, "amd-driver");
    assert!(
        facts(c)[1].contains("amdgpu is loaded and this kernel lists 74a1"),
        "{c:#}"
    );
    assert!(c["remedy"].as_str().unwrap().contains("dmesg"), "{c:#}");
}

#[test]
fn an_amd_gpu_bound_elsewhere_or_without_kfd_is_named() {
    let t = amd_unbound("6.8.0-49-generic");
    bind(&t, "0000:03:00.0", "vfio-pci");
    let (_, checks) = doctor(&t);
    let c = only(&checks, "amd-driver");
    assert_eq!(c["status"], "warning");
    assert_eq!(
        facts(c),
        ["bound to vfio-pci, not amdgpu: containers cannot use it"]
    );
    let t = amd_unbound("6.8.0-49-generic");
    bind(&t, "0000:03:00.0", "amdgpu");
    t.render_node("renderD128", "0x1002", "0000:03:00.0");
    t.by_path("0000:03:00.0", "renderD128");
    let (code, checks) = doctor(&t);
    assert_eq!(code, 1);
    assert_eq!(only(&checks, "amd-driver")["status"], "ok");
    let kfd = only(&checks, "amd-kfd");
    assert_eq!(kfd["status"], "problem");
    assert_eq!(facts(kfd), ["missing: /dev/kfd"]);
    let nodes = only(&checks, "amd-nodes");
    assert_eq!(nodes["status"], "ok");
    assert!(
        facts(nodes)[0].starts_with("/dev/dri/renderD128: group "),
        "{nodes:#}"
    );
    t.dev(&["kfd"]);
    let (code, checks) = doctor(&t);
    assert_eq!(
        (code, &only(&checks, "amd-kfd")["status"]),
        (0, &Value::from("ok"))
    );
}

#[test]
fn an_a770_on_linux_6_1_with_an_empty_force_probe_gets_the_exact_setting() {
    let t = a770("6.1.0-18-amd64", "");
    let (code, checks) = doctor(&t);
    assert_eq!(code, 1);
    let c = only(&checks, "intel-driver");
    assert_eq!(c["status"], "problem");
    assert_eq!(c["subject"], "0000:03:00.0 (8086:56a0, Alchemist)");
    assert_eq!(
        facts(c),
        [
            "no kernel driver is bound to it",
            "on Linux 6.1, i915 binds 56a0 only with i915.force_probe=56a0; i915.force_probe is empty",
            "xe lists 56a0 only from Linux 6.8",
        ]
    );
    let hint = c["remedy"].as_str().unwrap();
    assert!(
        hint.starts_with("Hint: add 'i915.force_probe=56a0' to the kernel command line"),
        "{hint}"
    );
    assert!(hint.contains("from Linux 6.2 i915 binds it"), "{hint}");
    let shown = text(&t);
    assert!(
        shown.contains("\n         Hint: add 'i915.force_probe=56a0'"),
        "{shown}"
    );
}

#[test]
fn an_a770_with_the_setting_or_a_block_or_an_old_kernel_says_so() {
    // Set, yet unbound: the kernel log has the cause.
    let (_, checks) = doctor(&a770("6.1.0-18-amd64", "56a0"));
    let c = only(&checks, "intel-driver");
    assert!(
        facts(c)[1].starts_with("i915 is loaded and this kernel lists 56a0"),
        "{c:#}"
    );
    // Blocked by a '!' entry.
    let (_, checks) = doctor(&a770("6.5.0-35-generic", "!56a0"));
    let c = only(&checks, "intel-driver");
    assert_eq!(
        facts(c)[1],
        "i915.force_probe='!56a0' keeps the driver off 56a0"
    );
    // Older than the first release whose i915 lists it (6.0).
    let (_, checks) = doctor(&a770("5.15.0-91-generic", ""));
    let c = only(&checks, "intel-driver");
    assert_eq!(
        facts(c)[1],
        "Linux 5.15.0-91-generic: kernel 5.15 is older than 6.0"
    );
    // From 6.2 i915 binds it unasked: an unbound A770 with i915 not loaded needs the module.
    let t = a770("6.8.0-49-generic", "");
    std::fs::remove_dir_all(t.path("/sys/module/i915")).unwrap();
    let (_, checks) = doctor(&t);
    let c = only(&checks, "intel-driver");
    assert_eq!(
        facts(c)[1],
        "the i915 module is not loaded (no /sys/module/i915)"
    );
}

#[test]
fn a_lunar_lake_gpu_before_6_12_needs_xe_s_setting_and_i915_kept_off() {
    // 8086:64a0: xe only, behind force_probe until Linux 6.12.
    let t = Tree::new();
    t.pci("0000:00:02.0", 0x8086, 0x64a0, 0x030000);
    t.file("/proc/sys/kernel/osrelease", "6.10.3-arch1-1\n");
    t.file("/sys/module/xe/parameters/force_probe", "\n");
    let (_, checks) = doctor(&t);
    let c = only(&checks, "intel-driver");
    assert_eq!(
        facts(c)[1],
        "on Linux 6.10, xe binds 64a0 only with xe.force_probe=64a0 and i915.force_probe=!64a0; xe.force_probe is empty"
    );
    assert!(
        c["remedy"]
            .as_str()
            .unwrap()
            .starts_with("Hint: add 'xe.force_probe=64a0 i915.force_probe=!64a0'"),
        "{c:#}"
    );
}

#[test]
fn bound_intel_and_amd_gpus_are_ok_on_the_bundled_hosts() {
    for (host, code, subject) in [
        ("amd-mi300x", "amd-driver", "8 AMD GPU(s)"),
        ("intel-laptop", "intel-driver", "1 Intel GPU(s)"),
        ("intel-arc-cdi", "intel-driver", "1 Intel GPU(s)"),
        ("workstation", "amd-driver", "1 AMD GPU(s)"),
        ("workstation", "intel-driver", "1 Intel GPU(s)"),
    ] {
        let empty = tempfile::tempdir().unwrap();
        let out = cargo_bin_cmd!("gpuctl")
            .env_clear()
            .env("PATH", empty.path())
            .arg("--root")
            .arg(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../tests/hosts")
                    .join(host),
            )
            .args(["--podman-version", "5.4.0", "doctor", "--format", "json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let checks = v["checks"].as_array().unwrap();
        let c = only(checks, code);
        assert_eq!(
            (c["status"].as_str(), c["subject"].as_str()),
            (Some("ok"), Some(subject)),
            "{host}"
        );
    }
}
