//! The render-node vendors: AMD and Intel, on CDI and raw tiers.

use super::*;

#[test]
fn ex06_amd_cdi_needs_no_kfd() {
    let t = Tree::new();
    cdi(&t, "amd");
    t.dev(&["kfd"]);
    assert_eq!(
        ok(&t, "amd"),
        "--device amd.com/gpu=all --group-add keep-groups"
    );
}

#[test]
fn ex07_13_14_amd_raw_with_and_without_by_path() {
    let t = Tree::new();
    t.dev(&["kfd"])
        .render_node("renderD128", "0x1002", "0000:03:00.0");
    assert_eq!(
        ok(&t, "amd"),
        "--device /dev/kfd --device /dev/dri/renderD128 --group-add keep-groups"
    );
    t.by_path("0000:03:00.0", "renderD128");
    assert_eq!(
        ok(&t, "amd"),
        format!(
            "--device /dev/kfd --device /dev/dri/renderD128 {} --group-add keep-groups",
            mount("0000:03:00.0")
        )
    );
}

#[test]
fn ex08_kfd_without_render_node() {
    let t = Tree::new();
    t.dev(&["kfd"]);
    assert_eq!(
        err(&t, "amd"),
        "the selection requests 'amd' but no amd render node was found under /sys/class/drm — the kernel driver looks loaded, yet exposes no DRM render device; check the kernel log (dmesg) for the driver's errors"
    );
}

#[test]
fn ex09_amd_nothing() {
    assert_eq!(err(&Tree::new(), "amd"), AMD_NONE);
}

#[test]
fn ex10_11_12_intel_cdi_raw_nothing() {
    let t = Tree::new();
    assert_eq!(
        err(&t, "intel"),
        "the selection requests 'intel' but this host has neither an 'intel.com/gpu' CDI spec nor an Intel render node under /sys/class/drm — is the i915/xe kernel driver loaded?"
    );
    t.render_node("renderD128", "0x8086", "0000:00:02.0");
    assert_eq!(
        ok(&t, "intel"),
        "--device /dev/dri/renderD128 --group-add keep-groups"
    );
    cdi(&t, "intel");
    assert_eq!(
        ok(&t, "intel"),
        "--device intel.com/gpu=all --group-add keep-groups"
    );
}

#[test]
fn ex15_16_amd_and_intel_keep_groups_once_and_never_the_bmc() {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD128", "0x8086", "0000:00:02.0");
    t.render_node("renderD129", "0x1002", "0000:03:00.0");
    let want = "--device /dev/kfd --device /dev/dri/renderD129 --group-add keep-groups --device /dev/dri/renderD128";
    assert_eq!(ok(&t, "amd,intel"), want);
    t.render_node("renderD130", "0x1a03", "0000:04:00.0");
    assert_eq!(ok(&t, "amd,intel"), want);
    assert_eq!(ok(&t, "all"), want);
}

#[test]
fn ex17_all_takes_only_what_is_usable() {
    let t = Tree::new();
    t.dev(&["kfd"])
        .render_node("renderD128", "0x1002", "0000:03:00.0");
    assert_eq!(
        ok(&t, "all"),
        "--device /dev/kfd --device /dev/dri/renderD128 --group-add keep-groups"
    );
}

#[test]
fn cdi_whole_vendor_without_all_names_every_declared_device() {
    let t = Tree::new();
    t.cdi_spec(
        "/etc/cdi/intel.com-gpu.yaml",
        "intel.com/gpu",
        &["0000-00-02-0-0x9a49", "0000-03-00-0-0x56a5"],
    );
    t.cdi_spec(
        "/etc/cdi/intel.com-gpu-mei.yaml",
        "intel.com/gpu-mei",
        &["mei0"],
    );
    assert_eq!(
        ok(&t, "intel"),
        "--device intel.com/gpu=0000-00-02-0-0x9a49 --device intel.com/gpu=0000-03-00-0-0x56a5 --group-add keep-groups"
    );
}

#[test]
fn ex25_26_render_node_indexes_warn_best_effort() {
    let (line, warnings) = warned(&tri(true), "amd:0");
    assert_eq!(
        line,
        format!(
            "--device /dev/kfd --device /dev/dri/renderD129 {} --group-add keep-groups",
            mount("0000:03:00.0")
        )
    );
    assert_eq!(
        warnings,
        [
            "'amd' GPU device selection without CDI is best-effort: gpuctl orders devices by PCI bus address, which may differ from the vendor tools' numbering.  Install the vendor's CDI spec for authoritative device mapping."
        ]
    );
    let (line, warnings) = warned(&tri(false), "intel:0");
    assert_eq!(
        line,
        format!(
            "--device /dev/dri/renderD130 {} --group-add keep-groups",
            mount("0000:00:02.0")
        )
    );
    assert!(warnings[0].starts_with("'intel' GPU device selection without CDI is best-effort"));
}

#[test]
fn ex27_28_render_node_index_out_of_range() {
    assert_eq!(
        err(&tri(true), "amd:3"),
        "the selection asks for amd device(s) [3] but this host has 2 amd device(s): amd:0=0000:03:00.0, amd:1=0000:0b:00.0; choose an index from that list"
    );
    assert!(
        err(&tri(true), "amd:1,amd:3,amd:5")
            .starts_with("the selection asks for amd device(s) [3, 5] but")
    );
}

#[test]
fn ex31_32_whole_vendors_on_the_tri_host() {
    let amd = format!(
        "--device /dev/kfd --device /dev/dri/renderD129 --device /dev/dri/renderD128 {} {} --group-add keep-groups",
        mount("0000:03:00.0"),
        mount("0000:0b:00.0")
    );
    let t = tri(true);
    assert_eq!(ok(&t, "amd"), amd);
    t.nvidia_dev();
    assert_eq!(
        ok(&t, "all"),
        format!(
            "--device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl {ENV_ALL} {amd} --device /dev/dri/renderD130 {}",
            mount("0000:00:02.0")
        )
    );
}

#[test]
fn ex44_a_dangling_by_path_link_is_skipped_with_a_warning() {
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD129", "0x1002", "0000:03:00.0")
        .render_node("renderD128", "0x1002", "0000:0b:00.0");
    t.link("/dev/dri/by-path/pci-0000:03:00.0-render", "../renderD129");
    t.by_path("0000:0b:00.0", "renderD128");
    let (line, warnings) = warned(&t, "amd");
    assert_eq!(
        line,
        format!(
            "--device /dev/kfd --device /dev/dri/renderD129 --device /dev/dri/renderD128 {} --group-add keep-groups",
            mount("0000:0b:00.0")
        )
    );
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with(
        "/dev/dri/by-path/pci-0000:03:00.0-render is a symbolic link whose target does not exist"
    ));
}

#[test]
fn ex45_vendor_files_with_white_space() {
    let t = Tree::new();
    t.render_node_raw("renderD128", "0x8086", "0000:00:02.0");
    t.render_node_raw("renderD129", " 0x8086 \n\n", "0000:00:03.0");
    t.render_node_raw("renderD130", "0X8086", "0000:00:04.0");
    assert_eq!(
        ok(&t, "intel"),
        "--device /dev/dri/renderD128 --device /dev/dri/renderD129 --group-add keep-groups"
    );
}
