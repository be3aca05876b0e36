//! Fake mode (`cargo xtask integration --fake`): real podman, real containers, fake GPUs.
//!
//! On a disposable machine without GPUs (CI), it makes real character devices with the real
//! majors at the host paths gpuctl prints (/dev/nvidia0, /dev/dri/renderD128, /dev/kfd, ...),
//! a fake host tree per scenario for gpuctl's `--root`, and the scenario's CDI specs in the
//! real /etc/cdi (podman 4.3.1 reads no other directory). Then, per scenario and runtime, it
//! runs `gpuctl --root R args`, starts a container with exactly those arguments, and checks
//! inside that the granted nodes are there and open with ENXIO, and that every other fake node
//! is absent. Everything it made on the host is removed at the end, on every exit path.

use std::cell::Cell;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::gpuctl::{self, Gpuctl};
use crate::podman::version_text;
use crate::report::{Tally, Verdict};
use crate::{IntegrationArgs, Runtime};

mod exec;
mod formats;
mod hook;
mod nodes;
mod preflight;
mod run_cdi_generate;
mod run_checks;
mod run_daily;
mod run_image;
mod scenarios;
mod specs;
mod tree;
mod universe;

use nodes::{HostChanges, MANIFEST};
use scenarios::Scenario;
use universe::Universe;

/// The name of the check that proves the ENXIO/EPERM rule before any scenario relies on it.
const ORACLE: &str = "oracle";

/// Runs fake mode; `Ok(false)` when a scenario failed.
pub fn run(opts: &IntegrationArgs) -> Result<bool, String> {
    let started = Instant::now();
    if opts.root.is_some() {
        return Err("--root belongs to real mode; fake mode builds its own trees".to_string());
    }
    preflight::require_root()?;
    for line in nodes::recover(Path::new(MANIFEST))? {
        println!("integration: {line}");
    }
    let mut runtimes = if opts.runtimes.is_empty() {
        vec![Runtime::Crun, Runtime::Runc]
    } else {
        opts.runtimes.clone()
    };
    runtimes.sort();
    runtimes.dedup();

    // The ceiling changes only spec versions and skips, so the names (for --scenario) and the
    // host paths (for the pre-existence check) are known before podman is asked.
    let draft = scenarios::all(Some((0, 5, 0)), Some((0, 6, 0)));
    let known = |n: &str| {
        [ORACLE, formats::COMPOSE, formats::DOCKER_GROUPS].contains(&n)
            || run_checks::NAMES.contains(&n)
            || run_daily::NAMES.contains(&n)
            || run_cdi_generate::NAMES.contains(&n)
            || run_image::NAMES.contains(&n)
            || draft.iter().any(|s| s.name == n)
    };
    let unknown: Vec<&String> = opts.scenarios.iter().filter(|n| !known(n)).collect();
    if !unknown.is_empty() {
        let names: Vec<&str> = draft.iter().map(|s| s.name).collect();
        return Err(format!(
            "no scenario named {unknown:?}; the scenarios are {ORACLE}, {}, {}, {}, {}, {}, {}, {}",
            names.join(", "),
            formats::COMPOSE,
            formats::DOCKER_GROUPS,
            run_checks::NAMES.join(", "),
            run_daily::NAMES.join(", "),
            run_image::NAMES.join(", "),
            run_cdi_generate::NAMES.join(", ")
        ));
    }
    let picked = |name: &str| opts.scenarios.is_empty() || opts.scenarios.iter().any(|n| n == name);
    let mut host_paths = Universe {
        uvm_major: 0,
        kfd_major: 0,
    }
    .all_paths();
    for s in draft.iter().filter(|s| picked(s.name)) {
        host_paths.extend(s.specs.iter().map(|f| f.host_path()));
    }
    if run_cdi_generate::NAMES.iter().any(|n| picked(n)) {
        host_paths.push(run_cdi_generate::SPEC.to_string());
    }

    let machine = match preflight::check(&opts.image, &runtimes, &host_paths) {
        Ok(m) => m,
        Err(problems) => {
            for p in &problems {
                println!("integration: {p}");
            }
            println!(
                "integration: 0 passed, 1 failed; not run: {} problem(s) with this machine's set-up, listed above",
                problems.len()
            );
            return Ok(false);
        }
    };
    print_header(opts, &machine);

    let gpuctl = gpuctl::build()?;
    let scratch = crate::scratch_dir(&gpuctl.target_dir);
    let ctx = Ctx {
        gpuctl,
        image: opts.image.clone(),
        runtimes,
        universe: machine.universe.clone(),
        podman_version: machine.podman_version.clone(),
        scratch: scratch.clone(),
        keep: opts.keep,
        seq: Cell::new(0),
    };
    let list: Vec<Scenario> = scenarios::all(machine.ceiling, machine.above)
        .into_iter()
        .filter(|s| picked(s.name))
        .collect();

    let mut changes = HostChanges::new(Path::new(MANIFEST))?;
    let mut tally = Tally::default();
    let outcome = make_universe(&mut changes, &ctx.universe).and_then(|()| {
        if picked(ORACLE) {
            exec::run_oracle(&ctx, &mut tally);
        }
        for s in &list {
            exec::run_scenario(&ctx, &mut changes, s, &mut tally)?;
        }
        if picked(formats::COMPOSE) {
            formats::run_compose(&ctx, &mut tally)?;
        }
        if picked(formats::DOCKER_GROUPS) {
            formats::run_docker_groups(&ctx, &mut tally)?;
        }
        run_checks::run_all(&ctx, &picked, &mut tally);
        run_daily::run_all(&ctx, &picked, &mut tally);
        run_cdi_generate::run_all(&ctx, &mut changes, machine.ceiling, &picked, &mut tally)?;
        run_image::run_all(&ctx, &mut changes, machine.ceiling, &picked, &mut tally)
    });
    // Explicit, so that the result is printed; `Drop` would do it silently on a panic.
    let problems = changes.cleanup();
    if opts.keep {
        println!(
            "integration: fake roots and logs kept in {}",
            scratch.display()
        );
    } else {
        let _ = fs::remove_dir_all(&scratch);
    }
    for p in &problems {
        println!("integration: cleanup: {p}");
    }
    if problems.is_empty() {
        println!("integration: removed every node, link, directory and spec it made on the host");
    }
    if let Err(e) = outcome {
        // The host could not be prepared; the scenarios after this point did not run.
        tally.record(
            "setup",
            "-",
            &Verdict::Fail(vec![e]),
            "the fake machine could not be prepared",
            started.elapsed(),
            "",
        );
    }
    println!("integration: took {:.1} s", started.elapsed().as_secs_f64());
    println!("{}", tally.summary());
    Ok(tally.all_passed() && problems.is_empty())
}

fn print_header(opts: &IntegrationArgs, machine: &preflight::Machine) {
    println!(
        "integration: fake mode: podman {}, {}; image {}",
        machine.podman_version,
        machine.runtime_versions.join(", "),
        opts.image
    );
    let versions = match (machine.ceiling, machine.above) {
        (Some(c), Some(a)) => format!(
            "CDI ceiling {} (the newest cdiVersion podman {} loads, docs/cdi.md#podman-ceilings): fake specs use {}, the above-ceiling scenario {}",
            version_text(c),
            machine.podman_version,
            version_text(c),
            version_text(a)
        ),
        (Some(c), None) => format!("CDI ceiling {}: fake specs use it", version_text(c)),
        (None, _) => format!("podman {} has no CDI support", machine.podman_version),
    };
    println!("integration: {versions}");
    let u = &machine.universe;
    println!(
        "integration: fake majors: nvidia {}, drm {}, nvidia-uvm {}, kfd {} (the last two from the local/experimental range, free in /proc/devices, never handed out dynamically)",
        universe::NVIDIA_MAJOR,
        universe::DRM_MAJOR,
        u.uvm_major,
        u.kfd_major
    );
}

/// What every scenario run needs.
struct Ctx {
    gpuctl: Gpuctl,
    image: String,
    runtimes: Vec<Runtime>,
    universe: Universe,
    podman_version: String,
    scratch: PathBuf,
    keep: bool,
    seq: Cell<u32>,
}

impl Ctx {
    /// A container name unique to this run, so a timed-out one can be removed by name.
    fn container_name(&self) -> String {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        format!("gpuctl-xtask-{}-{n}", std::process::id())
    }
}

/// Creates the fake machine's nodes and links on the host.
fn make_universe(changes: &mut HostChanges, u: &Universe) -> Result<(), String> {
    for (_, node) in u.nodes() {
        let path = Path::new(&node.path);
        if let Some(dir) = path.parent() {
            changes.dir_all(dir)?;
        }
        changes.node(path, node.major, node.minor)?;
    }
    for (_, link, target) in u.links() {
        let path = Path::new(&link);
        if let Some(dir) = path.parent() {
            changes.dir_all(dir)?;
        }
        changes.link(path, &target)?;
    }
    println!(
        "integration: made {} device nodes and {} by-path links under /dev",
        u.nodes().len(),
        u.links().len()
    );
    Ok(())
}
