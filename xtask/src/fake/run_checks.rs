//! `gpuctl run` against the real podman: a success, a GPU failure that gets its diagnosis, a
//! non-GPU failure that does not, the engine's exit codes passed through, and an interactive
//! `-i` session whose stdin reaches the container. The fake root shows the NVIDIA raw tier,
//! whose nodes the fake machine holds at their host paths.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::universe::Vendor;
use super::{Ctx, tree};
use crate::report::{Tally, Verdict};

/// The names `--scenario` picks these by.
pub(super) const NAMES: [&str; 5] = [
    "run-success",
    "run-gpu-failure",
    "run-non-gpu-failure",
    "run-exit-code",
    "run-interactive",
];

/// A CDI device no spec on the machine declares: podman must refuse it.
const MISSING: &str = "gpuctlxtaskmissing";

const TIMEOUT: Duration = Duration::from_secs(180);

/// What one gpuctl command did.
pub(super) struct Ran {
    pub(super) code: Option<i32>,
    pub(super) stdout: String,
    pub(super) stderr: String,
}

/// `timeout T gpuctl --root R --podman-version V run --gpus nvidia -- --network=none ARGS`,
/// with `input` on stdin.
fn gpuctl_run(
    ctx: &Ctx,
    root: &std::path::Path,
    args: &[&str],
    input: &str,
) -> Result<Ran, String> {
    let mut all = vec![
        "--podman-version",
        &ctx.podman_version,
        "run",
        "--gpus",
        "nvidia",
        "--",
        "--network=none",
    ];
    all.extend_from_slice(args);
    gpuctl(ctx, root, &all, input)
}

/// `timeout T gpuctl --root R ARGS`, with `input` on stdin.
pub(super) fn gpuctl(
    ctx: &Ctx,
    root: &std::path::Path,
    args: &[&str],
    input: &str,
) -> Result<Ran, String> {
    let mut c = Command::new("timeout");
    c.arg(TIMEOUT.as_secs().to_string())
        .arg(&ctx.gpuctl.bin)
        .env_remove("GPUCTL_ROOT")
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().map_err(|e| format!("cannot start gpuctl: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot wait for gpuctl: {e}"))?;
    Ok(Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// Runs the picked `gpuctl run` scenarios.
pub(super) fn run_all(ctx: &Ctx, picked: &dyn Fn(&str) -> bool, tally: &mut Tally) {
    run_named(ctx, &NAMES, picked, tally, one);
}

/// Runs the picked ones of `names` through `one`, each a line of the tally.
pub(super) fn run_named(
    ctx: &Ctx,
    names: &[&str],
    picked: &dyn Fn(&str) -> bool,
    tally: &mut Tally,
    one: fn(&Ctx, &str) -> Result<Judged, String>,
) {
    for name in names.iter().copied().filter(|n| picked(n)) {
        let t = Instant::now();
        let result = one(ctx, name);
        let (verdict, summary, details) = match result {
            Ok((problems, summary, details)) if problems.is_empty() => {
                (Verdict::Pass, summary, details)
            }
            Ok((problems, summary, details)) => (Verdict::Fail(problems), summary, details),
            Err(e) => (
                Verdict::Fail(vec![e]),
                "could not run".to_string(),
                String::new(),
            ),
        };
        tally.record(name, "-", &verdict, &summary, t.elapsed(), &details);
    }
}

/// Problems, a summary line, and the details for the log.
pub(super) type Judged = (Vec<String>, String, String);

fn one(ctx: &Ctx, name: &str) -> Result<Judged, String> {
    let root = tree::FakeRoot::create(&ctx.scratch.join(name))?;
    root.vendor(Vendor::Nvidia)?;
    let image = ctx.image.as_str();
    let mut problems = Vec::new();
    let mut details = String::new();
    let mut expect = |ran: &Ran, code: i32, what: &str, problems: &mut Vec<String>| {
        details.push_str(&format!(
            "{what}: exit {:?}\nstdout: {}\nstderr: {}\n",
            ran.code,
            ran.stdout.trim_end(),
            ran.stderr.trim_end()
        ));
        if ran.code != Some(code) {
            problems.push(format!("{what}: exit {:?}, want {code}", ran.code));
        }
    };
    let summary = match name {
        "run-success" => {
            let ran = gpuctl_run(
                ctx,
                root.path(),
                &[
                    "--rm",
                    image,
                    "sh",
                    "-c",
                    "test -c /dev/nvidia0 && test -c /dev/nvidiactl && echo granted",
                ],
                "",
            )?;
            expect(&ran, 0, "run", &mut problems);
            if ran.stdout != "granted\n" {
                problems.push(format!("stdout {:?}, want \"granted\\n\"", ran.stdout));
            }
            "the container holds /dev/nvidia0 and /dev/nvidiactl, exit 0"
        }
        "run-gpu-failure" => {
            root.file(
                "/etc/cdi/nvidia.yaml",
                &format!(
                    "cdiVersion: \"0.3.0\"\nkind: nvidia.com/gpu\ndevices:\n  - name: {MISSING}\n    containerEdits:\n      deviceNodes:\n        - path: /dev/nvidia0\n"
                ),
            )?;
            let ran = gpuctl_run(ctx, root.path(), &["--rm", image, "true"], "")?;
            // podman 4.3 exits 126 for it, later releases 125: either is podman's own code.
            let code = ran.code.filter(|c| *c == 125 || *c == 126).unwrap_or(125);
            expect(&ran, code, "run", &mut problems);
            if !ran.stderr.contains(&format!("nvidia.com/gpu={MISSING}")) {
                problems.push("podman's own words are not on stderr".to_string());
            }
            if !ran.stderr.contains("GPU misconfiguration")
                || !ran.stderr.contains("Diagnosis (cdi-")
            {
                problems.push("no CDI diagnosis after podman's failure".to_string());
            }
            "podman refuses an undeclared CDI device (its 125/126 kept) and gpuctl names the cdi family"
        }
        "run-non-gpu-failure" => {
            let ran = gpuctl_run(
                ctx,
                root.path(),
                &[
                    "--rm",
                    "--pull=never",
                    "localhost/gpuctl-xtask-no-such-image:never",
                ],
                "",
            )?;
            expect(&ran, 125, "run", &mut problems);
            if ran.stderr.contains("GPU misconfiguration") {
                problems.push("a missing image was explained as a GPU problem".to_string());
            }
            if ran.stderr.trim().is_empty() {
                problems.push("podman's error did not reach stderr".to_string());
            }
            "a missing image fails with podman's 125 and no GPU diagnosis"
        }
        "run-exit-code" => {
            for (args, code) in [
                (vec!["--rm", image, "sh", "-c", "exit 42"], 42),
                (vec!["--rm", image, "/etc/hostname"], 126),
                (vec!["--rm", image, "/no/such/program"], 127),
            ] {
                let ran = gpuctl_run(ctx, root.path(), &args, "")?;
                expect(&ran, code, &args[2..].join(" "), &mut problems);
                if ran.stderr.contains("GPU misconfiguration") {
                    problems.push(format!("exit {code} was explained as a GPU problem"));
                }
            }
            "the container's 42 and podman's 126 and 127 come back unchanged"
        }
        _ => {
            let ran = gpuctl_run(
                ctx,
                root.path(),
                &[
                    "--rm",
                    "-i",
                    image,
                    "sh",
                    "-c",
                    "read line; echo \"got:$line\"",
                ],
                "hello from stdin\n",
            )?;
            expect(&ran, 0, "run -i", &mut problems);
            if ran.stdout != "got:hello from stdin\n" {
                problems.push(format!(
                    "stdout {:?}, want the stdin line echoed",
                    ran.stdout
                ));
            }
            "stdin reaches the container through -i, its stdout comes back"
        }
    };
    Ok((problems, summary.to_string(), details))
}
