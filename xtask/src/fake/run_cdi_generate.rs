//! Issue 29's round trip against the real podman: `gpuctl cdi generate amd|intel` on the fake
//! host writes a spec that `gpuctl cdi check` accepts for this podman; installed in /etc/cdi,
//! podman starts a container from its first device (`--device amd.com/gpu=0`,
//! `--device intel.com/gpu=0000-00-02-0-0x9b41`) under each runtime, and the container holds
//! exactly the nodes (and the by-path link) that device names; and `gpuctl args VENDOR:NAME`
//! on the tree then answers on the CDI tier with that name.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use super::nodes::HostChanges;
use super::run_checks::{Ran, gpuctl};
use super::universe::Vendor;
use super::{Ctx, tree};
use crate::check::{container_script, verify};
use crate::podman::{self, CdiVersion, RunSpec};
use crate::report::{Tally, Verdict};

/// The names `--scenario` picks these by.
pub(super) const NAMES: [&str; 2] = ["cdi-generate-amd", "cdi-generate-intel"];

/// Where the spec goes on this machine: podman 4.3.1 reads /etc/cdi and nothing else it can be
/// told.
pub(super) const SPEC: &str = "/etc/cdi/gpuctl-xtask-generated.json";

/// The vendor, its fake GPUs and its CDI kind, by scenario name.
fn vendor_of(name: &str) -> (&'static str, Vendor, &'static str) {
    if name.ends_with("intel") {
        ("intel", Vendor::Intel, "intel.com/gpu")
    } else {
        ("amd", Vendor::Amd, "amd.com/gpu")
    }
}

/// Runs the picked scenarios per runtime; skipped on a podman without CDI.
pub(super) fn run_all(
    ctx: &Ctx,
    changes: &mut HostChanges,
    ceiling: Option<CdiVersion>,
    picked: &dyn Fn(&str) -> bool,
    tally: &mut Tally,
) -> Result<(), String> {
    for name in NAMES.iter().copied().filter(|n| picked(n)) {
        one(ctx, changes, ceiling, name, tally)?;
    }
    Ok(())
}

fn one(
    ctx: &Ctx,
    changes: &mut HostChanges,
    ceiling: Option<CdiVersion>,
    name: &str,
    tally: &mut Tally,
) -> Result<(), String> {
    if ceiling.is_none() {
        let why = format!("podman {} has no CDI support", ctx.podman_version);
        tally.record(name, "-", &Verdict::Skip(why), "", Default::default(), "");
        return Ok(());
    }
    let t = Instant::now();
    let mut details = String::new();
    let prepared = prepare(ctx, name, &mut details);
    let (text, device, granted) = match prepared {
        Ok(p) => p,
        Err(problems) => {
            let verdict = Verdict::Fail(problems);
            let summary = "gpuctl cdi generate did not give a spec this podman loads";
            tally.record(name, "-", &verdict, summary, t.elapsed(), &details);
            return Ok(());
        }
    };
    changes.dir_all(Path::new("/etc/cdi"))?;
    changes.file(Path::new(SPEC), &text)?;
    for rt in &ctx.runtimes {
        let t = Instant::now();
        let mut problems = Vec::new();
        let mut log = details.clone();
        let args = vec!["--device".to_string(), device.clone()];
        let script = container_script(&ctx.universe.all_paths());
        let spec = RunSpec {
            runtime: Some(*rt),
            args: &args,
            image: &ctx.image,
            script: &script,
            groups: None,
            hooks_dir: None,
        };
        let summary = match (
            ctx.universe.expectation(&granted),
            podman::run_container(&spec, &ctx.container_name()),
        ) {
            (Err(e), _) | (_, Err(e)) => {
                problems.push(e);
                "podman did not finish".to_string()
            }
            (Ok(expect), Ok(out)) => {
                let report = out.container_report(&mut problems, &mut log);
                if !out.stderr.trim().is_empty() {
                    log.push_str(&format!("podman stderr: {}\n", out.stderr.trim_end()));
                }
                problems.extend(verify(&expect, &report));
                format!(
                    "podman --device {device} from gpuctl's generated spec: {} granted node(s) open with ENXIO ({}), every other fake node absent",
                    granted.len(),
                    granted.join(", ")
                )
            }
        };
        if ctx.keep {
            let _ = std::fs::write(ctx.scratch.join(format!("{name}-{}.log", rt.name())), &log);
        }
        let verdict = if problems.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Fail(problems)
        };
        tally.record(name, rt.name(), &verdict, &summary, t.elapsed(), &log);
    }
    changes.undo(Path::new(SPEC))?;
    Ok(())
}

fn log(details: &mut String, what: &str, ran: &Ran) {
    details.push_str(&format!(
        "{what}: exit {:?}\nstdout: {}\nstderr: {}\n",
        ran.code,
        ran.stdout.trim_end(),
        ran.stderr.trim_end()
    ));
}

/// The spec's text, its first device (`kind=name`) and the host paths that device grants.
type Prepared = (String, String, Vec<String>);

/// Generates the spec on the fake tree, checks it for this podman, and reads back its first
/// device and what it grants (its nodes and its mounts); the tree gets the spec too, and
/// `args VENDOR:NAME` must then name the CDI device.
fn prepare(ctx: &Ctx, name: &str, details: &mut String) -> Result<Prepared, Vec<String>> {
    let fail = |e: String| vec![e];
    let (vendor, fake, kind) = vendor_of(name);
    let root = tree::FakeRoot::create(&ctx.scratch.join(name)).map_err(fail)?;
    root.vendor(fake).map_err(fail)?;
    let pv = ctx.podman_version.as_str();
    let out = ctx.scratch.join(format!("{name}.json"));
    let out_text = out.display().to_string();
    let gen_args = [
        "--podman-version",
        pv,
        "cdi",
        "generate",
        vendor,
        "--output",
        &out_text,
    ];
    let ran = gpuctl(ctx, root.path(), &gen_args, "").map_err(fail)?;
    log(details, "cdi generate", &ran);
    if ran.code != Some(0) {
        return Err(vec![format!(
            "gpuctl cdi generate {vendor} exited {:?}: {}",
            ran.code,
            ran.stderr.trim()
        )]);
    }
    let text =
        std::fs::read_to_string(&out).map_err(|e| fail(format!("cannot read {out_text}: {e}")))?;
    details.push_str(&text);
    let check = ["--podman-version", pv, "cdi", "check", &out_text];
    let ran = gpuctl(ctx, root.path(), &check, "").map_err(fail)?;
    log(details, "cdi check", &ran);
    let mut problems = Vec::new();
    if ran.code != Some(0) {
        problems.push(format!(
            "gpuctl cdi check refused the generated spec: {}",
            ran.stdout.trim()
        ));
    }
    let spec: Value =
        serde_json::from_str(&text).map_err(|e| fail(format!("the spec is not JSON: {e}")))?;
    let first = spec["devices"][0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let granted = device_paths(&spec, &first);
    if granted.is_empty() {
        problems.push("the generated spec's first device names no node".to_string());
    }
    root.file(&format!("/etc/cdi/{vendor}.json"), &text)
        .map_err(fail)?;
    let selector = format!("{vendor}:{first}");
    let args = ["--podman-version", pv, "args", &selector];
    let ran = gpuctl(ctx, root.path(), &args, "").map_err(fail)?;
    log(details, "args", &ran);
    let device = format!("{kind}={first}");
    if !ran.stdout.starts_with(&format!("--device {device} ")) {
        problems.push(format!(
            "gpuctl args {selector} does not answer on the CDI tier: {}",
            ran.stdout.trim()
        ));
    }
    if problems.is_empty() {
        Ok((text, device, granted))
    } else {
        Err(problems)
    }
}

/// The host paths a device of the spec brings: its device nodes' paths and its mounts'
/// container paths (each the same host path).
fn device_paths(spec: &Value, name: &str) -> Vec<String> {
    let Some(d) = spec["devices"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["name"] == name))
    else {
        return Vec::new();
    };
    let edits = &d["containerEdits"];
    let nodes = edits["deviceNodes"].as_array().into_iter().flatten();
    let mounts = edits["mounts"].as_array().into_iter().flatten();
    nodes
        .filter_map(|n| n["path"].as_str())
        .chain(mounts.filter_map(|m| m["containerPath"].as_str()))
        .map(str::to_string)
        .collect()
}
