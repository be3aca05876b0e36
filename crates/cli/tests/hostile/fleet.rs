//! Issue 25's round four on `report` and `fleet` (items 1-6 and 17): a `--output` that is a
//! device node or a FIFO, reports behind links and links that lead nowhere, a FIFO or
//! `/dev/zero` given as a report, host names that would forge a line of the plan, the same host
//! reported twice, the NFD expiry against `--every`, and `/etc/hostname` comments. Every tree and
//! every report is built here.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use gpuctl_testkit::Tree;

use crate::{MEMORY_LIMIT_KIB, Outcome, TIME_LIMIT, gpuctl, mkfifo};

const OPEN: &str = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U22-I3-AE18-23-3)  Thu Sep 18 20:38:17 UTC 2025\n";
const PROPRIETARY: &str =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu Sep 18 20:38:17 UTC 2025\n";

/// A host named `name` (the kernel's hostname file) with one NVIDIA GPU `device`.
fn nvidia_host(name: &str, device: u16, banner: &str) -> Tree {
    let t = Tree::new();
    t.file("/proc/sys/kernel/hostname", &format!("{name}\n"))
        .file("/proc/sys/kernel/osrelease", "6.8.0-60-generic\n")
        .pci("0000:01:00.0", 0x10de, device, 0x03_00_00)
        .file("/proc/driver/nvidia/version", banner)
        .nvidia_dev();
    t
}

/// `gpuctl report --output FILE` for `tree`.
fn report_to(tree: &Tree, file: &Path) {
    let out = gpuctl(
        tree.root(),
        &["-q", "report", "--output", file.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// `gpuctl fleet`, under the suite's time and memory bounds. Exit 1 is a plan, not an error
/// (no one stack fits), so this does not ask for an error line as the harness does.
fn fleet(args: &[&str], paths: &[&Path]) -> Outcome {
    let out = assert_cmd::Command::new("sh")
        .env_clear()
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(assert_cmd::cargo::cargo_bin!("gpuctl"))
        .arg("fleet")
        .args(args)
        .args(paths)
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or_else(|| {
        panic!("gpuctl fleet {paths:?} did not finish within {TIME_LIMIT:?}: {stderr}")
    });
    assert!([0, 1, 2].contains(&code), "exit {code}: {stderr}");
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("gpuctl: warning: ") || l.starts_with("gpuctl: error: ")),
        "{stderr}"
    );
    Outcome {
        code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    }
}

/// Item 1: `report --output` at a FIFO, a link to one, and (as root) a character device like
/// /dev/null made here is refused with a sentence, exit 1, and the node is still what it was.
#[test]
fn report_output_never_replaces_a_fifo_or_a_device_node() {
    let host = nvidia_host("node-a", 0x2901, OPEN);
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    // A link that leads to one (`--output /dev/stdout`) is not replaced either.
    let link = dir.path().join("stdout");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let mut targets = vec![(fifo, "a FIFO"), (link.clone(), "a link to a FIFO")];
    let null = dir.path().join("null");
    // mknod needs root (CAP_MKNOD); the DaemonSet is root, so that is where it matters.
    let made = Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if made {
        targets.push((null, "a character device"));
    } else {
        eprintln!("not root: the character-device case is left to a root run");
    }
    for (target, kind) in targets {
        for format in ["json", "nfd"] {
            let out = gpuctl(
                host.root(),
                &[
                    "report",
                    "--format",
                    format,
                    "--output",
                    target.to_str().unwrap(),
                ],
            );
            assert_eq!(out.code, 1, "{format} {kind}: {}", out.stderr);
            assert!(
                out.stderr
                    .contains(&format!("it is {kind}, not a regular file")),
                "{}",
                out.stderr
            );
            let t = std::fs::symlink_metadata(&target).unwrap().file_type();
            assert!(
                t.is_fifo() || t.is_char_device() || t.is_symlink(),
                "{kind} was replaced"
            );
        }
    }
    // Nothing was left behind: no temporary file was made.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().starts_with('.')),
        "{names:?}"
    );
}

/// Item 2: a report that is a link in a directory is read (here it makes a second group: exit
/// 1, as naming both files does), and a link to nothing and a loop are each named with why.
#[test]
fn linked_reports_are_read_and_every_entry_left_out_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (reports, elsewhere) = (dir.path().join("reports"), dir.path().join("elsewhere"));
    std::fs::create_dir_all(&reports).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    report_to(
        &nvidia_host("node-blackwell", 0x2901, OPEN),
        &reports.join("blackwell.json"),
    );
    report_to(
        &nvidia_host("node-maxwell", 0x13c2, PROPRIETARY),
        &elsewhere.join("maxwell.json"),
    );
    std::os::unix::fs::symlink("../elsewhere/maxwell.json", reports.join("maxwell.json")).unwrap();
    std::os::unix::fs::symlink("loop-b", reports.join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", reports.join("loop-b")).unwrap();
    std::os::unix::fs::symlink("gone.json", reports.join("dangling.json")).unwrap();
    std::fs::create_dir(reports.join("old")).unwrap();

    let both = fleet(
        &[],
        &[
            &reports.join("blackwell.json"),
            &elsewhere.join("maxwell.json"),
        ],
    );
    let dir_out = fleet(&[], &[&reports]);
    assert_eq!((both.code, dir_out.code), (1, 1), "{}", dir_out.stdout);
    assert!(
        dir_out.stdout.starts_with("2 report(s) read, 4 skipped\n"),
        "{}",
        dir_out.stdout
    );
    assert!(dir_out.stdout.contains("divided by: node-blackwell needs the open kernel module, node-maxwell the proprietary one"), "{}", dir_out.stdout);
    for (entry, why) in [
        ("loop-a", "a loop of symbolic links"),
        ("loop-b", "a loop of symbolic links"),
        ("dangling.json", "a symbolic link to nothing"),
        ("old", "a directory"),
    ] {
        let line = format!("{}: skipped: {why}", reports.join(entry).display());
        assert!(dir_out.stderr.contains(&line), "{line}: {}", dir_out.stderr);
    }
    // The JSON names the same entries.
    let json = fleet(&["--format", "json"], &[&reports]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["hosts"], 2);
    assert_eq!(v["skipped"].as_array().unwrap().len(), 4, "{v}");
}

/// Item 3: a FIFO (no writer) and /dev/zero, named as reports or linked from a directory,
/// return at once with a sentence, never a hang or a read without end; a regular file one byte
/// over the limit is refused by its size, whatever size it would claim.
#[test]
fn a_fifo_or_dev_zero_as_a_report_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    std::fs::create_dir(&reports).unwrap();
    report_to(
        &nvidia_host("node-a", 0x2901, OPEN),
        &reports.join("a.json"),
    );
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    std::os::unix::fs::symlink(&fifo, reports.join("pipe.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", reports.join("zero.json")).unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; 4 * 1024 * 1024 + 1]).unwrap();

    let started = Instant::now();
    let out = fleet(&[], &[&fifo, Path::new("/dev/zero"), &big, &reports]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("1 report(s) read, 5 skipped\n"),
        "{}",
        out.stdout
    );
    for (file, why) in [
        (
            fifo.display().to_string(),
            "it is a FIFO, not a regular file",
        ),
        (
            "/dev/zero".into(),
            "it is a character device, not a regular file",
        ),
        (
            reports.join("pipe.json").display().to_string(),
            "it is a FIFO, not a regular file",
        ),
        (
            reports.join("zero.json").display().to_string(),
            "it is a character device, not a regular file",
        ),
        (big.display().to_string(), "over 4194304 bytes"),
    ] {
        let line = format!("{file}: skipped: {why}");
        assert!(out.stderr.contains(&line), "{line}: {}", out.stderr);
    }
    // Nothing but unreadable inputs: exit 2 with the sentence, still at once.
    let out = fleet(&[], &[&fifo, Path::new("/dev/zero")]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

/// What must never reach a terminal raw, and the line a host name would forge.
const RAW: [char; 4] = ['\u{1b}', '\r', '\u{2028}', '\u{7}'];
const FORGED: &str = "nvidia (9 host(s)): one stack fits every host: anything";

/// Item 4: a host name (from the kernel's hostname file) and a file name carrying line breaks
/// and an escape sequence: the text plan keeps each on its line, escaped; the JSON keeps them
/// as they are.
#[test]
fn host_and_file_names_cannot_forge_a_line_of_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let evil = format!("node-x\n{FORGED}\n\u{1b}[2K\r\u{2028}\u{7}");
    let host = nvidia_host("placeholder", 0x13c2, PROPRIETARY);
    host.file("/proc/sys/kernel/hostname", &evil);
    report_to(&host, &dir.path().join("x.json"));
    report_to(
        &nvidia_host("node-b", 0x2901, OPEN),
        &dir.path().join("b.json"),
    );
    std::fs::write(dir.path().join(format!("bad\n{FORGED}.json")), "{").unwrap();
    for args in [&[][..], &["--cuda", "12.8"][..]] {
        let out = fleet(args, &[dir.path()]);
        assert_eq!(out.code, 1, "{}", out.stdout);
        for text in [&out.stdout, &out.stderr] {
            assert!(!text.contains(RAW), "{text:?}");
            assert!(
                !text.lines().any(|l| l.trim_start().starts_with(FORGED)),
                "a forged line in {text}"
            );
        }
        assert!(
            out.stdout.contains("node-x\\n"),
            "the name is shown escaped: {}",
            out.stdout
        );
    }
    let json = fleet(&["--format", "json"], &[dir.path()]);
    assert!(
        json.stdout.contains("node-x\\nnvidia (9 host(s))"),
        "{}",
        json.stdout
    );
}

/// Item 5: the same host's report under two names, and one file named twice: each host is
/// counted once, and every second copy is named.
#[test]
fn a_host_reported_twice_is_counted_once_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    report_to(&nvidia_host("node-a", 0x2901, OPEN), &a);
    std::fs::copy(&a, dir.path().join("a-again.json")).unwrap();
    report_to(
        &nvidia_host("node-b", 0x2901, OPEN),
        &dir.path().join("b.json"),
    );
    let out = fleet(&["--format", "json"], &[dir.path(), &a]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["hosts"], 2, "{v}");
    let groups = v["vendors"][0]["groups"].as_array().unwrap();
    assert_eq!(groups[0]["hosts"], serde_json::json!(["node-a", "node-b"]));
    let skipped: Vec<String> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}: {}",
                s["file"].as_str().unwrap(),
                s["why"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        skipped,
        [
            format!(
                "{}: the same file as {}; read once",
                a.display(),
                a.display()
            ),
            format!(
                "{}: the same host as {} (host name \"node-a\"); counted once",
                a.display(),
                dir.path().join("a-again.json").display()
            ),
        ],
        "{v}"
    );
    let text = fleet(&[], &[dir.path()]);
    assert!(
        text.stdout.starts_with("2 report(s) read, 1 skipped\n"),
        "{}",
        text.stdout
    );
}

/// Item 5, by machine: two hosts that share a host name but not a machine id (a cloned image)
/// are not one host reported twice: the second is refused with that sentence; the report
/// carries the id only hashed (machine-id(5)).
#[test]
fn two_machines_with_one_name_are_refused_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let ids = [
        "3d1219c7c4c5404aaa1f6d2a48adfda4",
        "51df0b4bc3b04c9780e299b98ca373b8",
    ];
    for (id, file) in ids.iter().zip(["one.json", "two.json"]) {
        let t = nvidia_host("node-a", 0x2901, OPEN);
        t.file("/etc/machine-id", &format!("{id}\n"));
        report_to(&t, &dir.path().join(file));
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(!text.contains(id), "the raw machine id is in the report");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let hashed = v["host"]["machine_id"].as_str().unwrap();
        assert!(
            hashed.len() == 32 && hashed.bytes().all(|b| b.is_ascii_hexdigit()),
            "{hashed}"
        );
    }
    // The same machine again: a duplicate, counted once.
    std::fs::copy(dir.path().join("one.json"), dir.path().join("three.json")).unwrap();
    let out = fleet(&["--format", "json"], &[dir.path()]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["hosts"], 1, "{v}");
    let skipped: Vec<String> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}: {}",
                s["file"].as_str().unwrap(),
                s["why"].as_str().unwrap()
            )
        })
        .collect();
    let name = |f: &str| dir.path().join(f).display().to_string();
    assert_eq!(
        skipped,
        [
            format!(
                "{}: the same host as {} (host name \"node-a\"); counted once",
                name("three.json"),
                name("one.json")
            ),
            format!(
                "{}: another machine with the host name \"node-a\" of {} (their machine ids differ); fleet names hosts by name, so give one of them another hostname",
                name("two.json"),
                name("one.json")
            ),
        ]
    );
}

/// Item 17: `/etc/hostname` with comment lines (hostname(5): lines starting with `#` are
/// ignored) names the host by its one other line, when the kernel's file is absent.
#[test]
fn etc_hostname_comments_are_not_the_host_name() {
    let t = Tree::new();
    t.file(
        "/etc/hostname",
        "# Managed by the installer; do not edit\n#\nnode-17\n",
    );
    let out = gpuctl(t.root(), &["report"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["host"]["name"], "node-17");
    t.file("/etc/hostname", "# only a comment\n");
    let out = gpuctl(t.root(), &["report"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["host"]["name"], serde_json::Value::Null);
}
