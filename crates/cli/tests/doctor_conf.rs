//! `gpuctl doctor` reads containers.conf as podman does (issue 16, item 6; issue 19, item 11):
//! TOML, the files in podman's order (docs/containers-conf.md), and on a `--root` tree the
//! tree's files decide the runtime, never this machine's podman. Each case builds a rootless
//! AMD host on the raw tier, whose arguments use keep-groups, so runc is a problem there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use serde_json::Value;

fn host() -> Tree {
    let t = Tree::new();
    t.file(
        "/proc/self/status",
        "Name:\tgpuctl\nUid:\t4242\t4242\t4242\t4242\nGid:\t4242\t4242\t4242\t4242\nGroups:\t\n",
    );
    t.pci("0000:c1:00.0", 0x1002, 0x744c, 0x030000);
    t.render_node("renderD128", "0x1002", "0000:c1:00.0");
    t.dev(&["kfd"]);
    t.by_path("0000:c1:00.0", "renderD128");
    for n in ["/dev/kfd", "/dev/dri/renderD128"] {
        std::fs::set_permissions(t.path(n), std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    t
}

/// The oci-runtime check: (status, subject, facts joined).
fn runtime(t: &Tree, env: &[(&str, &str)], path: &Path) -> (String, String, String) {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().env("PATH", path).env("HOME", "/home/user");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .arg("--root")
        .arg(t.root())
        .args([
            "--podman-version",
            "5.4.0",
            "doctor",
            "--format",
            "json",
            "amd",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "oci-runtime")
        .unwrap()
        .clone();
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
    )
}

fn no_podman() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Each way of writing `[engine] runtime = "runc"` that TOML allows, and each file podman reads
/// it from, sets runc: doctor must not say ok.
#[test]
fn runc_set_in_any_toml_form_or_file_is_found() {
    let forms = [
        "[engine] # the engine\nruntime = \"runc\"\n",
        "[ engine ]\nruntime = \"runc\"\n",
        "[\"engine\"]\n'runtime' = \"runc\"\n",
        "engine.runtime = \"runc\"\n",
        "[engine]\nruntime = \"\"\"runc\"\"\"\n",
    ];
    for form in forms {
        let t = host();
        t.file("/etc/containers/containers.conf", form);
        let (status, subject, facts) = runtime(&t, &[], no_podman().path());
        assert_eq!(
            (status.as_str(), subject.as_str()),
            ("problem", "runc"),
            "{form:?}: {facts}"
        );
    }
    let files = [
        "/usr/share/containers/containers.conf",
        "/usr/share/containers/containers.conf.d/10-runc.conf",
        "/etc/containers/containers.conf.d/50-runc.conf",
        "/etc/containers/containers.rootless.conf.d/runc.conf",
        "/etc/containers/containers.rootless.conf.d/4242/runc.conf",
        "/home/user/.config/containers/containers.conf",
        "/home/user/.config/containers/containers.conf.d/runc.conf",
    ];
    for file in files {
        let t = host();
        t.file(file, "[engine]\nruntime = \"runc\"\n");
        let (status, _, facts) = runtime(&t, &[], no_podman().path());
        assert_eq!(status, "problem", "{file}: {facts}");
        assert!(facts.contains(&format!("(from {file})")), "{facts}");
    }
}

/// Later files win: a drop-in over the main file, the user's over the system's, the drop-ins in
/// name order; the rootful directory is not read for a rootless user.
#[test]
fn files_are_read_in_podman_s_order() {
    let t = host();
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    t.file(
        "/etc/containers/containers.conf.d/10-a.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    t.file(
        "/etc/containers/containers.conf.d/20-b.conf",
        "[engine]\nruntime = \"crun\"\n",
    );
    t.file(
        "/etc/containers/containers.conf.d/30-c.conf.bak",
        "[engine]\nruntime = \"runc\"\n",
    );
    t.file(
        "/etc/containers/containers.rootful.conf.d/x.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    let (status, subject, facts) = runtime(&t, &[], no_podman().path());
    assert_eq!(
        (status.as_str(), subject.as_str()),
        ("ok", "crun"),
        "{facts}"
    );
    assert!(
        facts.contains("from /etc/containers/containers.conf.d/20-b.conf"),
        "{facts}"
    );

    t.file(
        "/home/user/.config/containers/containers.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    let (status, _, facts) = runtime(&t, &[], no_podman().path());
    assert_eq!(status, "problem", "{facts}");
    // XDG_CONFIG_HOME moves the user's files.
    let (status, _, _) = runtime(
        &t,
        &[("XDG_CONFIG_HOME", "/home/user/xdg")],
        no_podman().path(),
    );
    assert_eq!(status, "ok");
}

/// `CONTAINERS_CONF` replaces every other file; `CONTAINERS_CONF_OVERRIDE` is read last.
#[test]
fn the_environment_replaces_and_overrides_as_podman_s_does() {
    let t = host();
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"crun\"\n",
    );
    t.file("/srv/podman.conf", "[engine]\nruntime = \"runc\"\n");
    t.file("/srv/fix.conf", "[engine]\nruntime = \"crun\"\n");
    let (status, _, facts) = runtime(
        &t,
        &[("CONTAINERS_CONF", "/srv/podman.conf")],
        no_podman().path(),
    );
    assert_eq!(status, "problem", "{facts}");
    assert!(
        !facts.contains("/etc/containers/containers.conf"),
        "{facts}"
    );
    let (status, _, _) = runtime(
        &t,
        &[
            ("CONTAINERS_CONF", "/srv/podman.conf"),
            ("CONTAINERS_CONF_OVERRIDE", "/srv/fix.conf"),
        ],
        no_podman().path(),
    );
    assert_eq!(status, "ok");
    // podman refuses to start when a file its environment names is missing.
    let (status, _, facts) = runtime(
        &t,
        &[("CONTAINERS_CONF", "/srv/gone.conf")],
        no_podman().path(),
    );
    assert_eq!(status, "problem");
    assert!(facts.contains("/srv/gone.conf does not exist"), "{facts}");
}

/// A file podman's TOML decoder refuses stops podman: a problem, with the file named.
#[test]
fn a_containers_conf_that_is_not_toml_is_a_problem() {
    let t = host();
    t.file(
        "/etc/containers/containers.conf.d/bad.conf",
        "[engine\nruntime = crun\n",
    );
    let (status, _, facts) = runtime(&t, &[], no_podman().path());
    assert_eq!(status, "problem");
    assert!(
        facts.contains(
            "/etc/containers/containers.conf.d/bad.conf is not a containers.conf podman can read"
        ),
        "{facts}"
    );
}

/// Issue 19, item 11: on a `--root` tree, the tree's containers.conf decides, even with a
/// podman on PATH that would say crun; that podman is not run.
#[test]
fn another_host_s_runtime_comes_from_its_tree_not_this_machine_s_podman() {
    let bin = tempfile::tempdir().unwrap();
    let mark = bin.path().join("ran");
    let script = bin.path().join("podman");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n: > '{}'\necho '{{\"Client\":{{\"Version\":\"5.4.0\"}},\"host\":{{\"ociRuntime\":{{\"name\":\"crun\"}}}}}}'\n",
            mark.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let t = host();
    t.file(
        "/etc/containers/containers.conf.d/runc.conf",
        "[engine]\nruntime = \"runc\"\n",
    );
    let (status, subject, facts) = runtime(&t, &[], bin.path());
    assert_eq!(
        (status.as_str(), subject.as_str()),
        ("problem", "runc"),
        "{facts}"
    );
    assert!(
        facts.contains("from /etc/containers/containers.conf.d/runc.conf"),
        "{facts}"
    );
    assert!(
        !mark.exists(),
        "this machine's podman was asked about another host"
    );
}

/// No containers.conf names a runtime and no podman says which it uses: for arguments with
/// keep-groups that is "cannot tell" (a warning naming the command that tells), never ok.
#[test]
fn no_runtime_anywhere_is_a_warning_where_keep_groups_needs_crun() {
    let t = host();
    let (status, subject, facts) = runtime(&t, &[], no_podman().path());
    assert_eq!(
        (status.as_str(), subject.as_str()),
        ("warning", "podman's default"),
        "{facts}"
    );
    assert!(facts.contains("only crun supports"), "{facts}");
    t.file(
        "/etc/containers/containers.conf",
        "[engine]\nruntime = \"crun\"\n",
    );
    let (status, subject, _) = runtime(&t, &[], no_podman().path());
    assert_eq!((status.as_str(), subject.as_str()), ("ok", "crun"));
}
