//! NVIDIA tiers, CDI for every vendor, and the selection as a whole.

use super::*;

#[test]
fn ex01_nothing_selected_is_nothing() {
    assert_eq!(ok(&Tree::new(), ""), "");
    assert_eq!(ok(&Tree::new(), "none"), "");
}

#[test]
fn ex02_nvidia_cdi_whole() {
    let t = Tree::new();
    cdi(&t, "nvidia");
    assert_eq!(
        ok(&t, "nvidia"),
        format!("--device nvidia.com/gpu=all {ENV_ALL}")
    );
}

#[test]
fn ex03_nvidia_nothing() {
    assert_eq!(err(&Tree::new(), "nvidia"), NVIDIA_NONE);
}

#[test]
fn ex04_hook_beats_raw_nodes() {
    let t = Tree::new();
    t.nvidia_hook().nvidia_dev();
    assert_eq!(ok(&t, "nvidia"), ENV_ALL);
}

#[test]
fn ex05_raw_whole_passes_every_nvidia_entry_sorted() {
    let t = Tree::new();
    t.nvidia_dev();
    assert_eq!(
        ok(&t, "nvidia"),
        format!(
            "--device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl {ENV_ALL}"
        )
    );
}

#[test]
fn ex18_37_all_with_nothing_usable() {
    let want = "the selection is 'all' but no usable GPU support was detected on this host (no vendor CDI spec, no NVIDIA hook or /dev/nvidia*, no /dev/kfd, no Intel render node); run 'gpuctl detect' to see what each vendor lacks";
    assert_eq!(err(&Tree::new(), "all"), want);
    let kfd_only = Tree::new();
    kfd_only.dev(&["kfd"]);
    assert_eq!(err(&kfd_only, "all"), want);
}

#[test]
fn ex19_20_29_36_cdi_indexes_name_devices() {
    let t = Tree::new();
    cdi(&t, "nvidia");
    cdi(&t, "amd");
    t.dev(&["kfd"]);
    assert_eq!(
        ok(&t, "nvidia:0,nvidia:1"),
        "--device nvidia.com/gpu=0 --device nvidia.com/gpu=1 -e NVIDIA_VISIBLE_DEVICES=0,1 -e NVIDIA_DRIVER_CAPABILITIES=all"
    );
    assert_eq!(
        ok(&t, "amd:1"),
        "--device amd.com/gpu=1 --group-add keep-groups"
    );
    assert_eq!(
        ok(&t, "amd:0"),
        "--device amd.com/gpu=0 --group-add keep-groups"
    );
    assert_eq!(
        ok(&t, "amd:2"),
        "--device amd.com/gpu=2 --group-add keep-groups"
    );
}

#[test]
fn cdi_index_that_no_spec_declares_lists_the_declared_names() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "1", "all"]);
    assert_eq!(
        err(&t, "nvidia:3"),
        "the selection asks for 'nvidia:3' but no valid CDI spec declares nvidia.com/gpu=3; the declared nvidia.com/gpu devices are: 0, 1, all — on the CDI tier 'nvidia:NAME' selects the device the spec names NAME, so select one as 'nvidia:NAME' (for example 'nvidia:0'), or grant the whole vendor ('nvidia')"
    );
}

#[test]
fn ex21_42_hook_passes_indexes_in_the_environment() {
    let t = Tree::new();
    t.nvidia_hook();
    assert_eq!(
        ok(&t, "nvidia:1"),
        "-e NVIDIA_VISIBLE_DEVICES=1 -e NVIDIA_DRIVER_CAPABILITIES=all"
    );
    let etc = Tree::new();
    etc.file("/etc/containers/oci/hooks.d/oci-nvidia-hook.json", "{}");
    assert_eq!(
        ok(&etc, "nvidia:0,nvidia:3"),
        "-e NVIDIA_VISIBLE_DEVICES=0,3 -e NVIDIA_DRIVER_CAPABILITIES=all"
    );
}

#[test]
fn ex22_raw_index_is_the_pci_order_not_the_minor() {
    let t = Tree::new();
    t.nvidia_dev()
        .nvidia_proc("0000:01:00.0", Some(1))
        .nvidia_proc("0000:02:00.0", Some(0));
    let (line, warnings) = warned(&t, "nvidia:0");
    assert_eq!(
        line,
        "--device /dev/nvidia-uvm --device /dev/nvidiactl --device /dev/nvidia1 -e NVIDIA_VISIBLE_DEVICES=0 -e NVIDIA_DRIVER_CAPABILITIES=all"
    );
    assert_eq!(warnings, [NVIDIA_WARNING]);
}

#[test]
fn ex23_24_a_gappy_or_missing_minor_map_is_refused() {
    let t = Tree::new();
    t.nvidia_dev()
        .nvidia_proc("0000:01:00.0", Some(1))
        .nvidia_proc("0000:02:00.0", None);
    assert_eq!(
        err(&t, "nvidia:0"),
        "the selection asks for an nvidia device by index, but 0000:02:00.0 under /proc/driver/nvidia/gpus exposes no readable 'Device Minor' — refusing a device map that could grant the wrong GPU.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec."
    );
    let no_proc = Tree::new();
    no_proc.nvidia_dev();
    assert_eq!(
        err(&no_proc, "nvidia:0"),
        "the selection asks for an nvidia device by index, but the device-minor map under /proc/driver/nvidia/gpus is unavailable — cannot identify the device nodes.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec."
    );
}

#[test]
fn ex30_nvidia_raw_index_out_of_range() {
    let t = Tree::new();
    t.nvidia_dev().nvidia_proc("0000:01:00.0", Some(0));
    assert_eq!(
        err(&t, "nvidia:2"),
        "the selection asks for nvidia device(s) [2] but this host has 1 NVIDIA device(s) (see /proc/driver/nvidia/gpus); choose an index below 1, or run 'gpuctl detect' to list them"
    );
}

#[test]
fn ex33_34_35_cdi_for_all_three() {
    let t = Tree::new();
    for v in ["nvidia", "amd", "intel"] {
        cdi(&t, v);
    }
    t.nvidia_hook().nvidia_dev();
    assert_eq!(
        ok(&t, "all"),
        format!(
            "--device nvidia.com/gpu=all {ENV_ALL} --device amd.com/gpu=all --group-add keep-groups --device intel.com/gpu=all"
        )
    );
    assert_eq!(
        ok(&t, "nvidia:1,amd:0,amd:2,intel:0"),
        "--device nvidia.com/gpu=1 -e NVIDIA_VISIBLE_DEVICES=1 -e NVIDIA_DRIVER_CAPABILITIES=all --device amd.com/gpu=0 --device amd.com/gpu=2 --group-add keep-groups --device intel.com/gpu=0"
    );
    assert_eq!(
        ok(&t, "nvidia"),
        format!("--device nvidia.com/gpu=all {ENV_ALL}")
    );
}

#[test]
fn ex38_39_40_a_realistic_dev_and_minors() {
    let t = Tree::new();
    t.dev(&[
        "nvidiactl",
        "nvidia0",
        "nvidia1",
        "nvidia2",
        "nvidia10",
        "nvidia-uvm",
        "nvidia-uvm-tools",
        "nvidia-modeset",
    ]);
    t.file("/dev/nvidia-caps/nvidia-cap1", "");
    let nodes = [
        "nvidia-caps",
        "nvidia-modeset",
        "nvidia-uvm",
        "nvidia-uvm-tools",
        "nvidia0",
        "nvidia1",
        "nvidia10",
        "nvidia2",
        "nvidiactl",
    ];
    let want: Vec<String> = nodes.iter().map(|n| format!("--device /dev/{n}")).collect();
    assert_eq!(ok(&t, "nvidia"), format!("{} {ENV_ALL}", want.join(" ")));
    t.nvidia_proc("0000:01:00.0", Some(2))
        .nvidia_proc("0000:41:00.0", Some(10));
    let (line, _) = warned(&t, "nvidia:1");
    assert_eq!(
        line,
        "--device /dev/nvidia-caps --device /dev/nvidia-modeset --device /dev/nvidia-uvm --device /dev/nvidia-uvm-tools --device /dev/nvidiactl --device /dev/nvidia10 -e NVIDIA_VISIBLE_DEVICES=1 -e NVIDIA_DRIVER_CAPABILITIES=all"
    );
    let absent = Tree::new();
    absent
        .dev(&["nvidiactl"])
        .nvidia_proc("0000:01:00.0", Some(7));
    assert!(
        warned(&absent, "nvidia:0")
            .0
            .starts_with("--device /dev/nvidiactl --device /dev/nvidia7 ")
    );
}

#[test]
fn ex41_device_minor_parsing_through_procfs() {
    let t = Tree::new();
    t.dev(&["nvidiactl"]);
    t.file(
        "/proc/driver/nvidia/gpus/0000:01:00.0/information",
        "Device Minor: x\nDevice Minor : 3\n",
    );
    assert!(warned(&t, "nvidia:0").0.contains("--device /dev/nvidia3"));
    t.file(
        "/proc/driver/nvidia/gpus/0000:01:00.0/information",
        "device minor: 3\n",
    );
    assert!(err(&t, "nvidia:0").contains("exposes no readable 'Device Minor'"));
}

#[test]
fn ex43_specs_in_subdirectories_are_ignored() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/sub/nvidia.yaml", "nvidia.com/gpu", &["0", "all"]);
    t.nvidia_dev();
    assert!(ok(&t, "nvidia").starts_with("--device /dev/nvidia-uvm"));
}
