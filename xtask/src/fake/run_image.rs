//! `gpuctl run` checks the image before podman starts it (issue 17, docs/image-check.md): an
//! image built for CUDA 12.8 on a fake host whose loaded driver is 550 is refused with exit 1
//! and no container is started; `--no-image-check` starts it. On the CDI tier, where NVIDIA's
//! toolkit checks nothing (NVIDIA/nvidia-container-toolkit#1470), and on the raw tier.
//!
//! The image is built here, offline, from the busybox test image with two `ENV` lines (no
//! `RUN`, so no runtime and no network are needed), and removed at the end.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::nodes::HostChanges;
use super::universe::Vendor;
use super::{Ctx, specs, tree};
use crate::podman::{CdiVersion, version_text};
use crate::report::{Tally, Verdict};

/// The names `--scenario` picks these by.
pub(super) const NAMES: [&str; 2] = ["run-image-cdi", "run-image-raw"];

/// The image's requirement: what NVIDIA's CUDA 12.8 images declare, cut to one forward-
/// compatibility alternative (dist/12.8.0/ubuntu2404/base/Dockerfile of
/// gitlab.com/nvidia/container-images/cuda lists the same for the 470 branch and others).
const REQUIRE: &str = "cuda>=12.8 brand=tesla,driver>=470,driver<471";

/// The fake host's loaded driver: the 550 branch runs CUDA 12.4.
const LOADED: &str = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16-T02-35-3)  Tue Mar  5 22:15:33 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";

const TIMEOUT: Duration = Duration::from_secs(180);

/// Builds the image, runs the picked scenarios, removes the image.
pub(super) fn run_all(
    ctx: &Ctx,
    changes: &mut HostChanges,
    ceiling: Option<CdiVersion>,
    picked: &dyn Fn(&str) -> bool,
    tally: &mut Tally,
) -> Result<(), String> {
    let names: Vec<&str> = NAMES.iter().copied().filter(|n| picked(n)).collect();
    if names.is_empty() {
        return Ok(());
    }
    let image = format!("localhost/gpuctl-xtask-cuda128:{}", std::process::id());
    let built = build_image(ctx, &image);
    for name in names {
        let t = Instant::now();
        let verdict = match (&built, name, ceiling) {
            (Err(e), _, _) => Verdict::Fail(vec![e.clone()]),
            (Ok(()), "run-image-cdi", None) => {
                Verdict::Skip(format!("podman {} has no CDI support", ctx.podman_version))
            }
            (Ok(()), _, _) => match one(ctx, changes, name, ceiling, &image) {
                Ok((problems, details)) => {
                    if ctx.keep {
                        let _ = std::fs::write(ctx.scratch.join(format!("{name}.log")), &details);
                    }
                    if problems.is_empty() {
                        Verdict::Pass
                    } else {
                        Verdict::Fail(problems)
                    }
                }
                Err(e) => Verdict::Fail(vec![e]),
            },
        };
        tally.record(
            name,
            "-",
            &verdict,
            "a CUDA 12.8 image on a 550 driver: refused before podman starts it, started with --no-image-check",
            t.elapsed(),
            "",
        );
    }
    let _ = Command::new("podman")
        .args(["rmi", "--force", &image])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    Ok(())
}

/// `podman build` from the test image with the image's environment, nothing pulled.
fn build_image(ctx: &Ctx, image: &str) -> Result<(), String> {
    let dir = ctx.scratch.join("image-cuda128");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let containerfile = format!(
        "FROM {}\nENV NVIDIA_REQUIRE_CUDA=\"{REQUIRE}\"\nENV CUDA_VERSION=12.8.0\n",
        ctx.image
    );
    std::fs::write(dir.join("Containerfile"), containerfile)
        .map_err(|e| format!("cannot write the Containerfile: {e}"))?;
    let out = Command::new("podman")
        .args(["build", "--pull=never", "-q", "-t", image, "-f"])
        .arg(dir.join("Containerfile"))
        .arg(&dir)
        .output()
        .map_err(|e| format!("cannot run podman build: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "podman build of {image} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

type Judged = (Vec<String>, String);

fn one(
    ctx: &Ctx,
    changes: &mut HostChanges,
    name: &str,
    ceiling: Option<CdiVersion>,
    image: &str,
) -> Result<Judged, String> {
    let root = tree::FakeRoot::create(&ctx.scratch.join(name))?;
    root.vendor(Vendor::Nvidia)?;
    root.file("/proc/driver/nvidia/version", LOADED)?;
    let spec = match (name, ceiling) {
        ("run-image-cdi", Some(c)) => {
            let spec = specs::nvidia("gpuctl-xtask-nvidia.yaml", &version_text(c));
            root.file(&spec.host_path(), &spec.text)?;
            changes.dir_all(Path::new(spec.dir))?;
            changes.file(Path::new(&spec.host_path()), &spec.text)?;
            Some(spec)
        }
        _ => None,
    };
    let result = judge(ctx, root.path(), image, spec.is_some());
    if let Some(spec) = spec {
        changes.undo(Path::new(&spec.host_path()))?;
    }
    result
}

fn judge(ctx: &Ctx, root: &Path, image: &str, cdi: bool) -> Result<Judged, String> {
    let mark = root.join("mark");
    std::fs::create_dir_all(&mark).map_err(|e| format!("cannot create {}: {e}", mark.display()))?;
    let started = mark.join("started");
    let mut problems = Vec::new();
    let mut details = String::new();

    // --dry-run first: the tier gpuctl picked must be the one the scenario is about.
    let dry = gpuctl_run(ctx, root, &["--dry-run"], image, &mark)?;
    let want = if cdi {
        "nvidia.com/gpu=all"
    } else {
        "/dev/nvidia0"
    };
    if !dry.1.contains(want) {
        problems.push(format!("the command line does not hold {want}: {}", dry.1));
    }

    let refused = gpuctl_run(ctx, root, &[], image, &mark)?;
    details.push_str(&format!(
        "run: exit {:?}\nstderr: {}\n",
        refused.0, refused.2
    ));
    if refused.0 != Some(1) {
        problems.push(format!("run: exit {:?}, want 1", refused.0));
    }
    for words in [
        "refusing to start the container",
        "550.54.15",
        "570.26",
        "CUDA 12.4 or older",
    ] {
        if !refused.2.contains(words) {
            problems.push(format!("the refusal does not say {words:?}"));
        }
    }
    if started.exists() {
        problems.push("the container ran although gpuctl refused the image".to_string());
    }

    let forced = gpuctl_run(ctx, root, &["--no-image-check"], image, &mark)?;
    details.push_str(&format!(
        "run --no-image-check: exit {:?}\nstderr: {}\n",
        forced.0, forced.2
    ));
    if forced.0 != Some(0) {
        problems.push(format!("run --no-image-check: exit {:?}, want 0", forced.0));
    }
    if !started.exists() {
        problems.push("--no-image-check did not start the container".to_string());
    }
    Ok((problems, details))
}

/// `timeout T gpuctl --root R --podman-version V run --gpus nvidia FLAGS -- ... IMAGE sh -c ...`:
/// exit code, stdout, stderr.
fn gpuctl_run(
    ctx: &Ctx,
    root: &Path,
    flags: &[&str],
    image: &str,
    mark: &Path,
) -> Result<(Option<i32>, String, String), String> {
    let out = Command::new("timeout")
        .arg(TIMEOUT.as_secs().to_string())
        .arg(&ctx.gpuctl.bin)
        .env_remove("GPUCTL_ROOT")
        .arg("--root")
        .arg(root)
        .args([
            "--podman-version",
            &ctx.podman_version,
            "run",
            "--gpus",
            "nvidia",
        ])
        .args(flags)
        .args(["--", "--rm", "--network=none", "-v"])
        .arg(format!("{}:/mark", mark.display()))
        .args([image, "sh", "-c", ": > /mark/started"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start gpuctl run: {e}"))?;
    Ok((
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}
