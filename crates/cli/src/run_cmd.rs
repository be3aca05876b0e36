//! `gpuctl run`: the engine with the GPU arguments, its failure explained by family.

use std::io::Write;

use gpuctl_core::commands::launch::{self, Engine};
use gpuctl_core::commands::podman::SystemPodman;
use gpuctl_core::plugin::Probe;
use gpuctl_core::{
    commands::{doctor, explain, image, render, selector},
    plugin::{GpuBackend, Registry},
};

use crate::write_out;
use crate::{CliError, Context, Outcome};

/// The engines `gpuctl run` drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// podman run.
    Podman,
    /// docker run (the nodes' numeric groups instead of keep-groups, which docker does not know).
    Docker,
}

/// Flags of `gpuctl run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The GPUs to give the container (as for `gpuctl args`).
    #[arg(long, value_name = "SELECTOR", default_value = "all")]
    pub gpus: Vec<String>,

    /// The container engine.
    #[arg(long, value_enum, ignore_case = true, default_value = "podman")]
    pub engine: EngineArg,

    /// Print the full command line, shell-quoted, instead of running it (the image is not
    /// inspected).
    #[arg(long)]
    pub dry_run: bool,

    /// Start the container without checking the image against the host's drivers first (by
    /// default an image whose NVIDIA_REQUIRE_CUDA the loaded driver cannot meet is refused
    /// with exit 1).
    #[arg(long)]
    pub no_image_check: bool,

    /// The engine's `run` arguments, as after `podman run`: options, the image, its command
    /// (`gpuctl run --gpus amd --rm IMAGE CMD`). From the first argument that is not a gpuctl
    /// flag on, everything is the engine's; `-v`/`-q` are gpuctl's, so write podman's `-v`
    /// after `--` (`gpuctl run -- -v /a:/a IMAGE`).
    #[arg(
        required = true,
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub args: Vec<String>,
}

/// Runs `gpuctl run`: the engine's own exit code, or 1/2 for gpuctl's own failures.
pub fn run(ctx: &Context, a: &RunArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    ctx.ui.warn_all(registry.rejected());
    let selection = selector::normalize(&a.gpus, &registry.names()).map_err(CliError::GpusFlag)?;
    let probe = Probe::new(&ctx.host, &ctx.cdi_dirs, ctx.podman.as_ref());
    ctx.ui.warn_all(&probe.cdi_findings());
    let plan = registry
        .plan(&probe, &selection)
        .map_err(CliError::Unserved)?;
    let notices: Vec<String> = plan.notices().iter().map(ToString::to_string).collect();
    ctx.ui.warn_all(&notices);
    // The engine reads --device, --mount and -e as podman does: a value it would split is
    // refused here as `args` refuses it.
    render::check_plan(&plan, render::Format::Json).map_err(CliError::UnsafePlain)?;
    let (engine, gpu_args) = match a.engine {
        EngineArg::Podman => (Engine::Podman, render::podman_args(&plan)),
        EngineArg::Docker => {
            let (args, notes) = render::docker_args(&plan, &ctx.host);
            let notes: Vec<String> = notes.iter().map(ToString::to_string).collect();
            ctx.ui.warn_all(&notes);
            (Engine::Docker, args)
        }
    };
    if engine == Engine::Podman
        && let Some(w) = launch::runtime_warning(&gpu_args, &a.args)
    {
        ctx.ui.warn(&w);
    }
    let argv = launch::command_line(engine, &gpu_args, &a.args);
    if a.dry_run {
        write_out(out, &format!("{}\n", launch::shell_quote(&argv)))?;
        return Ok(Outcome::Served);
    }
    if !a.no_image_check {
        let vendors: Vec<&dyn GpuBackend> = plan
            .vendors()
            .iter()
            .filter_map(|v| registry.get(v.vendor()))
            .collect();
        let cli = SystemPodman::engine(engine, std::env::var_os("PATH").as_deref());
        // The engine inherits gpuctl's environment: `-e KEY` and --env-host read it.
        let host = gpuctl_core::commands::run_env::RunHost {
            engine,
            vars: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .collect(),
        };
        let verdict = image::before_run(&vendors, &probe, &cli, &a.args, &host);
        ctx.ui.warn_all(&verdict.warnings);
        if let Some(sentence) = verdict.refuse {
            return Err(CliError::ImageRefused { sentence });
        }
    }
    let mut stderr = std::io::stderr();
    let outcome = launch::launch(&argv, &mut stderr).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            CliError::EngineMissing {
                program: engine.program(),
            }
        } else {
            CliError::EngineStart {
                program: engine.program(),
                reason: e.to_string(),
            }
        }
    })?;
    if outcome.code != 0
        && let Some(e) = explain::explain(&outcome.stderr_tail, registry, Some(&probe))
    {
        let doctor_probe = probe.with_specs(&ctx.cdi_dirs, None);
        let e = e.with_host(&doctor::file_only(
            registry,
            &doctor_probe,
            ctx.podman.as_ref().map(|p| p.podman.as_str()),
        ));
        let _ = write!(
            stderr,
            "\ngpuctl: {}\n",
            launch::exit_meaning(engine, outcome.code)
        );
        let _ = stderr.write_all(e.render().as_bytes());
    }
    // Exit codes are 0-255; a code outside (never from a real engine) wraps as the shell's.
    Ok(Outcome::Engine((outcome.code & 0xff) as u8))
}
