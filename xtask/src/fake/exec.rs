//! Running one scenario: gpuctl on the scenario's fake root, then a container per runtime with
//! exactly the arguments gpuctl printed, judged against what the scenario says must be there.

use std::fs;
use std::path::Path;
use std::time::Instant;

use super::hook::{StandIn, would_inject};
use super::nodes::HostChanges;
use super::scenarios::Scenario;
use super::{Ctx, ORACLE as ORACLE_NAME, tree};
use crate::Runtime;
use crate::args_check::{check_args, check_stderr, view};
use crate::check::{OpenError, Probe, container_script, join, verify};
use crate::podman::{self, PROBE_GROUPS, RunSpec};
use crate::report::{Tally, Verdict};

/// What podman prints when a CDI device cannot be resolved (docs/podman-ci.md#cdi).
const UNRESOLVABLE: &str = "unresolvable CDI devices";

/// Runs one scenario under every runtime; `Err` only when the host could not be prepared.
pub(super) fn run_scenario(
    ctx: &Ctx,
    changes: &mut HostChanges,
    s: &Scenario,
    tally: &mut Tally,
) -> Result<(), String> {
    if let Some(why) = &s.skip {
        for rt in &ctx.runtimes {
            tally.record(
                s.name,
                rt.name(),
                &Verdict::Skip(why.clone()),
                "",
                Default::default(),
                "",
            );
        }
        return Ok(());
    }
    let root = tree::FakeRoot::create(&ctx.scratch.join(s.name))?;
    for v in &s.vendors {
        root.vendor(*v)?;
    }
    if s.hook {
        root.nvidia_hook()?;
    }
    for spec in &s.specs {
        root.file(&spec.host_path(), &spec.text)?;
        changes.dir_all(Path::new(spec.dir))?;
        changes.file(Path::new(&spec.host_path()), &spec.text)?;
    }

    let started = Instant::now();
    // As a user would: gpuctl is told which podman will run the container, except in the
    // scenario that shows what happens when it is not.
    let podman = s.tell_podman.then_some(ctx.podman_version.as_str());
    let result = ctx.gpuctl.args(Some(root.path()), podman, &s.selectors);
    let gpuctl_time = started.elapsed();
    let mut base_problems = Vec::new();
    let mut args = None;
    match &result {
        Err(e) => base_problems.push(e.clone()),
        Ok(r) if r.args.is_none() => base_problems.push(format!(
            "gpuctl args {} exited {}: {}",
            s.selectors.join(" "),
            r.raw.code_text(),
            r.raw.stderr.trim()
        )),
        Ok(r) => args = r.args.clone(),
    }
    let stderr = result
        .as_ref()
        .map(|r| r.raw.stderr.clone())
        .unwrap_or_default();
    let gap = match (&s.gap, &args) {
        (Some(g), Some(a)) => check_args(g, a).is_empty(),
        _ => false,
    };
    if let Some(a) = &args
        && !gap
    {
        base_problems.extend(check_args(&s.args, a));
        base_problems.extend(check_stderr(&stderr, &s.warnings));
    }

    for rt in &ctx.runtimes {
        let t = Instant::now();
        let mut problems = base_problems.clone();
        let mut details = format!(
            "gpuctl --root {} args {} -> {}\n",
            root.path().display(),
            s.selectors.join(" "),
            args.as_ref()
                .map_or("(nothing)".to_string(), |a| a.join(" "))
        );
        if !stderr.trim().is_empty() {
            details.push_str(&format!("gpuctl stderr: {}\n", stderr.trim_end()));
        }
        let summary = match &args {
            None => "gpuctl failed; no container started".to_string(),
            Some(a) if gap => run_gap(ctx, *rt, a, &mut problems, &mut details, tally),
            Some(a) => run_container_check(ctx, *rt, s, a, &mut problems, &mut details, tally),
        };
        if ctx.keep {
            let _ = fs::write(
                ctx.scratch.join(format!("{}-{}.log", s.name, rt.name())),
                &details,
            );
        }
        let verdict = if problems.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Fail(problems)
        };
        tally.record(
            s.name,
            rt.name(),
            &verdict,
            &summary,
            t.elapsed() + gpuctl_time,
            &details,
        );
    }

    for spec in &s.specs {
        changes.undo(Path::new(&spec.host_path()))?;
    }
    Ok(())
}

/// gpuctl, not told the podman version, used a spec this podman cannot load: podman must
/// refuse it, which is why `--podman-version` exists.
fn run_gap(
    ctx: &Ctx,
    rt: Runtime,
    args: &[String],
    problems: &mut Vec<String>,
    details: &mut String,
    tally: &mut Tally,
) -> String {
    let spec = RunSpec {
        runtime: Some(rt),
        args,
        image: &ctx.image,
        script: "true",
        groups: None,
        hooks_dir: None,
    };
    match podman::run_container(&spec, &ctx.container_name()) {
        Err(e) => problems.push(e),
        Ok(out) => {
            details.push_str(&format!("podman stderr: {}\n", out.stderr.trim_end()));
            if out.ok() {
                problems.push(
                    "podman ran the container with a spec above its CDI ceiling: the ceiling table is wrong for this podman".to_string(),
                );
            } else if !out.stderr.contains(UNRESOLVABLE) {
                problems.push(format!(
                    "podman refused the container, but not with {UNRESOLVABLE:?}: {}",
                    out.stderr.trim()
                ));
            } else {
                let note = format!(
                    "without --podman-version gpuctl cannot know podman {}'s CDI ceiling, and podman refuses the spec it picks",
                    ctx.podman_version
                );
                tally.note(&note);
                return format!(
                    "not told the podman version, gpuctl chose {} from a spec podman {} cannot load; podman refused it (exit {}: {UNRESOLVABLE})",
                    view(args).devices.join(" "),
                    ctx.podman_version,
                    out.code_text()
                );
            }
        }
    }
    "the above-ceiling spec".to_string()
}

/// Starts the container with gpuctl's arguments and judges what it saw.
fn run_container_check(
    ctx: &Ctx,
    rt: Runtime,
    s: &Scenario,
    args: &[String],
    problems: &mut Vec<String>,
    details: &mut String,
    tally: &mut Tally,
) -> String {
    if let Some(device) = &s.podman_refuses {
        let refuse_args = vec!["--device".to_string(), device.clone()];
        let spec = RunSpec {
            runtime: Some(rt),
            args: &refuse_args,
            image: &ctx.image,
            script: "true",
            groups: None,
            hooks_dir: None,
        };
        match podman::run_container(&spec, &ctx.container_name()) {
            Err(e) => problems.push(e),
            Ok(out) if out.ok() => problems.push(format!(
                "podman accepted --device {device} although every spec declaring it is invalid"
            )),
            Ok(out) if !out.stderr.contains(UNRESOLVABLE) => problems.push(format!(
                "podman refused --device {device}, but not with {UNRESOLVABLE:?}: {}",
                out.stderr.trim()
            )),
            Ok(_) => {}
        }
    }
    let keep_groups = view(args).group_adds.iter().any(|g| g == "keep-groups");
    let probe = ctx.universe.all_paths();
    let script = container_script(&probe);
    let standin = match &s.hook_sees {
        None => None,
        Some(_) => match StandIn::create(&ctx.scratch, &format!("{}-{}-hook", s.name, rt.name())) {
            Ok(h) => Some(h),
            Err(e) => {
                problems.push(e);
                return "the stand-in hook could not be written".to_string();
            }
        },
    };
    let spec = RunSpec {
        runtime: Some(rt),
        args,
        image: &ctx.image,
        script: &script,
        groups: keep_groups.then_some(&PROBE_GROUPS[..]),
        hooks_dir: standin.as_ref().map(StandIn::hooks_dir),
    };
    let mut expect = match ctx.universe.expectation(&s.granted) {
        Ok(e) => e,
        Err(e) => {
            problems.push(e);
            return "bad scenario".to_string();
        }
    };
    expect.env = s.env_inside.clone();
    // crun honours keep-groups; runc accepts it and drops the groups without a word.
    expect.groups = keep_groups.then(|| match rt {
        Runtime::Crun => PROBE_GROUPS.to_vec(),
        Runtime::Runc => Vec::new(),
    });
    let out = match podman::run_container(&spec, &ctx.container_name()) {
        Ok(out) => out,
        Err(e) => {
            problems.push(e);
            return "podman did not finish".to_string();
        }
    };
    let report = out.container_report(problems, details);
    let hook_note = match (&s.hook_sees, &standin) {
        (Some(want), Some(h)) => judge_hook(want, h.seen(), problems, details),
        _ => String::new(),
    };
    if !out.stderr.trim().is_empty() {
        details.push_str(&format!("podman stderr: {}\n", out.stderr.trim_end()));
    }
    let before = problems.len();
    problems.extend(verify(&expect, &report));
    if problems.len() > before {
        return format!(
            "the container does not hold exactly the {} granted node(s)",
            expect.granted.len()
        );
    }
    let mut summary = format!(
        "{} granted node(s) open with ENXIO, {} other fake node(s) absent",
        expect.granted.len(),
        expect.absent.len()
    );
    match (keep_groups, report.groups.as_deref()) {
        (true, Some([])) => {
            summary.push_str(&format!(
                "; {} dropped groups {} silently",
                rt.name(),
                join(&PROBE_GROUPS)
            ));
            tally.note(&format!(
                "{} drops supplementary groups silently (keep-groups)",
                rt.name()
            ));
        }
        (true, Some(g)) => summary.push_str(&format!("; keep-groups kept {}", join(g))),
        _ => {}
    }
    summary.push_str(&hook_note);
    summary
}

/// Whether the stand-in hook ran and saw the values the scenario names; the summary says
/// whether NVIDIA's hook would have injected GPUs.
fn judge_hook(
    want: &[String],
    seen: Option<Vec<String>>,
    problems: &mut Vec<String>,
    details: &mut String,
) -> String {
    let Some(seen) = seen else {
        problems.push("the stand-in NVIDIA hook did not run".to_string());
        return String::new();
    };
    details.push_str(&format!("hook saw NVIDIA_VISIBLE_DEVICES: {seen:?}\n"));
    if seen != want {
        problems.push(format!(
            "the hook saw NVIDIA_VISIBLE_DEVICES {seen:?} in the container's config, not {want:?}"
        ));
    }
    format!(
        "; the hook ran, saw NVIDIA_VISIBLE_DEVICES={} and would {}",
        if seen.is_empty() {
            "(unset)".to_string()
        } else {
            seen.join(" then ")
        },
        if would_inject(&seen) {
            "inject GPUs"
        } else {
            "do nothing"
        }
    )
}

/// Proves, per runtime, the rule every other check rests on: a fake node passed with
/// `--device` opens with ENXIO, and one that is only bind-mounted fails with EPERM. Without
/// this, a runtime that let everything through (or nothing) would make ENXIO meaningless.
pub(super) fn run_oracle(ctx: &Ctx, tally: &mut Tally) {
    let (granted, mounted) = ("/dev/nvidia1", "/dev/nvidia0");
    let args: Vec<String> = vec![
        "--device".into(),
        granted.into(),
        "--volume".into(),
        format!("{mounted}:{mounted}"),
    ];
    let script = container_script(&[granted.to_string(), mounted.to_string()]);
    for rt in &ctx.runtimes {
        let t = Instant::now();
        let spec = RunSpec {
            runtime: Some(*rt),
            args: &args,
            image: &ctx.image,
            script: &script,
            groups: None,
            hooks_dir: None,
        };
        let mut problems = Vec::new();
        let mut details = format!("podman run {} ...\n", args.join(" "));
        match podman::run_container(&spec, &ctx.container_name()) {
            Err(e) => problems.push(e),
            Ok(out) => {
                let report = out.container_report(&mut problems, &mut details);
                for (path, want, what) in [
                    (granted, OpenError::NoDevice, "ENXIO"),
                    (mounted, OpenError::NotPermitted, "EPERM"),
                ] {
                    match report.probes.get(path) {
                        Some(Probe::Failed(e)) if *e == want => {}
                        got => problems.push(format!(
                            "opening {path} should fail with {what}, got {got:?}"
                        )),
                    }
                }
            }
        }
        let verdict = if problems.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Fail(problems)
        };
        tally.record(
            ORACLE_NAME,
            rt.name(),
            &verdict,
            &format!("--device {granted} opens with ENXIO, a bind-mounted {mounted} with EPERM"),
            t.elapsed(),
            &details,
        );
    }
}
