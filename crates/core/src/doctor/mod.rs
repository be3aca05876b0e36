//! `gpuctl doctor`: the host checks that find a failure family's cause before any container
//! starts. Every check reads through the host root, so each has fixture tests; the only
//! process it may run is podman (`podman version`, `podman info`, time-limited, behind the
//! [`podman::PodmanCli`] trait). Vendors add checks through [`crate::GpuBackend::host_checks`].

mod cdi_checks;
mod host_checks;
pub mod podman;
pub mod user;

use serde::Serialize;

use crate::backend::{GpuBackend, Probe};
use crate::registry::Registry;
use crate::selector::Selection;

pub use cdi_checks::mounts_and_hooks;
pub use podman::{PodmanCli, PodmanFacts, SystemPodman};
pub use user::Identity;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing to fix.
    Ok,
    /// Could not be checked (podman missing, not applicable as this user).
    Skipped,
    /// Works now but fragile, or works for some containers only.
    Warning,
    /// A GPU container will fail.
    Problem,
}

impl Status {
    /// The word text output prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Skipped => "skipped",
            Status::Warning => "warning",
            Status::Problem => "problem",
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The check's code (`cdi-version`), the one failure families name.
    pub code: &'static str,
    /// What it looked at, in a few words (`/etc/cdi/nvidia.yaml`, `podman 4.9.3`).
    pub subject: String,
    /// The outcome.
    pub status: Status,
    /// What it saw, one sentence each.
    pub facts: Vec<String>,
    /// What to do, when something is to be done.
    pub remedy: Option<String>,
}

impl Check {
    /// A check with no facts yet.
    pub fn new(code: &'static str, subject: impl Into<String>, status: Status) -> Self {
        Check {
            code,
            subject: subject.into(),
            status,
            facts: Vec::new(),
            remedy: None,
        }
    }

    /// Adds a fact.
    pub fn fact(mut self, fact: impl Into<String>) -> Self {
        self.facts.push(fact.into());
        self
    }

    /// Sets the remedy.
    pub fn remedy(mut self, remedy: impl Into<String>) -> Self {
        self.remedy = Some(remedy.into());
        self
    }
}

/// What doctor knows besides the host tree: who runs podman, and what podman said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoctorContext {
    /// The invoking user (from the host's `/proc/self/status`).
    pub identity: Identity,
    /// What podman said about itself; `None` when it could not be asked.
    pub podman: PodmanFacts,
    /// The user's `containers.conf` (under `$XDG_CONFIG_HOME` or `~/.config`), a host path.
    pub user_containers_conf: Option<String>,
}

impl DoctorContext {
    /// True when podman runs rootless: it said so, or the invoking user is not root.
    pub fn rootless(&self) -> bool {
        self.podman.rootless.unwrap_or(self.identity.uid != 0)
    }
}

/// Everything doctor found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DoctorReport {
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl DoctorReport {
    /// True when a check found a problem.
    pub fn has_problem(&self) -> bool {
        self.checks.iter().any(|c| c.status == Status::Problem)
    }

    /// The text `gpuctl doctor` prints: one block per check.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            out.push_str(&format!(
                "{:<8} {:<18} {}\n",
                c.status.as_str(),
                c.code,
                c.subject
            ));
            for f in &c.facts {
                out.push_str(&format!("         - {f}\n"));
            }
            if let Some(r) = &c.remedy {
                out.push_str(&format!("         fix: {r}\n"));
            }
        }
        let count = |s| self.checks.iter().filter(|c| c.status == s).count();
        out.push_str(&format!(
            "{} problem(s), {} warning(s), {} ok, {} skipped\n",
            count(Status::Problem),
            count(Status::Warning),
            count(Status::Ok),
            count(Status::Skipped)
        ));
        out
    }
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

/// Runs every check that applies to the selection.
pub fn run(
    registry: &Registry,
    probe: &Probe,
    selection: &Selection,
    ctx: &DoctorContext,
) -> DoctorReport {
    let vendors = selected(registry, selection);
    let mut checks = Vec::new();
    checks.push(podman::check(&ctx.podman));
    let explicit = matches!(selection, Selection::Grants(_));
    checks.extend(host_checks::tiers(probe, &vendors, explicit));
    checks.extend(cdi_checks::versions(probe, &ctx.podman));
    checks.extend(cdi_checks::stale(probe));
    checks.extend(cdi_checks::readable(probe, &ctx.identity));
    checks.push(host_checks::oci_runtime(probe, ctx, registry, selection));
    checks.push(host_checks::selinux(probe));
    checks.extend(host_checks::render_groups(
        probe, ctx, registry, selection, &vendors,
    ));
    for v in &vendors {
        checks.extend(v.host_checks(probe, ctx));
    }
    DoctorReport { checks }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
