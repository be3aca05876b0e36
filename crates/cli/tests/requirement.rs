//! `gpuctl requirement` end to end: output, JSON shape, every exit code, site tables, host
//! enumeration from fixture roots and from trees built here, hostile input.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;
use rstest::rstest;
use serde_json::{Value, json};

#[path = "requirement/floors.rs"]
mod floors;
#[path = "requirement/host.rs"]
mod host;
#[path = "requirement/release_lists.rs"]
mod release_lists;
#[path = "requirement/vendor_lists.rs"]
mod vendor_lists;
#[path = "requirement/vendors.rs"]
mod vendors;

/// gpuctl with an empty environment (no GPUCTL_ROOT, no RUST_LOG), so nothing about the machine
/// running the tests leaks in. Every call gives device ids or a --root.
fn gpuctl(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().args(args);
    cmd
}

fn json_of(args: &[&str], code: i32) -> Value {
    let out = gpuctl(args).assert().code(code).get_output().stdout.clone();
    serde_json::from_slice(&out).expect("stdout is one JSON object")
}

const V100_B200: &str = "NVIDIA GPU (Blackwell, 10de:2901) needs the open kernel module, but \
                         NVIDIA GPU (Maxwell/Pascal/Volta, 10de:1db4) needs the proprietary one";

#[test]
fn v100_and_b200_conflict_in_text() {
    let want = format!(
        "NVIDIA GPU (Maxwell/Pascal/Volta, 10de:1db4): proprietary kernel module, driver branch 580 or older\n\
         \x20\x20first listed: proprietary kernel module 384.98 (2017-11-02, NVIDIA changelog: \"Tesla V100-PCIE-16GB\")\n\
         NVIDIA GPU (Blackwell, 10de:2901): open kernel module, driver branch 570 or newer\n\
         \x20\x20first listed: open kernel module 570.86.15 (2025-01-27, open-gpu-kernel-modules README)\n\
         combined: none — the GPUs conflict\n\
         conflict: {V100_B200}\n"
    );
    gpuctl(&["requirement", "1db4", "2901"])
        .assert()
        .code(1)
        .stdout(want)
        .stderr("");
}

#[test]
fn v100_and_b200_conflict_in_json_with_a_driver() {
    let v = json_of(
        &[
            "requirement",
            "--format",
            "json",
            "--driver",
            "open:580",
            "1db4",
            "2901",
        ],
        1,
    );
    let nvidia = &v["vendors"][0];
    assert_eq!(nvidia["vendor"], json!("nvidia"));
    assert_eq!(nvidia["combined"], Value::Null);
    assert_eq!(nvidia["conflicts"], json!([V100_B200]));
    assert_eq!(
        nvidia["driver"],
        json!({"spec": "open:580", "specs": ["open:580"], "satisfied": false,
               "fits": "no", "why_not": V100_B200})
    );
    assert_eq!(nvidia["gpus"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["host_conflicts"], json!([]));
}

#[test]
fn one_blackwell_in_json() {
    let v = json_of(&["requirement", "--format", "json", "2901"], 0);
    // Rex's facts keep their names beside the constraints every vendor's entry has
    // (docs/requirement.md#json).
    let r = json!({
        "vendor": "NVIDIA", "device_id": "2901", "name": null, "label": "Blackwell",
        "generation": "Blackwell", "kernel_module": "open", "min_branch": 570,
        "max_branch": null, "compute": true,
        "constraints": [
            {"component": "nvidia-kernel-module", "scope": "host", "kind": "choice",
             "allowed": [{"value": "open", "needs": [], "note": null}],
             "describe": "open kernel module"},
            {"component": "nvidia-driver-branch", "scope": "host", "kind": "range",
             "min": "570", "max": null, "describe": "driver branch 570 or newer"}
        ],
        "notes": [],
        "describe": "open kernel module, driver branch 570 or newer",
        "who": "NVIDIA GPU (Blackwell, 10de:2901)"
    });
    let mut gpu = r.clone();
    gpu["pci_address"] = Value::Null;
    gpu["counted"] = json!(true);
    gpu["floors"] = json!([
        "first listed: open kernel module 570.86.15 (2025-01-27, open-gpu-kernel-modules README)"
    ]);
    // Every vendor's GPU carries its own verdict; with no --driver, none.
    gpu["driver"] = Value::Null;
    assert_eq!(
        v,
        json!({"vendors": [{"vendor": "nvidia", "gpus": [gpu], "combined": r, "conflicts": [],
                            "driver": null,
                            "floor": {"open": "570.86.15", "open_at_the_latest": false,
                                      "proprietary": null, "proprietary_at_the_latest": false,
                                      "toolkit": null}}],
               "host_conflicts": [], "warnings": []})
    );
}

#[rstest]
#[case(&["open:580", "2901"], 0, "driver open:580: satisfies")]
#[case(&["open:580+", "2901", "3182"], 0, "driver open:580+: satisfies")]
#[case(&["open:565", "2901"], 1, "driver open:565: does not satisfy — branch 565 is older than 570")]
#[case(&["proprietary", "10DE:1DB4"], 1,
       "driver proprietary: unknown — driver branch not known, 580 or older is needed")]
#[case(&["proprietary:580+", "0x1db4"], 1,
       "driver proprietary:580+: unknown — installs the newest branch it carries, which can be newer than 580")]
#[case(&["580", "27b0"], 0, "driver 580: satisfies")]
#[case(&["580", "2901"], 1, "driver 580: unknown — unknown kernel module, the open one is needed")]
fn driver_verdicts(#[case] args: &[&str], #[case] code: i32, #[case] line: &str) {
    let mut full = vec!["requirement", "--driver"];
    full.extend_from_slice(args);
    gpuctl(&full)
        .assert()
        .code(code)
        .stdout(predicate::str::ends_with(format!("{line}\n")));
}

#[test]
fn a_kepler_gpu_named_by_its_id_always_counts() {
    // Only host-found Kepler GPUs are left out (requirement/host.rs); an id on the command line
    // is a GPU the user asks about, as the reference model counts it.
    gpuctl(&["requirement", "--driver", "open:580", "102d"])
        .assert()
        .code(1)
        .stderr("")
        .stdout(
            "NVIDIA GPU (Kepler or older, 10de:102d): proprietary kernel module, driver branch 470 or older\n\
             \x20\x20first listed: proprietary kernel module 346.96 (2015-09-01, NVIDIA changelog: \"Tesla K80\")\n\
             combined: proprietary kernel module, driver branch 470 or older\n\
             \x20\x20driver floor (the first releases listing every GPU): proprietary kernel module 346.96 or newer\n\
             driver open:580: does not satisfy — open kernel module, the proprietary one is needed\n",
        );
    gpuctl(&["requirement", "102d", "3182"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "combined: none — the GPUs conflict\n",
        ))
        .stdout(predicate::str::contains(
            "conflict: NVIDIA GPU (Blackwell Ultra, 10de:3182) needs the open kernel module, but \
             NVIDIA GPU (Kepler or older, 10de:102d) needs the proprietary one\n",
        ));
    let v = json_of(&["requirement", "--format", "json", "102d"], 0);
    assert_eq!(v["vendors"][0]["gpus"][0]["counted"], json!(true));
    assert_eq!(v["warnings"], json!([]));
}

#[rstest]
fn malformed_ids_are_invalid(
    #[values(
        "1db", "1db40", "zzzz", "2b85x", "", " 1db4", "0x", "10de:", "1db4\n", "é901"
    )]
    id: &str,
) {
    gpuctl(&["requirement", "2901", id])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("gpuctl: error: '"))
        .stderr(predicate::str::contains(
            "is not an NVIDIA PCI device id; give four hex digits",
        ));
}

#[rstest]
#[case("", "it is empty")]
#[case("open:", "a driver branch is an integer like 580, not ''")]
#[case("open:580.95.1.2", "'580.95.1.2' is not an NVIDIA driver release")]
#[case(
    "nouveau:580",
    "the kernel module must be open or proprietary, not 'nouveau'"
)]
#[case("either", "not either")]
fn bad_driver_specs_are_invalid(#[case] spec: &str, #[case] reason: &str) {
    gpuctl(&["requirement", "--driver", spec, "2901"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(format!(
            "gpuctl: error: --driver '{spec}' is not a driver spec: "
        )))
        .stderr(predicate::str::contains(reason))
        .stderr(predicate::str::ends_with(
            "580 (module unknown) or a full release such as open:570.124.06\n",
        ));
}

#[test]
fn bad_flags_are_invalid() {
    gpuctl(&["requirement", "--format", "yaml", "2901"])
        .assert()
        .code(2)
        .stdout("");
    gpuctl(&["requirement", "--bogus"])
        .assert()
        .code(2)
        .stdout("");
}

#[test]
fn too_many_ids_get_a_sentence() {
    let mut args = vec!["requirement"];
    args.extend(std::iter::repeat_n("2901", 100_000));
    gpuctl(&args).assert().code(2).stdout("").stderr(
        "gpuctl: error: more than 65536 device ids were given, one per possible PCI device id; \
         pass one id per GPU\n",
    );
}

const SITE_YAML: &str = "\
- generation: Hopper (site policy)
  first: 0x2330
  last: 0x2330
  kernel_module: open
  min_branch: 575
";

fn site_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

#[rstest]
#[case("site.yaml", SITE_YAML)]
#[case(
    "site.json",
    r#"[{"generation": "Hopper (site policy)", "first": "2330", "last": "2330",
                         "kernel_module": "open", "min_branch": 575}]"#
)]
fn site_table_rows_come_first(#[case] name: &str, #[case] text: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let table = site_file(dir.path(), name, text);
    gpuctl(&["requirement", "--table", &table, "--driver", "open:570", "2330", "1db4"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "NVIDIA GPU (Hopper (site policy), 10de:2330): open kernel module, driver branch 575 or newer\n\
             \x20\x20first listed: open kernel module 525.85.05 (2023-01-19, open-gpu-kernel-modules README)\n\
             NVIDIA GPU (Maxwell/Pascal/Volta, 10de:1db4): proprietary kernel module, driver branch 580 or older\n",
        ));
    // Without the table the same GPU takes any driver.
    gpuctl(&["requirement", "--driver", "open:570", "2330"])
        .assert()
        .code(0);
}

#[rstest]
#[case(
    "first.yaml",
    "- {first: 2331, last: 2330}",
    "row 1: first 2331 is above last 2330; fix or remove that row"
)]
#[case(
    "module.yaml",
    "- {first: 2330, last: 2330}\n- {first: 2330, last: 2330, kernel_module: nouveau}",
    "row 2: kernel_module must be open, proprietary or either, not 'nouveau'; fix or remove that row"
)]
#[case(
    "minmax.yaml",
    "- {first: 2330, last: 2330, min_branch: 590, max_branch: 580}",
    "row 1: min_branch 590 is above max_branch 580: no driver branch can satisfy that; fix or remove that row"
)]
#[case(
    "hex.json",
    r#"[{"first": "23g0", "last": "2330"}]"#,
    "row 1: first '23g0' is not a PCI device id; write four hex digits, e.g. 2330, 0x2330 or 10de:2330; fix or remove that row"
)]
#[case("syntax.json", "[{", "is not a list of generation rows: ")]
#[case(
    "site.toml",
    "",
    "is neither .json nor .yaml/.yml, so its format is not known; name it .json, .yaml or .yml"
)]
fn bad_site_tables_are_invalid(#[case] name: &str, #[case] text: &str, #[case] tail: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let table = site_file(dir.path(), name, text);
    gpuctl(&["requirement", "--table", &table, "2901"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(format!(
            "gpuctl: error: site table {table}"
        )))
        .stderr(predicate::str::contains(tail));
}

#[test]
fn a_missing_site_table_is_invalid() {
    gpuctl(&["requirement", "--table", "/nonexistent/site.yaml", "2901"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "gpuctl: error: site table /nonexistent/site.yaml cannot be read (",
        ))
        .stderr(predicate::str::ends_with(
            "); pass --table a readable file\n",
        ));
}

#[test]
fn huge_site_tables_are_refused_unread() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 100 MB, sparse: refused on its size before a byte is read.
    let big = dir.path().join("big.yaml");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(100 << 20))
        .expect("sparse file");
    let want = format!(
        "gpuctl: error: site table {} is larger than 1048576 bytes, more than a site table can \
         need; a site table holds at most 10000 rows in at most 1048576 bytes\n",
        big.display()
    );
    gpuctl(&["requirement", "--table", &big.to_string_lossy(), "2901"])
        .assert()
        .code(2)
        .stderr(want);
    // A million real rows.
    let rows = "{\"first\":\"0000\",\"last\":\"0000\"},".repeat(1_000_000);
    let million = site_file(
        dir.path(),
        "million.json",
        &format!("[{}]", rows.trim_end_matches(',')),
    );
    gpuctl(&["requirement", "--table", &million, "2901"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is larger than 1048576 bytes"));
}
