//! Host checks that know no vendor: what each selected vendor offers, the OCI runtime against
//! keep-groups, and SELinux's device boolean. The invoking user's access to the device nodes a
//! container would get is `node_access`.

use std::path::Path;

use crate::backend::GpuBackend;
use crate::check::codes;
use crate::check::{Check, DoctorContext, Status, containers_conf, evidence};
use crate::detect::VendorReport;
use crate::host::Host;
use crate::plan::{Need, Plan};
use crate::probe::Probe;

/// One check per selected vendor: usable, and on which tier.
pub fn tiers(probe: &Probe, vendors: &[&dyn GpuBackend], explicit: bool) -> Vec<Check> {
    let mut out = Vec::new();
    let mut has = Vec::new();
    for v in vendors {
        let report = v.detect(probe);
        has.push(has_gpus(probe, *v, report.as_ref().ok()));
        let c = match report {
            Ok(r) if r.usable => Check::new(codes::TIER, v.vendor(), Status::Ok).fact(format!(
                "{} tier, {} device(s): {}",
                r.tier.map(|t| t.as_str()).unwrap_or("?"),
                r.devices.len(),
                r.reason
            )),
            Ok(r) if explicit => Check::new(codes::TIER, v.vendor(), Status::Problem)
                .fact(r.reason.to_string())
                .remedy(format!("run 'gpuctl detect' for what {} needs", v.vendor())),
            Ok(r) => {
                Check::new(codes::TIER, v.vendor(), Status::Skipped).fact(r.reason.to_string())
            }
            Err(e) => Check::new(codes::TIER, v.vendor(), Status::Problem).fact(e.to_string()),
        };
        out.push(c);
    }
    // "No vendor is usable" is a problem only for the vendors whose GPUs the host has: a
    // CPU-only node, or the AMD and Intel checks of a host with only NVIDIA GPUs, lacks nothing
    // it needs (an alert on `gpuctl.io/doctor.problems > 0` must not fire on every node
    // without that vendor's GPU).
    if !explicit && !vendors.is_empty() && out.iter().all(|c| c.status != Status::Ok) {
        let noun = crate::backend::devices_noun(vendors.iter().copied());
        for (c, has) in out.iter_mut().zip(has) {
            if !has {
                continue;
            }
            c.status = Status::Problem;
            c.remedy = Some(format!(
                "no vendor is usable: install a {noun} driver and its container toolkit ('gpuctl detect' says what each vendor lacks)"
            ));
        }
    }
    out
}

/// Whether the host has GPUs of the vendor: on its PCI bus, or among the devices its `detect`
/// lists (a node vendor's device nodes, which need no PCI function).
fn has_gpus(probe: &Probe, vendor: &dyn GpuBackend, report: Option<&VendorReport>) -> bool {
    !probe
        .pci()
        .gpus_of(vendor.pci_vendor_id(), vendor.pci_classes())
        .0
        .is_empty()
        || report.is_some_and(|r| !r.devices.is_empty())
}

/// The OCI runtime podman will use, against what the selection's arguments need. podman's
/// own answer counts when it was asked; otherwise (podman absent, or `--root` naming another
/// host) the host's containers.conf files decide, read as podman reads them.
pub fn oci_runtime(probe: &Probe, ctx: &DoctorContext, plan: Option<&Plan>) -> Check {
    let uid = ctx.identity.as_ref().map(|i| i.uid);
    let files = containers_conf::files(probe.host(), &ctx.conf_env, uid);
    let conf = containers_conf::read(probe.host(), &files);
    let (runtime, from) = match (&ctx.podman.runtime, &conf.runtime) {
        (Some(r), _) => (Some(r.clone()), "podman info".to_string()),
        (None, Some((r, file))) => (Some(r.clone()), file.clone()),
        (None, None) => (None, String::new()),
    };
    let keep_groups = plan.is_some_and(|p| p.items().iter().any(|i| i.need == Need::KeepGroups));
    let mut c = match &runtime {
        // Unknown is not ok where it matters: keep-groups needs crun, and podman picks crun
        // only when it is installed, which nothing here shows.
        None if keep_groups => {
            Check::new(codes::OCI_RUNTIME, "podman's default", Status::Warning)
                .fact("no runtime is configured in containers.conf and podman did not name one (not asked, or not there): podman uses crun when it is installed, runc otherwise")
                .fact("the arguments use --group-add keep-groups, which only crun supports")
                .remedy("Hint: check with 'podman info --format {{.Host.OCIRuntime.Name}}' on that host, or set runtime = \"crun\" in containers.conf")
        }
        None => Check::new(codes::OCI_RUNTIME, "podman's default", Status::Ok).fact(
            "no runtime is configured in containers.conf: podman uses crun when it is installed; these arguments work under either",
        ),
        Some(runtime) => runtime_check(runtime, &from, keep_groups),
    };
    if !conf.read.is_empty() {
        c = c.fact(format!("containers.conf read: {}", conf.read.join(", ")));
    }
    if uid.is_none() && ctx.conf_env.containers_conf.is_none() {
        for dir in containers_conf::per_user_dirs(probe.host()) {
            c = c.fact(format!(
                "the invoking user is unknown, so gpuctl cannot tell whether podman reads {dir}"
            ));
            if c.status == Status::Ok {
                c.status = Status::Warning;
            }
        }
    }
    for u in &conf.unknown {
        c = c.fact(format!("cannot tell what it sets: {u}"));
        if c.status == Status::Ok {
            c.status = Status::Warning;
        }
    }
    if !conf.refused.is_empty() {
        for r in &conf.refused {
            c = c.fact(r.clone());
        }
        c.status = Status::Problem;
        c = c.remedy("podman refuses to start while a containers.conf it reads is not valid: fix or remove the file named above");
    }
    c
}

fn runtime_check(runtime: &str, from: &str, keep_groups: bool) -> Check {
    let name = Path::new(runtime)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(runtime)
        .to_string();
    let mut c = Check::new(codes::OCI_RUNTIME, name.clone(), Status::Ok)
        .fact(format!("runtime {runtime} (from {from})"));
    if name.contains("nvidia") {
        c.status = Status::Problem;
        c = c.fact("docker's nvidia runtime wraps runc and is not for podman").remedy(
            "remove the nvidia runtime from containers.conf and use CDI: 'podman run $(gpuctl args nvidia) ...'",
        );
    } else if name != "crun" && keep_groups {
        c.status = Status::Problem;
        c = c
            .fact(format!(
                "the selection's arguments use '--group-add keep-groups', which only crun honours; {name} drops the groups"
            ))
            .remedy("install crun and set runtime = \"crun\" under [engine] in containers.conf (or pass --runtime crun)");
    }
    c
}

/// SELinux enforcing without `container_use_devices`: containers may not use device nodes. A
/// `/sys/fs/selinux/enforce` that is there but cannot be read as a file is "cannot tell".
/// `noun` is what the selected vendors' devices are called (`GPU`, `accelerator`).
pub fn selinux(probe: &Probe, noun: &str) -> Check {
    let host = probe.host();
    let cannot = |what: String| {
        Check::new(codes::SELINUX, "SELinux", Status::Warning)
            .fact(format!("cannot tell whether SELinux enforces: {what}"))
    };
    let enforce = match read_small(host, ENFORCE) {
        Read::Absent => {
            return Check::new(codes::SELINUX, "SELinux", Status::Ok)
                .fact("SELinux is not enabled");
        }
        Read::Cannot(why) => return cannot(why),
        Read::Text(t) => t,
    };
    match enforce.trim() {
        "1" => {}
        "0" => {
            return Check::new(codes::SELINUX, "SELinux", Status::Ok).fact("SELinux is permissive");
        }
        other => return cannot(format!("{ENFORCE} holds {other:?}, not 0 or 1")),
    }
    let boolean = match read_small(host, USE_DEVICES) {
        Read::Absent => None,
        Read::Cannot(why) => {
            return Check::new(codes::SELINUX, "SELinux", Status::Warning).fact(format!(
                "enforcing, and its container_use_devices boolean cannot be checked: {why}"
            ));
        }
        Read::Text(t) => Some(t),
    };
    match boolean.as_deref().map(|b| b.split_whitespace().next()) {
        Some(Some("1")) => Check::new(codes::SELINUX, "SELinux", Status::Ok)
            .fact("enforcing, container_use_devices is on"),
        Some(Some("0")) => Check::new(codes::SELINUX, "SELinux", Status::Problem)
            .fact(format!("enforcing, and container_use_devices is off: containers may not use the {noun} device nodes"))
            .remedy("sudo setsebool -P container_use_devices=true (or run with --security-opt=label=disable)"),
        Some(other) => Check::new(codes::SELINUX, "SELinux", Status::Warning).fact(format!(
            "enforcing, and {USE_DEVICES} holds {:?}, not 0 or 1",
            other.unwrap_or("")
        )),
        None => Check::new(codes::SELINUX, "SELinux", Status::Warning)
            .fact("enforcing, and this policy has no container_use_devices boolean (container-selinux too old?)")
            .remedy(format!("update container-selinux, or run {noun} containers with --security-opt=label=disable")),
    }
}

const ENFORCE: &str = "/sys/fs/selinux/enforce";
const USE_DEVICES: &str = "/sys/fs/selinux/booleans/container_use_devices";

enum Read {
    Absent,
    Cannot(String),
    Text(String),
}

/// A small kernel file: absent, its text, or why it cannot be read (a directory or a FIFO in
/// its place is not read, nor taken for absent).
fn read_small(host: &Host, path: &str) -> Read {
    match host.metadata(Path::new(path)) {
        Ok(None) => return Read::Absent,
        Ok(Some(m)) if !m.is_file() => {
            return Read::Cannot(format!("{path} is {}, not a file", evidence::kind_of(&m)));
        }
        Ok(Some(_)) => {}
        Err(e) => return Read::Cannot(e.to_string()),
    }
    match host.read_to_string(Path::new(path), 4096) {
        Ok(t) => Read::Text(t),
        Err(e) => Read::Cannot(e.to_string()),
    }
}
