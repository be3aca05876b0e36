//! The one process doctor runs: podman, for `podman version`, `podman info` and `podman image
//! inspect` (an image's environment, [`crate::image`]) only, with a time limit. Everything
//! else it knows comes from the host tree.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::codes;
use super::{Check, Status};
use crate::launch::Engine;
use gpuctl_cdi::podman::PodmanCeiling;

/// How long one podman call may take (`podman info` on a cold store takes seconds).
pub const PODMAN_TIMEOUT: Duration = Duration::from_secs(15);

/// What `podman image inspect --format` is given: the image's config environment as a JSON
/// array of `KEY=VALUE` strings, as `podman run` would set them ([`crate::commands::image`]); read with
/// [`crate::image_env::ImageEnv::from_json`], so that a value holding a line break stays one
/// value (a `{{println .}}` line per entry could not tell it from a second entry).
pub const ENV_FORMAT: &str = "{{json .Config.Env}}";

/// The process boundary: runs podman with these arguments, returning stdout.
#[cfg_attr(test, mockall::automock)]
pub trait PodmanCli {
    /// `None` when there is no podman to run; `Some(Err)` when it failed or timed out.
    fn run(&self, args: &[&'static str]) -> Option<Result<String, String>>;

    /// `podman image inspect --format` [`ENV_FORMAT`] `-- IMAGE`: the image's
    /// environment as a JSON array, from local storage (nothing is pulled); `None` and `Some(Err)` as
    /// for [`PodmanCli::run`].
    fn image_env(&self, image: &str) -> Option<Result<String, String>>;
}

/// The podman found on `PATH`.
#[derive(Debug, Clone)]
pub struct SystemPodman {
    path: Option<PathBuf>,
    timeout: Duration,
}

impl SystemPodman {
    /// Looks podman up in `path_var` (the value of `PATH`).
    pub fn from_path_var(path_var: Option<&std::ffi::OsStr>) -> Self {
        SystemPodman::engine(Engine::Podman, path_var)
    }

    /// Looks the engine up in `path_var`: docker answers `image inspect --format` as podman
    /// does, so `gpuctl run --engine docker` reads the image's environment the same way.
    pub fn engine(engine: Engine, path_var: Option<&std::ffi::OsStr>) -> Self {
        let path = path_var.and_then(|p| {
            std::env::split_paths(p)
                .map(|d| d.join(engine.program()))
                .find(|c| is_executable(c))
        });
        SystemPodman {
            path,
            timeout: PODMAN_TIMEOUT,
        }
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl PodmanCli for SystemPodman {
    fn run(&self, args: &[&'static str]) -> Option<Result<String, String>> {
        let path = self.path.as_ref()?;
        Some(run_limited(path, args, self.timeout))
    }

    fn image_env(&self, image: &str) -> Option<Result<String, String>> {
        let path = self.path.as_ref()?;
        let args = ["image", "inspect", "--format", ENV_FORMAT, "--", image];
        // The format is noise in a sentence about a missing image.
        let noise = format!(" --format {} --", ENV_FORMAT);
        Some(run_limited(path, &args, self.timeout).map_err(|e| e.replace(&noise, "")))
    }
}

/// How long the output may take to close once podman has exited: what it wrote is in the pipe
/// already, so only a process it left behind holding the pipe keeps it open longer.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// Runs podman in a process group of its own and reads its stdout on a thread. The whole call,
/// the read included, ends by `timeout`: a podman that does not exit in time is killed with its
/// process group, and so are processes it left behind holding its stdout once it has exited
/// (podman's rootless pause process starts a session of its own, so it is not among them).
pub(crate) fn run_limited(path: &Path, args: &[&str], timeout: Duration) -> Result<String, String> {
    use std::os::unix::process::CommandExt;
    let shown = format!("{} {}", path.display(), args.join(" "));
    let start = Instant::now();
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run '{shown}' ({e})"))?;
    let group = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw);
    let kill_group = || {
        if let Some(g) = group {
            // The group may be gone already: nothing is left to stop then.
            let _ = rustix::process::kill_process_group(g, rustix::process::Signal::KILL);
        }
    };
    // Read on a thread, so that neither a full pipe nor a pipe that never closes can stall the
    // wait; what was read comes back over the channel once the pipe closes.
    let stdout = child.stdout.take();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(out) = stdout {
            let _ = out.take(4 * 1024 * 1024).read_to_end(&mut s);
        }
        let _ = tx.send(String::from_utf8_lossy(&s).into_owned());
    });
    // stderr only says why a call failed ("image not known"); read apart, so that it cannot
    // fill its pipe, and only waited for then.
    let stderr = child.stderr.take();
    let (etx, erx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(err) = stderr {
            let _ = err.take(64 * 1024).read_to_end(&mut s);
        }
        let _ = etx.send(String::from_utf8_lossy(&s).into_owned());
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= timeout => {
                kill_group();
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "'{shown}' did not answer within {} s",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                kill_group();
                return Err(format!("cannot wait for '{shown}' ({e})"));
            }
        }
    };
    let grace = DRAIN_GRACE.min(timeout.saturating_sub(start.elapsed()));
    let out = match rx.recv_timeout(grace) {
        Ok(out) => out,
        Err(_) => {
            // Something podman started still holds its stdout: stop it, then take what came.
            kill_group();
            rx.recv_timeout(DRAIN_GRACE).map_err(|_| {
                format!("the output of '{shown}' did not close: a process it left behind holds it")
            })?
        }
    };
    if status.success() {
        Ok(out)
    } else {
        let said = erx
            .recv_timeout(DRAIN_GRACE)
            .ok()
            .and_then(|e| last_line(&e))
            .map_or(String::new(), |l| format!(": {l}"));
        Err(format!("'{shown}' failed ({status}){said}"))
    }
}

/// The last line a failing podman wrote on stderr (`Error: nosuch: image not known`), with
/// control characters dropped so that it stays one line of text.
fn last_line(stderr: &str) -> Option<String> {
    let line = stderr.lines().rev().find(|l| !l.trim().is_empty())?;
    let clean: String = line.chars().filter(|c| !c.is_control()).take(300).collect();
    Some(clean.trim().to_string())
}

/// What podman said about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodmanFacts {
    /// False when no podman was found (the podman checks are skipped).
    pub found: bool,
    /// The client version (`4.9.3`).
    pub version: Option<String>,
    /// The OCI runtime podman uses by default (`crun`, `runc`).
    pub runtime: Option<String>,
    /// Whether podman runs rootless.
    pub rootless: Option<bool>,
    /// What went wrong asking it.
    pub errors: Vec<String>,
}

impl PodmanFacts {
    /// What is known without asking: the version given on the command line, if any. For a
    /// `--root` that names another host, whose podman is not this machine's.
    pub fn given(version: Option<&str>) -> PodmanFacts {
        PodmanFacts {
            found: version.is_some(),
            version: version.map(str::to_string),
            ..PodmanFacts::default()
        }
    }
}

impl PodmanFacts {
    /// Asks podman (`podman version`, `podman info`). A version given on the command line
    /// (`--podman-version`) replaces the first call.
    pub fn ask(cli: &dyn PodmanCli, given_version: Option<&str>) -> PodmanFacts {
        let mut f = PodmanFacts::default();
        match given_version {
            Some(v) => {
                f.found = true;
                f.version = Some(v.to_string());
            }
            None => match cli.run(&["version", "--format", "json"]) {
                None => return f,
                Some(Ok(text)) => {
                    f.found = true;
                    f.version = json_str(&text, &["Client", "Version"]);
                }
                Some(Err(e)) => {
                    f.found = true;
                    // A podman that hung once would hang again: one time limit is enough.
                    let hung = e.contains("did not answer") || e.contains("did not close");
                    f.errors.push(e);
                    if hung {
                        return f;
                    }
                }
            },
        }
        match cli.run(&["info", "--format", "json"]) {
            None => {}
            Some(Ok(text)) => {
                f.runtime = json_str(&text, &["host", "ociRuntime", "name"]);
                f.rootless = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v["host"]["security"]["rootless"].as_bool());
            }
            Some(Err(e)) => f.errors.push(e),
        }
        f
    }
}

fn json_str(text: &str, path: &[&str]) -> Option<String> {
    let root: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut v = &root;
    for key in path {
        v = v.get(key)?;
    }
    v.as_str().map(str::to_string)
}

/// The `podman` check: found, which version, what it can load. On another host (`--root`)
/// this machine's podman is not that host's, so only a version given on the command line counts.
pub fn check(p: &PodmanFacts, another_host: bool) -> Check {
    if another_host && p.version.is_none() {
        return Check::new(codes::PODMAN, "podman", Status::Skipped)
            .fact("skipped: --root names another host; give --podman-version to check its specs against that host's podman")
            .remedy("pass --podman-version VERSION (the output of 'podman --version' on that host)");
    }
    if !p.found {
        return Check::new(codes::PODMAN, "podman", Status::Skipped)
            .fact("podman is not on PATH: the checks that need it (cdiVersion ceiling, its OCI runtime) are skipped or use containers.conf")
            .remedy("install podman, or pass --podman-version VERSION to check against a podman elsewhere");
    }
    let mut c = match p.version.as_deref().map(PodmanCeiling::parse) {
        Some(Ok(ceiling)) => {
            let cdi = match ceiling.max_cdi {
                None => "no CDI support (4.1 is the first)".to_string(),
                Some(v) => format!(
                    "CDI specs up to cdiVersion {}",
                    gpuctl_cdi::version::format_version(v)
                ),
            };
            let status = if ceiling.max_cdi.is_none() {
                Status::Problem
            } else {
                Status::Ok
            };
            let c = Check::new(codes::PODMAN, format!("podman {}", ceiling.podman), status)
                .fact(format!("podman {} loads {cdi}", ceiling.podman));
            if status == Status::Problem {
                c.remedy("upgrade podman to 4.1 or newer for CDI")
            } else {
                c
            }
        }
        Some(Err(e)) => Check::new(codes::PODMAN, "podman", Status::Warning).fact(e.to_string()),
        None => Check::new(codes::PODMAN, "podman", Status::Warning)
            .fact("podman did not say its version"),
    };
    for e in &p.errors {
        c = c.fact(e.clone());
        if c.status == Status::Ok {
            c.status = Status::Warning;
        }
    }
    if let Some(r) = &p.runtime {
        c = c.fact(format!("its default OCI runtime is {r}"));
    }
    c
}

#[cfg(test)]
#[path = "podman_tests.rs"]
mod tests;
