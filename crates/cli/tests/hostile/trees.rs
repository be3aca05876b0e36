//! Issue 9's trees: ten thousand entries, non-UTF-8 names, links that loop or leave the root at
//! every level, FIFOs and sockets where files belong, spec directories too big to read.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use gpuctl_testkit::Tree;

use crate::{gpuctl, gpuctl_raw, granted, mkfifo, socket, two_amd_gpus};

#[test]
fn ten_thousand_pci_devices() {
    let tree = Tree::new();
    for i in 0..10_000u32 {
        let addr = format!(
            "{:04x}:{:02x}:{:02x}.{}",
            i >> 13,
            (i >> 5) & 0xff,
            i & 0x1f,
            0
        );
        // NICs, bar two NVIDIA GPUs.
        let (vendor, class) = if i % 5000 == 7 {
            (0x10de, 0x030200)
        } else {
            (0x8086, 0x020000)
        };
        tree.pci(&addr, vendor, 0x2901, class);
    }
    let out = gpuctl(tree.root(), &["requirement", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        json["vendors"][0]["gpus"].as_array().unwrap().len(),
        2,
        "{}",
        out.stdout
    );
    let out = gpuctl(tree.root(), &["detect", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // No node: no NVIDIA grant.
    let out = gpuctl(tree.root(), &["args", "nvidia"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
}

#[test]
fn ten_thousand_dev_dri_entries() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    for i in 0..10_000 {
        tree.file(&format!("/dev/dri/card{}", 1000 + i), "");
        if i % 2 == 0 {
            tree.file(&format!("/dev/dri/renderD{}", 1000 + i), "");
        }
    }
    let out = gpuctl(tree.root(), &["args", "amd:0"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(granted(&out.stdout), ["/dev/kfd", "/dev/dri/renderD128"]);
    let out = gpuctl(tree.root(), &["args", "amd"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        granted(&out.stdout),
        ["/dev/kfd", "/dev/dri/renderD128", "/dev/dri/renderD129"]
    );
    assert_eq!(gpuctl(tree.root(), &["detect"]).code, 0);
}

#[test]
fn non_utf8_file_names_everywhere() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    let bad = OsStr::from_bytes(b"bad-\xff\xfe");
    for dir in [
        "etc/cdi",
        "var/run/cdi",
        "sys/class/drm",
        "sys/bus/pci/devices",
        "dev/dri",
        "dev/dri/by-path",
        "proc/driver/nvidia/gpus",
    ] {
        let d = tree.root().join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(bad), "x").unwrap();
        std::fs::write(d.join(OsStr::from_bytes(b"renderD\xff")), "").unwrap();
        std::fs::write(d.join(OsStr::from_bytes(b"\xff.yaml")), "cdiVersion: 0.5.0").unwrap();
    }
    for args in [
        &["args", "all"][..],
        &["detect", "--format", "json"],
        &["requirement"],
    ] {
        gpuctl(tree.root(), args);
    }
    let out = gpuctl(tree.root(), &["args", "amd"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        granted(&out.stdout),
        ["/dev/kfd", "/dev/dri/renderD128", "/dev/dri/renderD129"]
    );
}

/// Every host path a probe walks through, from the top down.
const PROBED: &[&str] = &[
    "/etc",
    "/etc/cdi",
    "/var/run",
    "/var/run/cdi",
    "/sys",
    "/sys/class",
    "/sys/class/drm",
    "/sys/class/drm/renderD128",
    "/sys/devices/pci0000:00/0000:03:00.0/drm/renderD128/device",
    "/sys/devices/pci0000:00/0000:03:00.0/vendor",
    "/sys/bus/pci/devices",
    "/sys/bus/pci/devices/0000:03:00.0",
    "/dev",
    "/dev/kfd",
    "/dev/dri",
    "/dev/dri/renderD129",
    "/dev/dri/by-path",
    "/proc/driver/nvidia/gpus",
    "/proc/driver/nvidia/version",
    "/usr/share/containers/oci/hooks.d",
];

/// A host with NVIDIA (CDI) and AMD (raw) GPUs, then `path` replaced by `target`.
fn host_with_link(path: &str, target: &str) -> Tree {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    tree.cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "all"])
        .nvidia_dev()
        .nvidia_proc("0000:41:00.0", Some(0));
    tree.file(
        "/proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05\n",
    );
    let p = tree.path(path);
    if p.is_dir() {
        std::fs::remove_dir_all(&p).unwrap();
    } else if p.symlink_metadata().is_ok() {
        std::fs::remove_file(&p).unwrap();
    }
    tree.link(path, target);
    tree
}

/// What `args all` may grant on `host_with_link` hosts: at most what the intact host has (with
/// a broken spec directory, NVIDIA falls back to its raw tier's nodes).
const GRANTABLE: &[&str] = &[
    "nvidia.com/gpu=all",
    "/dev/nvidiactl",
    "/dev/nvidia0",
    "/dev/nvidia1",
    "/dev/nvidia-uvm",
    "/dev/kfd",
    "/dev/dri/renderD128",
    "/dev/dri/renderD129",
];

fn check_link_host(tree: &Tree, what: &str) {
    for args in [&["detect", "--format", "json"][..], &["requirement"]] {
        gpuctl(tree.root(), args);
    }
    let out = gpuctl(tree.root(), &["args", "all"]);
    for g in granted(&out.stdout) {
        assert!(GRANTABLE.contains(&g.as_str()), "{what}: granted {g}");
    }
    let out = gpuctl(tree.root(), &["args", "amd:1"]);
    let amd = granted(&out.stdout);
    assert!(
        amd.len() <= 2 && !amd.contains(&"/dev/dri/renderD128".to_string()),
        "{what}: {amd:?}"
    );
}

#[test]
fn links_that_loop_at_every_level() {
    for path in PROBED {
        let name = Path::new(path).file_name().unwrap().to_str().unwrap();
        check_link_host(&host_with_link(path, name), &format!("{path} -> itself"));
        let tree = host_with_link(path, &format!("{name}.b"));
        tree.link(&format!("{path}.b"), name);
        check_link_host(&tree, &format!("{path} -> .b -> back"));
    }
}

#[test]
fn links_that_escape_the_root_at_every_level() {
    // What lies outside the root: a valid spec and nodes that must never be granted.
    let outside = Tree::new();
    outside
        .cdi_spec("/etc/cdi/evil.yaml", "evil.com/gpu", &["0", "all"])
        .cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["7", "all"])
        .dev(&["kfd", "dri/renderD200"]);
    let abs = outside.root().to_str().unwrap().to_string();
    for path in PROBED {
        let depth = path.matches('/').count();
        let rel = format!(
            "{}{}{path}",
            "../".repeat(depth + 8),
            abs.trim_start_matches('/')
        );
        for target in [format!("{abs}{path}"), rel] {
            let tree = host_with_link(path, &target);
            check_link_host(&tree, &format!("{path} -> {target}"));
            let out = gpuctl(tree.root(), &["args", "nvidia:7"]);
            assert_ne!(out.code, 0, "{path} -> {target}: granted {}", out.stdout);
        }
    }
}

#[test]
fn fifos_and_sockets_where_files_belong() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    tree.nvidia_dev().nvidia_proc("0000:41:00.0", Some(0));
    tree.pci("0000:41:00.0", 0x10de, 0x2901, 0x030200);
    for f in [
        "/etc/cdi/nvidia.yaml",
        "/var/run/cdi/amd.json",
        "/proc/driver/nvidia/version",
        "/proc/driver/nvidia/gpus/0000:41:00.0/information",
        "/sys/devices/pci0000:00/0000:04:00.0/vendor",
        "/sys/devices/pci0000:00/0000:41:00.0/class",
        "/sys/module/nvidia/version",
        "/usr/share/containers/oci/hooks.d/oci-nvidia-hook.json",
    ] {
        let p = tree.path(f);
        let _ = std::fs::remove_file(&p);
        mkfifo(&p);
    }
    let _sockets = [
        socket(&tree.path("/etc/cdi/intel.yaml")),
        socket(&tree.path("/dev/dri/renderD130")),
        socket(&tree.path("/sys/class/drm/renderD131")),
    ];
    for args in [
        &["args", "all"][..],
        &["args", "amd,nvidia"],
        &["detect", "--format", "json"],
        &["requirement"],
    ] {
        gpuctl(tree.root(), args);
    }
    let out = gpuctl(tree.root(), &["args", "amd:0"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(granted(&out.stdout), ["/dev/kfd", "/dev/dri/renderD128"]);
}

#[test]
fn fifos_given_as_input_files() {
    let tree = Tree::new();
    let fifo = tree.path("/tmp/in.yaml");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    // explain reads a named pipe like standard input: nobody writing is empty input at once
    // (exit 1, "nothing found", said on stdout); a site table must still be a regular file.
    let out = assert_cmd::cargo::cargo_bin_cmd!("gpuctl")
        .args(["--root", tree.root().to_str().unwrap(), "explain", fifo])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Nothing to explain"));
    assert_eq!(
        gpuctl(tree.root(), &["requirement", "--table", fifo, "2901"]).code,
        2
    );
}

#[test]
fn a_spec_directory_of_a_thousand_files() {
    let tree = Tree::new();
    for i in 0..1000 {
        tree.cdi_spec(
            &format!("/etc/cdi/vendor{i}.yaml"),
            &format!("vendor{i}.com/dev"),
            &["0"],
        );
    }
    tree.cdi_spec("/var/run/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "all"]);
    let out = gpuctl(tree.root(), &["args", "nvidia"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(granted(&out.stdout), ["nvidia.com/gpu=all"]);
    assert_eq!(gpuctl(tree.root(), &["detect", "--format", "json"]).code, 0);
    // A thousand broken ones: one warning each, still bounded.
    let tree = Tree::new();
    for i in 0..1000 {
        tree.file(&format!("/etc/cdi/broken{i}.json"), "{\"cdiVersion\": ");
    }
    let out = gpuctl(tree.root(), &["args", "nvidia"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
}

#[test]
fn spec_files_over_the_size_limit() {
    let tree = Tree::new();
    let limit = gpuctl_cdi::SPEC_SIZE_LIMIT;
    let big = tree.path("/etc/cdi/nvidia.yaml");
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    let mut text = gpuctl_testkit::cdi_yaml("nvidia.com/gpu", &["0", "all"]);
    text.push('#');
    text.push_str(&" ".repeat(limit as usize));
    std::fs::write(&big, text).unwrap();
    // A sparse one far over the limit: its size alone rules it out.
    let sparse = std::fs::File::create(tree.path("/etc/cdi/huge.json")).unwrap();
    sparse.set_len(64 << 30).unwrap();
    let out = gpuctl(tree.root(), &["args", "nvidia"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("nvidia.yaml") && out.stderr.contains("huge.json"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_spec_that_links_to_dev_zero() {
    // Inside a --root tree the link lands inside the root (dangling there) ...
    let tree = Tree::new();
    tree.link("/etc/cdi/nvidia.yaml", "/dev/zero");
    tree.link("/etc/cdi/amd.json", "../../../../../../../../dev/zero");
    let out = gpuctl(tree.root(), &["args", "nvidia"]);
    assert_eq!(out.code, 1);
    // ... and on the real root, it is the real /dev/zero: not a regular file, never read.
    let dir = Tree::new();
    dir.link("/cdi/nvidia.yaml", "/dev/zero");
    dir.link("/cdi/other.json", "/dev/urandom");
    let spec_dir = dir.path("/cdi");
    let out = gpuctl_raw(
        &["--cdi-spec-dir".as_ref(), spec_dir.as_os_str()],
        &["detect", "--format", "json"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}
