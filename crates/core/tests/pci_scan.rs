//! The PCI bus read once per run (issue 15, "one PCI scan per run, kept in the probe"): one walk
//! serves every vendor, each vendor sees its GPUs and the warnings that concern it, and the
//! probe keeps the walk for every later question of the same run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use gpuctl_core::plugin::pci::PciScan;
use gpuctl_core::plugin::{Finding, Host, Probe};
use gpuctl_testkit::Tree;

fn codes(w: &[Finding]) -> Vec<(&'static str, String)> {
    w.iter()
        .map(|f| {
            let at = match f {
                Finding::PciDeviceUnreadable { address, .. } => address.clone(),
                Finding::PciAddressInvalid { name, .. } => name.clone(),
                other => other.to_string(),
            };
            (f.code(), at)
        })
        .collect()
}

/// A workstation-like bus: an NVIDIA GPU and its audio function, an AMD accelerator (class
/// 0x12), an Intel NIC, a name that is not an address, one function whose `vendor` cannot be
/// read (a directory where the file belongs) and an AMD one whose `class` cannot be.
fn mixed_bus() -> Tree {
    let t = Tree::new();
    t.pci("0000:01:00.0", 0x10de, 0x2704, 0x030000);
    t.pci("0000:01:00.1", 0x10de, 0x22bb, 0x040300);
    t.pci("0000:05:00.0", 0x1002, 0x74a1, 0x120000);
    t.pci("0000:07:00.0", 0x8086, 0x1533, 0x020000);
    t.link(
        "/sys/bus/pci/devices/not-an-address",
        "../../../devices/pci0000:00/x",
    );
    t.dir("/sys/devices/pci0000:00/0000:08:00.0/vendor");
    t.link(
        "/sys/bus/pci/devices/0000:08:00.0",
        "../../../devices/pci0000:00/0000:08:00.0",
    );
    t.pci("0000:09:00.0", 0x1002, 0x744c, 0x030000);
    std::fs::remove_file(t.root().join("sys/devices/pci0000:00/0000:09:00.0/class")).unwrap();
    t.dir("/sys/devices/pci0000:00/0000:09:00.0/class");
    t
}

#[test]
fn one_walk_gives_each_vendor_its_gpus_and_its_warnings() {
    let t = mixed_bus();
    let scan = PciScan::read(&Host::at(t.root()).unwrap());
    let addrs: Vec<&str> = scan.gpus().iter().map(|d| d.address.as_str()).collect();
    assert_eq!(addrs, ["0000:01:00.0", "0000:05:00.0"]);

    let (nvidia, w) = scan.gpus_of_vendor(0x10de);
    assert_eq!(nvidia.len(), 1);
    assert_eq!((nvidia[0].device_id, nvidia[0].class), (0x2704, 0x030000));
    // What concerns every vendor: a name that is not an address, a vendor that cannot be read.
    let every = vec![
        ("pci-device-unreadable", "0000:08:00.0".to_string()),
        ("pci-address-invalid", "not-an-address".to_string()),
    ];
    let mut got = codes(&w);
    got.sort();
    let mut want = every.clone();
    want.sort();
    assert_eq!(got, want);

    // AMD's unreadable class is AMD's alone.
    let (amd, w) = scan.gpus_of_vendor(0x1002);
    assert_eq!(amd.len(), 1);
    assert_eq!(amd[0].device_id, 0x74a1);
    let mut got = codes(&w);
    got.sort();
    let mut want = every;
    want.push(("pci-device-unreadable", "0000:09:00.0".to_string()));
    want.sort();
    assert_eq!(got, want);

    // Intel's NIC is not a GPU.
    assert!(scan.gpus_of_vendor(0x8086).0.is_empty());
}

#[test]
fn the_host_only_function_answers_as_the_scan_does() {
    let t = mixed_bus();
    let host = Host::at(t.root()).unwrap();
    let scan = PciScan::read(&host);
    for v in [0x10de, 0x1002, 0x8086, 0x1234] {
        assert_eq!(
            gpuctl_core::plugin::pci::gpus_of_vendor(&host, v),
            scan.gpus_of_vendor(v)
        );
    }
}

#[test]
fn no_bus_is_no_gpu_and_no_warning() {
    let t = Tree::new();
    let scan = PciScan::read(&Host::at(t.root()).unwrap());
    assert_eq!(scan.gpus_of_vendor(0x10de), (Vec::new(), Vec::new()));
}

/// The probe walks the bus on first use and never again: a GPU that appears afterwards is not
/// seen by the same run, nor by the probe explain and run derive for doctor's checks.
#[test]
fn the_probe_walks_the_bus_once() {
    let t = Tree::new();
    t.pci("0000:01:00.0", 0x10de, 0x2704, 0x030000);
    let probe = Probe::new(&Host::at(t.root()).unwrap(), &[], None);
    assert_eq!(probe.pci().gpus().len(), 1);
    t.pci("0000:02:00.0", 0x10de, 0x2704, 0x030000);
    assert_eq!(probe.pci().gpus().len(), 1);
    let dirs = [PathBuf::from("/etc/cdi")];
    assert_eq!(probe.with_specs(&dirs, None).pci().gpus().len(), 1);
    // A new probe is a new run.
    let again = Probe::new(&Host::at(t.root()).unwrap(), &[], None);
    assert_eq!(again.pci().gpus().len(), 2);
}
