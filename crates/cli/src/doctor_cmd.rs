//! `gpuctl doctor`: the host checks for a selection, before any container starts.

use std::io::Write;

use gpuctl_core::commands::doctor;
use gpuctl_core::commands::output::ReportFormat;
use gpuctl_core::plugin::Probe;
use gpuctl_core::{
    commands::{
        containers_conf::ConfEnv,
        podman::{PodmanFacts, SystemPodman},
        user::Identity,
    },
    plugin::DoctorContext,
};
use gpuctl_core::{
    commands::{image, selector},
    plugin::Registry,
};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl doctor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DoctorFormat {
    /// One block per check: status, check, subject, facts, fix.
    Text,
    /// One JSON object: {"checks": [{"code", "subject", "status", "facts", "remedy"}], "problems"}.
    Json,
}

/// Flags of `gpuctl doctor`.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// How to print the checks.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: DoctorFormat,

    /// An image's environment (FILE, or - for standard input): the JSON list `podman image
    /// inspect --format '{{json .Config.Env}}' IMAGE` prints, or KEY=VALUE lines: adds
    /// each vendor's check of what the image declares (NVIDIA_REQUIRE_*, a ROCm release)
    /// against the host's loaded drivers.
    #[arg(long, value_name = "FILE|-", conflicts_with = "image")]
    pub image_env: Option<std::path::PathBuf>,

    /// An image in podman's local storage: its environment is read with `podman image inspect`
    /// (nothing is pulled) and checked as with --image-env. Not asked when --root names
    /// another host; an image podman cannot inspect is exit 2.
    #[arg(long, value_name = "IMAGE")]
    pub image: Option<String>,

    /// The GPUs the container will get (as for `gpuctl args`); all when absent.
    #[arg(value_name = "SELECTOR")]
    pub selectors: Vec<String>,
}

/// Runs `gpuctl doctor`: exit 0 when no check found a problem, 1 otherwise.
pub fn run(ctx: &Context, a: &DoctorArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    ctx.ui.warn_all(registry.rejected());
    let selectors = if a.selectors.is_empty() {
        vec!["all".to_string()]
    } else {
        a.selectors.clone()
    };
    let selection =
        selector::normalize(&selectors, &registry.names()).map_err(CliError::Selector)?;
    // Specs are judged against podman's ceiling by the cdi-version check, not dropped first.
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, None);
    // A --root tree is another host: this machine's podman says nothing about it.
    let another_host = ctx.host.root() != std::path::Path::new("/");
    let given = ctx.podman.as_ref().map(|p| p.podman.as_str());
    let facts = if another_host {
        PodmanFacts::given(given)
    } else {
        let podman = SystemPodman::from_path_var(std::env::var_os("PATH").as_deref());
        PodmanFacts::ask(&podman, given)
    };
    let dctx = DoctorContext {
        identity: Identity::of_host(&ctx.host),
        podman: facts,
        conf_env: conf_env(),
        another_host,
    };
    // Read before the checks run, so that an image that cannot be read ends the command alone.
    let image = match (&a.image_env, &a.image) {
        (Some(path), _) => Some(Ok(crate::image_input::read_file(path, "the image")?)),
        (None, Some(name)) if another_host => Some(Err(image::not_asked(name))),
        (None, Some(name)) => Some(Ok(
            crate::image_input::inspect(name).map_err(CliError::Image)?
        )),
        (None, None) => None,
    };
    let mut report = doctor::run(registry, &probe, &selection, &dctx);
    match image {
        Some(Ok(env)) => report.checks.extend(image::checks(
            &doctor::selected(registry, &selection),
            &probe,
            &env,
        )),
        Some(Err(skipped)) => report.checks.push(skipped),
        None => {}
    }
    // Which package of the host's own distribution drives its GPUs (/etc/os-release).
    report
        .checks
        .extend(gpuctl_sources::driver_package_check(&ctx.host, registry));
    let format = match a.format {
        DoctorFormat::Text => ReportFormat::Text,
        DoctorFormat::Json => ReportFormat::Json,
    };
    let text = report.render(format).map_err(|e| CliError::Encode {
        what: "doctor report",
        reason: e.to_string(),
    })?;
    write_out(out, &text)?;
    Ok(if report.has_problem() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

/// Where the invoking user's environment points podman for containers.conf (host paths).
fn conf_env() -> ConfEnv {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    // podman takes XDG_CONFIG_HOME as set; a relative one would name a path the host root
    // cannot place, so only an absolute one is used.
    let config_home = var("XDG_CONFIG_HOME")
        .filter(|d| d.starts_with('/'))
        .or_else(|| var("HOME").map(|h| format!("{h}/.config")));
    ConfEnv {
        containers_conf: var("CONTAINERS_CONF"),
        containers_conf_override: var("CONTAINERS_CONF_OVERRIDE"),
        config_home,
    }
}
