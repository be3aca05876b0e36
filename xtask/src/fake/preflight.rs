//! What fake mode checks before it touches the host. It installs and configures nothing: it
//! lists everything that is missing, with the command that fixes it, and stops.

use std::fs;
use std::path::Path;

use super::universe::{
    DRM_MAJOR, NVIDIA_MAJOR, Universe, pick_free_majors, registered_char_majors,
};
use crate::Runtime;
use crate::podman::{self, CdiVersion, RunSpec, which};

/// What the checks found out about the machine.
#[derive(Debug, Clone)]
pub struct Machine {
    /// `4.3.1`.
    pub podman_version: String,
    /// The highest cdiVersion that podman loads.
    pub ceiling: Option<CdiVersion>,
    /// The first cdiVersion it rejects.
    pub above: Option<CdiVersion>,
    /// `crun version 1.8.1`, `runc version 1.1.5+ds1`, in `--runtime` order.
    pub runtime_versions: Vec<String>,
    /// The fake machine, with majors that are free here.
    pub universe: Universe,
}

/// The effective uid in a `/proc/self/status` text.
pub fn effective_uid(status: &str) -> Option<u32> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|v| v.split_whitespace().nth(1))
        .and_then(|u| u.parse().ok())
}

/// The reason the run cannot go on unless the task runs as root.
pub fn require_root() -> Result<(), String> {
    let status = fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("cannot read /proc/self/status to check for root: {e}"))?;
    match effective_uid(&status) {
        Some(0) => Ok(()),
        Some(uid) => Err(format!(
            "fake mode creates device nodes under /dev and CDI specs under /etc/cdi, so it needs root (this is uid {uid}); run it on a disposable machine as root, as .ci/run does"
        )),
        None => Err("cannot tell the effective uid from /proc/self/status".to_string()),
    }
}

/// Spec files in a CDI directory (`.json`, `.yaml`, as podman reads them).
fn specs_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "yaml"))
        .map(|p| p.display().to_string())
        .collect();
    out.sort();
    out
}

/// What a failed trial container says about the machine's set-up.
pub fn diagnose_trial(runtime: &str, stderr: &str) -> String {
    let first = stderr.lines().last().unwrap_or("").trim();
    if stderr.contains("setrlimit") || stderr.contains("error setting rlimit") {
        format!(
            "{runtime}: podman's default rlimits are higher than root may set here ({first}); add default_ulimits = [\"nofile=20000:20000\", \"nproc=32768:32768\"] under [containers] in /etc/containers/containers.conf (.ci/run does)"
        )
    } else if stderr.contains("hybrid mode not supported") {
        format!(
            "{runtime}: crun refuses cgroup v1 hybrid mode ({first}); move the controllers left in cgroup2 to v1 hierarchies: for c in $(cat /sys/fs/cgroup/unified/cgroup.controllers); do mkdir -p /sys/fs/cgroup/$c; mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c; done (.ci/run does)"
        )
    } else {
        format!("{runtime}: a trial container failed: {first}")
    }
}

/// Runs every check; on success says what the machine is, otherwise lists every problem.
pub fn check(
    image: &str,
    runtimes: &[Runtime],
    host_paths: &[String],
) -> Result<Machine, Vec<String>> {
    let mut problems = Vec::new();
    let mut missing_tools = Vec::new();
    for tool in ["podman", "setpriv", "mknod"] {
        if which(tool).is_none() {
            missing_tools.push(tool);
        }
    }
    let mut runtime_versions = Vec::new();
    for rt in runtimes {
        match which(rt.name()) {
            Some(path) => runtime_versions.push(podman::tool_version(&path)),
            None => missing_tools.push(rt.name()),
        }
    }
    if !missing_tools.is_empty() {
        problems.push(format!(
            "missing: {} (apt-get install --no-install-recommends podman crun runc busybox-static util-linux; .ci/run does)",
            missing_tools.join(", ")
        ));
        return Err(problems);
    }

    let podman_version = match podman::version() {
        Ok(v) => v,
        Err(e) => return Err(vec![e]),
    };
    let ceiling = podman::cdi_ceiling(&podman_version);
    let above = ceiling.and_then(podman::above_ceiling);

    let mut image_ok = false;
    match podman::image_exists(image) {
        Ok(true) => image_ok = true,
        Ok(false) => problems.push(format!(
            "the image {image} is missing; make it from the static busybox (.ci/run step 4 does): d=$(mktemp -d); mkdir -p $d/bin $d/etc; cp /bin/busybox $d/bin/; ln -s busybox $d/bin/sh; echo 'root:x:0:0:root:/:/bin/sh' > $d/etc/passwd; echo 'root:x:0:' > $d/etc/group; tar -C $d -c . | podman import -q - {image}"
        )),
        Err(e) => problems.push(e),
    }

    let proc_devices = fs::read_to_string("/proc/devices").unwrap_or_default();
    let used = registered_char_majors(&proc_devices);
    for (major, what) in [(NVIDIA_MAJOR, "nvidia"), (DRM_MAJOR, "drm")] {
        if used.contains(&major) {
            problems.push(format!(
                "character major {major} ({what}) is registered in /proc/devices: this machine has a real {what} driver, and fake nodes would reach it; fake mode is for machines without GPUs (use `cargo xtask integration` here)"
            ));
        }
    }
    let universe = match pick_free_majors(&used, 2).as_deref() {
        Some([uvm, kfd]) => Universe {
            uvm_major: *uvm,
            kfd_major: *kfd,
        },
        _ => {
            problems.push("no two local/experimental character majors (120-127, 60-63, 240-254) are free in /proc/devices".to_string());
            return Err(problems);
        }
    };

    for dir in ["/etc/cdi", "/var/run/cdi"] {
        let found = specs_in(Path::new(dir));
        if !found.is_empty() {
            problems.push(format!(
                "{dir} already holds CDI specs ({}); podman would mix them with the fake ones, so fake mode needs the CDI directories free of specs",
                found.join(", ")
            ));
        }
    }
    for p in host_paths {
        if let Err(e) = super::nodes::refuse_existing(Path::new(p)) {
            problems.push(e);
        }
    }

    // A trial container per runtime shows what podman's set-up still lacks (rlimits, cgroups).
    for rt in runtimes.iter().filter(|_| image_ok) {
        let spec = RunSpec {
            runtime: Some(*rt),
            args: &[],
            image,
            script: "true",
            groups: None,
            hooks_dir: None,
        };
        let name = format!("gpuctl-xtask-{}-trial-{}", std::process::id(), rt.name());
        match podman::run_container(&spec, &name) {
            Ok(out) if out.ok() => {}
            Ok(out) => problems.push(diagnose_trial(rt.name(), &out.stderr)),
            Err(e) => problems.push(format!("{}: {e}", rt.name())),
        }
    }

    if problems.is_empty() {
        Ok(Machine {
            podman_version,
            ceiling,
            above,
            runtime_versions,
            universe,
        })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("Name:\tcat\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n", Some(0))]
    #[case("Uid:\t1000\t0\t1000\t1000\n", Some(0))] // setuid root: effective is what counts
    #[case("Uid:\t0\t1000\t0\t0\n", Some(1000))]
    #[case("Name:\tcat\n", None)]
    fn uid(#[case] status: &str, #[case] want: Option<u32>) {
        assert_eq!(effective_uid(status), want);
    }

    #[rstest]
    #[case(
        "Error: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied",
        "default_ulimits"
    )]
    #[case(
        "Error: runc: runc create failed: unable to start container process: error during container init: error setting rlimits for ready process: error setting rlimit type 6: operation not permitted",
        "default_ulimits"
    )]
    #[case(
        "Error: OCI runtime error: crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2",
        "mount -t cgroup"
    )]
    #[case(
        "Error: something new",
        "a trial container failed: Error: something new"
    )]
    fn trial_diagnosis(#[case] stderr: &str, #[case] fragment: &str) {
        assert!(diagnose_trial("crun", stderr).contains(fragment));
    }
}
