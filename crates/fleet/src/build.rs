//! A host's report, built from the library calls `detect`, `requirement` and `doctor` make, so
//! the report never says what those commands would not (docs/fleet.md#the-report). Nothing
//! here runs a process: doctor's checks run with no podman, and those that need one are left
//! out.

use std::path::{Path, PathBuf};

use gpuctl_core::check::kernel::{OSRELEASE, bound_driver};
use gpuctl_core::check::{
    CheckCode, DoctorContext, Status, codes, containers_conf::ConfEnv, podman::PodmanFacts,
    user::Identity,
};
use gpuctl_core::doctor;
use gpuctl_core::probe::Probe;
use gpuctl_core::requirement_answer::{Request, answer_scanned};
use gpuctl_core::{
    backend::{GpuBackend, Registry},
    detect::{Device, FactValue, VendorReport},
    host::Host,
    selector::Selection,
};

use crate::convert;
use crate::drivers;
use crate::model::{
    CheckEntry, DeviceEntry, DoctorSummary, HostInfo, Report, SCHEMA, VendorEntry,
    VendorRequirement,
};

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

    // What `gpuctl requirement` answers on this host with no flag: no request to refuse.
    let request = Request {
        ids: &[],
        specs: &[],
        vendor: Default::default(),
    };
    let needs = answer_scanned(host, probe.pci(), registry, request).unwrap_or_default();
    for w in &needs.warnings {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }

    let mut vendors = Vec::new();
    for (backend, v) in registry.backends().iter().zip(&detected.vendors) {
        let devices: Vec<DeviceEntry> = v
            .devices
            .iter()
            .map(|d| device(host, *backend, d))
            .collect();
        let requirement = needs
            .vendors
            .iter()
            .find(|s| s.vendor == v.vendor)
            .map(convert::requirement)
            .unwrap_or_default();
        let driver = drivers::state(*backend, host, kernel, &devices, &requirement);
        vendors.push(entry(v, devices, requirement, driver));
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
    }
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

fn device(host: &Host, backend: &dyn GpuBackend, d: &Device) -> DeviceEntry {
    let bound_driver = d
        .pci_address
        .as_ref()
        .and_then(|addr| bound_driver(host, addr).ok().flatten());
    DeviceEntry {
        index: d.index,
        pci_address: d.pci_address.clone(),
        id: text_fact(d, "device_id").map(|id| format!("{:04x}:{id}", backend.pci_vendor_id())),
        name: text_fact(d, "name"),
        generation: text_fact(d, "generation"),
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
    let report = doctor::run(registry, probe, &Selection::All, &ctx);
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
