//! Issue 19's daily-use items against the real podman: `gpuctl run` with the image and its
//! command and no `--` (item 8); a granted node this machine lacks, which podman refuses with
//! `stat …: no such file or directory` and gpuctl must recognise (item 3); and `doctor` under
//! `--root`, which must take the runtime from the tree's containers.conf and drop-ins and never
//! ask this machine's podman (item 11).

use super::run_checks::{Judged, Ran, gpuctl, run_named};
use super::universe::Vendor;
use super::{Ctx, tree};
use crate::report::Tally;

/// The names `--scenario` picks these by.
pub(super) const NAMES: [&str; 4] = [
    "run-no-dashdash",
    "run-node-missing-nvidia",
    "run-node-missing-drm",
    "doctor-root-conf",
];

/// Runs the picked scenarios.
pub(super) fn run_all(ctx: &Ctx, picked: &dyn Fn(&str) -> bool, tally: &mut Tally) {
    run_named(ctx, &NAMES, picked, tally, one);
}

fn log(details: &mut String, what: &str, ran: &Ran) {
    details.push_str(&format!(
        "{what}: exit {:?}\nstdout: {}\nstderr: {}\n",
        ran.code,
        ran.stdout.trim_end(),
        ran.stderr.trim_end()
    ));
}

fn one(ctx: &Ctx, name: &str) -> Result<Judged, String> {
    let root = tree::FakeRoot::create(&ctx.scratch.join(name))?;
    let image = ctx.image.as_str();
    let pv = ctx.podman_version.as_str();
    let mut problems = Vec::new();
    let mut details = String::new();
    let summary = match name {
        "run-no-dashdash" => {
            // As podman users type it: podman's own `--rm`, the image and its command straight
            // after gpuctl's flags, no `--` anywhere.
            root.vendor(Vendor::Amd)?;
            let check = "test -c /dev/kfd && test -c /dev/dri/renderD130 && test -c /dev/dri/renderD129 && test ! -e /dev/nvidia0 && echo granted";
            let args = [
                "--podman-version",
                pv,
                "run",
                "--gpus",
                "amd",
                "--rm",
                image,
                "sh",
                "-c",
                check,
            ];
            let ran = gpuctl(ctx, root.path(), &args, "")?;
            log(&mut details, "run", &ran);
            if ran.code != Some(0) || ran.stdout != "granted\n" {
                problems.push(format!(
                    "exit {:?}, stdout {:?}: want 0 and \"granted\\n\"",
                    ran.code, ran.stdout
                ));
            }
            "'gpuctl run --gpus amd --rm IMAGE sh -c …' without '--': the container holds /dev/kfd and both AMD render nodes, no NVIDIA node"
        }
        "run-node-missing-nvidia" | "run-node-missing-drm" => {
            let (node, family) = if name.ends_with("nvidia") {
                // The tree shows a GPU whose node this machine does not have (a driver
                // reinstalled without a reboot; a captured tree from another host).
                root.vendor(Vendor::Nvidia)?;
                root.file("/dev/nvidia7", "")?;
                ("/dev/nvidia7", "nvidia-node-missing")
            } else {
                // An Intel GPU whose render node has another number here (renderD131).
                root.intel_gpu("0000:00:02.0", 0x9b41, 1, 131)?;
                ("/dev/dri/renderD131", "render-node-missing")
            };
            let gpus = if name.ends_with("nvidia") {
                "nvidia"
            } else {
                "intel"
            };
            let args = [
                "--podman-version",
                pv,
                "run",
                "--gpus",
                gpus,
                "--rm",
                "--network=none",
                image,
                "true",
            ];
            let ran = gpuctl(ctx, root.path(), &args, "")?;
            log(&mut details, "run", &ran);
            // podman 4.3.1: "Error: stat /dev/nvidia7: no such file or directory", exit 125.
            let said = format!("stat {node}: no such file or directory");
            if !ran.stderr.contains(&said) {
                problems.push(format!("podman's own words ({said}) are not on stderr"));
            }
            if !matches!(ran.code, Some(125 | 126)) {
                problems.push(format!("exit {:?}, want podman's 125 or 126", ran.code));
            }
            if !ran.stderr.contains(&format!("Diagnosis ({family})")) {
                problems.push(format!("no {family} diagnosis after podman's failure"));
            }
            if name.ends_with("nvidia") {
                "podman cannot stat a granted /dev/nvidia7 this machine lacks; gpuctl names nvidia-node-missing"
            } else {
                "podman cannot stat a granted /dev/dri/renderD131 this machine lacks; gpuctl names render-node-missing"
            }
        }
        _ => {
            // This machine's podman runs crun by default; the tree's drop-in says runc.
            root.vendor(Vendor::Nvidia)?;
            root.file(
                "/etc/containers/containers.conf",
                "[engine]\nruntime = \"crun\"\n",
            )?;
            root.file(
                "/etc/containers/containers.conf.d/50-gpu.conf",
                "[engine]\nruntime = \"runc\"\n",
            )?;
            let ran = gpuctl(ctx, root.path(), &["doctor"], "")?;
            log(&mut details, "doctor --root", &ran);
            for want in [
                "skipped: --root names another host",
                "runtime runc (from /etc/containers/containers.conf.d/50-gpu.conf)",
            ] {
                if !ran.stdout.contains(want) {
                    problems.push(format!("doctor --root does not say {want:?}"));
                }
            }
            if ran.stdout.contains("from podman info") {
                problems.push("doctor --root reported this machine's podman".to_string());
            }
            "doctor --root takes runc from the tree's containers.conf.d drop-in and asks no podman here"
        }
    };
    Ok((problems, summary.to_string(), details))
}
