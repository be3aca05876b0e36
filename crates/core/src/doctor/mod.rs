//! `gpuctl doctor`: the host checks that find a failure family's cause before any container
//! starts. Every check reads through the host root, so each has fixture tests; the only
//! process it may run is podman (`podman version`, `podman info`, time-limited, behind the
//! [`podman::PodmanCli`] trait). Vendors add checks through
//! [`crate::backend::Diagnostics::host_checks`].

mod cdi_checks;
mod host_checks;
mod node_access;
mod report;

use crate::backend::GpuBackend;
use crate::backend::Registry;
use crate::error::GpuError;
use crate::plan::Plan;
use crate::probe::Probe;
use crate::selector::Selection;

use crate::check::containers_conf::ConfEnv;
use crate::check::podman::{self, PodmanFacts};
use crate::check::user::Identity;
use crate::check::{Check, CheckCode, DoctorContext, Status, codes};
pub use report::DoctorReport;

/// The code of every check doctor can run with these vendors registered: core's, then each
/// vendor's, in registry order. A failure family may name only these.
pub fn check_codes(registry: &Registry) -> Vec<CheckCode> {
    let mut out = codes::CORE.to_vec();
    for b in registry.backends() {
        out.extend(b.diagnostics().check_codes().iter().copied());
    }
    out
}

/// The vendors a selection concerns: named ones, or every registered vendor for `all`.
pub fn selected<'r>(registry: &'r Registry, selection: &Selection) -> Vec<&'r dyn GpuBackend> {
    registry
        .backends()
        .iter()
        .filter(|b| match selection {
            Selection::None => false,
            Selection::All => true,
            Selection::Grants(g) => g.iter().any(|(v, _)| v == b.vendor()),
        })
        .copied()
        .collect()
}

/// Runs every check that applies to the selection. The plan is computed once: the checks that
/// need it share it, and a selection the host cannot serve is a finding of its own.
pub fn run(
    registry: &Registry,
    probe: &Probe,
    selection: &Selection,
    ctx: &DoctorContext,
) -> DoctorReport {
    let vendors = selected(registry, selection);
    let explicit = matches!(selection, Selection::Grants(_));
    let plan = registry.plan(probe, selection);
    let mut checks = vec![podman::check(&ctx.podman, ctx.another_host)];
    checks.extend(host_checks::tiers(probe, &vendors, explicit));
    // What the selected vendors' devices are called, for core's sentences about all of them.
    let noun = crate::backend::devices_noun(vendors.iter().copied());
    checks.extend(selection_check(&plan, explicit, &noun));
    checks.extend(cdi_checks::spec_dirs(probe));
    checks.extend(cdi_checks::versions(probe, registry, &ctx.podman));
    checks.extend(cdi_checks::stale(probe, registry));
    checks.extend(cdi_checks::readable(probe, ctx.identity.as_ref()));
    let plan = plan.ok();
    checks.push(host_checks::oci_runtime(probe, ctx, plan.as_ref()));
    checks.push(host_checks::selinux(probe, &noun));
    checks.extend(node_access::render_groups(
        probe,
        ctx,
        plan.as_ref(),
        &vendors,
    ));
    for v in &vendors {
        checks.extend(v.diagnostics().host_checks(probe, ctx));
    }
    DoctorReport { checks }
}

/// What `gpuctl args` would answer for the selection: for named GPUs, whether the host can
/// serve them (`amd:9` on an 8-GPU host cannot); for `all`, only a failure the tier checks did
/// not already report.
fn selection_check(plan: &Result<Plan, GpuError>, explicit: bool, noun: &str) -> Option<Check> {
    match plan {
        Ok(p) if explicit => Some(
            Check::new(codes::SELECTION, "the selection", Status::Ok).fact(format!(
                "the host can serve it ({} plan item(s))",
                p.items().len()
            )),
        ),
        Ok(_) => None,
        Err(GpuError::NoUsableGpu { .. }) if !explicit => None,
        Err(e) => Some(
            Check::new(codes::SELECTION, "the selection", Status::Problem)
                .fact(format!("'gpuctl args' refuses it: {e}"))
                // Each noun in the plural: `GPUs or NPUs`.
                .remedy(format!(
                    "select {}s the host has ('gpuctl detect' lists them)",
                    noun.replace(" or ", "s or ")
                )),
        ),
    }
}

/// Every check that reads only the host tree, for `gpuctl explain` and `gpuctl run` to say
/// whether this host shows a failure's cause: podman is not asked (its version is the one given
/// with `--podman-version`, if any), and the invoking user is read from the tree's
/// `/proc/self/status` (unknown when absent: the checks that need it say they cannot tell).
pub fn file_only(registry: &Registry, probe: &Probe, podman_version: Option<&str>) -> DoctorReport {
    let podman = PodmanFacts {
        found: podman_version.is_some(),
        version: podman_version.map(str::to_string),
        ..PodmanFacts::default()
    };
    let ctx = DoctorContext {
        identity: Identity::of_host(probe.host()),
        podman,
        conf_env: ConfEnv::default(),
        another_host: true,
    };
    run(registry, probe, &Selection::All, &ctx)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
