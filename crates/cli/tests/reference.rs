//! The examples of the Python tool's behaviour (terok-gpu.md §6, examples 1-51), one test each,
//! through the library with all three vendors linked. Messages keep the reference's facts in
//! gpuctl's words ("the selection requests" for "run.gpus requests").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gpuctl_cli as _; // links the vendor crates, so their registrations are present
use gpuctl_core::backend::Probe;
use gpuctl_core::{Host, Registry, args, cdi, selector};
use gpuctl_testkit::Tree;

/// Runs a selection on a tree: the argument line and the warnings, or the error sentence.
fn run(t: &Tree, selection: &str) -> Result<(String, Vec<String>), String> {
    let host = Host::at(t.root()).unwrap();
    let dirs: Vec<PathBuf> = cdi::DEFAULT_SPEC_DIRS.iter().map(PathBuf::from).collect();
    let probe = Probe::new(&host, &dirs, None);
    let reg = Registry::discovered();
    let sel = selector::normalize(&[selection], &reg.names()).map_err(|e| e.to_string())?;
    args::run_args(reg, &probe, &sel)
        .map(|r| (r.args.join(" "), r.warnings))
        .map_err(|e| e.to_string())
}

fn ok(t: &Tree, selection: &str) -> String {
    let (line, warnings) = run(t, selection).unwrap();
    assert!(warnings.is_empty(), "unexpected warnings {warnings:?}");
    line
}

fn warned(t: &Tree, selection: &str) -> (String, Vec<String>) {
    run(t, selection).unwrap()
}

fn err(t: &Tree, selection: &str) -> String {
    run(t, selection).expect_err("must fail")
}

fn mount(addr: &str) -> String {
    let l = format!("/dev/dri/by-path/pci-{addr}-render");
    format!("--mount type=bind,source={l},destination={l},ro=true")
}

const ENV_ALL: &str = "-e NVIDIA_VISIBLE_DEVICES=all -e NVIDIA_DRIVER_CAPABILITIES=all";
const NVIDIA_NONE: &str = "the selection requests 'nvidia' but this host has no CDI spec declaring 'nvidia.com/gpu', no legacy 'oci-nvidia-hook.json' OCI hook, and no /dev/nvidiactl — is the nvidia kernel driver loaded?  Install the NVIDIA Container Toolkit and generate a CDI spec ('nvidia-ctk cdi generate').";
const AMD_NONE: &str = "the selection requests 'amd' but this host has neither an 'amd.com/gpu' CDI spec nor /dev/kfd — is the amdgpu kernel driver loaded?  For CDI, install the AMD Container Toolkit ('amd-ctk cdi generate').";
const NVIDIA_WARNING: &str = "'nvidia' GPU device selection without CDI is best-effort: gpuctl orders devices by PCI bus address, which may differ from the vendor tools' numbering.  Install the vendor's CDI spec for authoritative device mapping (which also lifts the baked-driver requirement).";

fn cdi(t: &Tree, vendor: &str) {
    let names: &[&str] = &["0", "1", "2", "all"];
    t.cdi_spec(
        &format!("/etc/cdi/{vendor}.yaml"),
        &format!("{vendor}.com/gpu"),
        names,
    );
}

/// kfd plus renderD129 (AMD, 0000:03:00.0), renderD128 (AMD, 0000:0b:00.0), renderD130
/// (Intel, 0000:00:02.0), with their by-path links: the reference's "TRI" host.
fn tri(kfd: bool) -> Tree {
    let t = Tree::new();
    t.render_node("renderD129", "0x1002", "0000:03:00.0")
        .by_path("0000:03:00.0", "renderD129");
    t.render_node("renderD128", "0x1002", "0000:0b:00.0")
        .by_path("0000:0b:00.0", "renderD128");
    t.render_node("renderD130", "0x8086", "0000:00:02.0")
        .by_path("0000:00:02.0", "renderD130");
    if kfd {
        t.dev(&["kfd"]);
    }
    t
}

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
        "the selection asks for nvidia device(s) [3] but no valid CDI spec declares nvidia.com/gpu=3; the declared nvidia.com/gpu devices are: 0, 1, all — on the CDI tier 'nvidia:N' must name a declared device, so pick one of those or grant the whole vendor ('nvidia')"
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
fn ex30_nvidia_raw_index_out_of_range() {
    let t = Tree::new();
    t.nvidia_dev().nvidia_proc("0000:01:00.0", Some(0));
    assert_eq!(
        err(&t, "nvidia:2"),
        "the selection asks for nvidia device(s) [2] but this host has 1 NVIDIA device(s) (see /proc/driver/nvidia/gpus); choose an index below 1, or run 'gpuctl detect' to list them"
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
