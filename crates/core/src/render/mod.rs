//! The one place a [`Plan`] becomes text: podman arguments (plain or JSON), Quadlet
//! `[Container]` lines, a compose service fragment, or `docker run` arguments. Each renderer
//! reads the same merged items, so the formats cannot drift apart; what a format cannot say is
//! a [`Note`] for stderr (and, where the format has comments, a comment in the text).

use std::fmt;

use crate::host::Host;
use crate::plan::{HookWords, Need, Plan};
use gpuctl_cdi::podman::PodmanCeiling;

mod check;
mod compose;
mod docker;
mod quadlet;

pub use check::{Unsafe, UnsafeArgument, check_plan, is_one_word, is_quadlet_device};
pub use docker::{GroupVerdict, group_verdict};
pub use quadlet::systemd_quote;

/// An output format of `gpuctl args`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// podman arguments on one line, separated by single spaces.
    Plain,
    /// podman arguments as one JSON array of strings.
    Json,
    /// The `[Container]` lines of a Quadlet `.container` unit.
    Quadlet,
    /// The GPU keys of one compose service (`devices`, `environment`, `volumes`, `group_add`).
    Compose,
    /// `docker run` arguments on one line.
    Docker,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 5] = [
        Format::Plain,
        Format::Json,
        Format::Quadlet,
        Format::Compose,
        Format::Docker,
    ];

    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Plain => "plain",
            Format::Json => "json",
            Format::Quadlet => "quadlet",
            Format::Compose => "compose",
            Format::Docker => "docker",
        }
    }
}

/// What a renderer could not express the way podman does, for stderr. A small type of its own
/// so that typed findings can take it over as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// Quadlet's `GroupAdd=` key is newer than some podman releases (no release was given).
    QuadletGroupAdd,
    /// The podman release given has no Quadlet.
    NoQuadlet(String),
    /// podman-compose cannot pass these bind mounts (their paths hold `:`).
    ComposeBindsLeftOut(Vec<String>),
    /// `group_add: keep-groups` is podman's word; docker compose does not know it.
    ComposeKeepGroups,
    /// docker has no `keep-groups`: these (node, group id) pairs replace it.
    DockerGroups(Vec<(String, u32)>),
    /// Nodes docker would need a group for that belong to group 0 (no group is added), and the
    /// group their vendors' drivers give them, in words
    /// ([`crate::backend::GpuBackend::node_group`]).
    DockerRootGroup(Vec<String>, String),
    /// Nodes (with their permission bits) whose group may do no more than everyone, so no
    /// group opens them to the container's user; and the group words, as above.
    DockerNoGroupOpens(Vec<(String, u32)>, String),
    /// The group of a node could not be read (the sentence says why).
    DockerGroupUnknown(String),
    /// A CDI-tier vendor needs the user's groups, which docker cannot keep.
    DockerCdiGroups(String),
    /// CDI names reach docker only in some releases and configurations.
    DockerCdi,
    /// A vendor's hook tier needs the docker runtime of its toolkit (NVIDIA's: `nvidia`).
    DockerHook(HookWords),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::QuadletGroupAdd => f.write_str(
                "Quadlet reads GroupAdd= from podman 5.1 on; with an older podman write 'PodmanArgs=--group-add keep-groups' instead, or pass --podman-version and gpuctl writes the key that podman reads",
            ),
            Note::NoQuadlet(version) => write!(
                f,
                "podman {version} has no Quadlet (podman 4.4 is the first): these [Container] keys need a newer podman; with this one use 'gpuctl args' in a podman run line"
            ),
            Note::ComposeBindsLeftOut(paths) => write!(
                f,
                "podman-compose passes a bind mount as '-v SOURCE:TARGET:ro', which cannot carry the ':' in {}; the read-only mount is left out of the compose keys (a comment there shows the long form docker compose takes) — add it with 'podman run --mount' if the container needs it",
                paths.join(", ")
            ),
            Note::ComposeKeepGroups => f.write_str(
                "'group_add: keep-groups' is podman's (and needs crun); for docker compose use the numeric groups that 'gpuctl args --format docker' prints",
            ),
            Note::DockerGroups(groups) => write!(
                f,
                "docker has no keep-groups: the container gets the groups that own the granted nodes ({}) instead of the invoking user's groups",
                groups
                    .iter()
                    .map(|(p, g)| format!("{p}: {g}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Note::DockerRootGroup(paths, group) => write!(
                f,
                "{} belong(s) to group 0 (root) and gpuctl never adds '--group-add 0' (it would give the container's user the root group), so a non-root container user cannot open them; have udev give the nodes {group}",
                paths.join(", ")
            ),
            Note::DockerNoGroupOpens(nodes, group) => write!(
                f,
                "{} give(s) their group no access beyond everyone's, so no '--group-add' lets a non-root container user open them; have udev give the nodes mode 0660 and {group}",
                nodes
                    .iter()
                    .map(|(p, m)| format!("{p} (mode {m:04o})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Note::DockerGroupUnknown(sentence) => write!(
                f,
                "{sentence}, so docker gets no group for it; add the group that owns it with '--group-add GID'"
            ),
            Note::DockerCdiGroups(vendor) => write!(
                f,
                "docker has no keep-groups and gpuctl does not know which nodes the {vendor} CDI devices create: add the group that owns them with '--group-add GID' if the container runs as a non-root user"
            ),
            Note::DockerCdi => f.write_str(
                "docker reads CDI device names from Docker Engine 25 on, where the 'cdi' feature is enabled (in /etc/docker/daemon.json; the default from 28.2), and from specs in /etc/cdi and /var/run/cdi unless its cdi-spec-dirs say otherwise",
            ),
            Note::DockerHook(HookWords {
                display,
                noun,
                runtime: Some(r),
            }) => write!(
                f,
                "the {display} hook tier needs docker's {display} runtime ('--runtime {}', set up with '{}'): the environment alone grants no {noun}",
                r.name, r.setup
            ),
            Note::DockerHook(HookWords {
                display,
                noun,
                runtime: None,
            }) => write!(
                f,
                "the {display} hook tier needs the docker runtime of {display}'s container toolkit ('--runtime NAME', as its documentation names it): the environment alone grants no {noun}"
            ),
        }
    }
}

/// A plan as text, with what the format could not express.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendering {
    /// The text for stdout; empty when nothing is granted.
    pub text: String,
    /// Sentences for stderr.
    pub notes: Vec<Note>,
}

/// Renders `plan` in `format`. Only docker reads the host (the groups that own the nodes), and
/// only Quadlet the podman release (`--podman-version`, which keys its Quadlet reads).
/// A value the format's reader would split refuses the whole rendering ([`check_plan`]); the
/// one-line formats (plain, docker) are meant for `$(...)` in a shell, so an argument the shell
/// would split or expand refuses them too.
pub fn render(
    plan: &Plan,
    format: Format,
    host: &Host,
    podman: Option<&PodmanCeiling>,
) -> Result<Rendering, UnsafeArgument> {
    check_plan(plan, format)?;
    if plan.is_empty() {
        let text = if format == Format::Json { "[]\n" } else { "" };
        return Ok(Rendering {
            text: text.to_string(),
            notes: Vec::new(),
        });
    }
    Ok(match format {
        Format::Plain => one_line(podman_args(plan), Vec::new())?,
        Format::Json => Rendering {
            text: format!("{}\n", serde_json::Value::from(podman_args(plan))),
            notes: Vec::new(),
        },
        Format::Quadlet => quadlet::render(plan, podman),
        Format::Compose => compose::render(plan),
        Format::Docker => {
            let (args, notes) = docker::render(plan, host);
            one_line(args, notes)?
        }
    })
}

/// Arguments on one line, each one shell word.
fn one_line(args: Vec<String>, notes: Vec<Note>) -> Result<Rendering, UnsafeArgument> {
    check::check_one_word(&args)?;
    Ok(Rendering {
        text: format!("{}\n", args.join(" ")),
        notes,
    })
}

/// The `podman run` arguments of a plan, flag and value as separate items.
pub fn podman_args(plan: &Plan) -> Vec<String> {
    plan.items()
        .into_iter()
        .flat_map(|i| podman_pair(&i.need))
        .collect()
}

/// The `docker run` arguments of a plan, and what differs from podman (`gpuctl run --engine
/// docker`).
pub fn docker_args(plan: &Plan, host: &Host) -> (Vec<String>, Vec<Note>) {
    docker::render(plan, host)
}

/// One need as podman's flag and value.
pub fn podman_pair(need: &Need) -> [String; 2] {
    match need {
        Need::CdiDevice(name) | Need::DeviceNode(name) => ["--device".to_string(), name.clone()],
        Need::Env { name, value } => ["-e".to_string(), format!("{name}={value}")],
        Need::BindReadOnly(path) => ["--mount".to_string(), podman_bind(path)],
        Need::KeepGroups => ["--group-add".to_string(), "keep-groups".to_string()],
    }
}

/// podman's `--mount` value for a read-only bind of `path` at the same path.
pub fn podman_bind(path: &str) -> String {
    format!("type=bind,source={path},destination={path},ro=true")
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
