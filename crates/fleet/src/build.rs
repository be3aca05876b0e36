//! A host's report, built from the library calls `detect`, `requirement` and `doctor` make, so
//! the report never says what those commands would not (docs/fleet.md#the-report). Nothing
//! here runs a process: doctor's checks run with no podman, and those that need one are left
//! out.

use std::path::{Path, PathBuf};

use gpuctl_core::commands::doctor;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::kernel::{OSRELEASE, bound_driver};
use gpuctl_core::plugin::requirement::{LoadState, Verdict};
use gpuctl_core::plugin::requirement_answer::{
    Request, answer_scanned, loaded_specs as loaded_specs_of,
};
use gpuctl_core::{
    commands::selector::Selection,
    plugin::{Device, FactValue, GpuBackend, Host, Registry, VendorReport},
};
use gpuctl_core::{
    commands::{containers_conf::ConfEnv, podman::PodmanFacts, user::Identity},
    plugin::{CheckCode, DoctorContext, Status, codes},
};

use crate::convert;
use crate::drivers;
use crate::model::{
    CheckEntry, DeviceEntry, DoctorSummary, HostInfo, Report, SCHEMA, UnboundEntry, VendorEntry,
    VendorRequirement,
};

/// Where the machine type is read (the DMI product name, as GPU Feature Discovery reads it for
/// `nvidia.com/gpu.machine`).
pub const MACHINE_PATH: &str = "/sys/class/dmi/id/product_name";
/// NVIDIA's PCI vendor id: its GPUs get the chip facts of [`gpuctl_nvidia::chips`].
const NVIDIA_PCI: u16 = 0x10de;
/// Where the host's name is read, first readable wins.
pub const HOSTNAME_PATHS: [&str; 2] = ["/proc/sys/kernel/hostname", "/etc/hostname"];
/// Doctor checks left out of a report: they ask podman, which a report never runs.
const NEEDS_PODMAN: [CheckCode; 1] = [codes::PODMAN];

/// The report for `host`, its CDI specs looked for in `cdi_dirs`.
pub fn build(host: &Host, cdi_dirs: &[PathBuf]) -> Report {
    let registry = Registry::discovered();
    let probe = Probe::new(host, cdi_dirs, None);
    let detected = registry.detect(&probe);
    let mut warnings: Vec<String> = detected.warnings.iter().map(|w| w.to_string()).collect();
    let info = host_info(host);
    let kernel = info.kernel.as_deref();

    // Each vendor's loaded driver, as its backend reads it: the stack THE verdict is asked
    // about, as `gpuctl requirement --driver SPEC` would be asked on this host.
    let mut rows = Vec::new();
    for (backend, v) in registry.backends().iter().zip(&detected.vendors) {
        let devices: Vec<DeviceEntry> = v
            .devices
            .iter()
            .map(|d| device(host, *backend, d, probe.pci()))
            .collect();
        let loaded = drivers::loaded(*backend, host, kernel, &devices);
        let unbound = unbound(host, *backend, &probe, &devices);
        rows.push((*backend, v, devices, loaded, unbound));
    }
    let with_gpus: Vec<&str> = rows
        .iter()
        .filter(|(b, ..)| {
            !probe
                .pci()
                .gpus_of(b.pci_vendor_id(), b.pci_classes())
                .0
                .is_empty()
        })
        .map(|(b, ..)| b.vendor())
        .collect();
    let loaded_specs: Vec<(&str, Vec<String>)> = rows
        .iter()
        .filter_map(|(b, _, _, l, _)| {
            l.as_ref()
                .filter(|l| !matches!(l.state, LoadState::NotLoaded(_)))
                .map(|l| (b.vendor(), l.specs.clone()))
        })
        .collect();
    let specs = loaded_specs_of(
        &with_gpus,
        &loaded_specs,
        kernel.and_then(drivers::kernel_version),
    );
    let ask = |specs: &[String]| {
        let request = Request {
            ids: &[],
            specs,
            vendor: Default::default(),
        };
        answer_scanned(host, probe.pci(), registry, request)
    };
    // A stack the model refuses to take is said, never read as a fit.
    let (needs, refused) = match ask(&specs) {
        Ok(r) => (r, None),
        Err(e) => (ask(&[]).unwrap_or_default(), Some(e.to_string())),
    };
    for w in &needs.warnings {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }

    let mut vendors = Vec::new();
    for (backend, v, devices, loaded, unbound) in rows {
        let requirement = needs
            .vendors
            .iter()
            .find(|s| s.vendor == v.vendor)
            .map(convert::requirement)
            .unwrap_or_default();
        let verdict = match &refused {
            Some(e) => Some(Verdict::unknown(format!(
                "gpuctl requirement refuses the loaded stack: {e}"
            ))),
            None => needs.verdict(backend.vendor()),
        };
        let driver = drivers::state(loaded, &requirement, verdict);
        let mut e = entry(v, devices, requirement, driver);
        e.unbound = unbound;
        vendors.push(e);
    }
    Report {
        schema: SCHEMA.to_string(),
        host: info,
        vendors,
        doctor: doctor_summary(registry, &probe),
        warnings,
    }
}

fn entry(
    v: &VendorReport,
    devices: Vec<DeviceEntry>,
    requirement: VendorRequirement,
    driver: crate::model::DriverState,
) -> VendorEntry {
    VendorEntry {
        vendor: v.vendor.clone(),
        usable: v.usable,
        tier: v.tier.map(|t| t.as_str().to_string()),
        reason: v.reason.to_string(),
        devices,
        requirement,
        driver,
        unbound: Vec::new(),
    }
}

/// The vendor's PCI functions that no driver is bound to and that detect did not list: a card
/// whose driver is not loaded has no node, so no recipe finds it, yet the host has it.
fn unbound(
    host: &Host,
    backend: &dyn GpuBackend,
    probe: &Probe,
    devices: &[DeviceEntry],
) -> Vec<UnboundEntry> {
    let (functions, _) = probe
        .pci()
        .gpus_of(backend.pci_vendor_id(), backend.pci_classes());
    functions
        .iter()
        .filter(|f| {
            !devices
                .iter()
                .any(|d| d.pci_address.as_deref() == Some(f.address.as_str()))
        })
        .filter(|f| matches!(bound_driver(host, &f.address), Ok(None)))
        .map(|f| UnboundEntry {
            pci_address: f.address.clone(),
            id: format!("{:04x}:{}", f.vendor_id, f.device_id_hex()),
        })
        .collect()
}

/// The host's name and kernel release; a file that is missing or empty is `null`.
pub fn host_info(host: &Host) -> HostInfo {
    let read = |p: &str| {
        host.read_to_string(Path::new(p), 4096)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    let [kernel_name, etc_hostname] = HOSTNAME_PATHS;
    HostInfo {
        // The kernel's name is the name, `#` and all; only the file has comments.
        name: read(kernel_name).or_else(|| read(etc_hostname).and_then(|t| etc_hostname_name(&t))),
        kernel: read(OSRELEASE),
        machine_id: crate::machine_id::machine_id(host),
        // DMI's product name is a short string (SMBIOS limits it to 64 bytes of text).
        machine: read(MACHINE_PATH),
    }
}

/// The name in an `/etc/hostname` text: its first line that is neither blank nor a comment
/// (hostname(5): "Comments (lines starting with a `#`) are ignored"; systemd's
/// `read_etc_hostname_stream` takes the first such line, trimmed).
pub fn etc_hostname_name(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
}

fn text_fact(d: &Device, key: &str) -> Option<String> {
    match d.fact(key).map(|f| &f.value) {
        Some(FactValue::Text(t)) => Some(t.clone()),
        _ => None,
    }
}

fn device(
    host: &Host,
    backend: &dyn GpuBackend,
    d: &Device,
    pci: &gpuctl_core::plugin::pci::PciScan,
) -> DeviceEntry {
    let bound_driver = d
        .pci_address
        .as_ref()
        .and_then(|addr| bound_driver(host, addr).ok().flatten());
    // A plug-in's detect may name no device id (a data recipe has no table to key): the PCI
    // function its node belongs to says it, so its hosts group and drift by id as others do.
    let device_id = text_fact(d, "device_id").or_else(|| {
        let address = d.pci_address.as_deref()?;
        pci.gpus()
            .iter()
            .find(|g| g.address == address && g.vendor_id == backend.pci_vendor_id())
            .map(|g| g.device_id_hex())
    });
    // The chip facts come from bundled tables, never from the driver: a report is written
    // before the driver loads too.
    let chip = device_id
        .as_deref()
        .filter(|_| backend.pci_vendor_id() == NVIDIA_PCI)
        .and_then(|id| u16::from_str_radix(id, 16).ok())
        .and_then(gpuctl_nvidia::chips::lookup);
    DeviceEntry {
        index: d.index,
        pci_address: d.pci_address.clone(),
        id: device_id.map(|id| format!("{:04x}:{id}", backend.pci_vendor_id())),
        name: text_fact(d, "name"),
        generation: text_fact(d, "generation"),
        architecture: chip.and_then(|c| c.architecture).map(str::to_string),
        compute_capability: chip
            .and_then(|c| c.compute)
            .map(|(major, minor)| format!("{major}.{minor}")),
        mig_capable: chip.and_then(|c| c.mig_capable),
        target: text_fact(d, "target"),
        platform: text_fact(d, "platform"),
        bound_driver,
    }
}

/// Doctor's checks for every vendor, as root (the report describes the node for the engines
/// that run as root on it), without podman.
fn doctor_summary(registry: &Registry, probe: &Probe) -> DoctorSummary {
    let ctx = DoctorContext {
        identity: Some(Identity {
            uid: 0,
            gid: 0,
            groups: Vec::new(),
        }),
        podman: PodmanFacts::default(),
        // The system's containers.conf only: no user's environment describes the node.
        conf_env: ConfEnv::default(),
        another_host: false,
    };
    let mut report = doctor::run(registry, probe, &Selection::All, &ctx);
    // Which package of the host's own distribution drives its GPUs (/etc/os-release), as
    // doctor says it: fleet then groups the hosts whose release carries none.
    report
        .checks
        .extend(gpuctl_sources::driver_package_check(probe.host(), registry));
    let checks: Vec<_> = report
        .checks
        .iter()
        .filter(|c| !NEEDS_PODMAN.contains(&c.code))
        .collect();
    let count = |s| checks.iter().filter(|c| c.status == s).count();
    DoctorSummary {
        problems: count(Status::Problem),
        warnings: count(Status::Warning),
        checks: checks
            .iter()
            .map(|c| CheckEntry {
                code: c.code.to_string(),
                status: c.status.as_str().to_string(),
                subject: c.subject.clone(),
                facts: c.facts.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::etc_hostname_name;
    use rstest::rstest;

    #[rstest]
    #[case("node1\n", Some("node1"))]
    #[case("# written by the installer\nnode1\n", Some("node1"))]
    #[case("\n  # indented comment\n\n  node2  \nignored\n", Some("node2"))]
    #[case("#node1\n", None)]
    #[case("# only comments\n#\n", None)]
    #[case("", None)]
    fn etc_hostname_skips_comments_and_blank_lines(#[case] text: &str, #[case] name: Option<&str>) {
        assert_eq!(etc_hostname_name(text).as_deref(), name);
    }
}
