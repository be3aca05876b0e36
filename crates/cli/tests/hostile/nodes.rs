//! Issue 25's round four on device nodes and doctor's advice (items 15 and 16):
//! `/dev/nvidia-uvm` as a link to another device is not NVIDIA's node, and the `render-groups`
//! fix never tells a user to join group 0, saying once for all nodes with one cause what is
//! wrong.

use gpuctl_testkit::Tree;
use serde_json::Value;

use crate::TIME_LIMIT;

/// doctor's JSON for `selection` on `t`, podman's version given (no podman is run; exit 1
/// is a problem found, not an error, so the harness's error check does not apply).
fn doctor(t: &Tree, selection: &str) -> (i32, Value) {
    let out = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("gpuctl"))
        .env_clear()
        .arg("--root")
        .arg(t.root())
        .args([
            "--podman-version",
            "5.4.0",
            "doctor",
            "--format",
            "json",
            selection,
        ])
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

/// The checks with `code`.
fn checks<'a>(v: &'a Value, code: &str) -> Vec<&'a Value> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == code)
        .collect()
}

fn nvidia_raw() -> Tree {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, 0x2901, 0x030200);
    t.dev(&["nvidiactl", "nvidia0"]);
    t
}

/// Item 15: `/dev/nvidia-uvm -> sda` (and an absolute link to another disk) is a problem that
/// names where it leads, never "present"; a uvm node that is the node stays ok.
#[test]
fn a_uvm_link_to_another_device_is_not_the_uvm_node() {
    for target in ["sda", "/dev/nvme0n1"] {
        let t = nvidia_raw();
        t.dev(&["sda", "nvme0n1"]);
        t.link("/dev/nvidia-uvm", target);
        let (code, v) = doctor(&t, "nvidia");
        let uvm = checks(&v, "nvidia-uvm");
        assert_eq!(uvm.len(), 1, "{v}");
        assert_eq!(
            (code, uvm[0]["status"].as_str()),
            (1, Some("problem")),
            "{v}"
        );
        let facts = uvm[0]["facts"].to_string();
        assert!(!facts.contains("present"), "{facts}");
        let disk = target.trim_start_matches("/dev/");
        assert!(
            facts.contains(&format!(
                "a link to /dev/{disk}, not one of the driver's nodes"
            )),
            "{facts}"
        );
    }
    let t = nvidia_raw();
    t.dev(&["nvidia-uvm"]);
    let (_, v) = doctor(&t, "nvidia");
    assert_eq!(checks(&v, "nvidia-uvm")[0]["status"], "ok", "{v}");
}

/// A rootless user (uid 4242) in no extra group.
fn rootless(t: &Tree) {
    t.file(
        "/proc/self/status",
        "Name:\tgpuctl\nUid:\t4242\t4242\t4242\t4242\nGid:\t4242\t4242\t4242\t4242\nGroups:\t\n",
    );
}

/// Item 16: eight GPUs' nodes only root may open (group 0, as root can make them; mode 0600
/// anywhere) are one problem naming every node, whose fix is the node's group, never
/// `usermod -aG 0`; nodes of another group that the user is not in are one more finding, with
/// that group's `usermod`.
#[test]
fn root_only_nodes_are_one_finding_and_group_0_is_never_advised() {
    let t = nvidia_raw();
    rootless(&t);
    let gpus: Vec<String> = (1..8).map(|i| format!("nvidia{i}")).collect();
    t.dev(&gpus.iter().map(String::as_str).collect::<Vec<_>>());
    t.dev(&["nvidia-uvm", "nvidia-uvm-tools"]);
    let root = nix_root();
    let mut root_only: Vec<String> = (0..8).map(|i| format!("/dev/nvidia{i}")).collect();
    root_only.push("/dev/nvidiactl".into());
    for n in &root_only {
        if root {
            t.owned(n, 0o660, 0);
        } else {
            std::fs::set_permissions(
                t.path(n),
                std::os::unix::fs::PermissionsExt::from_mode(0o600),
            )
            .unwrap();
        }
    }
    let other = gpuctl_testkit::other_gid();
    if let Some(gid) = other {
        t.file("/etc/group", &format!("root:x:0:\nvideo:x:{gid}:\n"));
        for n in ["/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"] {
            t.owned(n, 0o660, gid);
        }
    }
    let (code, v) = doctor(&t, "nvidia");
    assert_eq!(code, 1, "{v}");
    let groups = checks(&v, "render-groups");
    let problems: Vec<&&Value> = groups.iter().filter(|c| c["status"] == "problem").collect();
    assert_eq!(problems.len(), 1 + usize::from(other.is_some()), "{v}");
    root_only.sort();
    let by_subject = |subject: &str| {
        problems
            .iter()
            .find(|p| p["subject"] == subject)
            .unwrap_or_else(|| panic!("no finding for {subject}: {v}"))
    };
    let root_finding = by_subject(&root_only.join(", "));
    let remedy = root_finding["remedy"].as_str().unwrap();
    assert!(remedy.contains("render or video group"), "{remedy}");
    assert!(
        root_finding["facts"]
            .to_string()
            .contains("no group opens them")
    );
    for p in &problems {
        let remedy = p["remedy"].as_str().unwrap();
        assert!(
            !remedy.contains("-aG 0 ") && !remedy.contains("-aG root "),
            "{remedy}"
        );
    }
    if other.is_some() {
        let video = by_subject("/dev/nvidia-uvm, /dev/nvidia-uvm-tools");
        assert!(
            video["remedy"]
                .as_str()
                .unwrap()
                .starts_with("sudo usermod -aG video $USER"),
            "{v}"
        );
    }
}

/// True when this test runs as root (it may give files group 0).
fn nix_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}
