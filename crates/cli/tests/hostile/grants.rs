//! Issue 16's wrong grants, each on a tree built for it and read back by the real client's
//! rules: a PCI address that is no PCI address (a U+2028 that ends compose's comment, read by
//! PyYAML as podman-compose does; a `,` that adds `--mount` options, read by podman's
//! splitting), AMD and Intel nodes that are links to other devices, and docker's numeric groups.

use gpuctl_testkit::Tree;
use gpuctl_testkit::readback::{podman_mount_options, pyyaml_load};

use crate::{gpuctl, granted, two_amd_gpus};

/// Two AMD GPUs, then a third whose `device` link ends in `name` (with its by-path link, as
/// udev would make it from that name).
fn amd_with_address(name: &str) -> Tree {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    tree.pci("0000:05:00.0", 0x1002, 0x74a1, 0x038000)
        .render_node("renderD130", "0x1002", name)
        .by_path(name, "renderD130");
    tree
}

const LINE_BREAK: &str = "0000:05:00.0\u{2028}privileged: true\u{2028}cap_add: [ALL]\u{2028}x";
const COMMA: &str = "0000:05:00.0,Z,bind-propagation=rshared,consistency=x";

/// Item 1: the name never reaches compose; what is printed, PyYAML reads as the GPU keys only.
#[test]
fn a_line_break_in_a_pci_address_writes_no_compose_keys() {
    for name in [
        LINE_BREAK,
        "0000:05:00.0\u{85}privileged: true",
        "0000:05:00.0\u{2029}x",
    ] {
        let tree = amd_with_address(name);
        let out = gpuctl(tree.root(), &["args", "--format", "compose", "amd"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            !out.stdout.contains(['\u{85}', '\u{2028}', '\u{2029}']),
            "{}",
            out.stdout
        );
        assert!(
            out.stderr.contains("is not a PCI address") && out.stderr.contains("renderD130"),
            "{}",
            out.stderr
        );
        let Some(doc) = pyyaml_load(&out.stdout).unwrap() else {
            continue;
        };
        let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
        // The by-path binds hold ':', so they stay in a comment podman-compose never reads.
        assert_eq!(keys, ["devices", "group_add"], "{}", out.stdout);
        let devices = doc["devices"].as_array().unwrap();
        assert_eq!(
            devices,
            &["/dev/kfd", "/dev/dri/renderD128", "/dev/dri/renderD129"],
            "{}",
            out.stdout
        );
    }
}

/// Item 2: in every format podman reads, each `--mount` splits (at `,`, then `=`) into exactly
/// the four options gpuctl means, and the node with the forged name is not granted.
#[test]
fn a_comma_in_a_pci_address_adds_no_mount_options() {
    let tree = amd_with_address(COMMA);
    let wanted = |v: &str, docker: bool| {
        let opts = podman_mount_options(v);
        let keys: Vec<&str> = opts.iter().map(|(k, _)| k.as_str()).collect();
        let want: &[&str] = if docker {
            &["type", "source", "target", "readonly"]
        } else {
            &["type", "source", "destination", "ro"]
        };
        assert_eq!(keys, want, "{v}");
        let source = opts[1].1.as_deref().unwrap();
        assert!(
            ["pci-0000:03:00.0-render", "pci-0000:04:00.0-render"]
                .iter()
                .any(|l| source == format!("/dev/dri/by-path/{l}")),
            "{v}"
        );
    };
    for (format, docker) in [("plain", false), ("docker", true)] {
        let out = gpuctl(tree.root(), &["args", "--format", format, "amd"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let words: Vec<&str> = out.stdout.split_whitespace().collect();
        let mounts: Vec<&str> = words
            .windows(2)
            .filter(|w| w[0] == "--mount")
            .map(|w| w[1])
            .collect();
        assert_eq!(mounts.len(), 2, "{}", out.stdout);
        mounts.iter().for_each(|m| wanted(m, docker));
        assert!(!granted(&out.stdout).contains(&"/dev/dri/renderD130".to_string()));
    }
    let out = gpuctl(tree.root(), &["args", "--format", "json", "amd"]);
    let args: Vec<String> = serde_json::from_str(&out.stdout).unwrap();
    let mounts: Vec<&String> = args
        .windows(2)
        .filter(|w| w[0] == "--mount")
        .map(|w| &w[1])
        .collect();
    assert_eq!(mounts.len(), 2, "{}", out.stdout);
    mounts.iter().for_each(|m| wanted(m, false));
    let out = gpuctl(tree.root(), &["args", "--format", "quadlet", "amd"]);
    let back = gpuctl_testkit::readback::quadlet_to_podman(&out.stdout).unwrap();
    let mounts: Vec<&String> = back
        .iter()
        .filter(|(f, _)| f == "--mount")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(mounts.len(), 2, "{}", out.stdout);
    mounts.iter().for_each(|m| wanted(m, false));
    let out = gpuctl(
        tree.root(),
        &["run", "--dry-run", "--gpus", "amd", "--", "alpine"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains(",Z,"), "{}", out.stdout);
}

/// Item 3: `/dev/kfd -> sda` and `renderD129 -> mem` are left out with a warning naming them;
/// an Intel node that leads to an AMD GPU's node is not Intel's; a link between the vendor's
/// own nodes, and by-path links that lead to their node, stay.
#[test]
fn amd_and_intel_nodes_that_link_to_other_devices_are_not_granted() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    tree.dev(&["sda", "mem"]);
    for p in ["/dev/kfd", "/dev/dri/renderD129"] {
        std::fs::remove_file(tree.path(p)).unwrap();
    }
    tree.link("/dev/kfd", "sda")
        .link("/dev/dri/renderD129", "/dev/mem");
    for (name, addr) in [
        ("renderD130", "0000:00:02.0"),
        ("renderD131", "0000:00:03.0"),
    ] {
        tree.pci(addr, 0x8086, 0x56a0, 0x030000)
            .render_node(name, "0x8086", addr);
    }
    // Intel's second GPU's node leads to its first: both are Intel's.
    tree.file("/dev/dri/renderD130", "")
        .link("/dev/dri/renderD131", "renderD130");
    tree.link("/dev/dri/by-path/pci-0000:00:02.0-render", "../../sda");
    let out = gpuctl(tree.root(), &["args", "amd"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        granted(&out.stdout),
        ["/dev/dri/renderD128"],
        "{}",
        out.stdout
    );
    for left in [
        "/dev/kfd (a link to /dev/sda, not one of the driver's nodes)",
        "/dev/dri/renderD129 (a link to /dev/mem, not one of the driver's nodes)",
    ] {
        assert!(out.stderr.contains(left), "{}", out.stderr);
    }
    assert!(!out.stdout.contains("0000:04:00.0"), "{}", out.stdout);
    let out = gpuctl(tree.root(), &["args", "amd:1"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("renderD129 (a link to /dev/mem"),
        "{}",
        out.stderr
    );
    let out = gpuctl(tree.root(), &["args", "intel"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        granted(&out.stdout),
        ["/dev/dri/renderD130", "/dev/dri/renderD131"],
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("/dev/dri/by-path/pci-0000:00:02.0-render (a link to /dev/sda"),
        "{}",
        out.stderr
    );
    // An Intel node that leads to an AMD GPU's node is not Intel's.
    std::fs::remove_file(tree.path("/dev/dri/renderD130")).unwrap();
    tree.link("/dev/dri/renderD130", "renderD128");
    let out = gpuctl(tree.root(), &["args", "intel:0"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("/dev/dri/renderD130 (a link to /dev/dri/renderD128"),
        "{}",
        out.stderr
    );
    let out = gpuctl(
        tree.root(),
        &["run", "--dry-run", "--gpus", "amd", "--", "alpine"],
    );
    assert!(!out.stdout.contains("/dev/kfd"), "{}", out.stdout);
}

/// Item 4: `--group-add` only for a group that opens a node the user could not open otherwise;
/// never 0, never for a node open to everyone, never the group of a link's target that is not
/// a GPU node; a node no group opens is said on stderr.
#[test]
fn docker_adds_only_groups_that_open_a_node() {
    let Some(gid) = gpuctl_testkit::other_gid() else {
        eprintln!("skipped: the user's only group is 0, so no other group can be set");
        return;
    };
    let tree = Tree::new();
    two_amd_gpus(&tree);
    tree.owned("/dev/kfd", 0o660, gid);
    tree.owned("/dev/dri/renderD128", 0o666, gid);
    tree.owned("/dev/dri/renderD129", 0o660, 0);
    let docker = |sel: &str| gpuctl(tree.root(), &["args", "--format", "docker", sel]);
    let out = docker("amd");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let groups: Vec<&str> = out
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--group-add")
        .map(|w| w[1])
        .collect();
    assert_eq!(groups, [gid.to_string()], "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "/dev/dri/renderD129 belong(s) to group 0 (root) and gpuctl never adds '--group-add 0'"
        ),
        "{}",
        out.stderr
    );
    // Owner-only nodes: no group opens them, and stderr says so.
    tree.owned("/dev/kfd", 0o600, gid);
    let out = docker("amd:0");
    assert!(!out.stdout.contains("--group-add"), "{}", out.stdout);
    assert!(
        out.stderr.contains("/dev/kfd (mode 0600)") && out.stderr.contains("no '--group-add'"),
        "{}",
        out.stderr
    );
    // A node that links to a disk is not granted, so its group is never given.
    tree.owned("/dev/kfd", 0o660, gid);
    tree.file("/dev/sda", "");
    tree.owned("/dev/sda", 0o660, 6);
    std::fs::remove_file(tree.path("/dev/dri/renderD129")).unwrap();
    tree.link("/dev/dri/renderD129", "../sda");
    let out = docker("amd");
    assert!(!out.stdout.contains("--group-add 6"), "{}", out.stdout);
    assert!(!granted(&out.stdout).contains(&"/dev/dri/renderD129".to_string()));
}
