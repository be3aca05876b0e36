//! Host checks that know no vendor: what each selected vendor offers, the OCI runtime against
//! keep-groups, SELinux's device boolean, and the invoking user's access to the device nodes a
//! container would get.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::backend::Registry;
use crate::backend::{GpuBackend, Probe};
use crate::check::user::group_name;
use crate::check::{Check, DoctorContext, Status};
use crate::host::Host;
use crate::plan::Need;
use crate::selector::Selection;

/// Where podman reads `containers.conf`, lowest priority first (the user's file comes last).
pub const CONTAINERS_CONF: [&str; 2] = [
    "/usr/share/containers/containers.conf",
    "/etc/containers/containers.conf",
];

/// One check per selected vendor: usable, and on which tier.
pub fn tiers(probe: &Probe, vendors: &[&dyn GpuBackend], explicit: bool) -> Vec<Check> {
    let mut out = Vec::new();
    for v in vendors {
        let c = match v.detect(probe) {
            Ok(r) if r.usable => Check::new("tier", v.vendor(), Status::Ok).fact(format!(
                "{} tier, {} device(s): {}",
                r.tier.map(|t| t.as_str()).unwrap_or("?"),
                r.devices.len(),
                r.reason
            )),
            Ok(r) if explicit => Check::new("tier", v.vendor(), Status::Problem)
                .fact(r.reason.to_string())
                .remedy(format!("run 'gpuctl detect' for what {} needs", v.vendor())),
            Ok(r) => Check::new("tier", v.vendor(), Status::Skipped).fact(r.reason.to_string()),
            Err(e) => Check::new("tier", v.vendor(), Status::Problem).fact(e.to_string()),
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

/// The OCI runtime podman will use, against what the selection's arguments need.
pub fn oci_runtime(
    probe: &Probe,
    ctx: &DoctorContext,
    registry: &Registry,
    selection: &Selection,
) -> Check {
    let (runtime, from) = match &ctx.podman.runtime {
        Some(r) => (Some(r.clone()), "podman info".to_string()),
        None => configured_runtime(probe.host(), ctx.user_containers_conf.as_deref())
            .map(|(r, f)| (Some(r), f))
            .unwrap_or((None, String::new())),
    };
    let keep_groups = registry
        .plan(probe, selection)
        .map(|p| p.items().iter().any(|i| i.need == Need::KeepGroups))
        .unwrap_or(false);
    let Some(runtime) = runtime else {
        return Check::new("oci-runtime", "podman's default", Status::Ok).fact(
            "no runtime is configured in containers.conf: podman uses crun when it is installed",
        );
    };
    let name = Path::new(&runtime)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(&runtime)
        .to_string();
    let mut c = Check::new("oci-runtime", name.clone(), Status::Ok)
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

/// `runtime = "..."` under `[engine]` of the last containers.conf that sets it, and the file.
pub fn configured_runtime(host: &Host, user_conf: Option<&str>) -> Option<(String, String)> {
    let mut found = None;
    for file in CONTAINERS_CONF.iter().copied().chain(user_conf) {
        let Ok(text) = host.read_to_string(Path::new(file), 1024 * 1024) else {
            continue;
        };
        if let Some(r) = engine_runtime(&text) {
            found = Some((r, file.to_string()));
        }
    }
    found
}

/// The `runtime` key of the `[engine]` table (a line reader: that one key is all doctor needs).
pub fn engine_runtime(text: &str) -> Option<String> {
    let mut in_engine = false;
    let mut found = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_engine = line == "[engine]";
            continue;
        }
        if !in_engine {
            continue;
        }
        if let Some((k, v)) = line.split_once('=')
            && k.trim() == "runtime"
        {
            let v = v.split('#').next().unwrap_or("").trim();
            found = Some(v.trim_matches(['"', '\'']).to_string());
        }
    }
    found.filter(|r| !r.is_empty())
}

/// SELinux enforcing without `container_use_devices`: containers may not use device nodes.
pub fn selinux(probe: &Probe) -> Check {
    let host = probe.host();
    let read = |p: &str| host.read_to_string(Path::new(p), 4096).ok();
    let Some(enforce) = read("/sys/fs/selinux/enforce") else {
        return Check::new("selinux", "SELinux", Status::Ok).fact("SELinux is not enabled");
    };
    if enforce.trim() != "1" {
        return Check::new("selinux", "SELinux", Status::Ok).fact("SELinux is permissive");
    }
    let boolean = read("/sys/fs/selinux/booleans/container_use_devices");
    match boolean.as_deref().and_then(|b| b.split_whitespace().next()) {
        Some("1") => Check::new("selinux", "SELinux", Status::Ok)
            .fact("enforcing, container_use_devices is on"),
        Some(_) => Check::new("selinux", "SELinux", Status::Problem)
            .fact("enforcing, and container_use_devices is off: containers may not use the GPU device nodes")
            .remedy("sudo setsebool -P container_use_devices=true (or run with --security-opt=label=disable)"),
        None => Check::new("selinux", "SELinux", Status::Warning)
            .fact("enforcing, and this policy has no container_use_devices boolean (container-selinux too old?)")
            .remedy("update container-selinux, or run GPU containers with --security-opt=label=disable"),
    }
}

/// For rootless podman: the invoking user can open every device node the selection passes
/// (raw `--device` nodes and the nodes the selected CDI specs inject).
pub fn render_groups(
    probe: &Probe,
    ctx: &DoctorContext,
    registry: &Registry,
    selection: &Selection,
    vendors: &[&dyn GpuBackend],
) -> Vec<Check> {
    if !ctx.rootless() {
        return vec![
            Check::new("render-groups", "device nodes", Status::Skipped)
                .fact("podman runs as root: group membership does not limit it"),
        ];
    }
    let mut nodes: Vec<String> = Vec::new();
    if let Ok(plan) = registry.plan(probe, selection) {
        nodes.extend(plan.items().iter().filter_map(|i| match &i.need {
            Need::DeviceNode(path) => Some(path.clone()),
            _ => None,
        }));
    }
    for v in vendors {
        for spec in probe.cdi().specs_for(v.cdi_kind()) {
            nodes.extend(spec.host_nodes.iter().cloned());
        }
    }
    nodes.sort();
    nodes.dedup();
    let who = &ctx.identity;
    let host = probe.host();
    let mut out = Vec::new();
    for node in nodes {
        let Ok(Some(meta)) = host.metadata(Path::new(&node)) else {
            continue;
        };
        let mode = meta.mode();
        let by_other = mode & 0o006 == 0o006;
        let by_owner = meta.uid() == who.uid && mode & 0o600 == 0o600;
        let by_group = who.in_group(meta.gid()) && mode & 0o060 == 0o060;
        let group = group_name(host, meta.gid());
        let fact = format!(
            "{node}: mode {:04o}, group {group} ({}); uid {} is {}in it",
            mode & 0o7777,
            meta.gid(),
            who.uid,
            if who.in_group(meta.gid()) { "" } else { "not " }
        );
        let c = if by_other || by_owner || by_group {
            Check::new("render-groups", node, Status::Ok).fact(fact)
        } else {
            Check::new("render-groups", node, Status::Problem)
                .fact(fact)
                .remedy(format!(
                    "sudo usermod -aG {group} $USER, log in again, and keep the group with '--group-add keep-groups' under crun"
                ))
        };
        out.push(c);
    }
    out
}
