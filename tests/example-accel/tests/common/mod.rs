//! The Gaudi example's test host and how its tests run gpuctl, shared by its test files.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;

pub const NPU: &str = "0000:00:0b.0";
pub const GAUDI0: &str = "0000:33:00.0";
pub const GAUDI1: &str = "0000:9a:00.0";

/// Two Gaudis (accel1, accel2) and an Intel NPU (accel0) in the one `/dev/accel`.
pub fn mixed_host() -> Tree {
    let t = Tree::new();
    t.pci(NPU, 0x8086, 0x7d1d, 0x120000);
    t.pci(GAUDI0, 0x1da3, 0x1020, 0x120000);
    t.pci(GAUDI1, 0x1da3, 0x1020, 0x120000);
    t.class_node("accel", "accel0", NPU, "/dev/accel/accel0");
    t.class_node("accel", "accel1", GAUDI0, "/dev/accel/accel1");
    t.class_node("accel", "accel2", GAUDI1, "/dev/accel/accel2");
    t.file("/dev/accel/accel_controlD1", "")
        .file("/dev/accel/accel_controlD2", "");
    t
}

pub fn gpuctl(t: &Tree) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl-gaudi");
    cmd.env_clear().arg("--root").arg(t.root());
    cmd
}

/// The Gaudi entry of a JSON answer's `vendors` (detect's, report's).
pub fn gaudi_of(answer: &serde_json::Value) -> serde_json::Value {
    answer["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["vendor"] == "gaudi")
        .unwrap()
        .clone()
}

pub fn stdout(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}
