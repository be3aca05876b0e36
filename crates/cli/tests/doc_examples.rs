//! Every example in README.md and docs/*.md that shows gpuctl's output is run and compared, so
//! the pages cannot drift from what gpuctl prints (issue 28, item 9).
//!
//! The convention (CONTRIBUTING.md, "Examples in the docs"): in a fenced block, a line
//! `$ COMMAND` (a trailing `\` continues it onto the next line) is followed by exactly what the
//! command prints, stdout then stderr, up to the next `$ ` line or the fence; a trailing
//! `# exit N` says its exit status (0 when absent). A block with a `$ ` line naming gpuctl runs
//! all its commands in order with `sh`, in one scratch directory that links the checkout's
//! `tests/`, `docs/`, `crates/` and `deploy/`, with the built gpuctl first on PATH. A block that
//! needs a real machine or podman carries `<!-- not run: why -->` on the line before its fence:
//! it is counted and listed, never run. Commands meant only to be read go in a block without
//! `$ ` prompts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// 2026-12-01T07:00:00Z: `report --format nfd`'s expiry is one hour after it.
const EPOCH: &str = "1796108400";

/// One `$ ` command and what the page shows after it.
struct Example {
    command: String,
    shown: String,
    exit: i32,
}

/// A fenced block holding at least one `$ ` command that names gpuctl.
struct Block {
    page: String,
    line: usize,
    not_run: Option<String>,
    examples: Vec<Example>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut v = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

/// `# exit N` at the end of a command, if any.
fn exit_of(command: &str) -> i32 {
    command
        .rsplit_once("# exit ")
        .and_then(|(_, n)| n.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn names_gpuctl(command: &str) -> bool {
    command
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .any(|w| w == "gpuctl")
}

fn blocks(page: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```") {
            i += 1;
            continue;
        }
        let open = i;
        let not_run = lines[..open]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| l.trim().strip_prefix("<!-- not run:"))
            .map(|l| l.trim_end_matches("-->").trim().to_string());
        i += 1;
        let mut examples: Vec<Example> = Vec::new();
        while i < lines.len() && !lines[i].starts_with("```") {
            if let Some(first) = lines[i].strip_prefix("$ ") {
                let mut command = first.to_string();
                while command.ends_with('\\') && i + 1 < lines.len() {
                    i += 1;
                    command.push('\n');
                    command.push_str(lines[i]);
                }
                let exit = exit_of(&command);
                examples.push(Example {
                    command,
                    shown: String::new(),
                    exit,
                });
            } else if let Some(last) = examples.last_mut() {
                last.shown.push_str(lines[i]);
                last.shown.push('\n');
            }
            i += 1;
        }
        i += 1;
        if examples.iter().any(|e| names_gpuctl(&e.command)) {
            out.push(Block {
                page: page.to_string(),
                line: open + 1,
                not_run,
                examples,
            });
        }
    }
    out
}

/// A scratch directory that looks like the checkout where examples read it.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["tests", "docs", "crates", "deploy"] {
        std::os::unix::fs::symlink(
            root().join(name).canonicalize().unwrap(),
            dir.path().join(name),
        )
        .unwrap();
    }
    dir
}

fn run(command: &str, dir: &Path) -> (String, i32) {
    let bin = Path::new(env!("CARGO_BIN_EXE_gpuctl"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env_remove("GPUCTL_ROOT")
        .env_remove("GPUCTL_PODMAN_VERSION")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (text, out.status.code().unwrap_or(-1))
}

#[test]
fn every_shown_output_is_what_gpuctl_prints() {
    let mut ran = 0;
    let mut compared = 0;
    let mut not_run = Vec::new();
    let mut drift = Vec::new();
    for page in pages() {
        let name = page
            .strip_prefix(root())
            .unwrap_or(&page)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&page).unwrap();
        for block in blocks(&name, &text) {
            if let Some(why) = &block.not_run {
                for e in block.examples.iter().filter(|e| names_gpuctl(&e.command)) {
                    not_run.push(format!(
                        "{}:{}: {} ({why})",
                        block.page, block.line, e.command
                    ));
                }
                continue;
            }
            let dir = scratch();
            for e in &block.examples {
                let (got, code) = run(&e.command, dir.path());
                ran += 1;
                if !e.shown.is_empty() {
                    compared += 1;
                }
                if got != e.shown || code != e.exit {
                    drift.push(format!(
                        "{}:{}: $ {}\n--- the page shows (exit {}):\n{}--- gpuctl printed (exit {code}):\n{got}",
                        block.page, block.line, e.command, e.exit, e.shown
                    ));
                }
            }
        }
    }
    println!(
        "doc examples: {ran} run, {compared} compared, {} not run:",
        not_run.len()
    );
    for n in &not_run {
        println!("  not run: {n}");
    }
    assert!(
        drift.is_empty(),
        "{} example(s) drifted from what gpuctl prints:\n\n{}",
        drift.len(),
        drift.join("\n")
    );
    // README alone shows more than this; fewer means the scan stopped finding them.
    assert!(
        compared >= 10,
        "only {compared} examples compared: is the scan broken?"
    );
}

#[test]
fn a_block_is_read_by_the_convention() {
    let page = "intro\n<!-- not run: needs podman -->\n```\n$ podman run $(gpuctl args all) IMAGE\nout\n```\n\
                ```sh\n$ gpuctl requirement \\\n  2704   # exit 1\nline one\nline two\n$ gpuctl args none\n```\n\
                ```\n$ cargo build\n```\n";
    let b = blocks("p.md", page);
    assert_eq!(b.len(), 2, "the cargo block names no gpuctl");
    assert_eq!(b[0].not_run.as_deref(), Some("needs podman"));
    assert_eq!(b[0].examples[0].shown, "out\n");
    assert_eq!(b[1].not_run, None);
    assert_eq!(
        b[1].examples[0].command,
        "gpuctl requirement \\\n  2704   # exit 1"
    );
    assert_eq!(b[1].examples[0].exit, 1);
    assert_eq!(b[1].examples[0].shown, "line one\nline two\n");
    assert_eq!(b[1].examples[1].shown, "");
    assert_eq!(b[1].examples[1].exit, 0);
    assert!(!names_gpuctl("cargo xtask gpuctl-bench-scan"));
}
