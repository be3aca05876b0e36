#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;
use gpuctl_testkit::Tree;

const GAUDI: u16 = 0x1da3;
const ACCEL: NodeLayout = NodeLayout {
    device_node: "/dev/accel/accel",
    sysfs_class: None,
    companions: &["/dev/accel/accel_controlD"],
};
const HL: NodeLayout = NodeLayout {
    device_node: "/dev/hl",
    sysfs_class: Some("habanalabs"),
    companions: &["/dev/hl_controlD"],
};

/// Two Gaudi functions at accel1 and accel2 and an Intel NPU at accel0: the shared `/dev/accel`.
fn mixed() -> Tree {
    let t = Tree::new();
    t.pci("0000:00:0b.0", 0x8086, 0x7d1d, 0x120000);
    t.pci("0000:33:00.0", GAUDI, 0x1020, 0x120000);
    t.pci("0000:9a:00.0", GAUDI, 0x1020, 0x120000);
    t.class_node("accel", "accel0", "0000:00:0b.0", "/dev/accel/accel0");
    t.class_node("accel", "accel1", "0000:33:00.0", "/dev/accel/accel1");
    t.class_node("accel", "accel2", "0000:9a:00.0", "/dev/accel/accel2");
    t.file("/dev/accel/accel_controlD1", "")
        .file("/dev/accel/accel_controlD2", "");
    t
}

/// Number, PCI address, why left out, companions.
type Seen<'a> = (u32, Option<&'a str>, Option<&'a str>, Vec<&'a str>);

fn seen(nodes: &[NumberedNode]) -> Vec<Seen<'_>> {
    nodes
        .iter()
        .map(|n| {
            (
                n.number,
                n.address.as_deref(),
                n.left_out.as_deref(),
                n.companions.iter().map(String::as_str).collect(),
            )
        })
        .collect()
}

#[test]
fn only_nodes_whose_pci_function_is_the_vendor_s_are_listed() {
    let t = mixed();
    let host = Host::at(t.root()).expect("root");
    let nodes = layout_nodes(&host, &ACCEL, GAUDI).expect("scan");
    assert_eq!(
        seen(&nodes),
        [
            (
                1,
                Some("0000:33:00.0"),
                None,
                vec!["/dev/accel/accel_controlD1"]
            ),
            (
                2,
                Some("0000:9a:00.0"),
                None,
                vec!["/dev/accel/accel_controlD2"]
            ),
        ]
    );
    // The NPU's own vendor sees only its node, with no companion (it declares none).
    let npu = layout_nodes(&host, &NodeLayout::new("/dev/accel/accel"), 0x8086).expect("scan");
    assert_eq!(seen(&npu), [(0, Some("0000:00:0b.0"), None, vec![])]);
}

#[test]
fn a_node_sysfs_shows_no_function_for_is_left_out_with_why() {
    let t = mixed();
    t.file("/dev/accel/accel3", "");
    let host = Host::at(t.root()).expect("root");
    let nodes = layout_nodes(&host, &ACCEL, GAUDI).expect("scan");
    let three = nodes.iter().find(|n| n.number == 3).expect("accel3 listed");
    assert_eq!(
        three.left_out.as_deref(),
        Some("/sys/class/accel/accel3/device is no PCI function")
    );
}

#[test]
fn a_link_is_judged_by_the_node_it_leads_to() {
    let t = mixed();
    // accel1's sysfs entry is a Gaudi's, but the node podman would pass is the NPU's accel0.
    std::fs::remove_file(t.path("/dev/accel/accel1")).expect("rm");
    t.link("/dev/accel/accel1", "accel0");
    let host = Host::at(t.root()).expect("root");
    let nodes = layout_nodes(&host, &ACCEL, GAUDI).expect("scan");
    assert_eq!(nodes.iter().map(|n| n.number).collect::<Vec<_>>(), [2]);
}

#[test]
fn a_missing_companion_is_noted_and_the_device_still_listed() {
    let t = mixed();
    std::fs::remove_file(t.path("/dev/accel/accel_controlD2")).expect("rm");
    std::fs::remove_file(t.path("/dev/accel/accel_controlD1")).expect("rm");
    t.link("/dev/accel/accel_controlD1", "accel0");
    let host = Host::at(t.root()).expect("root");
    let nodes = layout_nodes(&host, &ACCEL, GAUDI).expect("scan");
    let left: Vec<&[String]> = nodes
        .iter()
        .map(|n| n.companions_left_out.as_slice())
        .collect();
    assert_eq!(
        left,
        [
            &["/dev/accel/accel_controlD1 (a link to /dev/accel/accel0, not one of the driver's nodes)".to_string()][..],
            &["/dev/accel/accel_controlD2 (missing)".to_string()][..],
        ]
    );
    assert!(nodes.iter().all(|n| n.companions.is_empty()));
}

#[test]
fn the_first_layout_with_a_node_of_the_vendor_s_is_used() {
    let t = Tree::new();
    t.pci("0000:33:00.0", GAUDI, 0x1000, 0x120000);
    t.class_node("habanalabs", "hl0", "0000:33:00.0", "/dev/hl0");
    t.file("/dev/hl_controlD0", "");
    let host = Host::at(t.root()).expect("root");
    let (layout, nodes) = active_layout(&host, &[ACCEL, HL], GAUDI).expect("scan");
    assert_eq!(layout, HL);
    assert_eq!(
        seen(&nodes),
        [(0, Some("0000:33:00.0"), None, vec!["/dev/hl_controlD0"])]
    );
    // A host with neither: the first layout, no node.
    let empty = Tree::new();
    let host = Host::at(empty.root()).expect("root");
    assert_eq!(
        active_layout(&host, &[ACCEL, HL], GAUDI).expect("scan"),
        (ACCEL, Vec::new())
    );
}

#[test]
fn the_accel_directory_implies_its_class() {
    assert_eq!(ACCEL.owner_class(), Some("accel"));
    assert_eq!(HL.owner_class(), Some("habanalabs"));
    assert_eq!(NodeLayout::new("/dev/davinci").owner_class(), None);
}
