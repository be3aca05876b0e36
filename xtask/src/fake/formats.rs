//! The `compose` and `docker` renderings with real clients. `compose`: the fragment gpuctl
//! prints goes, under a service, through the real podman-compose (`run`, verbose), and every
//! GPU argument of `gpuctl args --format json` must reach the podman command podman-compose
//! runs, spelled as podman takes it; the container must then hold the granted nodes. `docker`:
//! the numeric `--group-add` values that stand for keep-groups are the groups that own the
//! nodes in the fake root, and podman run with them (the docker-style arguments as they are)
//! gives the container exactly those groups under crun and under runc.

use std::os::unix::fs::chown;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::tree::FakeRoot;
use super::universe::{DrmGpu, KFD, Vendor, drm_gpus};
use super::{Ctx, tree};
use crate::check::{container_script, join, verify};
use crate::gpuctl::parse_args_json;
use crate::podman::{self, PODMAN_TIMEOUT, RunSpec, run_with_timeout, which};
use crate::report::{Tally, Verdict};

/// The compose scenario's name.
pub const COMPOSE: &str = "compose";
/// The docker-groups scenario's name.
pub const DOCKER_GROUPS: &str = "docker-groups";

/// The groups the docker scenario gives the fake nodes: AMD's (`/dev/kfd` and its render
/// nodes) and Intel's, like Debian's render and video groups.
const AMD_GID: u32 = 109;
const INTEL_GID: u32 = 44;

fn fake_root(ctx: &Ctx, name: &str, vendors: &[Vendor]) -> Result<FakeRoot, String> {
    let root = tree::FakeRoot::create(&ctx.scratch.join(name))?;
    for v in vendors {
        root.vendor(*v)?;
    }
    Ok(root)
}

fn verdict(problems: Vec<String>) -> Verdict {
    if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(problems)
    }
}

/// The (flag, value) pairs of a command line, for the flags gpuctl prints; `-v` too, which
/// podman-compose uses for binds.
fn gpu_pairs(words: &[String]) -> Vec<(String, String)> {
    let flags = ["--device", "-e", "--mount", "--group-add", "-v"];
    words
        .windows(2)
        .filter(|w| flags.contains(&w[0].as_str()))
        .map(|w| (w[0].clone(), w[1].clone()))
        .collect()
}

/// The `podman run` line podman-compose logged (`--verbose`), split at spaces as it prints it.
fn logged_run(stderr: &str) -> Option<Vec<String>> {
    stderr
        .lines()
        .find_map(|l| l.split_once("podman_compose:podman run ").map(|(_, r)| r))
        .map(|r| r.split(' ').map(str::to_string).collect())
}

/// compose, through podman-compose, under every runtime.
pub(super) fn run_compose(ctx: &Ctx, tally: &mut Tally) -> Result<(), String> {
    let Some(compose_bin) = which("podman-compose") else {
        for rt in &ctx.runtimes {
            tally.record(COMPOSE, rt.name(), &Verdict::Fail(vec!["podman-compose is not on PATH: install it with 'pip install podman-compose' (.ci/run does)".to_string()]), "", Default::default(), "");
        }
        return Ok(());
    };
    let root = fake_root(ctx, COMPOSE, &[Vendor::Nvidia, Vendor::Amd, Vendor::Intel])?;
    let json = ctx.gpuctl.args_as(root.path(), "json", &["all"])?;
    let fragment = ctx.gpuctl.args_as(root.path(), "compose", &["all"])?;
    let podman_args = parse_args_json(&json.stdout).unwrap_or_default();
    let mut file = format!(
        "services:\n  gpu:\n    image: {}\n    network_mode: none\n",
        ctx.image
    );
    for line in fragment.stdout.lines() {
        file.push_str(&format!("    {line}\n"));
    }
    let compose_file = ctx.scratch.join("compose.yaml");
    std::fs::write(&compose_file, &file)
        .map_err(|e| format!("cannot write {}: {e}", compose_file.display()))?;
    let script = container_script(&ctx.universe.all_paths());
    let trap = long_form_trap(&compose_bin, ctx, &file)?;
    for rt in &ctx.runtimes {
        let t = Instant::now();
        let mut problems: Vec<String> = trap.iter().cloned().collect();
        let mut details = format!("compose file:\n{file}");
        if !json.ok() || !fragment.ok() || podman_args.is_empty() {
            problems.push(format!(
                "gpuctl args all failed: {} {}",
                json.stderr.trim(),
                fragment.stderr.trim()
            ));
        }
        let mut cmd = Command::new(&compose_bin);
        cmd.args(["--verbose", "--in-pod", "false", "-p", "gpuctl-xtask"])
            // `=`: argparse would take a separate "--runtime=..." for a flag of its own.
            .arg(format!("--podman-args=--runtime={}", rt.name()))
            .arg("-f")
            .arg(&compose_file)
            .args(["run", "--rm", "gpu", "sh", "-c", &script]);
        let out = run_with_timeout(&mut cmd, PODMAN_TIMEOUT)?;
        let report = out.container_report(&mut problems, &mut details);
        details.push_str(&format!(
            "podman-compose stderr:\n{}\n",
            out.stderr.trim_end()
        ));
        // Every GPU pair must reach podman as podman takes it; the by-path binds are the ones
        // the fragment leaves out (podman-compose cannot pass their ':'), and must not appear.
        let reached = logged_run(&out.stderr).map(|w| gpu_pairs(&w));
        let wanted = gpu_pairs(&podman_args);
        let mut granted = Vec::new();
        match &reached {
            None => problems.push("podman-compose logged no 'podman run' command".to_string()),
            Some(reached) => {
                for (flag, value) in &wanted {
                    let left_out = flag == "--mount" && value.contains("/by-path/");
                    let there = reached.iter().any(|(f, v)| f == flag && v == value);
                    if left_out == there {
                        problems.push(format!(
                            "{flag} {value} {} the podman command podman-compose ran",
                            if there { "is in" } else { "is missing from" }
                        ));
                    }
                    if flag == "--device" {
                        granted.push(value.clone());
                    }
                }
                if let Some(v) = reached.iter().find(|(f, _)| f == "-v") {
                    problems.push(format!("podman-compose passed a bind as -v {}", v.1));
                }
            }
        }
        match ctx.universe.expectation(&granted) {
            Ok(mut expect) => {
                expect.env = podman_args
                    .iter()
                    .filter(|a| a.starts_with("NVIDIA_"))
                    .cloned()
                    .collect();
                problems.extend(verify(&expect, &report));
            }
            Err(e) => problems.push(e),
        }
        let summary = format!(
            "{} GPU argument(s) reached podman through podman-compose, the by-path binds left out as noted; {} granted node(s) in the container",
            wanted.len(),
            granted.len()
        );
        tally.record(
            COMPOSE,
            rt.name(),
            &verdict(problems),
            &summary,
            t.elapsed(),
            &details,
        );
    }
    let _ = run_with_timeout(
        Command::new(&compose_bin)
            .args(["-p", "gpuctl-xtask", "-f"])
            .arg(&compose_file)
            .arg("down"),
        PODMAN_TIMEOUT,
    );
    Ok(())
}

/// Why the fragment leaves the by-path binds in a comment: uncommented (the long form docker
/// compose takes), podman-compose turns them into `-v SOURCE:TARGET:ro`, which podman splits at
/// the link's own `:`. `Some` sentence when that is no longer so (then gpuctl could emit them).
/// Even with `--dry-run`, podman-compose creates a bind source that does not exist: this runs
/// only while the fake machine's by-path links are on the host, so it creates nothing.
fn long_form_trap(compose_bin: &Path, ctx: &Ctx, file: &str) -> Result<Option<String>, String> {
    let uncommented: String = file
        .lines()
        .map(|l| {
            l.replacen("    # volumes:", "    volumes:", 1)
                .replacen("    #   ", "      ", 1)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let path = ctx.scratch.join("compose-long-form.yaml");
    std::fs::write(&path, &uncommented)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut cmd = Command::new(compose_bin);
    cmd.args([
        "--verbose",
        "--dry-run",
        "--in-pod",
        "false",
        "-p",
        "gpuctl-xtask",
        "-f",
    ])
    .arg(&path)
    .args(["run", "--rm", "gpu", "true"]);
    let out = run_with_timeout(&mut cmd, PODMAN_TIMEOUT)?;
    let binds: Vec<(String, String)> = logged_run(&out.stderr)
        .map(|w| gpu_pairs(&w))
        .unwrap_or_default()
        .into_iter()
        .filter(|(f, v)| f == "-v" && v.contains("/by-path/"))
        .collect();
    Ok(match binds.first() {
        Some((_, v)) if v.matches(':').count() > 2 => None,
        _ => Some(format!(
            "podman-compose no longer turns a long-form by-path bind into a '-v' podman cannot split (it logged: {}): gpuctl could put the binds in volumes:",
            logged_run(&out.stderr)
                .map(|w| w.join(" "))
                .unwrap_or_default()
        )),
    })
}

/// Gives the fake root's AMD nodes (kfd, render nodes) and Intel's render node their groups.
fn own_nodes(
    root: &Path,
    gpus: &[DrmGpu],
    vendor_gid: impl Fn(&DrmGpu) -> u32,
) -> Result<(), String> {
    // As udev makes them: mode 0660 and the vendor's group, which is what opens them (gpuctl
    // gives docker no group for a node its group cannot open, docs/output-safety.md).
    let set = |host_path: &str, gid: u32| {
        use std::os::unix::fs::PermissionsExt;
        let p = root.join(host_path.trim_start_matches('/'));
        chown(&p, None, Some(gid)).map_err(|e| format!("cannot chgrp {}: {e}", p.display()))?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o660))
            .map_err(|e| format!("cannot chmod {}: {e}", p.display()))
    };
    set(KFD, AMD_GID)?;
    for g in gpus {
        set(&g.render_path(), vendor_gid(g))?;
    }
    Ok(())
}

/// docker-style numeric groups on the raw AMD and Intel tier, under every runtime.
pub(super) fn run_docker_groups(ctx: &Ctx, tally: &mut Tally) -> Result<(), String> {
    let root = fake_root(ctx, DOCKER_GROUPS, &[Vendor::Amd, Vendor::Intel])?;
    let gpus: Vec<DrmGpu> = [drm_gpus(Vendor::Amd), drm_gpus(Vendor::Intel)].concat();
    own_nodes(root.path(), &gpus, |g| {
        if g.vendor == Vendor::Amd {
            AMD_GID
        } else {
            INTEL_GID
        }
    })?;
    let out = ctx.gpuctl.args_as(root.path(), "docker", &["amd,intel"])?;
    let args: Vec<String> = out.stdout.split_whitespace().map(str::to_string).collect();
    let mut base = Vec::new();
    let groups: Vec<String> = gpu_pairs(&args)
        .into_iter()
        .filter(|(f, _)| f == "--group-add")
        .map(|(_, g)| g)
        .collect();
    let want = [AMD_GID.to_string(), INTEL_GID.to_string()];
    if !out.ok() {
        base.push(format!(
            "gpuctl args --format docker failed: {}",
            out.stderr.trim()
        ));
    } else if groups != want {
        base.push(format!(
            "gpuctl gave --group-add {:?}, expected the nodes' groups {want:?}",
            groups
        ));
    }
    if !out.stderr.contains("docker has no keep-groups") {
        base.push(format!(
            "gpuctl did not say that docker has no keep-groups: {}",
            out.stderr.trim()
        ));
    }
    let mut granted: Vec<String> = vec![KFD.to_string()];
    granted.extend(gpus.iter().map(DrmGpu::render_path));
    granted.extend(gpus.iter().map(DrmGpu::by_path));
    let script = container_script(&ctx.universe.all_paths());
    for rt in &ctx.runtimes {
        let t = Instant::now();
        let mut problems = base.clone();
        let mut details = format!("podman run {} ...\n", args.join(" "));
        let spec = RunSpec {
            runtime: Some(*rt),
            args: &args,
            image: &ctx.image,
            script: &script,
            groups: None,
            hooks_dir: None,
        };
        match podman::run_container(&spec, &ctx.container_name()) {
            Err(e) => problems.push(e),
            Ok(out) => {
                let report = out.container_report(&mut problems, &mut details);
                match ctx.universe.expectation(&granted) {
                    Ok(mut expect) => {
                        // The kernel lists supplementary groups in ascending order.
                        expect.groups = Some(vec![INTEL_GID, AMD_GID]);
                        problems.extend(verify(&expect, &report));
                    }
                    Err(e) => problems.push(e),
                }
            }
        }
        let summary = format!(
            "--group-add {} (the nodes' groups) kept by {}, with every granted node",
            join(&[AMD_GID, INTEL_GID]),
            rt.name()
        );
        tally.record(
            DOCKER_GROUPS,
            rt.name(),
            &verdict(problems),
            &summary,
            t.elapsed(),
            &details,
        );
    }
    Ok(())
}
