//! Issue 16's output that can be forged: control characters and line separators from the tree
//! or the command line reach the terminal only escaped (detect, warnings and errors,
//! `run --dry-run`); every `AddDevice=` value is a name Quadlet reads as podman does; a word
//! starting with `=` is quoted for zsh.

use std::ffi::OsStr;
use std::path::Path;

use gpuctl_core::commands::render::is_quadlet_device;
use gpuctl_testkit::Tree;

use crate::{gpuctl, gpuctl_raw, two_amd_gpus};

/// What must never reach a terminal raw.
const RAW: [char; 6] = ['\u{1b}', '\r', '\u{85}', '\u{2028}', '\u{2029}', '\u{7}'];

/// A forged line, as a name would smuggle it in.
const FORGED: &str = "intel: usable (cdi)";

fn assert_unforged(what: &str, text: &str) {
    assert!(!text.contains(RAW), "{what}: {text:?}");
    assert!(
        !text.lines().any(|l| l.trim_start() == FORGED),
        "{what}: a forged line in {text:?}"
    );
}

/// Item 11: names in the tree (a spec file, a sysfs entry, a procfs entry) carry a newline and an
/// escape sequence; detect's text, its JSON's warnings on stderr, and the errors stay one line
/// each, with the characters escaped.
#[test]
fn names_from_the_tree_cannot_forge_a_line_or_an_escape() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    let evil = format!("x\n{FORGED}\n\u{1b}[2K\r\u{2028}");
    tree.file(&format!("/etc/cdi/{evil}.yaml"), "cdiVersion: [");
    tree.file(&format!("/sys/class/drm/renderD1\n{FORGED}"), "");
    tree.file(&format!("/sys/bus/pci/devices/{evil}"), "");
    tree.nvidia_proc(&format!("0000:41:00.0\n{FORGED}"), Some(0))
        .nvidia_dev();
    for args in [
        &["detect"][..],
        &["detect", "--format", "json"],
        &["args", "all"],
        &["args", "nvidia:9"],
        &["args", "intel"],
        &["requirement"],
        &["run", "--dry-run", "--gpus", "amd", "--", "alpine"],
    ] {
        let out = gpuctl(tree.root(), args);
        if args.contains(&"json") {
            // JSON escapes the C0 controls; U+2028 in a JSON string is JSON's business.
            let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            assert!(json.is_object());
            assert!(!out.stdout.contains(['\u{1b}', '\r']), "{}", out.stdout);
        } else {
            assert_unforged(&format!("{args:?} stdout"), &out.stdout);
        }
        assert_unforged(&format!("{args:?} stderr"), &out.stderr);
    }
    let out = gpuctl(tree.root(), &["detect"]);
    assert!(
        out.stdout
            .contains("x\\nintel: usable (cdi)\\n\\u{1b}[2K\\r\\u{2028}.yaml"),
        "{}",
        out.stdout
    );
}

/// Item 11: what the command line supplies is escaped in errors too (a --root, a selector, a
/// spec directory).
#[test]
fn arguments_cannot_forge_an_error_line() {
    let tree = Tree::new();
    let root = tree.path(&format!("/no\n{FORGED}\u{1b}[2K"));
    let out = gpuctl_raw(&["--root".as_ref(), root.as_os_str()], &["detect"]);
    assert_eq!(out.code, 2);
    assert_unforged("--root", &out.stderr);
    let out = gpuctl(tree.root(), &["args", &format!("amd\n{FORGED}\u{1b}[31m")]);
    assert_eq!(out.code, 2);
    assert_unforged("selector", &out.stderr);
    let dir = tree.path(&format!("/cdi\n{FORGED}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad\u{1b}[2K.json"), "{").unwrap();
    let out = gpuctl_raw(
        &[
            "--root".as_ref(),
            tree.root().as_os_str(),
            "--cdi-spec-dir".as_ref(),
            OsStr::new(&format!("/cdi\n{FORGED}")),
        ],
        &["detect", "--format", "json"],
    );
    assert_unforged("--cdi-spec-dir", &out.stderr);
}

/// Items 11 and 13: `run --dry-run` prints one line a shell reads back as the same words:
/// control characters in ANSI-C quotes, a word starting with `=` (zsh's `=ls`) quoted.
#[test]
fn dry_run_quotes_what_a_shell_or_a_terminal_would_act_on() {
    let tree = Tree::new();
    two_amd_gpus(&tree);
    let out = gpuctl(
        tree.root(),
        &[
            "run",
            "--dry-run",
            "--gpus",
            "amd",
            "--",
            "alpine",
            "=ls",
            &format!("a\n{FORGED}"),
            "\u{1b}[2K",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_unforged("run --dry-run", &out.stdout);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(
        out.stdout
            .ends_with(" alpine '=ls' $'a\\nintel: usable (cdi)' $'\\x1b[2K'\n"),
        "{}",
        out.stdout
    );
    // bash reads the line back as the words given.
    let words = std::process::Command::new("bash")
        .args(["-c", &format!("printf '%s\\0' {}", out.stdout.trim_end())])
        .output()
        .unwrap();
    let words: Vec<&[u8]> = words.stdout.split(|b| *b == 0).collect();
    assert!(words.contains(&"=ls".as_bytes()));
    assert!(words.contains(&format!("a\n{FORGED}").as_bytes()));
    assert!(words.contains(&"\u{1b}[2K".as_bytes()));
}

/// Item 12: every `AddDevice=` value gpuctl writes, on every bundled host and on a tree whose
/// spec declares names Quadlet would misread, is a name Quadlet reads as podman does.
#[test]
fn every_add_device_value_is_a_checked_name() {
    let hosts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts");
    let mut roots: Vec<std::path::PathBuf> = std::fs::read_dir(&hosts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    roots.sort();
    let tree = Tree::new();
    tree.cdi_spec(
        "/etc/cdi/acme.yaml",
        "nvidia.com/gpu",
        &["-optional", "a\\x2d", "0", "all"],
    );
    roots.push(tree.root().to_path_buf());
    let mut seen = 0;
    for root in &roots {
        for sel in [
            "all", "nvidia", "amd", "intel", "nvidia:0", "amd:0", "intel:0",
        ] {
            let out = gpuctl(root, &["args", "--format", "quadlet", sel]);
            for line in out.stdout.lines() {
                let Some(value) = line.strip_prefix("AddDevice=") else {
                    continue;
                };
                seen += 1;
                assert!(is_quadlet_device(value), "{}: {line}", root.display());
                let shaped = value.starts_with("/dev/")
                    || value.split_once('=').is_some_and(|(kind, name)| {
                        kind.contains('/')
                            && name
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || "_-.:".contains(c))
                    });
                assert!(shaped, "{}: {line}", root.display());
            }
        }
    }
    assert!(seen > 20, "only {seen} AddDevice= lines");
}
