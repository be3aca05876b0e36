//! THE verdict on a host whose Intel GPU binds only with `force_probe` (issue 24, finding 7):
//! 56c0 (Arctic Sound-M) is gated by `.require_force_probe` in i915's `ats_m_info` at every
//! kernel release read (crates/intel/data/kernel-releases.tsv), so a stock kernel does not bind
//! it. The host's settings (the module's parameter in sysfs, else the kernel command line) are
//! specs of its stack, so a host that sets `i915.force_probe=56c0` fits and one that does not
//! does not, alike in `report`, NFD, doctor and `requirement --driver` with the report's specs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

/// Tiger Lake (9a49), which i915 binds unasked from Linux 5.7, bound to i915 beside an unbound
/// 56c0, on Linux 6.8; `cmdline` and i915's `force_probe` parameter as given.
fn host(cmdline: Option<&str>, parameter: Option<&str>) -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", "ats\n")
        .file("/proc/sys/kernel/osrelease", "6.8.0-60-generic\n")
        .pci("0000:00:02.0", 0x8086, 0x9a49, 0x03_00_00)
        .pci("0000:03:00.0", 0x8086, 0x56c0, 0x03_80_00)
        .link(
            "/sys/devices/pci0000:00/0000:00:02.0/driver",
            "../../../bus/pci/drivers/i915",
        )
        .dir("/sys/bus/pci/drivers/i915")
        .render_node("renderD128", "0x8086", "0000:00:02.0")
        .by_path("0000:00:02.0", "renderD128")
        .dir("/sys/module/i915/parameters");
    if let Some(line) = cmdline {
        t.file("/proc/cmdline", &format!("{line}\n"));
    }
    if let Some(p) = parameter {
        t.file("/sys/module/i915/parameters/force_probe", &format!("{p}\n"));
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
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn json(t: &Tree, args: &[&str]) -> Value {
    let (_, out) = gpuctl(t, args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

fn intel(v: &Value) -> Value {
    v["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["vendor"] == "intel")
        .cloned()
        .unwrap_or_else(|| panic!("no intel: {v}"))
}

/// (report's fits, its why, NFD's fits, requirement's fits with the report's specs and the
/// kernel, doctor's intel-driver status).
fn surfaces(t: &Tree) -> (String, String, String, String, String) {
    let d = intel(&json(t, &["report"]))["driver"].clone();
    let specs: Vec<String> = d["specs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let (_, nfd) = gpuctl(t, &["report", "--format", "nfd"]);
    let nfd = nfd
        .lines()
        .find_map(|l| l.strip_prefix("gpuctl.io/intel.driver.fits="))
        .unwrap()
        .to_string();
    // The report's specs are the vendor's own; the kernel's is the caller's (6.8 here).
    let mut args = vec!["requirement", "--format", "json", "--driver", "kernel:6.8"];
    for s in &specs {
        args.extend(["--driver", s.as_str()]);
    }
    let r = intel(&json(t, &args))["driver"]["fits"]
        .as_str()
        .unwrap()
        .to_string();
    let doctor = json(t, &["doctor", "--format", "json"]);
    let check = doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "intel-driver")
        .unwrap()["status"]
        .as_str()
        .unwrap()
        .to_string();
    (
        d["fits"].as_str().unwrap().to_string(),
        d["why"].as_str().unwrap_or("").to_string(),
        nfd,
        r,
        check,
    )
}

#[test]
fn a_stock_kernel_does_not_fit_and_the_reason_names_the_parameter() {
    let (fits, why, nfd, req, doctor) = surfaces(&host(Some("BOOT_IMAGE=/vmlinuz quiet"), None));
    assert_eq!(
        (fits.as_str(), nfd.as_str(), req.as_str()),
        ("no", "no", "no")
    );
    assert!(
        why.contains("i915 binds 56c0 only with i915.force_probe=56c0"),
        "{why}"
    );
    assert_eq!(doctor, "problem");
}

#[test]
fn the_kernel_command_line_that_sets_it_fits() {
    let t = host(
        Some("BOOT_IMAGE=/vmlinuz i915.force_probe=56c0 quiet"),
        None,
    );
    let (fits, why, nfd, req, _) = surfaces(&t);
    assert_eq!(
        (fits.as_str(), nfd.as_str(), req.as_str()),
        ("yes", "yes", "yes"),
        "{why}"
    );
}

#[test]
fn the_loaded_module_s_parameter_wins_over_the_command_line() {
    // sysfs holds what the module runs with (a modprobe.d option included).
    let set = host(None, Some("56c0,4905"));
    assert_eq!(surfaces(&set).0, "yes");
    let blocked = host(Some("i915.force_probe=56c0"), Some("!56c0"));
    let (fits, why, ..) = surfaces(&blocked);
    assert_eq!(fits, "no", "{why}");
}

#[test]
fn a_gpu_bound_to_its_driver_has_what_the_driver_asks() {
    // i915 bound 56c0, so its force_probe covered it, wherever it was set.
    let t = host(None, None);
    t.link(
        "/sys/devices/pci0000:00/0000:03:00.0/driver",
        "../../../bus/pci/drivers/i915",
    );
    let d = intel(&json(&t, &["report"]))["driver"].clone();
    assert_eq!(d["fits"], "yes", "{d}");
    assert!(
        d["specs"]
            .as_array()
            .unwrap()
            .contains(&Value::from("i915.force_probe=56c0")),
        "{d}"
    );
}
