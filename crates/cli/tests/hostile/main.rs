//! Hostile hosts: trees no real host has, built to break a probe. Each command must end within a
//! generous time and memory bound (a CI bound, not a timing test) with the documented exit
//! code, say what is wrong in sentences (no panic, no Debug output), and grant nothing that was
//! not asked for. This file is the harness; the trees are in the modules, by round:
//! `trees` (issue 9: size, links, FIFOs), `grants` (issue 16: names that split or forge a
//! grant, links to other devices, docker's groups), `forged` (issue 16: output that can be
//! forged), `fleet` (issue 25: report's output and fleet's input), `nodes` (issue 25: a uvm link,
//! doctor's group advice).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fleet;
mod forged;
mod grants;
mod nodes;
mod trees;

use std::ffi::OsStr;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use gpuctl_testkit::Tree;

/// Generous bounds: a debug build on a loaded 2-core CI machine.
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Virtual memory (KiB) the gpuctl process may map, through the shell's `ulimit -v`.
const MEMORY_LIMIT_KIB: u64 = 1024 * 1024;

/// What one gpuctl run did.
pub(crate) struct Outcome {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs gpuctl on `root` under the time and memory bounds, and checks what holds for every
/// outcome: a documented exit code, and stderr made of gpuctl's own sentences.
pub(crate) fn gpuctl(root: &Path, args: &[&str]) -> Outcome {
    gpuctl_raw(&["--root".as_ref(), root.as_os_str()], args)
}

pub(crate) fn gpuctl_raw(global: &[&OsStr], args: &[&str]) -> Outcome {
    let bin = assert_cmd::cargo::cargo_bin!("gpuctl");
    let started = Instant::now();
    let out = assert_cmd::Command::new("sh")
        .env_clear()
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(bin)
        .args(global)
        .args(args)
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or_else(|| {
        panic!("gpuctl {args:?} did not finish within {TIME_LIMIT:?} or was killed: {stderr}")
    });
    assert!(
        started.elapsed() < TIME_LIMIT,
        "gpuctl {args:?} took {:?}",
        started.elapsed()
    );
    assert!(
        [0, 1, 2].contains(&code),
        "gpuctl {args:?} exited {code}: {stderr}"
    );
    for line in stderr.lines() {
        assert!(
            line.starts_with("gpuctl: warning: ")
                || line.starts_with("gpuctl: error: ")
                || line.starts_with("Hint:")
                || line.starts_with("  "),
            "gpuctl {args:?} printed something not a sentence of its own: {line:?}"
        );
        assert!(
            !line.contains("panicked") && !line.contains(" { "),
            "{line:?}"
        );
    }
    if code != 0 {
        assert!(
            stderr.contains("gpuctl: error: "),
            "gpuctl {args:?} failed silently"
        );
    }
    Outcome {
        code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    }
}

/// The device paths and CDI names an `args` line grants.
pub(crate) fn granted(stdout: &str) -> Vec<String> {
    let words: Vec<&str> = stdout.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "--device")
        .map(|w| w[1].to_string())
        .collect()
}

pub(crate) fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

pub(crate) fn socket(path: &Path) -> UnixListener {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    UnixListener::bind(path).unwrap()
}

/// Two AMD GPUs on the raw tier, with their render nodes.
pub(crate) fn two_amd_gpus(tree: &Tree) {
    tree.dev(&["kfd"]);
    for (name, addr) in [
        ("renderD128", "0000:03:00.0"),
        ("renderD129", "0000:04:00.0"),
    ] {
        tree.pci(addr, 0x1002, 0x74a1, 0x038000)
            .render_node(name, "0x1002", addr)
            .by_path(addr, name);
    }
}
