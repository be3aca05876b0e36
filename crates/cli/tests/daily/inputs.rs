//! Item 9: wrong inputs are named, not passed over in silence: a missing `--cdi-spec-dir`, a
//! `--root` with nothing of a host in it, an empty input to `explain`, and a pipe the user
//! names (`explain <(podman ...)`), read like standard input without ever hanging.

use std::process::Command;

use gpuctl_testkit::Tree;

use super::*;

#[test]
fn a_missing_cdi_spec_dir_is_a_warning_and_podman_s_silence_is_said() {
    let (code, out, err) = run(
        &host("intel-arc-cdi"),
        &["--cdi-spec-dir", "/nonexistent", "args", "intel"],
    );
    // The other tiers still answer, as podman (which skips the directory) would.
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("--device /dev/dri/renderD128"), "{out}");
    assert!(
        err.starts_with("gpuctl: warning: the CDI spec directory /nonexistent does not exist, so no spec is read from it; podman skips a missing --cdi-spec-dir without a word"),
        "{err}"
    );
}

#[test]
fn a_root_with_nothing_of_a_host_gets_a_hint() {
    let (code, out, err) = run(&host(""), &["detect"]);
    assert_eq!(code, 0);
    assert!(out.contains("nvidia: not usable"), "{out}");
    assert!(
        err.contains("has no sys/, dev/ or proc/ and no CDI spec directory, so gpuctl finds no GPU there; point --root at a copy of a host's /"),
        "{err}"
    );
    // A tree of CDI specs alone is a host gpuctl answers for: no hint.
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/amd.json", "amd.com/gpu", &["0", "all"]);
    let (code, _, err) = run(t.root(), &["args", "amd"]);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn empty_input_to_explain_says_it_was_empty() {
    let t = Tree::new();
    let empty = t.path("/podman.err");
    std::fs::write(&empty, "\n").unwrap();
    let (code, out, err) = run(t.root(), &["explain", empty.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (1, ""));
    assert!(out.starts_with("Nothing to explain: "), "{out}");
    assert!(out.contains("was empty"), "{out}");
    assert!(out.contains("'2>'"), "{out}");
    let out = gpuctl(t.root())
        .arg("explain")
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Nothing to explain: standard input was empty. podman prints its errors on standard error, so capture them with '2>' ('podman run ... 2> podman.err') or '2>&1 |', not '>'.\n"
    );
}

#[test]
fn a_fifo_nobody_writes_to_is_empty_input_at_once() {
    let t = Tree::new();
    let fifo = t.path("/fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let (code, out, _) = run(t.root(), &["explain", fifo.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.starts_with("Nothing to explain: "), "{out}");
    assert!(started.elapsed() < HANG, "never a hang");
}

/// `gpuctl explain <(podman ...)`: bash hands over /dev/fd/N, a pipe whose writer is there.
#[test]
fn process_substitution_is_read_like_standard_input() {
    // Real podman 4.3.1's words under `gpuctl run` (docs/explain.md, the CDI family).
    let script = format!(
        "exec {} --root {} explain <(sleep 0.2; echo 'Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all' >&2) 2>&1",
        env!("CARGO_BIN_EXE_gpuctl"),
        host("empty").display()
    );
    // The substituted command writes to stderr; send it into the pipe instead.
    let script = script.replace("' >&2)", "')");
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("cdi-unresolvable"), "{text}");
}

/// `gpuctl explain` at a terminal says it is reading the terminal and how to end the input,
/// instead of waiting with no word. util-linux's `script` gives it a terminal; without it the
/// test says it was skipped.
#[test]
fn explain_at_a_terminal_says_what_it_waits_for() {
    let Ok(probe) = Command::new("script").arg("--version").output() else {
        eprintln!("skipped: no 'script' (util-linux) to give gpuctl a terminal");
        return;
    };
    if !probe.status.success() {
        eprintln!("skipped: 'script --version' failed");
        return;
    }
    let cmd = format!(
        "timeout 5 {} --root {} explain",
        env!("CARGO_BIN_EXE_gpuctl"),
        host("empty").display()
    );
    // The end of input travels as the terminal's EOF character (Ctrl-D), which script writes
    // into the terminal. Whether script also passes its own end of input on differs between
    // util-linux releases; where the terminal never ends, `timeout` stops gpuctl. The prompt,
    // printed before any read, is what this test is about.
    let mut child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(b"\x04");
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "gpuctl: reading podman's error text from the terminal: paste it, then press Ctrl-D"
        ),
        "{text}"
    );
    if !text.contains("Nothing to explain: standard input was empty.") {
        eprintln!("note: this 'script' did not pass the end of input on; gpuctl was stopped");
    }
}
