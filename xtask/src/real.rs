//! Real mode (`cargo xtask integration`, on a GPU runner): for every vendor `gpuctl detect`
//! finds usable, start a container with `gpuctl args <vendor>` and count the GPUs it sees —
//! through the vendor's own tool when the image has it (`nvidia-smi -L`, `rocm-smi`,
//! `clinfo -l`), and always through its device nodes. A host without a GPU is a skip that
//! says so, never a pass.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::check::{ContainerReport, LIST_DEVICES, ToolRun};
use crate::gpuctl::{self, Gpuctl};
use crate::podman::{self, RunSpec, which};
use crate::report::{Tally, Verdict};
use crate::{IntegrationArgs, Runtime};

/// A vendor `gpuctl detect` reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// `nvidia`.
    pub vendor: String,
    /// Usable now.
    pub usable: bool,
    /// `cdi`, `hook`, `raw`, or `-`.
    pub tier: String,
    /// How many devices detect listed.
    pub devices: usize,
    /// Why (detect's reason sentence).
    pub reason: String,
}

/// The vendors in `gpuctl detect --format json` output.
pub fn detected(detect: &Value) -> Vec<Detected> {
    let Some(vendors) = detect.get("vendors").and_then(Value::as_array) else {
        return Vec::new();
    };
    vendors
        .iter()
        .filter_map(|v| {
            Some(Detected {
                vendor: v.get("vendor")?.as_str()?.to_string(),
                usable: v.get("usable").and_then(Value::as_bool).unwrap_or(false),
                tier: v
                    .get("tier")
                    .and_then(Value::as_str)
                    .unwrap_or("-")
                    .to_string(),
                devices: v
                    .get("devices")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
                reason: v
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            })
        })
        .collect()
}

/// The vendor's own tool and how to call it: (program, shell command).
pub fn vendor_tool(vendor: &str) -> Option<(&'static str, &'static str)> {
    match vendor {
        "nvidia" => Some(("nvidia-smi", "nvidia-smi -L")),
        "amd" => Some(("rocm-smi", "rocm-smi")),
        "intel" => Some(("clinfo", "clinfo -l")),
        _ => None,
    }
}

/// The container script: the device listing, then the vendor tool when the image has it.
pub fn real_script(vendor: &str) -> String {
    let mut s = String::from(LIST_DEVICES);
    if let Some((program, command)) = vendor_tool(vendor) {
        s.push_str(&format!(
            "if command -v {program} >/dev/null 2>&1; then echo '@@tool {program}'; {command} 2>&1; echo \"@@toolrc $?\"; fi\n"
        ));
    }
    s.push_str("echo @@done\n");
    s
}

/// The vendor's GPU device nodes in the container: `/dev/nvidiaN` for NVIDIA, render nodes
/// for the others.
pub fn nodes_seen(vendor: &str, report: &ContainerReport) -> usize {
    report
        .chars
        .iter()
        .filter(|c| match vendor {
            "nvidia" => c
                .path
                .strip_prefix("/dev/nvidia")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
            _ => c.path.starts_with("/dev/dri/renderD"),
        })
        .count()
}

/// How many GPUs the tool listed, where its output says so plainly.
pub fn tool_count(tool: &ToolRun) -> Option<usize> {
    let count = |pat: &str| tool.output.lines().filter(|l| l.contains(pat)).count();
    match tool.name.as_str() {
        "nvidia-smi" => Some(
            tool.output
                .lines()
                .filter(|l| l.starts_with("GPU ") && l.contains(':'))
                .count(),
        ),
        "clinfo" => Some(count("Device #")),
        _ => None,
    }
}

/// `, nvidia-smi: 2 GPU(s)` for the table.
fn tool_text(tool: &ToolRun) -> String {
    if tool_unrunnable(tool) {
        return format!(", {} cannot run in this image", tool.name);
    }
    match (tool.code, tool_count(tool)) {
        (Some(0), Some(n)) => format!(", {}: {n} GPU(s)", tool.name),
        (Some(0), None) => format!(", {} ok", tool.name),
        (code, _) => format!(
            ", {} failed (exit {})",
            tool.name,
            code.map_or("?".to_string(), |c| c.to_string())
        ),
    }
}

/// The shell could not execute the tool at all (126: not executable, 127: not found — also
/// what a dynamically linked binary without its loader gives).
pub fn tool_unrunnable(tool: &ToolRun) -> bool {
    matches!(tool.code, Some(126 | 127))
}

/// Every problem with what a container of `vendor` saw, given detect's device count.
pub fn judge(vendor: &str, expected: usize, report: &ContainerReport) -> Vec<String> {
    let mut problems = Vec::new();
    if !report.complete {
        problems.push("the container script did not run to its end".to_string());
    }
    let seen = nodes_seen(vendor, report);
    if seen != expected {
        problems.push(format!(
            "the container has {seen} {vendor} device node(s); gpuctl detect lists {expected}"
        ));
    }
    if vendor == "amd" && !report.chars.iter().any(|c| c.path == "/dev/kfd") {
        problems.push("the container has no /dev/kfd".to_string());
    }
    if let Some(tool) = &report.tool {
        if tool_unrunnable(tool) {
            // The image cannot execute it (a CDI spec mounted the host's glibc-linked
            // nvidia-smi into a busybox image): the node count stands alone.
        } else if tool.code != Some(0) {
            problems.push(format!(
                "{} failed (exit {}): {}",
                tool.name,
                tool.code.map_or("?".to_string(), |c| c.to_string()),
                tool.output.trim()
            ));
        } else if let Some(n) = tool_count(tool).filter(|n| *n != expected) {
            problems.push(format!(
                "{} lists {n} GPU(s); gpuctl detect lists {expected}",
                tool.name
            ));
        }
    }
    problems
}

/// Runs real mode; `Ok(false)` when a vendor failed.
pub fn run(opts: &IntegrationArgs) -> Result<bool, String> {
    if !opts.scenarios.is_empty() || opts.keep {
        return Err("--scenario and --keep belong to fake mode; add --fake".to_string());
    }
    let gpuctl = gpuctl::build()?;
    let root = opts.root.as_deref();
    let (detect, _) = gpuctl.detect(root)?;
    let vendors = detected(&detect);
    let usable: Vec<&Detected> = vendors.iter().filter(|v| v.usable).collect();
    if usable.is_empty() {
        let why: Vec<String> = vendors
            .iter()
            .map(|v| format!("{}: {}", v.vendor, v.reason))
            .collect();
        println!("skip  no usable GPU on this host ({})", why.join("; "));
        println!("integration: 0 passed, 0 failed; skipped: no GPU, nothing was tested");
        return Ok(true);
    }
    let mut tally = Tally::default();
    if let Err(e) = ready(&opts.image, &usable) {
        // GPUs that cannot be tested are a failure, never a skip.
        let t = std::time::Duration::ZERO;
        tally.record(
            "setup",
            "-",
            &Verdict::Fail(vec![e]),
            "cannot test the GPUs",
            t,
            "",
        );
        println!("{}", tally.summary());
        return Ok(false);
    }
    let runtimes: Vec<Option<Runtime>> = if opts.runtimes.is_empty() {
        vec![None]
    } else {
        opts.runtimes.iter().copied().map(Some).collect()
    };
    let mut rows = Vec::new();
    for v in &usable {
        for rt in &runtimes {
            rows.push(run_vendor(&gpuctl, root, opts, v, *rt, &mut tally));
        }
    }
    println!();
    println!(
        "{:<8} {:<5} {:<8} {:<40} verdict",
        "vendor", "tier", "runtime", "devices seen inside"
    );
    for r in &rows {
        println!("{r}");
    }
    println!("{}", tally.summary());
    Ok(tally.all_passed())
}

/// Whether podman and the image are there to test the `usable` vendors with.
fn ready(image: &str, usable: &[&Detected]) -> Result<(), String> {
    if which("podman").is_none() {
        let names: Vec<&str> = usable.iter().map(|v| v.vendor.as_str()).collect();
        return Err(format!(
            "this host has usable GPUs ({}) but no podman; install podman to test them",
            names.join(", ")
        ));
    }
    if !podman::image_exists(image)? {
        return Err(format!(
            "the image {image} is not in podman's storage; pull or build it, or pick another with --image"
        ));
    }
    Ok(())
}

/// One vendor under one runtime: prints its line, returns its table row.
fn run_vendor(
    gpuctl: &Gpuctl,
    root: Option<&Path>,
    opts: &IntegrationArgs,
    v: &Detected,
    rt: Option<Runtime>,
    tally: &mut Tally,
) -> String {
    let t = Instant::now();
    let rt_name = rt.map_or("default", Runtime::name);
    let mut problems = Vec::new();
    let mut details = String::new();
    let mut seen = "-".to_string();
    // Told the local podman's version, gpuctl skips CDI specs this podman cannot load.
    let podman_version = podman::version().ok();
    match gpuctl.args(root, podman_version.as_deref(), &[v.vendor.as_str()]) {
        Err(e) => problems.push(e),
        Ok(r) => match r.args {
            None => problems.push(format!(
                "gpuctl args {} exited {}: {}",
                v.vendor,
                r.raw.code_text(),
                r.raw.stderr.trim()
            )),
            Some(args) => {
                details.push_str(&format!("gpuctl args {} -> {}\n", v.vendor, args.join(" ")));
                let script = real_script(&v.vendor);
                let spec = RunSpec {
                    runtime: rt,
                    args: &args,
                    image: &opts.image,
                    script: &script,
                    groups: None,
                    hooks_dir: None,
                };
                let name = format!("gpuctl-xtask-{}-{}-{rt_name}", std::process::id(), v.vendor);
                match podman::run_container(&spec, &name) {
                    Err(e) => problems.push(e),
                    Ok(out) => {
                        let report = out.container_report(&mut problems, &mut details);
                        seen = format!(
                            "{} of {} node(s)",
                            nodes_seen(&v.vendor, &report),
                            v.devices
                        );
                        if let Some(tool) = &report.tool {
                            seen.push_str(&tool_text(tool));
                            details.push_str(&tool.output);
                        }
                        problems.extend(judge(&v.vendor, v.devices, &report));
                    }
                }
            }
        },
    }
    let verdict = if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(problems)
    };
    let word = if verdict == Verdict::Pass {
        "ok"
    } else {
        "FAIL"
    };
    tally.record(
        &v.vendor,
        rt_name,
        &verdict,
        &format!("{} tier: {seen}", v.tier),
        t.elapsed(),
        &details,
    );
    format!(
        "{:<8} {:<5} {:<8} {:<40} {word}",
        v.vendor, v.tier, rt_name, seen
    )
}

#[cfg(test)]
#[path = "real_tests.rs"]
mod tests;
