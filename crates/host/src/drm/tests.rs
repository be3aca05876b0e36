//! Render-node discovery over fake sysfs trees, hostile ones included.

use super::*;
use gpuctl_testkit::Tree;

fn scan_tree(t: &Tree) -> DrmScan {
    scan(&Host::at(t.root()).expect("root")).expect("scan")
}

#[test]
fn nodes_sort_by_pci_address_not_by_render_number() {
    let t = Tree::new();
    t.render_node("renderD129", "0x1002", "0000:03:00.0");
    t.render_node("renderD128", "0x1002", "0000:0b:00.0");
    t.render_node("renderD130", "0x8086", "0000:00:02.0");
    t.render_node("renderD131", "0x1a03", "0000:04:00.0");
    let s = scan_tree(&t);
    let amd: Vec<(&str, &str)> = s
        .of_vendor("0x1002")
        .iter()
        .map(|n| (n.name.as_str(), n.address.as_str()))
        .collect();
    assert_eq!(
        amd,
        [
            ("renderD129", "0000:03:00.0"),
            ("renderD128", "0000:0b:00.0")
        ]
    );
    assert_eq!(s.of_vendor("0x8086").len(), 1);
    assert!(s.warnings.is_empty());
}

#[test]
fn vendor_files_are_compared_after_python_strip_and_exactly() {
    let t = Tree::new();
    t.render_node_raw("renderD128", "0x8086", "0000:00:02.0");
    t.render_node_raw("renderD129", " 0x8086 \n\n", "0000:00:03.0");
    t.render_node_raw("renderD130", "0X8086\n", "0000:00:04.0");
    let s = scan_tree(&t);
    let names: Vec<&str> = s
        .of_vendor("0x8086")
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(names, ["renderD128", "renderD129"]);
}

#[test]
fn a_device_directory_instead_of_a_link_uses_the_node_name_and_warns() {
    let t = Tree::new();
    t.file("/sys/class/drm/renderD128/device/vendor", "0x1002\n");
    t.render_node("renderD129", "0x1002", "0000:03:00.0");
    let s = scan_tree(&t);
    let amd: Vec<&str> = s
        .of_vendor("0x1002")
        .iter()
        .map(|n| n.address.as_str())
        .collect();
    assert_eq!(amd, ["0000:03:00.0", "renderD128"]);
    assert_eq!(s.warnings.len(), 1);
    assert!(
        s.warnings[0]
            .to_string()
            .starts_with("/sys/class/drm/renderD128/device is not a symbolic link"),
        "{:?}",
        s.warnings
    );
}

#[test]
fn loops_and_dangling_links_skip_the_node_with_a_warning() {
    let t = Tree::new();
    t.link("/sys/class/drm/renderD128", "renderD128");
    t.link(
        "/sys/class/drm/renderD129",
        "../../devices/gone/drm/renderD129",
    );
    t.render_node("renderD130", "0x1002", "0000:03:00.0");
    let s = scan_tree(&t);
    assert_eq!(s.nodes.len(), 1);
    assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    assert!(
        s.warnings[0].to_string().contains(
            "renderD128/device/vendor is a loop of symbolic links; renderD128 is skipped"
        )
    );
    assert!(
        s.warnings[1]
            .to_string()
            .contains("is a symbolic link whose target does not exist; renderD129 is skipped")
    );
}

#[test]
fn card_nodes_and_platform_devices_are_ignored() {
    let t = Tree::new();
    t.file("/sys/class/drm/card0/device/vendor", "0x1a03\n");
    t.dir("/sys/class/drm/renderD128/device"); // a platform device: no vendor file
    t.file("/sys/class/drm/version", "drm 1.1.0 20060810\n");
    let s = scan_tree(&t);
    assert!(s.nodes.is_empty());
    assert!(s.warnings.is_empty());
}

#[test]
fn missing_sysfs_is_no_nodes() {
    assert_eq!(scan_tree(&Tree::new()), DrmScan::default());
}

#[test]
fn by_path_links_skip_absent_links_and_warn_on_dangling_ones() {
    let t = Tree::new();
    t.render_node("renderD128", "0x1002", "0000:03:00.0");
    t.render_node("renderD129", "0x1002", "0000:0b:00.0");
    t.render_node("renderD130", "0x1002", "0000:0c:00.0");
    t.link("/dev/dri/by-path/pci-0000:03:00.0-render", "../renderD128"); // dangling
    t.by_path("0000:0b:00.0", "renderD129");
    let host = Host::at(t.root()).expect("root");
    let s = scan(&host).expect("scan");
    let nodes = s.of_vendor("0x1002");
    let (links, warnings) = by_path_links(&host, &nodes);
    let links: Vec<(&str, &str)> = links
        .iter()
        .map(|(n, l)| (n.name.as_str(), l.as_str()))
        .collect();
    assert_eq!(
        links,
        [("renderD129", "/dev/dri/by-path/pci-0000:0b:00.0-render")]
    );
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].to_string().starts_with(
        "/dev/dri/by-path/pci-0000:03:00.0-render is a symbolic link whose target does not exist"
    ));
}

#[test]
fn a_device_file_instead_of_a_link_skips_the_node_with_a_warning() {
    let t = Tree::new();
    t.file("/sys/class/drm/renderD128/device", "0x1002\n");
    let s = scan_tree(&t);
    assert!(s.nodes.is_empty());
    assert_eq!(
        s.warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "/sys/class/drm/renderD128/device is a file where a link to its PCI device is expected; renderD128 is skipped — check that /sys is sysfs"
        ]
    );
}

#[test]
fn a_render_node_name_the_kernel_never_makes_is_skipped_with_a_warning() {
    // Issue 11 item 2: the name would become a podman argument.
    let t = Tree::new();
    t.render_node("renderD128 --privileged", "0x1002", "0000:03:00.0");
    t.render_node("renderD129", "0x1002", "0000:0b:00.0");
    let s = scan_tree(&t);
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["renderD129"]);
    assert_eq!(
        s.warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "/sys/class/drm/renderD128 --privileged is not a render node name the kernel makes (renderD<number>); it is skipped — check that /sys is sysfs"
        ]
    );
    assert!(is_render_node_name("renderD128"));
    assert!(!is_render_node_name("renderD"));
    assert!(!is_render_node_name("renderD12\n8"));
}
