//! `gpuctl report --every` and signals (issue 25, items 6 and 7): a real `gpuctl report
//! --every` child gets a real SIGTERM or SIGINT between writes, and must exit 0 at once with
//! its file whole and no temporary file left; as PID 1 of a PID namespace (a FROM-scratch
//! container), where the kernel drops every signal PID 1 has no handler for, too. The file it
//! writes with `--format nfd` expires after two periods, so NFD keeps the labels until the next
//! write and one more period.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gpuctl_testkit::Tree;

/// A generous bound for a debug build on a loaded CI machine; the period is an hour, so an exit
/// within it is the signal's doing.
const BOUND: Duration = Duration::from_secs(30);
const EVERY: &str = "3600";

fn host() -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", "node-a\n");
    t.dev(&["nvidiactl", "nvidia0"]);
    t
}

/// `gpuctl --root T report --format F --output OUT --every 3600`, behind `prefix` (a program
/// and its arguments, or nothing), with SIGINT and SIGTERM at their defaults (a CI runner may
/// start tests with them ignored, which a child inherits).
fn start(prefix: &[&str], root: &Path, format: &str, out: &Path) -> Child {
    let mut c = Command::new("env");
    c.arg("--default-signal=INT,TERM").args(prefix);
    c.arg(env!("CARGO_BIN_EXE_gpuctl"))
        .arg("--root")
        .arg(root)
        .args(["-q", "report", "--format", format, "--output"])
        .arg(out)
        .args(["--every", EVERY])
        .env("SOURCE_DATE_EPOCH", "1764576000")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c.spawn().unwrap()
}

/// Waits until the first write is there (the handlers are installed before it).
fn wait_for(out: &Path, child: &mut Child) {
    let t0 = Instant::now();
    while !out.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("gpuctl ended before writing: {status:?}");
        }
        assert!(t0.elapsed() < BOUND, "no report written");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(sig: &str, pid: u32) {
    let ok = Command::new("kill")
        .args([sig, "--", &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success(), "kill {sig} {pid}");
}

/// The child's status once it exits, or a failure (and the child killed) past the bound.
fn ended(child: &mut Child) -> std::process::ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if t0.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gpuctl report --every did not end within {BOUND:?} of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn assert_clean(dir: &Path, out: &Path, format: &str) {
    let text = std::fs::read_to_string(out).unwrap();
    match format {
        "json" => {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["host"]["name"], "node-a");
        }
        _ => {
            // 1764576000 is 2025-12-01T08:00:00Z; two periods of an hour later.
            assert!(
                text.contains("# +expiry-time=2025-12-01T10:00:00Z\n"),
                "{text}"
            );
            // Whole: the last label is there, its line ended.
            let last = text.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("gpuctl.io/doctor.warnings=") && text.ends_with('\n'),
                "{text}"
            );
        }
    }
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn sigterm_and_sigint_end_report_every_with_exit_0_and_a_whole_file() {
    for (sig, format) in [("-TERM", "nfd"), ("-INT", "json")] {
        let (t, d) = (host(), tempfile::tempdir().unwrap());
        let out = d.path().join("gpuctl");
        let mut child = start(&[], t.root(), format, &out);
        wait_for(&out, &mut child);
        kill(sig, child.id());
        let status = ended(&mut child);
        assert_eq!(
            (status.code(), status.signal()),
            (Some(0), None),
            "{sig}: {status:?}"
        );
        assert_clean(d.path(), &out, format);
    }
}

/// PID 1 of its own PID namespace, as in a FROM-scratch container: without a handler the
/// SIGTERM would be dropped and gpuctl would run until the bound. Needs unshare(1) and the
/// right to make a PID namespace (root, or user namespaces); where neither is there this says
/// so and checks nothing more than the test above.
#[test]
fn as_pid_1_sigterm_still_ends_report_every() {
    let probe = Command::new("unshare")
        .args(["--pid", "--fork", "true"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("unshare --pid is not allowed here: the PID 1 case is left to a root run");
        return;
    }
    let (t, d) = (host(), tempfile::tempdir().unwrap());
    let out = d.path().join("gpuctl");
    let mut unshare = start(
        &["unshare", "--pid", "--fork", "--kill-child"],
        t.root(),
        "nfd",
        &out,
    );
    wait_for(&out, &mut unshare);
    // env execs unshare, which forks gpuctl: its only child, PID 1 inside.
    let children =
        std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", unshare.id())).unwrap();
    let gpuctl: u32 = children.split_whitespace().next().unwrap().parse().unwrap();
    let status = std::fs::read_to_string(format!("/proc/{gpuctl}/status")).unwrap();
    assert!(
        status
            .lines()
            .any(|l| l.starts_with("NSpid:") && l.trim_end().ends_with("\t1")),
        "not PID 1 in its namespace: {status}"
    );
    kill("-TERM", gpuctl);
    let status = ended(&mut unshare);
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_clean(d.path(), &out, "nfd");
}
