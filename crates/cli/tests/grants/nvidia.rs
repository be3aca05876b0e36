//! NVIDIA's raw tier: one numbering (item 1), no impossible or duplicate minors (item 3),
//! only the driver's own nodes (item 4).

use std::os::unix::ffi::OsStrExt;

use gpuctl_testkit::Tree;

use super::*;

#[test]
fn a_gpu_bound_to_vfio_keeps_its_index_and_is_never_granted_another_gpus_node() {
    let t = vfio_host();
    let (code, out, _) = args_out(&t, "nvidia:0");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia0 -e NVIDIA_VISIBLE_DEVICES=0 {ENV_TAIL}\n")
                .as_str()
        )
    );
    let (code, out, err) = args_out(&t, "nvidia:1");
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "gpuctl: error: the selection asks for nvidia:1, the GPU at 0000:41:00.0, but it is bound to vfio-pci, not to the nvidia driver, so it has no /dev/nvidia node — pick another index ('gpuctl detect' lists them), or bind the GPU to the nvidia driver\n"
    );
    let (code, out, _) = args_out(&t, "nvidia:2");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia1 -e NVIDIA_VISIBLE_DEVICES=2 {ENV_TAIL}\n")
                .as_str()
        )
    );
    // The whole vendor is every node the driver made, the VM's GPU has none.
    let (code, out, err) = args_out(&t, "nvidia");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, format!("--device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl -e NVIDIA_VISIBLE_DEVICES=all {ENV_TAIL}\n").as_str(), "")
    );
}

#[test]
fn detect_shows_the_same_numbering_and_names_the_other_driver() {
    let t = vfio_host();
    let out = gpuctl(t.root())
        .args(["detect", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let devices = json["vendors"][0]["devices"].as_array().unwrap();
    let rows: Vec<(u64, &str, Option<&str>)> = devices
        .iter()
        .map(|d| {
            (
                d["index"].as_u64().unwrap(),
                d["pci_address"].as_str().unwrap(),
                d["node"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (0, "0000:01:00.0", Some("/dev/nvidia0")),
            (1, "0000:41:00.0", None),
            (2, "0000:81:00.0", Some("/dev/nvidia1")),
        ]
    );
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("nvidia:1 (0000:41:00.0): it is bound to vfio-pci, not to the nvidia driver, so it has no /dev/nvidia node; 'nvidia:1' cannot be granted on the raw tier"),
        "{warnings}"
    );
}

#[test]
fn an_unreadable_or_non_utf8_procfs_entry_refuses_every_index_instead_of_shifting() {
    // The information file is a directory: its minor cannot be read.
    let t = vfio_host();
    t.dir("/proc/driver/nvidia/gpus/0000:41:00.0/information");
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("but 0000:41:00.0 under /proc/driver/nvidia/gpus exposes no readable 'Device Minor' — refusing a device map that could grant the wrong GPU."),
        "{err}"
    );
    // A name that is not UTF-8 cannot be put in PCI order: refused, named, escaped.
    let t = vfio_host();
    let odd = std::ffi::OsStr::from_bytes(b"0000:41:00.0\xff");
    let dir = t.path("/proc/driver/nvidia/gpus").join(odd);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("information"), "Device Minor: \t 2\n").unwrap();
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("but \"0000:41:00.0\u{fffd}\" under /proc/driver/nvidia/gpus is not a PCI address, so it cannot be put in PCI order — refusing"),
        "{err}"
    );
}

/// Two GPUs both driven by nvidia, with the given procfs minors.
fn two_gpus(minors: [u32; 2]) -> Tree {
    let t = Tree::new();
    t.nvidia_dev();
    for (addr, minor) in ["0000:01:00.0", "0000:02:00.0"].into_iter().zip(minors) {
        t.pci(addr, NVIDIA, 0x2330, GPU_CLASS);
        bind(&t, addr, "nvidia");
        t.nvidia_proc(addr, Some(minor));
    }
    t
}

#[test]
fn two_entries_claiming_one_minor_are_refused() {
    let t = two_gpus([0, 0]);
    for selector in ["nvidia:0", "nvidia:1"] {
        let (code, out, err) = args_out(&t, selector);
        assert_eq!((code, out.as_str()), (1, ""));
        assert_eq!(
            err,
            "gpuctl: error: the selection asks for an nvidia device by index, but 0000:01:00.0 and 0000:02:00.0 under /proc/driver/nvidia/gpus give the same Device Minor 0, which the driver gives to one GPU only — refusing a device map that could grant the wrong GPU.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec.\n"
        );
    }
}

#[test]
fn minors_no_nvidia_gpu_has_are_refused() {
    // NVIDIA's driver numbers GPUs 0..=247; 255 is nvidiactl (nv-chardev-numbers.h).
    for minor in [248, 255, u32::MAX] {
        let t = two_gpus([0, minor]);
        let (code, out, err) = args_out(&t, "nvidia:0");
        assert_eq!((code, out.as_str()), (1, ""), "minor {minor}");
        assert!(
            err.contains(&format!("but 0000:02:00.0 under /proc/driver/nvidia/gpus gives Device Minor {minor}, which no NVIDIA GPU has (the driver numbers GPUs 0 to 247; 254 is nvidia-modeset, 255 nvidiactl) — refusing")),
            "{err}"
        );
        let out = gpuctl(t.root())
            .args(["detect", "--format", "json"])
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["vendors"][0]["devices"][0]["node"], "/dev/nvidia0");
        assert!(json["vendors"][0]["devices"][1].get("node").is_none());
        assert!(json["warnings"].to_string().contains("nvidia:1 (0000:02:00.0): 0000:02:00.0 under /proc/driver/nvidia/gpus gives Device Minor"));
    }
    let ok = two_gpus([1, 247]);
    let (code, out, _) = args_out(&ok, "nvidia:1");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia247 -e NVIDIA_VISIBLE_DEVICES=1 {ENV_TAIL}\n")
                .as_str()
        )
    );
}

#[test]
fn only_the_drivers_own_nodes_are_granted_and_no_link_to_another_node() {
    // A BMC's render node reached through an nvidia-named link, a name the driver does not
    // make, a directory where the driver makes a node, and a name that smuggles a flag.
    let t = vfio_host();
    t.dev(&["dri/renderD130", "nvidia-fs0", "nvidia --privileged"]);
    t.link("/dev/nvidia-bmc", "dri/renderD130");
    t.link("/dev/nvidia-modeset", "dri/renderD130");
    t.dir("/dev/nvidia-uvm-tools");
    t.file("/dev/nvidia-caps/nvidia-cap1", "");
    let (code, out, err) = args_out(&t, "nvidia");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "--device /dev/nvidia-caps --device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl -e NVIDIA_VISIBLE_DEVICES=all {ENV_TAIL}\n"
        )
    );
    assert_eq!(
        err,
        "gpuctl: warning: not granted: /dev/nvidia --privileged (not a node NVIDIA's GPU driver makes), /dev/nvidia-bmc (not a node NVIDIA's GPU driver makes), /dev/nvidia-fs0 (not a node NVIDIA's GPU driver makes), /dev/nvidia-modeset (a link to /dev/dri/renderD130, not one of the driver's nodes), /dev/nvidia-uvm-tools (a directory, unlike the driver's) — only the nodes NVIDIA's driver makes are passed; add any other with --device yourself if the container needs it\n"
    );
    // The index grant shares the filter, and a GPU's own node may not be a link.
    let (code, out, _) = args_out(&t, "nvidia:0");
    assert_eq!((code, out.as_str()), (0, format!("--device /dev/nvidia-caps --device /dev/nvidia-uvm --device /dev/nvidiactl --device /dev/nvidia0 -e NVIDIA_VISIBLE_DEVICES=0 {ENV_TAIL}\n").as_str()));
    std::fs::remove_file(t.path("/dev/nvidia1")).unwrap();
    t.link("/dev/nvidia1", "dri/renderD130");
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "gpuctl: error: /dev/nvidia1 is a symbolic link (to dri/renderD130), not the GPU's device node — refusing to grant what it leads to; check the host's /dev\n"
    );
}
