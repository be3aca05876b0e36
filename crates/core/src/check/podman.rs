//! The one process doctor runs: podman, for `podman version` and `podman info` only, with a
//! time limit. Everything else it knows comes from the host tree.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{Check, Status};
use gpuctl_cdi::podman::PodmanCeiling;

/// How long one podman call may take (`podman info` on a cold store takes seconds).
pub const PODMAN_TIMEOUT: Duration = Duration::from_secs(15);

/// The process boundary: runs podman with these arguments, returning stdout.
#[cfg_attr(test, mockall::automock)]
pub trait PodmanCli {
    /// `None` when there is no podman to run; `Some(Err)` when it failed or timed out.
    fn run(&self, args: &[&'static str]) -> Option<Result<String, String>>;
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
        let path = path_var.and_then(|p| {
            std::env::split_paths(p)
                .map(|d| d.join("podman"))
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
}

fn run_limited(path: &Path, args: &[&str], timeout: Duration) -> Result<String, String> {
    let shown = format!("{} {}", path.display(), args.join(" "));
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run '{shown}' ({e})"))?;
    // Read stdout on a thread so a chatty podman cannot fill the pipe and stall the wait.
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(out) = stdout.as_mut() {
            let _ = out.take(4 * 1024 * 1024).read_to_string(&mut s);
        }
        s
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = reader.join().unwrap_or_default();
                return if status.success() {
                    Ok(out)
                } else {
                    Err(format!("'{shown}' failed ({status})"))
                };
            }
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "'{shown}' did not answer within {} s",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait for '{shown}' ({e})")),
        }
    }
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
                    f.errors.push(e);
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

/// The `podman` check: found, which version, what it can load.
pub fn check(p: &PodmanFacts) -> Check {
    if !p.found {
        return Check::new("podman", "podman", Status::Skipped)
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
            let c = Check::new("podman", format!("podman {}", ceiling.podman), status)
                .fact(format!("podman {} loads {cdi}", ceiling.podman));
            if status == Status::Problem {
                c.remedy("upgrade podman to 4.1 or newer for CDI")
            } else {
                c
            }
        }
        Some(Err(e)) => Check::new("podman", "podman", Status::Warning).fact(e.to_string()),
        None => {
            Check::new("podman", "podman", Status::Warning).fact("podman did not say its version")
        }
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
