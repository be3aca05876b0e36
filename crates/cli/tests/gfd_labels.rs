//! docs/fleet.md's table of GPU Feature Discovery's labels beside gpuctl's: its GFD column is
//! exactly GFD's label list, and every gpuctl label it names is one `report --format nfd`
//! writes on a fixture host.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

/// The labels GFD writes, from NVIDIA/k8s-device-plugin at commit
/// 1b826acc6af3079d8923bac395c3124b8861a9a6 (2026-08-19): `internal/lm/resource.go`,
/// `nvml.go`, `machine-type.go`, `imex.go`, `vgpu.go`, `strategy.go`, `timestamp.go`, and the
/// MIG attribute labels of `docs/gpu-feature-discovery/README.md` ("Generated Labels").
const GFD_LABELS: [&str; 38] = [
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.count",
    "nvidia.com/gpu.replicas",
    "nvidia.com/gpu.sharing-strategy",
    "nvidia.com/gpu.memory",
    "nvidia.com/gpu.family",
    "nvidia.com/gpu.compute.major",
    "nvidia.com/gpu.compute.minor",
    "nvidia.com/cuda.driver.major",
    "nvidia.com/cuda.driver.minor",
    "nvidia.com/cuda.driver.rev",
    "nvidia.com/cuda.runtime.major",
    "nvidia.com/cuda.runtime.minor",
    "nvidia.com/cuda.driver-version.major",
    "nvidia.com/cuda.driver-version.minor",
    "nvidia.com/cuda.driver-version.revision",
    "nvidia.com/cuda.driver-version.full",
    "nvidia.com/cuda.runtime-version.major",
    "nvidia.com/cuda.runtime-version.minor",
    "nvidia.com/cuda.runtime-version.full",
    "nvidia.com/mig.capable",
    "nvidia.com/mps.capable",
    "nvidia.com/gpu.mode",
    "nvidia.com/gpu.machine",
    "nvidia.com/gpu.clique",
    "nvidia.com/vgpu.present",
    "nvidia.com/vgpu.host-driver-version",
    "nvidia.com/vgpu.host-driver-branch",
    "nvidia.com/mig.strategy",
    "nvidia.com/gfd.timestamp",
    "nvidia.com/gpu.multiprocessors",
    "nvidia.com/gpu.slices.gi",
    "nvidia.com/gpu.slices.ci",
    "nvidia.com/gpu.engines.copy",
    "nvidia.com/gpu.engines.decoder",
    "nvidia.com/gpu.engines.encoder",
    "nvidia.com/gpu.engines.jpeg",
    "nvidia.com/gpu.engines.ofa",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The table rows of docs/fleet.md's "Beside GPU Feature Discovery" section, as
/// (GFD names, gpuctl names): the backticked names of the first two columns.
fn table() -> Vec<(Vec<String>, Vec<String>)> {
    let text = fs::read_to_string(repo().join("docs/fleet.md")).unwrap();
    let (_, section) = text
        .split_once("\n## Beside GPU Feature Discovery\n")
        .expect("docs/fleet.md has the section");
    let section = section.split("\n## ").next().unwrap_or_default();
    let names = |cell: &str, prefix: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| n.starts_with(prefix))
            .map(str::to_string)
            .collect()
    };
    section
        .lines()
        .filter(|l| l.starts_with("| `nvidia.com/"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (
                names(cells[0], "nvidia.com/"),
                names(cells.get(1).copied().unwrap_or_default(), "gpuctl.io/"),
            )
        })
        .collect()
}

#[test]
fn the_gfd_column_is_gfds_own_label_list() {
    let rows = table();
    let documented: Vec<String> = rows.iter().flat_map(|(g, _)| g.clone()).collect();
    let unique: BTreeSet<&str> = documented.iter().map(String::as_str).collect();
    assert_eq!(unique.len(), documented.len(), "a GFD label twice");
    let gfd: BTreeSet<&str> = GFD_LABELS.into_iter().collect();
    assert_eq!(unique, gfd);
}

/// Every gpuctl label the table names is written on some fixture host; a `<name>` stands for
/// a product, and the labels of mixed hosts are held by the fleet crate's own tests.
#[test]
fn every_gpuctl_label_in_the_table_is_written() {
    let hosts = repo().join("tests/hosts");
    let mut written = BTreeSet::new();
    for e in fs::read_dir(&hosts).unwrap() {
        let path = e.unwrap().path();
        if !path.is_dir() {
            continue;
        }
        let out = cargo_bin_cmd!("gpuctl")
            .env("SOURCE_DATE_EPOCH", "1796108400")
            .arg("--root")
            .arg(&path)
            .args(["report", "--format", "nfd"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            if let Some((name, _)) = line.split_once('=').filter(|_| !line.starts_with('#')) {
                written.insert(name.to_string());
            }
        }
    }
    let named: Vec<String> = table()
        .into_iter()
        .flat_map(|(_, g)| g)
        .filter(|n| !n.contains('<'))
        .collect();
    assert!(named.len() >= 12, "{named:?}");
    for n in named {
        assert!(
            written.contains(&n),
            "{n} is in the table, but no host writes it"
        );
    }
}
