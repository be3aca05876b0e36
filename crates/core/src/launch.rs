//! `gpuctl run`: the engine's command line with the GPU arguments (the plan rendered for that
//! engine) before the user's, and a
//! launch that leaves stdin, stdout and the terminal to the engine, streams its stderr live and
//! keeps the tail, so a failure can be explained by its family.

use std::io::{self, Read, Write};
use std::process::{Command, Stdio};

use crate::text::is_unprintable;

/// podman's flag and value that keep the invoking user's groups.
const KEEP_GROUPS: [&str; 2] = ["--group-add", "keep-groups"];

/// How much of the engine's stderr is kept for `explain` (launch errors are a few lines; the
/// tail of a long log is what matters).
pub const TAIL_BYTES: usize = 64 * 1024;

/// The container engine to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Engine {
    /// podman.
    Podman,
    /// docker.
    Docker,
}

impl Engine {
    /// The program name.
    pub fn program(self) -> &'static str {
        match self {
            Engine::Podman => "podman",
            Engine::Docker => "docker",
        }
    }
}

/// What the engine's exit `code` says: podman and docker keep 125 for their own errors, 126
/// for a command that could not be invoked (podman 4.3 also for an unresolvable CDI device)
/// and 127 for one not found; any other code is the container's own (podman-run(1), "Exit
/// Status"). A start failure and a container that ran are different things to fix.
pub fn exit_meaning(engine: Engine, code: i32) -> String {
    let program = engine.program();
    match code {
        125 => format!("{program} could not start the container (exit 125: {program}'s own error)"),
        126 => format!(
            "{program} could not start the container (exit 126: the command or a device could not be set up)"
        ),
        127 => {
            format!("{program} could not start the container (exit 127: the command was not found)")
        }
        n => format!("the container started and exited with {n}"),
    }
}

/// `<engine> run <gpu args> <user args>`: the GPU arguments, rendered for the engine, come
/// first, so the user's image and command stay last.
pub fn command_line(engine: Engine, gpu_args: &[String], user_args: &[String]) -> Vec<String> {
    let mut out = vec![engine.program().to_string(), "run".to_string()];
    out.extend(gpu_args.iter().cloned());
    out.extend(user_args.iter().cloned());
    out
}

/// A warning when the user's arguments pick an OCI runtime other than crun while the GPU
/// arguments rely on `--group-add keep-groups`, which only crun honours.
pub fn runtime_warning(gpu_args: &[String], user_args: &[String]) -> Option<String> {
    let keeps = gpu_args
        .windows(2)
        .any(|w| w[0] == KEEP_GROUPS[0] && w[1] == KEEP_GROUPS[1]);
    let runtime = user_args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--runtime=")
            .map(str::to_string)
            .or_else(|| {
                (a == "--runtime")
                    .then(|| user_args.get(i + 1).cloned())
                    .flatten()
            })
    })?;
    let name = runtime.rsplit('/').next().unwrap_or(&runtime);
    (keeps && name != "crun").then(|| {
        format!(
            "--runtime {runtime} drops the supplementary groups that '--group-add keep-groups' keeps (only crun honours it); the container may not open the render nodes"
        )
    })
}

/// The command line as a POSIX shell would read it back: words of safe characters bare, the
/// rest in single quotes. A word starting with `=` is quoted too (zsh expands `=ls` to a path),
/// and a word holding a control character or a line separator is written in ANSI-C quotes
/// (`$'a\nb'`, read by bash, zsh and ksh), so the printed line is one line and no escape
/// sequence reaches the terminal.
pub fn shell_quote(argv: &[String]) -> String {
    argv.iter()
        .map(|a| shell_word(a))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_word(a: &str) -> String {
    let safe = !a.is_empty()
        && !a.starts_with('=')
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if safe {
        return a.to_string();
    }
    if !a.chars().any(is_unprintable) {
        return format!("'{}'", a.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in a.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unprintable(c) && (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if is_unprintable(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// How the engine ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The engine's exit code; 128 + the signal when a signal ended it.
    pub code: i32,
    /// The last [`TAIL_BYTES`] of its stderr.
    pub stderr_tail: String,
}

/// Runs `argv` with stdin and stdout inherited, copying its stderr to `stderr` as it comes
/// and keeping the tail. Fails only when the engine cannot be started.
pub fn launch(argv: &[String], stderr: &mut dyn Write) -> io::Result<Outcome> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command line"))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .spawn()?;
    let forwarder = SignalForwarder::start(child.id());
    let mut tail: Vec<u8> = Vec::new();
    if let Some(mut pipe) = child.stderr.take() {
        let mut buf = [0u8; 8192];
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            // A closed stderr of ours must not kill the container: keep reading.
            let _ = stderr.write_all(&buf[..n]);
            let _ = stderr.flush();
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 2 * TAIL_BYTES {
                tail.drain(..tail.len() - TAIL_BYTES);
            }
        }
    }
    let status = child.wait();
    if let Some(f) = forwarder {
        f.stop();
    }
    let status = status?;
    if tail.len() > TAIL_BYTES {
        tail.drain(..tail.len() - TAIL_BYTES);
    }
    let code = match status.code() {
        Some(c) => c,
        None => {
            use std::os::unix::process::ExitStatusExt;
            128 + status.signal().unwrap_or(0)
        }
    };
    Ok(Outcome {
        code,
        stderr_tail: String::from_utf8_lossy(&tail).into_owned(),
    })
}

/// Keeps gpuctl alive while the engine runs, so the engine's exit code is still reported after
/// a Ctrl-C, and passes on the signals that are sent to gpuctl alone.
///
/// SIGINT and SIGQUIT from a terminal reach the whole foreground process group, the engine
/// included, so they are only absorbed here: sending them again would make podman (which proxies
/// signals to the container) deliver them twice. SIGTERM and SIGHUP are usually sent to one
/// process (`kill PID`, systemd stopping a unit's main process, a closed terminal), so they are
/// forwarded to the engine, which stops the container as `podman run` does for its own signals.
struct SignalForwarder {
    handle: signal_hook::iterator::Handle,
    thread: std::thread::JoinHandle<()>,
}

impl SignalForwarder {
    /// Starts forwarding to `pid`. Without a signal thread the launch goes on with the default
    /// dispositions (gpuctl then dies with the engine on Ctrl-C, as any process would).
    fn start(pid: u32) -> Option<Self> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGQUIT, SIGTERM, SIGHUP])
            .map_err(|e| tracing::debug!("cannot watch signals while the engine runs: {e}"))
            .ok()?;
        let handle = signals.handle();
        let target = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        let thread = std::thread::spawn(move || {
            for sig in signals.forever() {
                let forward = match sig {
                    SIGTERM => rustix::process::Signal::TERM,
                    SIGHUP => rustix::process::Signal::HUP,
                    _ => continue,
                };
                if let Some(pid) = target {
                    // The engine may have exited a moment ago: nothing left to tell.
                    let _ = rustix::process::kill_process(pid, forward);
                }
            }
        });
        Some(SignalForwarder { handle, thread })
    }

    /// Stops watching once the engine has exited.
    fn stop(self) {
        self.handle.close();
        let _ = self.thread.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn gpu_arguments_come_before_the_user_s() {
        let gpu = s(&["--device", "/dev/kfd", "--group-add", "keep-groups"]);
        let user = s(&["--rm", "-it", "alpine", "sh"]);
        assert_eq!(
            command_line(Engine::Podman, &gpu, &user),
            s(&[
                "podman",
                "run",
                "--device",
                "/dev/kfd",
                "--group-add",
                "keep-groups",
                "--rm",
                "-it",
                "alpine",
                "sh"
            ])
        );
        assert_eq!(
            command_line(Engine::Docker, &s(&["--group-add", "44"]), &user)[..4],
            s(&["docker", "run", "--group-add", "44"])
        );
    }

    #[test]
    fn a_non_crun_runtime_with_keep_groups_is_warned_about() {
        let keep = s(&["--device", "/dev/kfd", "--group-add", "keep-groups"]);
        assert!(runtime_warning(&keep, &s(&["--runtime", "runc", "alpine"])).is_some());
        assert!(runtime_warning(&keep, &s(&["--runtime=/usr/bin/runc", "alpine"])).is_some());
        assert!(runtime_warning(&keep, &s(&["--runtime", "/usr/bin/crun", "alpine"])).is_none());
        assert!(runtime_warning(&keep, &s(&["alpine"])).is_none());
        assert!(
            runtime_warning(
                &s(&["--device", "nvidia.com/gpu=all"]),
                &s(&["--runtime", "runc"])
            )
            .is_none()
        );
    }

    #[rstest]
    #[case(&["podman", "run", "--device", "nvidia.com/gpu=all"], "podman run --device nvidia.com/gpu=all")]
    #[case(&["sh", "-c", "echo it's $HOME"], r#"sh -c 'echo it'\''s $HOME'"#)]
    #[case(&["a", ""], "a ''")]
    #[case(&["-e", "NVIDIA_VISIBLE_DEVICES=0,1"], "-e NVIDIA_VISIBLE_DEVICES=0,1")]
    #[case(&["alpine", "=ls", "a=b"], "alpine '=ls' a=b")]
    #[case(&["echo", "a\nintel: usable (cdi)"], r"echo $'a\nintel: usable (cdi)'")]
    #[case(&["x\u{1b}[2K'\\", "y\u{2028}"], r"$'x\x1b[2K\'\\' $'y\u2028'")]
    fn quoting(#[case] argv: &[&str], #[case] want: &str) {
        assert_eq!(shell_quote(&s(argv)), want);
    }

    #[test]
    fn the_exit_code_and_the_stderr_tail_come_back() {
        let mut err = Vec::new();
        let out = launch(&s(&["sh", "-c", "echo oops >&2; exit 125"]), &mut err);
        let out = out.unwrap_or(Outcome {
            code: -1,
            stderr_tail: String::new(),
        });
        assert_eq!(out.code, 125);
        assert_eq!(out.stderr_tail, "oops\n");
        assert_eq!(err, b"oops\n");
        let out = launch(&s(&["sh", "-c", "kill -9 $$"]), &mut Vec::new());
        assert_eq!(out.map(|o| o.code).ok(), Some(137));
        assert!(launch(&s(&["/no/such/engine"]), &mut Vec::new()).is_err());
    }

    #[test]
    fn only_the_tail_is_kept() {
        let mut err = Vec::new();
        let out = launch(
            &s(&[
                "sh",
                "-c",
                "head -c 300000 /dev/zero | tr '\\0' x >&2; echo END >&2",
            ]),
            &mut err,
        );
        let out = out.unwrap_or(Outcome {
            code: -1,
            stderr_tail: String::new(),
        });
        assert_eq!(err.len(), 300_004);
        assert_eq!(out.stderr_tail.len(), TAIL_BYTES);
        assert!(out.stderr_tail.ends_with("xEND\n"));
    }
}
