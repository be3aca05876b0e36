//! `gpuctl doctor`: the host checks for a selection, before any container starts.

use std::io::Write;

use gpuctl_core::backend::Probe;
use gpuctl_core::doctor::{self, DoctorContext, Identity, PodmanFacts, SystemPodman};
use gpuctl_core::{Registry, selector};

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

    /// An image's environment, KEY=VALUE lines (FILE, or - for standard input; what `podman
    /// image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' IMAGE` prints): adds
    /// a check of its NVIDIA_REQUIRE_* variables against the loaded NVIDIA driver.
    #[arg(long, value_name = "FILE|-")]
    pub image_env: Option<std::path::PathBuf>,

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
    let podman = SystemPodman::from_path_var(std::env::var_os("PATH").as_deref());
    let facts = PodmanFacts::ask(&podman, ctx.podman.as_ref().map(|p| p.podman.as_str()));
    let dctx = DoctorContext {
        identity: Identity::of_host(&ctx.host).unwrap_or(Identity {
            uid: 0,
            gid: 0,
            groups: Vec::new(),
        }),
        podman: facts,
        user_containers_conf: user_conf(),
    };
    let mut report = doctor::run(registry, &probe, &selection, &dctx);
    if let Some(path) = &a.image_env {
        let env = crate::requirement::read_image_env(path)?;
        report.checks.push(gpuctl_nvidia::image_check::image_check(
            &ctx.host,
            &env,
            "the image",
        ));
    }
    let text = match a.format {
        DoctorFormat::Text => report.render(),
        DoctorFormat::Json => {
            let problems = report
                .checks
                .iter()
                .filter(|c| c.status == doctor::Status::Problem)
                .count();
            let v = serde_json::json!({"checks": report.checks, "problems": problems});
            format!("{v}\n")
        }
    };
    write_out(out, &text)?;
    Ok(if report.has_problem() {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

/// The invoking user's containers.conf, as a host path.
fn user_conf() -> Option<String> {
    let base = std::env::var("XDG_CONFIG_HOME")
        .ok()
        .filter(|d| d.starts_with('/'))
        .or_else(|| std::env::var("HOME").ok().map(|h| format!("{h}/.config")))?;
    Some(format!("{base}/containers/containers.conf"))
}
