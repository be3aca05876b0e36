//! Host checks that know no vendor: what each selected vendor offers, the OCI runtime against
//! keep-groups, SELinux's device boolean, and the invoking user's access to the device nodes a
//! container would get.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::GpuBackend;
use crate::check::codes;
use crate::check::user::group_name;
use crate::check::{Check, DoctorContext, Status, containers_conf, evidence};
use crate::host::Host;
use crate::plan::{Need, Plan};
use crate::probe::Probe;

/// One check per selected vendor: usable, and on which tier.
pub fn tiers(probe: &Probe, vendors: &[&dyn GpuBackend], explicit: bool) -> Vec<Check> {
    let mut out = Vec::new();
    for v in vendors {
        let c = match v.detect(probe) {
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
    if !explicit && !vendors.is_empty() && out.iter().all(|c| c.status != Status::Ok) {
        for c in &mut out {
            c.status = Status::Problem;
            c.remedy = Some(
                "no vendor is usable: install a GPU driver and its container toolkit ('gpuctl detect' says what each vendor lacks)"
                    .to_string(),
            );
        }
    }
    out
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
pub fn selinux(probe: &Probe) -> Check {
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
            .fact("enforcing, and container_use_devices is off: containers may not use the GPU device nodes")
            .remedy("sudo setsebool -P container_use_devices=true (or run with --security-opt=label=disable)"),
        Some(other) => Check::new(codes::SELINUX, "SELinux", Status::Warning).fact(format!(
            "enforcing, and {USE_DEVICES} holds {:?}, not 0 or 1",
            other.unwrap_or("")
        )),
        None => Check::new(codes::SELINUX, "SELinux", Status::Warning)
            .fact("enforcing, and this policy has no container_use_devices boolean (container-selinux too old?)")
            .remedy("update container-selinux, or run GPU containers with --security-opt=label=disable"),
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

/// For rootless podman: the invoking user can open every device node the selection passes
/// (raw `--device` nodes and the nodes the selected CDI specs inject). When who runs podman is
/// unknown, the nodes only root could open are "cannot tell", never passed.
pub fn render_groups(
    probe: &Probe,
    ctx: &DoctorContext,
    plan: Option<&Plan>,
    vendors: &[&dyn GpuBackend],
) -> Vec<Check> {
    if ctx.rootless() == Some(false) {
        return vec![
            Check::new(codes::RENDER_GROUPS, "device nodes", Status::Skipped)
                .fact("podman runs as root: group membership does not limit it"),
        ];
    }
    let mut nodes: Vec<String> = Vec::new();
    if let Some(plan) = plan {
        nodes.extend(plan.items().iter().filter_map(|i| match &i.need {
            Need::DeviceNode(path) => Some(path.clone()),
            _ => None,
        }));
    }
    for v in vendors {
        for kind in v.cdi_kinds() {
            for spec in probe.cdi().specs_for(kind) {
                nodes.extend(spec.host_nodes.iter().cloned());
            }
        }
    }
    nodes.sort();
    nodes.dedup();
    let host = probe.host();
    let mut out = Vec::new();
    for node in nodes {
        let meta = match host.metadata(Path::new(&node)) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
            Err(e) => {
                out.push(
                    Check::new(codes::RENDER_GROUPS, node, Status::Warning)
                        .fact(format!("cannot tell who may open it: {e}")),
                );
                continue;
            }
        };
        let mode = meta.mode();
        let by_other = mode & 0o006 == 0o006;
        let group = group_name(host, meta.gid());
        let shown = format!(
            "{node}: mode {:04o}, group {group} ({})",
            mode & 0o7777,
            meta.gid()
        );
        let Some(who) = &ctx.identity else {
            let c = Check::new(codes::RENDER_GROUPS, node, Status::Ok);
            out.push(if by_other {
                c.fact(format!("{shown}; open to every user"))
            } else {
                Check {
                    status: Status::Warning,
                    ..c
                }
                .fact(format!(
                    "{shown}; the invoking user is unknown (/proc/self/status cannot be read), so gpuctl cannot tell whether rootless podman may open it"
                ))
                .remedy(format!(
                    "run gpuctl as the user who runs podman; that user needs group {group} ('sudo usermod -aG {group} $USER')"
                ))
            });
            continue;
        };
        let by_owner = meta.uid() == who.uid && mode & 0o600 == 0o600;
        let by_group = who.in_group(meta.gid()) && mode & 0o060 == 0o060;
        let fact = format!(
            "{shown}; uid {} is {}in it",
            who.uid,
            if who.in_group(meta.gid()) { "" } else { "not " }
        );
        let c = if by_other || by_owner || by_group {
            Check::new(codes::RENDER_GROUPS, node, Status::Ok).fact(fact)
        } else {
            Check::new(codes::RENDER_GROUPS, node, Status::Problem)
                .fact(fact)
                .remedy(format!(
                    "sudo usermod -aG {group} $USER, log in again, and keep the group with '--group-add keep-groups' under crun"
                ))
        };
        out.push(c);
    }
    out
}
