//! Running podman (and other host commands) with a deadline, and what podman's version implies
//! for CDI. A hung command must become a failed scenario, never a stuck CI job.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::Runtime;

/// The image `.ci/run` builds from the static busybox with `podman import`.
pub const DEFAULT_IMAGE: &str = "localhost/gpuctl-busybox:latest";

/// How long one podman call may take. A container here lives well under a second.
pub const PODMAN_TIMEOUT: Duration = Duration::from_secs(60);

/// The supplementary groups the keep-groups check gives podman (video and users on Debian).
pub const PROBE_GROUPS: [u32; 2] = [44, 100];

/// What a finished command left behind.
#[derive(Debug, Clone)]
pub struct Captured {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

impl Captured {
    /// True when the command exited 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// The exit code as text, for messages.
    pub fn code_text(&self) -> String {
        self.code
            .map_or_else(|| "a signal".to_string(), |c| c.to_string())
    }

    /// What the in-container script reported, with podman's failure (if any) added to
    /// `problems` and the container's listing to `details`.
    pub fn container_report(
        &self,
        problems: &mut Vec<String>,
        details: &mut String,
    ) -> crate::check::ContainerReport {
        if !self.ok() {
            problems.push(format!(
                "podman exited {}: {}",
                self.code_text(),
                self.stderr.trim()
            ));
        }
        let report = crate::check::parse_report(&self.stdout);
        details.push_str(&report.listing);
        report
    }
}

/// Runs `cmd` with stdin closed, capturing its output, and kills it after `timeout`.
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<Captured, String> {
    let shown = describe(cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {shown}: {e}"))?;
    // Read both pipes on their own threads: a child that fills one pipe while we wait on the
    // other would otherwise never finish.
    let out = child.stdout.take().map(drain);
    let err = child.stderr.take().map(drain);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{shown} did not finish within {} s and was killed",
                    timeout.as_secs()
                ));
            }
            Ok(None) => thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("cannot wait for {shown}: {e}")),
        }
    };
    // A grandchild that inherited a pipe (conmon, say) could keep it open after the child is
    // gone: wait for the rest of the output only briefly.
    let grace = Duration::from_secs(5);
    let collect = |rx: Option<mpsc::Receiver<String>>| {
        rx.and_then(|rx| rx.recv_timeout(grace).ok())
            .unwrap_or_default()
    };
    Ok(Captured {
        code: status.code(),
        stdout: collect(out),
        stderr: collect(err),
    })
}

fn drain(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// `program arg arg`, for messages (arguments with spaces are quoted).
pub fn describe(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    for a in cmd.get_args() {
        let a = a.to_string_lossy();
        words.push(if a.contains(' ') || a.is_empty() {
            format!("'{a}'")
        } else {
            a.into_owned()
        });
    }
    words.join(" ")
}

/// The first `name` on `PATH` that is a file, as the shell would find it.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// One `podman run` to make.
#[derive(Debug, Clone)]
pub struct RunSpec<'a> {
    /// The OCI runtime; `None` leaves podman's configured one.
    pub runtime: Option<Runtime>,
    /// The arguments gpuctl printed (or any other `podman run` options).
    pub args: &'a [String],
    /// The image.
    pub image: &'a str,
    /// The shell script the container runs with `sh -c`.
    pub script: &'a str,
    /// Run podman with these supplementary groups (through `setpriv`), to see what
    /// `--group-add keep-groups` keeps.
    pub groups: Option<&'a [u32]>,
    /// An OCI hooks directory for podman (`podman --hooks-dir`), instead of its default ones.
    pub hooks_dir: Option<&'a std::path::Path>,
}

/// Starts one throw-away container: `podman run --rm --network=none`, named so that a
/// container left behind by a timeout can be removed.
pub fn run_container(spec: &RunSpec, name: &str) -> Result<Captured, String> {
    let mut cmd = match spec.groups {
        Some(groups) => {
            let list: Vec<String> = groups.iter().map(u32::to_string).collect();
            let mut c = Command::new("setpriv");
            c.arg("--groups").arg(list.join(",")).arg("podman");
            c
        }
        None => Command::new("podman"),
    };
    if let Some(dir) = spec.hooks_dir {
        cmd.arg("--hooks-dir").arg(dir);
    }
    cmd.args(["run", "--rm", "--network=none", "--name", name]);
    if let Some(rt) = spec.runtime {
        cmd.args(["--runtime", rt.name()]);
    }
    cmd.args(spec.args)
        .arg(spec.image)
        .args(["sh", "-c", spec.script]);
    let result = run_with_timeout(&mut cmd, PODMAN_TIMEOUT);
    if result.is_err() {
        // A killed `podman run` can leave its container running under conmon.
        let _ = run_with_timeout(
            Command::new("podman").args(["rm", "--force", "--time", "0", name]),
            PODMAN_TIMEOUT,
        );
    }
    result
}

/// The podman client version (`4.3.1`).
pub fn version() -> Result<String, String> {
    let out = run_with_timeout(
        Command::new("podman").args(["version", "--format", "{{.Client.Version}}"]),
        PODMAN_TIMEOUT,
    )?;
    if !out.ok() {
        return Err(format!(
            "'podman version' failed (exit {}): {}",
            out.code_text(),
            out.stderr.trim()
        ));
    }
    Ok(out.stdout.trim().to_string())
}

/// Whether podman has `image` in its local storage.
pub fn image_exists(image: &str) -> Result<bool, String> {
    let out = run_with_timeout(
        Command::new("podman").args(["image", "exists", image]),
        PODMAN_TIMEOUT,
    )?;
    match out.code {
        Some(0) => Ok(true),
        Some(1) => Ok(false),
        _ => Err(format!(
            "'podman image exists {image}' failed (exit {}): {}",
            out.code_text(),
            out.stderr.trim()
        )),
    }
}

/// The first line of `<program> --version` (`crun version 1.8.1`), or why there is none.
pub fn tool_version(program: &Path) -> String {
    match run_with_timeout(Command::new(program).arg("--version"), PODMAN_TIMEOUT) {
        Ok(out) if out.ok() => out.stdout.lines().next().unwrap_or("").trim().to_string(),
        Ok(out) => format!("version unknown (exit {})", out.code_text()),
        Err(e) => format!("version unknown ({e})"),
    }
}

/// A CDI spec version.
pub type CdiVersion = gpuctl_cdi::version::Version;

/// `0.5.0`.
pub use gpuctl_cdi::version::format_version as version_text;

/// The highest `cdiVersion` a podman release loads, from gpuctl's own table: the fake run then
/// checks that table against the real podman (specs at the ceiling load, above it do not).
/// `None`: this podman has no usable CDI support (before 4.1).
pub fn cdi_ceiling(podman_version: &str) -> Option<CdiVersion> {
    gpuctl_cdi::podman::PodmanCeiling::parse(podman_version)
        .ok()?
        .max_cdi
}

/// The oldest version podman with `ceiling` rejects: what a spec from a newer toolkit has.
pub fn above_ceiling(ceiling: CdiVersion) -> Option<CdiVersion> {
    let known = gpuctl_cdi::version::KNOWN_VERSIONS;
    known.iter().rev().copied().find(|v| *v > ceiling)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("3.4.4", None)]
    #[case("4.3.1", Some((0, 5, 0)))] // Debian 12
    #[case("4.9.3", Some((0, 6, 0)))] // Ubuntu 24.04
    #[case("5.4.2", Some((0, 8, 0)))]
    fn ceilings(#[case] podman: &str, #[case] want: Option<CdiVersion>) {
        assert_eq!(cdi_ceiling(podman), want);
    }

    #[rstest]
    #[case((0, 5, 0), Some((0, 6, 0)))]
    #[case((0, 8, 0), Some((1, 0, 0)))]
    #[case((1, 1, 0), None)]
    fn next_version(#[case] ceiling: CdiVersion, #[case] want: Option<CdiVersion>) {
        assert_eq!(above_ceiling(ceiling), want);
    }

    #[test]
    fn output_and_exit_code_are_captured() {
        let out = run_with_timeout(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(10),
        );
        let out = out.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (Some(3), "out\n", "err\n")
        );
    }

    #[test]
    fn a_hang_becomes_an_error() {
        let started = Instant::now();
        let r = run_with_timeout(Command::new("sleep").arg("5"), Duration::from_millis(200));
        assert!(r.is_err_and(|e| e.contains("did not finish within")));
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[test]
    fn describe_quotes_words_with_spaces() {
        let mut c = Command::new("podman");
        c.args(["run", "sh", "-c", "ls /dev"]);
        assert_eq!(describe(&c), "podman run sh -c 'ls /dev'");
    }
}
