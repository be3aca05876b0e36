//! The links between `gpuctl explain`'s failure families and `gpuctl doctor`'s checks, over
//! every registered vendor: a family may name only a check doctor runs, and what doctor runs is
//! what each vendor declares (issue 15, "typed links").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::{CheckCode, FamilyCode, UNRECOGNISED};
use gpuctl_core::{
    commands::{doctor, families},
    plugin::Registry,
};

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

fn hosts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn every_family_names_only_checks_doctor_runs() {
    let registry = Registry::discovered();
    assert_eq!(registry.names(), ["nvidia", "amd", "intel"]);
    let runs: BTreeSet<CheckCode> = doctor::check_codes(registry).into_iter().collect();
    let mut wrong = Vec::new();
    for f in families::catalogue(registry) {
        for c in f.checks {
            if !runs.contains(c) {
                wrong.push(format!("{} names {c}", f.code));
            }
        }
    }
    assert!(wrong.is_empty(), "checks doctor does not run: {wrong:?}");
}

#[test]
fn no_two_vendors_declare_one_check_code() {
    let registry = Registry::discovered();
    let all = doctor::check_codes(registry);
    let unique: BTreeSet<&CheckCode> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "{all:?}");
}

/// The declarations are only worth the test above when they are complete: every check doctor
/// reports on every bundled host is declared by core or by a vendor.
#[test]
fn every_check_doctor_reports_on_the_bundled_hosts_is_declared() {
    let registry = Registry::discovered();
    let declared: BTreeSet<CheckCode> = doctor::check_codes(registry).into_iter().collect();
    let mut seen = BTreeSet::new();
    for root in hosts() {
        let host = gpuctl_core::plugin::Host::at(&root).unwrap();
        let dirs = [PathBuf::from("/etc/cdi"), PathBuf::from("/var/run/cdi")];
        let probe = Probe::new(&host, &dirs, None);
        for c in doctor::file_only(registry, &probe, Some("4.9.3")).checks {
            assert!(
                declared.contains(&c.code),
                "{}: doctor reported {}, which no one declares",
                root.display(),
                c.code
            );
            seen.insert(c.code);
        }
        // A family may also be answered by a vendor's check of its own text
        // (`Diagnostics::explain_checks`): those codes are exercised on the family's signs.
        for f in families::catalogue(registry) {
            let text = f.signs.first().map(|s| s.join(" ")).unwrap_or_default();
            for b in registry.backends() {
                seen.extend(
                    b.diagnostics()
                        .explain_checks(f.code, &text, &probe)
                        .iter()
                        .map(|c| c.code),
                );
            }
        }
    }
    // Every check a family names is exercised by some bundled host, so a declared code that
    // doctor stopped reporting under that name shows here.
    let named: BTreeSet<CheckCode> = families::catalogue(registry)
        .iter()
        .flat_map(|f| f.checks.iter().copied())
        .collect();
    let unexercised: Vec<&CheckCode> = named.difference(&seen).collect();
    assert!(unexercised.is_empty(), "{unexercised:?}");
}

/// The two links that were broken before the codes were typed (issue 15): explain named
/// "nodes" for a missing /dev/kfd and "podman-version" for a CDI name taken as a path; doctor
/// has neither. Each now names checks doctor runs, as the user reads them.
#[test]
fn explain_names_checks_doctor_has() {
    let registry = Registry::discovered();
    let runs: BTreeSet<&str> = doctor::check_codes(registry)
        .iter()
        .map(|c| c.as_str())
        .collect();
    for (text, family) in [
        (
            "Error: stat /dev/kfd: no such file or directory",
            "amd-kfd-missing",
        ),
        (
            "Error: stat nvidia.com/gpu=all: no such file or directory",
            "cdi-name-as-path",
        ),
    ] {
        let out = cargo_bin_cmd!("gpuctl")
            .arg("--root")
            .arg(hosts().into_iter().find(|h| h.ends_with("empty")).unwrap())
            .arg("explain")
            .write_stdin(text)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.contains(&format!("Diagnosis ({family})")),
            "{stdout}"
        );
        let line = stdout
            .lines()
            .find(|l| l.starts_with("On this host ('gpuctl doctor' checks without asking podman: "))
            .unwrap_or_else(|| panic!("{stdout}"));
        let named = line
            .split_once("podman: ")
            .and_then(|(_, rest)| rest.strip_suffix("):"))
            .unwrap();
        assert!(!named.is_empty(), "{stdout}");
        for code in named.split(", ") {
            assert!(runs.contains(code), "{family} names {code}: {stdout}");
        }
    }
}

/// A family code names one family across core and every vendor: explain prints it, and a
/// vendor's details are chosen by it.
#[test]
fn family_codes_are_unique_across_vendors() {
    let registry = Registry::discovered();
    let cat = families::catalogue(registry);
    let codes: BTreeSet<FamilyCode> = cat.iter().map(|f| f.code).collect();
    assert_eq!(codes.len(), cat.len());
    assert!(!codes.contains(&UNRECOGNISED));
}
