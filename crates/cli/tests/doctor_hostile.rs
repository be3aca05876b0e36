//! `gpuctl doctor` on hostile and broken hosts (issue 16, items 5-10; issue 19, items 4, 7
//! and 11): each tree is built in the test, and doctor must say "problem" or "cannot tell"
//! where the host would fail or gpuctl could not look, never "ok". podman is kept off PATH
//! unless a test puts a stand-in there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

/// Runs doctor on `t` with `env` set (and nothing else of this machine's environment that
/// podman reads), returning the exit code and the JSON report.
fn doctor(t: &Tree, env: &[(&str, &str)], args: &[&str]) -> (i32, Value) {
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear()
        .env("PATH", empty.path())
        .env("HOME", "/home/user");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .arg("--root")
        .arg(t.root())
        .args(["--podman-version", "5.4.0", "doctor", "--format", "json"])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

/// The checks with `code`, as (status, subject, facts joined, remedy).
fn checks(v: &Value, code: &str) -> Vec<(String, String, String, String)> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == code)
        .map(|c| {
            let facts: Vec<&str> = c["facts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            (
                c["status"].as_str().unwrap().to_string(),
                c["subject"].as_str().unwrap().to_string(),
                facts.join(" | "),
                c["remedy"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn statuses(v: &Value, code: &str) -> Vec<String> {
    checks(v, code).into_iter().map(|c| c.0).collect()
}

/// A rootless user (uid 4242) in no extra group.
fn rootless(t: &Tree) {
    t.file(
        "/proc/self/status",
        "Name:\tgpuctl\nUid:\t4242\t4242\t4242\t4242\nGid:\t4242\t4242\t4242\t4242\nGroups:\t\n",
    );
}

/// An AMD host on the raw tier (its plan uses keep-groups), rootless, nodes open to the user.
fn amd_raw() -> Tree {
    let t = Tree::new();
    rootless(&t);
    t.pci("0000:c1:00.0", 0x1002, 0x744c, 0x030000);
    t.render_node("renderD128", "0x1002", "0000:c1:00.0");
    t.dev(&["kfd"]);
    t.by_path("0000:c1:00.0", "renderD128");
    for n in ["/dev/kfd", "/dev/dri/renderD128"] {
        std::fs::set_permissions(t.path(n), std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    t
}

/// An NVIDIA spec naming one node, one mounted library and one hook program.
const NVIDIA_SPEC: &str = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\ncontainerEdits:\n  mounts:\n  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06\n    containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06\n    options: [ro, nosuid, nodev, bind]\n  hooks:\n  - hookName: createContainer\n    path: /usr/bin/nvidia-cdi-hook\n    args: [nvidia-cdi-hook, update-ldcache]\n";

/// An NVIDIA CDI host whose spec at `spec_path` has everything it names, but what `skip` says.
fn nvidia_cdi(spec_path: &str, spec: &str, skip: &[&str]) -> Tree {
    let t = Tree::new();
    t.pci("0000:3b:00.0", 0x10de, 0x2901, 0x030200);
    t.dev(&["nvidiactl", "nvidia-uvm"]);
    for f in [
        "/dev/nvidia0",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06",
        "/usr/bin/nvidia-cdi-hook",
    ] {
        if !skip.contains(&f) {
            t.file(f, "");
        }
    }
    t.file(spec_path, spec);
    t
}

/// Item 5: a spec with local YAML tags on its edits, which the CDI reader (yaml.v2, as podman)
/// reads as plain mappings and sequences, and a second YAML reader (yaml_serde) refused, which
/// left doctor with no mounts and no hooks to check. doctor now judges it through the CDI
/// reader alone: its missing mount and hook are found.
#[test]
fn a_tagged_spec_is_judged_as_podman_reads_it() {
    let tagged = NVIDIA_SPEC
        .replace(
            "containerEdits:\n  mounts:",
            "containerEdits: !edits\n  mounts: !list",
        )
        .replace("  hooks:\n", "  hooks: !list\n");
    let t = nvidia_cdi(
        "/etc/cdi/nvidia.yaml",
        &tagged,
        &[
            "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06",
            "/usr/bin/nvidia-cdi-hook",
        ],
    );
    let (code, v) = doctor(&t, &[], &[]);
    assert_eq!(statuses(&v, "cdi-version"), ["ok"], "{v:#}");
    let stale = &checks(&v, "cdi-stale")[0];
    assert_eq!(stale.0, "problem", "{stale:?}");
    assert!(
        stale
            .2
            .contains("mounted file /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 is missing")
            && stale
                .2
                .contains("hook program /usr/bin/nvidia-cdi-hook is missing"),
        "{stale:?}"
    );
    assert_eq!(code, 1);
}

/// Items 5 and 9: a node, a mount or a hook of the wrong kind is not there for podman either.
#[test]
fn a_directory_or_a_dangling_link_is_not_a_node_a_file_or_a_program() {
    let t = nvidia_cdi(
        "/etc/cdi/nvidia.yaml",
        NVIDIA_SPEC,
        &["/dev/nvidia0", "/usr/bin/nvidia-cdi-hook"],
    );
    t.dir("/dev/nvidia0");
    t.link("/usr/bin/nvidia-cdi-hook", "/usr/bin/gone");
    let (code, v) = doctor(&t, &[], &[]);
    let stale = &checks(&v, "cdi-stale")[0];
    assert_eq!((code, stale.0.as_str()), (1, "problem"), "{stale:?}");
    assert!(
        stale
            .2
            .contains("device node /dev/nvidia0 is a directory, not a device node"),
        "{stale:?}"
    );
    assert!(
        stale
            .2
            .contains("hook program /usr/bin/nvidia-cdi-hook is a symbolic link to nothing"),
        "{stale:?}"
    );
}

/// Item 9: `/dev/nvidia-uvm` as a directory or a link to nothing is no uvm node.
#[test]
fn a_uvm_node_that_is_a_directory_or_a_dangling_link_is_a_problem() {
    for make in [
        (|t: &Tree| {
            t.dir("/dev/nvidia-uvm");
        }) as fn(&Tree),
        |t: &Tree| {
            t.link("/dev/nvidia-uvm", "nvidia-uvm-gone");
        },
    ] {
        let t = nvidia_cdi("/etc/cdi/nvidia.yaml", NVIDIA_SPEC, &[]);
        std::fs::remove_file(t.path("/dev/nvidia-uvm")).unwrap();
        make(&t);
        let (code, v) = doctor(&t, &[], &[]);
        let uvm = &checks(&v, "nvidia-uvm")[0];
        assert_eq!((code, uvm.0.as_str()), (1, "problem"), "{uvm:?}");
        assert!(!uvm.2.contains("present"), "{uvm:?}");
    }
}

/// Item 9: an `enforce` file that is a directory or a FIFO is not "SELinux is not enabled"; the
/// FIFO is not opened (nothing writes to it: opening it would wait forever).
#[test]
fn an_selinux_enforce_that_cannot_be_read_is_cannot_tell() {
    let t = amd_raw();
    t.dir("/sys/fs/selinux/enforce");
    let (_, v) = doctor(&t, &[], &["amd"]);
    let s = &checks(&v, "selinux")[0];
    assert_eq!(s.0, "warning", "{s:?}");
    assert!(
        s.2.contains("cannot tell whether SELinux enforces") && s.2.contains("a directory"),
        "{s:?}"
    );

    let t = amd_raw();
    t.dir("/sys/fs/selinux");
    let fifo = t.path("/sys/fs/selinux/enforce");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let started = Instant::now();
    let (_, v) = doctor(&t, &[], &["amd"]);
    assert!(started.elapsed() < Duration::from_secs(30));
    let s = &checks(&v, "selinux")[0];
    assert_eq!(s.0, "warning", "{s:?}");
    assert!(s.2.contains("a FIFO"), "{s:?}");
}

/// Item 7: with `/proc/self/status` unreadable, who runs podman is unknown: render nodes only
/// root may open and a spec only root may read are "cannot tell", never passed as for root.
#[test]
fn an_unknown_user_is_cannot_tell_never_root() {
    let t = amd_raw();
    std::fs::remove_file(t.path("/proc/self/status")).unwrap();
    for n in ["/dev/kfd", "/dev/dri/renderD128"] {
        std::fs::set_permissions(t.path(n), std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    t.cdi_spec("/etc/cdi/other.yaml", "example.com/npu", &["0"]);
    std::fs::set_permissions(
        t.path("/etc/cdi/other.yaml"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let (_, v) = doctor(&t, &[], &["amd"]);
    let groups = checks(&v, "render-groups");
    // One cause, one finding naming both nodes (issue 25, item 16).
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].1, "/dev/dri/renderD128, /dev/kfd");
    for g in &groups {
        assert_eq!(g.0, "warning", "{g:?}");
        assert!(g.2.contains("the invoking user is unknown"), "{g:?}");
    }
    let readable = &checks(&v, "cdi-readable")[0];
    assert_eq!(readable.0, "warning", "{readable:?}");
    // A node open to everyone needs no answer about the user (nodes in path order).
    std::fs::set_permissions(t.path("/dev/kfd"), std::fs::Permissions::from_mode(0o666)).unwrap();
    let (_, v) = doctor(&t, &[], &["amd"]);
    assert_eq!(statuses(&v, "render-groups"), ["warning", "ok"]);
}

/// Item 8: every spec-directory entry detect warns about is a doctor finding: a link to
/// nothing, a link loop, a FIFO (never opened), and two specs declaring one device.
#[test]
fn spec_directory_entries_detect_warns_about_are_findings() {
    let t = nvidia_cdi("/etc/cdi/nvidia.yaml", NVIDIA_SPEC, &[]);
    t.link("/etc/cdi/amd.json", "/opt/amd/amd.json");
    t.link("/etc/cdi/loop.yaml", "loop.yaml");
    let fifo = t.path("/etc/cdi/fifo.yaml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let started = Instant::now();
    let (code, v) = doctor(&t, &[], &[]);
    assert!(started.elapsed() < Duration::from_secs(30));
    let found = checks(&v, "cdi-spec-dir");
    let subjects: Vec<&str> = found.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(
        subjects,
        [
            "/etc/cdi/amd.json",
            "/etc/cdi/fifo.yaml",
            "/etc/cdi/loop.yaml"
        ],
        "{found:?}"
    );
    assert!(found.iter().all(|c| c.0 == "problem"), "{found:?}");
    assert!(
        found[0]
            .2
            .contains("symbolic link whose target does not exist"),
        "{found:?}"
    );
    assert!(found[2].2.contains("loop of symbolic links"), "{found:?}");
    assert_eq!(code, 1);
    // The same device declared twice in one directory: podman drops it.
    let t = nvidia_cdi("/etc/cdi/nvidia.yaml", NVIDIA_SPEC, &[]);
    t.file("/etc/cdi/nvidia-copy.yaml", NVIDIA_SPEC);
    let (code, v) = doctor(&t, &[], &[]);
    let found = checks(&v, "cdi-spec-dir");
    assert_eq!(
        (code, found[0].0.as_str(), found[0].1.as_str()),
        (1, "problem", "nvidia.com/gpu=0"),
        "{found:?}"
    );
}

/// Issue 19, item 4: the stale file is the one to regenerate (`/var/run/cdi` wins over
/// `/etc/cdi`), and nvidia-cdi-refresh is named where its unit is installed.
#[test]
fn the_stale_spec_remedy_names_the_stale_file_and_the_refresh_unit() {
    let t = nvidia_cdi("/var/run/cdi/nvidia.yaml", NVIDIA_SPEC, &["/dev/nvidia0"]);
    let (_, v) = doctor(&t, &[], &[]);
    let stale = &checks(&v, "cdi-stale")[0];
    assert_eq!(
        (stale.0.as_str(), stale.1.as_str()),
        ("problem", "/var/run/cdi/nvidia.yaml")
    );
    assert!(
        stale
            .3
            .contains("'sudo nvidia-ctk cdi generate --output=/var/run/cdi/nvidia.yaml'"),
        "{stale:?}"
    );
    assert!(
        !stale.3.contains("/etc/cdi") && !stale.3.contains("nvidia-cdi-refresh"),
        "{stale:?}"
    );
    // Debian's package installs the unit in /etc/systemd/system, RPMs in /usr/lib/systemd/system.
    for unit in [
        "/etc/systemd/system/nvidia-cdi-refresh.service",
        "/usr/lib/systemd/system/nvidia-cdi-refresh.service",
    ] {
        let t = nvidia_cdi("/var/run/cdi/nvidia.yaml", NVIDIA_SPEC, &["/dev/nvidia0"]);
        t.file(
            unit,
            "[Unit]\nDescription=Refresh NVIDIA CDI specification file\n",
        );
        let (_, v) = doctor(&t, &[], &[]);
        let stale = &checks(&v, "cdi-stale")[0];
        assert!(
            stale.3.contains("--output=/var/run/cdi/nvidia.yaml")
                && stale
                    .3
                    .contains("'sudo systemctl start nvidia-cdi-refresh.service'"),
            "{stale:?}"
        );
    }
    // AMD's generator, for AMD's spec, at its own path.
    let t = amd_raw();
    t.file(
        "/etc/cdi/amd.json",
        r#"{"cdiVersion":"0.5.0","kind":"amd.com/gpu","devices":[{"name":"gpu0","containerEdits":{"deviceNodes":[{"path":"/dev/dri/renderD129"}]}}]}"#,
    );
    let (_, v) = doctor(&t, &[], &[]);
    let stale = &checks(&v, "cdi-stale")[0];
    assert!(
        stale
            .3
            .contains("'sudo amd-ctk cdi generate --output=/etc/cdi/amd.json'"),
        "{stale:?}"
    );
}

/// Issue 19, item 7: GPUs the host does not have are a problem, as `args` refuses them.
#[test]
fn doctor_checks_the_selection_as_args_does() {
    let host = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts/amd-mi300x");
    let run = |sel: &str| {
        let args = cargo_bin_cmd!("gpuctl")
            .arg("--root")
            .arg(&host)
            .args(["args", sel])
            .output()
            .unwrap();
        let out = cargo_bin_cmd!("gpuctl")
            .env("PATH", "/nonexistent")
            .arg("--root")
            .arg(&host)
            .args([
                "--podman-version",
                "5.4.0",
                "doctor",
                "--format",
                "json",
                sel,
            ])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        (args.status.code().unwrap(), out.status.code().unwrap(), v)
    };
    let (args_code, code, v) = run("amd:9");
    assert_eq!((args_code, code), (1, 1));
    let sel = &checks(&v, "selection")[0];
    assert_eq!(sel.0, "problem", "{sel:?}");
    assert!(
        sel.2.contains("'gpuctl args' refuses it") && sel.2.contains('9'),
        "{sel:?}"
    );
    let (args_code, _, v) = run("amd:7");
    assert_eq!(args_code, 0);
    assert_eq!(statuses(&v, "selection"), ["ok"]);
}

/// Item 10 through the CLI: a stand-in podman that answers and leaves a process holding its
/// stdout. On this machine (`--root /`) doctor asks it, and ends well within its limit.
#[test]
fn a_podman_that_leaves_a_process_on_its_stdout_does_not_hang_doctor() {
    let bin = tempfile::tempdir().unwrap();
    let script = bin.path().join("podman");
    std::fs::write(
        &script,
        "#!/bin/sh\ncase \"$1\" in\nversion) echo '{\"Client\":{\"Version\":\"5.4.0\"}}';;\ninfo) echo '{\"host\":{\"ociRuntime\":{\"name\":\"crun\"}}}';;\nesac\n/bin/sleep 120 &\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let started = Instant::now();
    let out = cargo_bin_cmd!("gpuctl")
        .env("PATH", bin.path())
        .args(["--root", "/", "doctor", "--format", "json"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let took = started.elapsed();
    // Two calls of a 15 s limit each: a generous bound, far from the old unbounded wait.
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let podman = &checks(&v, "podman")[0];
    assert_eq!(podman.1, "podman 5.4.0", "{podman:?}");
}
