//! What a `gpuctl doctor` check says, and what every check may know besides the host tree (the
//! invoking user, what podman said). It imports no backend, so the plug-in trait can hand these
//! types to vendors while [`crate::doctor`] walks the backends, without an import circle.

pub mod driver;
pub mod kernel;
pub mod podman;
pub mod user;

use serde::Serialize;

use podman::PodmanFacts;
use user::Identity;

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
