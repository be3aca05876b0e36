//! What a `gpuctl doctor` check says, and what every check may know besides the host tree (the
//! invoking user, what podman said). It imports no backend, so the plug-in trait can hand these
//! types to vendors while [`crate::doctor`] walks the backends, without an import circle.

mod code;
pub mod codes;
pub mod containers_conf;
pub mod driver;
pub mod evidence;
mod groups;
pub mod image_inspect;
pub mod kernel;
pub mod nodes;
pub mod podman;
pub mod user;

use serde::Serialize;

pub use code::CheckCode;
use containers_conf::ConfEnv;
pub use groups::NodeGroups;
use podman::PodmanFacts;
use user::Identity;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
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
///
/// The fields are in alphabetical order because that is the order of their keys in
/// `gpuctl doctor --format json`, which scripts have read since its first release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The check's code (`cdi-version`), the one failure families name.
    pub code: CheckCode,
    /// What it saw, one sentence each.
    pub facts: Vec<String>,
    /// What to do, when something is to be done.
    pub remedy: Option<String>,
    /// The outcome.
    pub status: Status,
    /// What it looked at, in a few words (`/etc/cdi/nvidia.yaml`, `podman 4.9.3`).
    pub subject: String,
}

impl Check {
    /// A check with no facts yet.
    pub fn new(code: CheckCode, subject: impl Into<String>, status: Status) -> Self {
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
    /// The invoking user (from the host's `/proc/self/status`); `None` when it cannot be read,
    /// and then checks that depend on it say they cannot tell.
    pub identity: Option<Identity>,
    /// What podman said about itself (nothing when it was not asked).
    pub podman: PodmanFacts,
    /// Where the invoking user's environment points podman for containers.conf.
    pub conf_env: ConfEnv,
    /// True when `--root` names a tree other than this machine's `/`: the tree is the host, so
    /// nothing is asked of this machine's podman.
    pub another_host: bool,
}

impl DoctorContext {
    /// True when podman runs rootless: it said so, or the invoking user is not root. `None` when
    /// neither podman nor the host's `/proc/self/status` tells.
    pub fn rootless(&self) -> Option<bool> {
        self.podman
            .rootless
            .or_else(|| self.identity.as_ref().map(|i| i.uid != 0))
    }
}
