//! Huawei Ascend NPUs for gpuctl, written from docs/plugin-guide.md alone: the vendor is data
//! (`gpuctl_core::plugin::NodeVendor`) plus one doctor check of its own.
//!
//! The facts, with where they come from:
//! - PCI vendor 0x19e5 (Huawei); the NPUs enumerate as processing accelerators (class 0x1200).
//! - One node per NPU, `/dev/davinciN`, N being the driver's device number, and three nodes every
//!   NPU needs: `/dev/davinci_manager`, `/dev/devmm_svm`, `/dev/hisi_hdc` (Ascend's device
//!   plug-in names them, github.com/Ascend/ascend-device-plugin `pkg/common/constants.go`; the
//!   `docker run` lines Ascend users publish pass exactly these).
//! - The driver's files a container needs read-only: `/usr/local/Ascend/driver/lib64`,
//!   `/usr/local/Ascend/driver/version.info`, `/etc/ascend_install.info` (the same `docker run`
//!   lines bind them).
//! - `ASCEND_VISIBLE_DEVICES`: the NPU numbers a container may use, read by Ascend's container
//!   runtime.
//! - CDI kinds: no Ascend CDI generator is known to us, so the kinds are the Kubernetes resource
//!   names of Ascend's device plug-in, one per chip family (`huawei.com/Ascend910`,
//!   `huawei.com/Ascend310P`): a spec a site writes for either serves the vendor, and
//!   `gpuctl cdi generate ascend` writes one of the main kind in amd-ctk's shape (`0`, `1`, ...
//!   by the driver's numbers, each `/dev/davinciN` then the shared nodes, and `all`).

use std::path::Path;

use gpuctl_core::plugin::CdiNaming;
use gpuctl_core::plugin::CheckCode;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::requirement::{GpuOnHost, LoadState, LoadedDriver, Version};
use gpuctl_core::plugin::{Check, DoctorContext, Status};
use gpuctl_core::plugin::{NodeVendor, VendorFacts};

/// The plug-in's doctor check: the driver's version file names a release.
pub const DRIVER_CHECK: CheckCode = CheckCode::new("ascend-driver");

/// The driver's version file: `Version=<release>` among other `key=value` lines.
pub const VERSION_INFO: &str = "/usr/local/Ascend/driver/version.info";

/// The Ascend backend: nodes, kinds, variable and words; everything else is the default.
pub const ASCEND: NodeVendor = NodeVendor {
    facts: VendorFacts {
        device_noun: "NPU",
        extra_kinds: &["huawei.com/Ascend310P"],
        missing_summary: "no /dev/davinci_manager",
        // No Ascend generator is known, so gpuctl writes the spec, named as amd-ctk names
        // devices.
        cdi_naming: Some(CdiNaming::AmdCtk),
        // Ascend's driver installer runs its services as the user HwHiAiUser (its default
        // `--install-username`); check `ls -l /dev/davinci0` on your hosts before relying on it.
        node_group: Some("HwHiAiUser"),
        gpu_words: &["/dev/davinci", "ASCEND_VISIBLE_DEVICES", "npu-smi"],
        host_checks: Some(driver_check),
        loaded_driver: Some(loaded_driver),
        check_codes: &[DRIVER_CHECK],
        ..VendorFacts::new("ascend", "Ascend", "huawei.com/Ascend910", 0x19e5)
    },
    device_node: "/dev/davinci",
    shared_nodes: &["/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"],
    driver_binds: &[
        "/usr/local/Ascend/driver/lib64",
        VERSION_INFO,
        "/etc/ascend_install.info",
    ],
    visible_devices: Some("ASCEND_VISIBLE_DEVICES"),
    ..NodeVendor::DEFAULT
};

gpuctl_core::plugin::register_backend!(ASCEND);

/// `ascend-driver`: the driver's version file names a release. Doctor runs it when Ascend is
/// selected (or with `all`).
fn driver_check(probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
    let read = probe
        .host()
        .read_to_string(Path::new(VERSION_INFO), 64 * 1024);
    let version = read.as_ref().ok().and_then(|text| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix("Version="))
            .map(str::to_string)
    });
    let check = match (&read, version) {
        (_, Some(v)) => Check::new(DRIVER_CHECK, VERSION_INFO, Status::Ok)
            .fact(format!("Ascend driver {v}")),
        (Ok(_), None) => Check::new(DRIVER_CHECK, VERSION_INFO, Status::Warning)
            .fact("no 'Version=' line: the driver's release is unknown")
            .remedy("Hint: reinstall the Ascend driver package, which writes this file."),
        (Err(e), None) => Check::new(DRIVER_CHECK, VERSION_INFO, Status::Problem)
            .fact(format!("{e}: the Ascend driver looks not installed"))
            .remedy(
                "Hint: install the Ascend NPU driver (the Ascend HDK 'npu-driver' package) and\nreboot; containers bind this file and the driver's lib64 read-only.",
            ),
    };
    vec![check]
}

/// The release in the driver's version file, `None` when it names none or cannot be read.
fn release(host: &gpuctl_core::plugin::Host) -> Option<String> {
    let text = host
        .read_to_string(Path::new(VERSION_INFO), 64 * 1024)
        .ok()?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Version="))
        .map(str::to_string)
}

/// For `gpuctl report`: the driver is installed when its version file names a release.
fn loaded_driver(
    host: &gpuctl_core::plugin::Host,
    _: Option<Version>,
    _: &[GpuOnHost],
) -> LoadedDriver {
    match release(host) {
        Some(v) => {
            let mut d = LoadedDriver::new(LoadState::Loaded, VERSION_INFO);
            d.version = Some(v);
            d
        }
        None => LoadedDriver::not_loaded(
            VERSION_INFO,
            "the Ascend driver's version file names no release",
        ),
    }
}
