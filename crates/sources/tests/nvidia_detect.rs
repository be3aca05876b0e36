//! Agreement with Debian's `nvidia-detect` (tests/data/nvidia-detect/README.md): the same
//! package for every PCI id it knows, and a sentence for each place gpuctl differs on purpose.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture or script should stop the test loudly"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::VendorRequest;
use gpuctl_core::plugin::requirement_answer::Request;
use gpuctl_sources::{Catalogue, choose};
// The vendors register themselves when linked.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

const TABLE: &str = include_str!("data/nvidia-detect/agreement.tsv");

/// The releases: `--distro` name, codename, what `/etc/debian_version` holds there.
const RELEASES: [(&str, &str, &str); 4] = [
    ("11", "bullseye", "11.11"),
    ("12", "bookworm", "12.12"),
    ("13", "trixie", "13.2"),
    ("sid", "sid", "forky/sid"),
];

struct Row {
    release: String,
    id: String,
    detect: String,
    ours: String,
    why: String,
}

fn rows() -> Vec<Row> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            Row {
                release: f[0].into(),
                id: f[1].into(),
                detect: f[2].into(),
                ours: f[3].into(),
                why: f[4].into(),
            }
        })
        .collect()
}

/// gpuctl's first fitting NVIDIA package for `ids` (none: the host at `root`), `-` for none.
fn ours(release: &str, ids: &[String], host: &Host) -> String {
    let c = Catalogue::builtin().expect("loads");
    let r = c.resolve(&format!("debian:{release}")).expect("known");
    let request = Request {
        ids,
        specs: &[],
        vendor: VendorRequest::default(),
    };
    let (_, d) = choose(host, Registry::discovered(), request, &c, &r).expect("answers");
    let v = d
        .vendors
        .iter()
        .find(|v| v.vendor == "nvidia")
        .expect("NVIDIA GPUs");
    v.chosen.clone().unwrap_or_else(|| "-".into())
}

#[test]
fn the_table_is_gpuctl_s_answer_and_every_difference_is_explained() {
    let rows = rows();
    assert_eq!(rows.len(), 14 * RELEASES.len());
    for row in &rows {
        let got = ours(&row.release, std::slice::from_ref(&row.id), &Host::system());
        assert_eq!(got, row.ours, "debian:{} {}", row.release, row.id);
        assert_eq!(
            row.detect == row.ours,
            row.why.is_empty(),
            "debian:{} {}: a difference needs its sentence, an agreement none",
            row.release,
            row.id
        );
    }
    // Only unstable differs: Debian 11, 12 and 13 agree on every id.
    assert!(
        rows.iter()
            .filter(|r| !r.why.is_empty())
            .all(|r| r.release == "sid")
    );
}

/// The unpacked packages, when CI fetched them; `None` (and a line saying so) otherwise.
fn unpacked() -> Option<PathBuf> {
    match std::env::var_os("GPUCTL_NVIDIA_DETECT") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => {
            eprintln!(
                "skipped: GPUCTL_NVIDIA_DETECT is not set (.ci/nvidia-detect fetches the script); the checked-in table was compared instead"
            );
            None
        }
    }
}

/// A copy of `codename`'s script whose two absolute paths point into `tmp`.
fn script(pkg: &Path, codename: &str, version: &str, tmp: &Path) -> PathBuf {
    let root = pkg.join(codename);
    let text = std::fs::read_to_string(root.join("usr/bin/nvidia-detect")).expect("the script");
    let dir = tmp.join(codename);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let version_file = dir.join("debian_version");
    std::fs::write(&version_file, format!("{version}\n")).expect("write");
    let lists = root.join("usr/share/nvidia");
    assert!(
        text.contains("IDLISTDIR=/usr/share/nvidia\n"),
        "the script's id list path moved"
    );
    let text = text
        .replace(
            "IDLISTDIR=/usr/share/nvidia\n",
            &format!("IDLISTDIR={}\n", lists.display()),
        )
        .replace("/etc/debian_version", &version_file.display().to_string());
    let path = dir.join("nvidia-detect");
    std::fs::write(&path, text).expect("write");
    path
}

/// Every package the script recommends, in order.
fn recommended(out: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(out);
    let mut lines = text.lines();
    let mut found = Vec::new();
    while let Some(l) = lines.next() {
        if l == "It is recommended to install the"
            && let Some(p) = lines.next()
        {
            found.push(p.trim().to_string());
        }
    }
    found
}

#[test]
fn nvidia_detect_recommends_what_the_table_says() {
    let Some(pkg) = unpacked() else { return };
    let tmp = tempfile::tempdir().expect("temp dir");
    for (release, codename, version) in RELEASES {
        let nd = script(&pkg, codename, version, tmp.path());
        for row in rows().iter().filter(|r| r.release == release) {
            let out = Command::new("bash")
                .arg(&nd)
                .arg(&row.id)
                .output()
                .expect("bash runs");
            let got = recommended(&out.stdout).pop().unwrap_or_else(|| "-".into());
            assert_eq!(got, row.detect, "nvidia-detect {} on {codename}", row.id);
        }
        // The lists kept here are the ones the package ships (unstable's are trixie's).
        let kept = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/nvidia-detect")
            .join(if codename == "sid" {
                "trixie"
            } else {
                codename
            });
        for entry in std::fs::read_dir(pkg.join(codename).join("usr/share/nvidia")).expect("lists")
        {
            let path = entry.expect("entry").path();
            let name = path.file_name().expect("a name");
            assert_eq!(
                std::fs::read(&path).expect("read"),
                std::fs::read(kept.join(name)).unwrap_or_default(),
                "{codename}: {} differs from the kept list; refresh tests/data/nvidia-detect",
                name.to_string_lossy()
            );
        }
    }
}

/// A stand-in `lspci` printing the fixture host's PCI devices as `lspci -mn`, `-nn -s SLOT`
/// and `-s SLOT` do (only what nvidia-detect reads: slot, class, vendor and device).
const LSPCI: &str = r#"#!/bin/bash
[ "$1" = --version ] && { echo "lspci version 3.9.0"; exit 0; }
mode=$1; slot=
[ "$2" = -s ] && slot=$3
[ "$1" = -s ] && { mode=-s; slot=$2; }
for d in "$FIXTURE"/sys/bus/pci/devices/*; do
  s=${d##*/}; s=${s#0000:}
  [ -n "$slot" ] && [ "$slot" != "$s" ] && continue
  c=$(cat "$d/class"); v=$(cat "$d/vendor"); i=$(cat "$d/device")
  c=${c#0x}; c=${c:0:4}; v=${v#0x}; i=${i#0x}
  case $mode in
    -mn) echo "$s \"$c\" \"$v\" \"$i\"" ;;
    *) echo "$s Class [$c]: Device [$v:$i]" ;;
  esac
done
"#;

#[test]
fn nvidia_detect_reads_the_fixture_hosts_as_gpuctl_does() {
    let Some(pkg) = unpacked() else { return };
    let tmp = tempfile::tempdir().expect("temp dir");
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::write(bin.join("lspci"), LSPCI).expect("write");
    Command::new("chmod")
        .arg("755")
        .arg(bin.join("lspci"))
        .status()
        .expect("chmod");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let hosts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts");
    for host in [
        "workstation",
        "dgx-b200",
        "nvidia-hook-only",
        "nvidia-raw-only",
        "cdi-override",
        "cdi-broken",
    ] {
        let root = hosts.join(host);
        for (release, codename, version) in RELEASES {
            let nd = script(&pkg, codename, version, tmp.path());
            let out = Command::new("bash")
                .arg(&nd)
                .env("PATH", &path)
                .env("FIXTURE", &root)
                .output()
                .expect("bash runs");
            // It saw the fixture's GPUs through the stand-in lspci, not an empty bus.
            assert!(
                String::from_utf8_lossy(&out.stdout).starts_with("Detected NVIDIA GPUs:\n"),
                "{host}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            let mut theirs = recommended(&out.stdout);
            theirs.dedup();
            let theirs = theirs.pop().unwrap_or_else(|| "-".into());
            let mine = ours(release, &[], &Host::at(&root).expect("fixture root"));
            let why = rows()
                .into_iter()
                .find(|r| r.release == release && r.detect == theirs && r.ours == mine)
                .map(|r| r.why);
            assert!(
                theirs == mine || why.is_some_and(|w| !w.is_empty()),
                "{host} on {codename}: nvidia-detect {theirs}, gpuctl {mine}"
            );
        }
    }
}
