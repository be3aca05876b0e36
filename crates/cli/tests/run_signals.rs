//! `gpuctl run` and signals: gpuctl outlives a Ctrl-C so the engine's own exit code is still
//! reported, and a SIGTERM or SIGHUP sent to gpuctl alone reaches the engine. The stand-in engine
//! is a shell script that records which signal it got and exits with a code of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gpuctl_testkit::Tree;

/// Waits on each signal it may get, writes its name to $MARK, exits with a code per signal.
/// `image inspect` (run's image check) answers at once with an empty environment.
const ENGINE: &str = r#"#!/bin/sh
[ "$1" = image ] && echo '[]' && exit 0
trap 'echo INT > "$MARK.sig"; exit 130' INT
trap 'echo TERM > "$MARK.sig"; exit 143' TERM
trap 'echo HUP > "$MARK.sig"; exit 129' HUP
touch "$MARK.ready"
i=0
while [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
exit 3
"#;

fn start(dir: &Path, root: &Path, own_group: bool) -> Child {
    let engine = dir.join("podman");
    std::fs::write(&engine, ENGINE).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The signals this test sends get their default handling first: started under `nohup`
    // (or by a CI runner that ignores SIGHUP), gpuctl and the engine would inherit SIG_IGN,
    // which a shell cannot trap, and the engine would never see the HUP (coreutils env(1)
    // --default-signal resets them before gpuctl starts).
    let mut c = Command::new("env");
    c.arg("--default-signal=HUP,INT,TERM")
        .arg(env!("CARGO_BIN_EXE_gpuctl"));
    c.env("PATH", format!("{}:/usr/bin:/bin", dir.display()))
        .env("MARK", dir.join("m"))
        .env_remove("GPUCTL_PODMAN_VERSION")
        .arg("--root")
        .arg(root)
        .args(["run", "--gpus", "nvidia", "--", "alpine"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if own_group {
        // Like a shell's foreground job: a terminal's Ctrl-C goes to this whole group.
        c.process_group(0);
    }
    let child = c.spawn().unwrap();
    let ready = dir.join("m.ready");
    let t0 = Instant::now();
    while !ready.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the engine never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The signal watcher starts right after the spawn; give it a moment on a loaded machine.
    std::thread::sleep(Duration::from_millis(300));
    child
}

fn kill(sig: &str, target: &str) {
    let ok = Command::new("kill")
        .args([sig, "--", target])
        .status()
        .unwrap();
    assert!(ok.success(), "kill {sig} {target}");
}

fn nvidia_raw() -> Tree {
    let t = Tree::new();
    t.dev(&["nvidiactl", "nvidia0"]);
    t
}

#[test]
fn ctrl_c_to_the_group_ends_the_engine_and_gpuctl_reports_its_code() {
    let (t, d) = (nvidia_raw(), tempfile::tempdir().unwrap());
    let mut child = start(d.path(), t.root(), true);
    kill("-INT", &format!("-{}", child.id()));
    let status = child.wait().unwrap();
    assert_eq!(
        status.signal(),
        None,
        "gpuctl died of the signal: {status:?}"
    );
    assert_eq!(status.code(), Some(130));
    // Delivered once, by the terminal's group signal, not a second time by gpuctl.
    assert_eq!(
        std::fs::read_to_string(d.path().join("m.sig")).unwrap(),
        "INT\n"
    );
}

#[test]
fn sigterm_and_sighup_sent_to_gpuctl_alone_reach_the_engine() {
    for (sig, name, code) in [("-TERM", "TERM", 143), ("-HUP", "HUP", 129)] {
        let (t, d) = (nvidia_raw(), tempfile::tempdir().unwrap());
        let mut child = start(d.path(), t.root(), false);
        kill(sig, &child.id().to_string());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "{sig}: {status:?}");
        assert_eq!(
            std::fs::read_to_string(d.path().join("m.sig")).unwrap(),
            format!("{name}\n")
        );
    }
}
