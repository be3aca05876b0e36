//! THE verdict (issue 24, item 5 and finding 8): on every bundled host and on trees built here
//! from (ids, loaded driver release, CUDA) cases, `requirement --driver`, doctor's driver
//! check, `report`'s `driver.fits`, the NFD label and `fleet` (its groups and `--cuda`) say
//! the same thing: fits, does not fit, or unknown. The facts in the table are the sources'
//! own: 10de:2941 is first listed by the open module's README at 570.124.04 (2025-02-27), CUDA
//! 12.8 Update 1 needs 570.124.06 (CUDA release notes, Table 3), a K40 needs the proprietary
//! module of branch 470 or older (NVIDIA's legacy list), a Blackwell B200 the open module.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

const ADDR: &str = "0000:01:00.0";

fn open_banner(release: &str) -> String {
    format!(
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {release}  Release Build  (dvs-builder@U22-I3-AE18-23-3)  Thu Sep 18 20:38:17 UTC 2025\n"
    )
}

fn proprietary_banner(release: &str) -> String {
    format!(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  {release}  Thu Sep 18 20:38:17 UTC 2025\n"
    )
}

/// A host with one GPU `vendor:device` bound to `driver`.
fn gpu_host(name: &str, vendor: u16, device: u16, driver: &str) -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", &format!("{name}\n"))
        .file("/proc/sys/kernel/osrelease", "6.8.0-60-generic\n")
        .pci(ADDR, vendor, device, 0x03_02_00)
        .link(
            &format!("/sys/devices/pci0000:00/{ADDR}/driver"),
            &format!("../../../bus/pci/drivers/{driver}"),
        )
        .dir(&format!("/sys/bus/pci/drivers/{driver}"));
    t
}

fn nvidia_host(name: &str, device: u16, banner: &str) -> Tree {
    let t = gpu_host(name, 0x10de, device, "nvidia");
    t.file("/proc/driver/nvidia/version", banner).nvidia_dev();
    t
}

fn gpuctl(root: Option<&Path>, args: &[&str]) -> (i32, String) {
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().env("PATH", empty.path());
    if let Some(r) = root {
        cmd.arg("--root").arg(r);
    }
    let out = cmd
        .args(["-q", "--podman-version", "5.4.0"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn json(root: Option<&Path>, args: &[&str]) -> Value {
    let (_, out) = gpuctl(root, args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// `requirement --format json`'s `driver.fits` for `vendor`.
fn requirement_fits(root: Option<&Path>, args: &[&str], vendor: &str) -> String {
    let mut all = vec!["requirement", "--format", "json"];
    all.extend_from_slice(args);
    let v = json(root, &all);
    let entry = v["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["vendor"] == vendor)
        .unwrap_or_else(|| panic!("{args:?}: no {vendor}: {v}"));
    let d = &entry["driver"];
    // `satisfied` and `fits` are one verdict.
    assert_eq!(d["satisfied"], Value::Bool(d["fits"] == "yes"), "{d}");
    d["fits"].as_str().unwrap().to_string()
}

/// Doctor's word for its driver check: ok is "yes", a problem "no", a warning "unknown".
fn doctor_word(root: &Path, code: &str) -> Option<String> {
    let v = json(Some(root), &["doctor", "--format", "json"]);
    let c = v["checks"].as_array()?.iter().find(|c| c["code"] == code)?;
    Some(
        match c["status"].as_str()? {
            "ok" => "yes",
            "problem" => "no",
            "warning" => "unknown",
            _ => return None,
        }
        .to_string(),
    )
}

fn nfd_fits(root: &Path, vendor: &str) -> Option<String> {
    let (_, out) = gpuctl(Some(root), &["report", "--format", "nfd"]);
    let key = format!("gpuctl.io/{vendor}.driver.fits=");
    out.lines()
        .find_map(|l| l.strip_prefix(&key))
        .map(str::to_string)
}

/// The vendors with GPUs in a report: (vendor, fits, why, state, specs).
fn report_vendors(r: &Value) -> Vec<(String, String, String, String, Vec<String>)> {
    r["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| !v["requirement"]["gpus"].as_array().unwrap().is_empty())
        .map(|v| {
            let d = &v["driver"];
            let specs = d["specs"]
                .as_array()
                .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            (
                v["vendor"].as_str().unwrap().to_string(),
                d["fits"].as_str().unwrap().to_string(),
                d["why"].as_str().unwrap_or("").to_string(),
                d["state"].as_str().unwrap().to_string(),
                specs,
            )
        })
        .collect()
}

/// Every surface's verdict on the host at `root`, checked to agree; the report's per vendor.
fn surfaces_agree(root: &Path) -> Vec<(String, String, String)> {
    let r = json(Some(root), &["report"]);
    let vendors = report_vendors(&r);
    let kernel = r["host"]["kernel"].as_str().and_then(|k| {
        let mut p = k.split(['.', '-']);
        Some(format!("{}.{}", p.next()?, p.next()?))
    });
    let mut specs: Vec<String> = vendors
        .iter()
        .filter(|v| v.3 != "not-loaded")
        .flat_map(|v| v.4.clone())
        .collect();
    if vendors.iter().any(|v| v.0 == "amd" || v.0 == "intel")
        && let Some(k) = kernel
    {
        specs.push(format!("kernel:{k}"));
    }
    let mut out = Vec::new();
    for (vendor, fits, why, state, own) in &vendors {
        let name = root.display();
        assert!(["yes", "no", "unknown"].contains(&fits.as_str()), "{name}");
        assert_eq!(
            nfd_fits(root, vendor).as_deref(),
            Some(fits.as_str()),
            "{name}"
        );
        if state != "not-loaded" && (vendor != "nvidia" || !own.is_empty()) {
            let mut args: Vec<&str> = Vec::new();
            for s in &specs {
                args.extend(["--driver", s.as_str()]);
            }
            assert_eq!(
                &requirement_fits(Some(root), &args, vendor),
                fits,
                "{name}: requirement {args:?} against report ({why})"
            );
        }
        if vendor == "nvidia" {
            assert_eq!(
                doctor_word(root, "nvidia-driver").as_deref(),
                Some(fits.as_str()),
                "{name}: doctor against report ({why})"
            );
        }
        if vendor != "nvidia" && fits == "no" && state != "not-loaded" {
            assert_eq!(
                doctor_word(root, &format!("{vendor}-driver")).as_deref(),
                Some("no"),
                "{name}: doctor against report ({why})"
            );
        }
        out.push((vendor.clone(), fits.clone(), why.clone()));
    }
    out
}

/// `fleet` over the one host's report: its exit code and text.
fn fleet_of(root: &Path, args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("host.json");
    let (code, _) = gpuctl(Some(root), &["report", "--output", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    let mut all = vec!["fleet"];
    all.extend_from_slice(args);
    all.push(file.to_str().unwrap());
    gpuctl(None, &all)
}

fn bundled() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts");
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn every_bundled_host_gets_one_verdict_from_every_surface() {
    for root in bundled() {
        let verdicts = surfaces_agree(&root);
        // Unknown is never planned as a fit: fleet does not say one stack fits such a host.
        if verdicts.iter().any(|(_, f, _)| f == "unknown") {
            let (_, text) = fleet_of(&root, &[]);
            assert!(!text.contains("unknown device") || !text.contains("one stack fits"));
        }
    }
}

/// (host, device, banner, the verdict every surface gives, a word the reason has).
fn nvidia_cases() -> Vec<(&'static str, u16, String, &'static str, &'static str)> {
    vec![
        // Finding 8.1: GB200 on open 570.86.15; the open README first lists 2941 in 570.124.04.
        (
            "node-gb200",
            0x2941,
            open_banner("570.86.15"),
            "no",
            "570.124.04",
        ),
        // Finding 8.4: a K40 on the open 580 module.
        (
            "node-k40",
            0x1024,
            open_banner("580.95.05"),
            "no",
            "proprietary one is needed",
        ),
        // A B200 on the proprietary module: unusable.
        (
            "node-b200-prop",
            0x2901,
            proprietary_banner("580.95.05"),
            "no",
            "open one is needed",
        ),
        ("node-b200", 0x2901, open_banner("580.95.05"), "yes", ""),
        ("node-h100", 0x2330, open_banner("570.86.15"), "yes", ""),
    ]
}

#[test]
fn nvidia_cases_agree_and_compare_releases() {
    for (name, device, banner, want, because) in nvidia_cases() {
        let t = nvidia_host(name, device, &banner);
        let got = surfaces_agree(t.root());
        assert_eq!(got.len(), 1, "{name}: {got:?}");
        assert_eq!(got[0].1, want, "{name}: {got:?}");
        assert!(got[0].2.contains(because), "{name}: {got:?}");
    }
    // The GB200's answer as `requirement` prints it by id: does not satisfy, naming the first
    // listing.
    let (code, text) = gpuctl(None, &["requirement", "2941", "--driver", "open:570.86.15"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("driver open:570.86.15: does not satisfy — NVIDIA GPU (Blackwell, 10de:2941): open module: open module 570.86.15's README does not list it; the open module's README first lists 10de:2941 in 570.124.04"),
        "{text}"
    );
}

#[test]
fn fleet_cuda_asks_the_same_verdict_as_requirement_cuda() {
    // Finding 8.3: CUDA 12.8.1 needs 570.124.06; a 570.86.15 host cannot run it.
    for (cuda, device, release) in [
        ("12.8.1", 0x2330, "570.86.15"),
        ("12.8", 0x2330, "570.124.06"),
        ("12.4", 0x2330, "570.86.15"),
        ("13.0", 0x2901, "580.95.05"),
    ] {
        let t = nvidia_host("node-x", device, &open_banner(release));
        let id = format!("10de:{device:04x}");
        let spec = format!("open:{release}");
        let want = requirement_fits(None, &["--cuda", cuda, "--driver", &spec, &id], "nvidia");
        let (_, text) = fleet_of(t.root(), &["--cuda", cuda, "--format", "json"]);
        let v: Value = serde_json::from_str(&text).unwrap();
        let list = match want.as_str() {
            "yes" => "can",
            "no" => "cannot",
            _ => "unknown",
        };
        assert_eq!(
            v["cuda"][list],
            serde_json::json!(["node-x"]),
            "{cuda} {release}: {v}"
        );
    }
    let t = nvidia_host("node-x", 0x2330, &open_banner("570.86.15"));
    let (_, text) = fleet_of(t.root(), &["--cuda", "12.8.1"]);
    assert!(
        text.contains("  can run it: none\n  cannot:\n    node-x: CUDA 12.8.1 needs driver 570.124.06 or newer (CUDA release notes, Table 3); 570.86.15 is older\n"),
        "{text}"
    );
}

#[test]
fn fleet_cuda_says_why_each_host_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let b200_prop = nvidia_host("node-b200-prop", 0x2901, &proprietary_banner("580.95.05"));
    let cpu = Tree::new();
    cpu.file("/proc/sys/kernel/hostname", "node-cpu\n")
        .file("/proc/sys/kernel/osrelease", "6.8.0-60-generic\n");
    let stale = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts/cdi-override");
    for (root, file) in [
        (b200_prop.root(), "a.json"),
        (cpu.root(), "b.json"),
        (stale.as_path(), "c.json"),
    ] {
        let out = dir.path().join(file);
        let (code, _) = gpuctl(Some(root), &["report", "--output", out.to_str().unwrap()]);
        assert_eq!(code, 0);
    }
    let (_, text) = gpuctl(
        None,
        &["fleet", "--cuda", "12.4", dir.path().to_str().unwrap()],
    );
    assert!(text.contains("  can run it: none\n"), "{text}");
    assert!(
        text.contains("    node-b200-prop: proprietary kernel module, the open one is needed\n"),
        "{text}"
    );
    assert!(text.contains("    node-cpu: no NVIDIA GPU\n"), "{text}");
    assert!(
        text.contains("    cdi-override: its NVIDIA GPUs are unusable: a CDI spec was written for another driver: /etc/cdi/nvidia.yaml"),
        "{text}"
    );
}

#[test]
fn unlisted_amd_intel_and_plugin_style_ids_are_unknown_everywhere() {
    // Ids no source lists: 1002:ffff (amdgpu's list has no ffff) and 8086:fff0.
    let amd = gpu_host("node-amd", 0x1002, 0xffff, "amdgpu");
    amd.dir("/sys/module/amdgpu")
        .render_node("renderD128", "0x1002", ADDR)
        .by_path(ADDR, "renderD128")
        .dev(&["kfd"]);
    let intel = gpu_host("node-intel", 0x8086, 0xfff0, "i915");
    intel
        .render_node("renderD128", "0x8086", ADDR)
        .by_path(ADDR, "renderD128");
    for (t, vendor) in [(&amd, "amd"), (&intel, "intel")] {
        let got = surfaces_agree(t.root());
        let mine = got.iter().find(|g| g.0 == vendor).unwrap();
        assert_eq!(mine.1, "unknown", "{vendor}: {got:?}");
        assert!(mine.2.contains("no source lists it"), "{got:?}");
        // Doctor's driver check says it too: a warning, never ok.
        assert_eq!(
            doctor_word(t.root(), &format!("{vendor}-driver")).as_deref(),
            Some("unknown"),
            "{vendor}"
        );
        let (_, nfd) = gpuctl(Some(t.root()), &["report", "--format", "nfd"]);
        assert!(
            nfd.contains(&format!("gpuctl.io/{vendor}.requirement=unknown\n")),
            "{nfd}"
        );
        // fleet puts it under no known stack and does not exit 0.
        let (code, text) = fleet_of(t.root(), &[]);
        assert_eq!(code, 1, "{text}");
        assert!(
            !text.contains(&format!("{vendor} (1 host(s)): one stack fits")),
            "{text}"
        );
        assert!(
            text.contains("unknown (no source lists its GPUs): node-"),
            "{text}"
        );
    }
    // Asked by id, requirement says unknown too, never "satisfies".
    let (code, text) = gpuctl(
        None,
        &["requirement", "1002:ffff", "--driver", "kernel:6.8"],
    );
    assert_eq!(code, 1);
    assert!(
        text.contains(
            "driver kernel:6.8: unknown — AMD GPU (1002:ffff): unknown device: no source lists it"
        ),
        "{text}"
    );
}

/// A stand-in engine: `image inspect` prints `$IMAGE_ENV`, `run` prints `started`.
const ENGINE: &str = "#!/bin/sh\nif [ \"$1\" = image ]; then printf '%s\\n' \"$IMAGE_ENV\"; exit 0; fi\necho started\n";

#[test]
fn an_image_that_disables_its_requirements_counts_no_cuda_line() {
    // Issue 24, item 9: NVIDIA_DISABLE_REQUIRE turns the toolkit's check off, so the image's
    // CUDA 12.8 (570.26 in Table 3) does not refuse branch 565; the same image without it does.
    let dir = tempfile::tempdir().unwrap();
    let off = dir.path().join("off.env");
    let on = dir.path().join("on.env");
    fs::write(&off, "NVIDIA_DISABLE_REQUIRE=1\nCUDA_VERSION=12.8.0\n").unwrap();
    fs::write(&on, "CUDA_VERSION=12.8.0\n").unwrap();
    let ask = |file: &Path| {
        requirement_fits(
            None,
            &[
                "--driver",
                "proprietary:565",
                "--image-env",
                file.to_str().unwrap(),
                "1db4",
            ],
            "nvidia",
        )
    };
    assert_eq!(ask(&off), "yes");
    assert_eq!(ask(&on), "no");
}

#[test]
fn run_s_pre_start_check_asks_the_same_verdict() {
    use std::os::unix::fs::PermissionsExt;
    let engine = tempfile::tempdir().unwrap();
    let podman = engine.path().join("podman");
    fs::write(&podman, ENGINE).unwrap();
    fs::set_permissions(&podman, fs::Permissions::from_mode(0o755)).unwrap();
    let image_env = "CUDA_VERSION=12.4.1";
    let env_file = engine.path().join("image.env");
    fs::write(&env_file, format!("{image_env}\n")).unwrap();
    for (device, want) in [(0x2941u16, "no"), (0x2330, "yes")] {
        let t = nvidia_host("node-run", device, &open_banner("570.86.15"));
        t.file(
            "/etc/cdi/nvidia.yaml",
            &gpuctl_testkit::cdi_yaml("nvidia.com/gpu", &["0", "all"]),
        );
        let id = format!("10de:{device:04x}");
        let fits = requirement_fits(
            None,
            &[
                "--driver",
                "open:570.86.15",
                "--image-env",
                env_file.to_str().unwrap(),
                &id,
            ],
            "nvidia",
        );
        assert_eq!(fits, want, "{id}");
        let out = cargo_bin_cmd!("gpuctl")
            .env("PATH", format!("{}:/usr/bin:/bin", engine.path().display()))
            // podman prints `{{json .Config.Env}}`: a JSON list of strings.
            .env("IMAGE_ENV", format!("[\"{image_env}\"]"))
            .env_remove("GPUCTL_PODMAN_VERSION")
            .arg("--root")
            .arg(t.root())
            .args(["run", "--gpus", "nvidia", "img"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if want == "yes" {
            assert!(stdout.contains("started"), "{id}: {stdout} {stderr}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{id}: {stderr}");
            assert!(!stdout.contains("started"), "{id}: {stdout}");
            assert!(stderr.contains("570.124.04"), "{id}: {stderr}");
        }
    }
}
