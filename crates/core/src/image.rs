//! An image's environment, and the vendors' checks of it against the host (docs/image-check.md).
//!
//! An image declares what its GPU user space needs in environment variables (NVIDIA's
//! `NVIDIA_REQUIRE_CUDA`, ROCm's `ROCM_VERSION`); which variables mean what is each vendor's
//! business ([`crate::backend::Diagnostics::image_checks`]). Core only carries the `KEY=VALUE`
//! pairs, reads them from podman (`podman image inspect`, at the one podman boundary,
//! [`crate::check::podman::PodmanCli`]) and walks the vendors.

use crate::backend::GpuBackend;
use crate::check::image_inspect::{InspectError, inspect};
use crate::check::podman::{ENV_FORMAT, PodmanCli};
use crate::check::{Check, CheckCode, Status};
use crate::probe::Probe;
use crate::requirement::Fit;

/// The check's code when no vendor reads anything from the image, or it is not asked.
pub const CODE: CheckCode = crate::check::codes::IMAGE;

use crate::image_env::ImageEnv;

/// Every vendor's checks of the image, in vendor order; when none of them reads anything from
/// it, one skipped check that says so (never "ok": nothing was checked).
pub fn checks(vendors: &[&dyn GpuBackend], probe: &Probe, env: &ImageEnv) -> Vec<Check> {
    let mut out: Vec<Check> = vendors
        .iter()
        .flat_map(|v| v.diagnostics().image_checks(probe, env))
        .collect();
    if out.is_empty() {
        let names: Vec<&str> = vendors.iter().map(|v| v.display_name()).collect();
        let who = if names.is_empty() {
            "no vendor is selected".to_string()
        } else {
            format!("{} read(s) no requirement from it", names.join(", "))
        };
        out.push(
            Check::new(CODE, env.name().to_string(), Status::Skipped).fact(format!(
                "{who}: nothing to check against this host's drivers"
            )),
        );
    }
    out
}

/// The image check when `--root` names another host: this machine's podman does not hold that
/// host's images, so it is not asked (as for the other podman facts).
pub fn not_asked(image: &str) -> Check {
    Check::new(CODE, image.to_string(), Status::Skipped)
        .fact("skipped: --root names another host, and this machine's podman does not hold that host's images")
        .remedy(format!(
            "on that host, save the output of \"podman image inspect --format '{ENV_FORMAT}' {image}\" and pass it with --image-env FILE"
        ))
}

/// What `gpuctl run` makes of the image before it starts the container.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunVerdict {
    /// The sentence to refuse the image with: a vendor found that the host's drivers cannot
    /// run it.
    pub refuse: Option<String>,
    /// What the user should know but does not stop the start: the image could not be read (not
    /// pulled yet), or it fits only some GPUs.
    pub warnings: Vec<String>,
}

/// The image check `gpuctl run` does before it starts a container: the image among the
/// engine's `run` arguments (`args`, [`crate::commands::run_args`]) is inspected through `cli`, its
/// environment overlaid with the arguments' `-e`/`--env`/`--env-file` as `host`'s engine will
/// ([`crate::commands::run_env`]: the container's environment, which the NVIDIA hook reads), and every
/// granted vendor's [`crate::backend::Diagnostics::image_checks`] is asked.
/// An image the engine cannot inspect
/// (not pulled yet) or cannot be told among the arguments, or an env-file gpuctl cannot read,
/// is a warning, never a refusal.
pub fn before_run(
    vendors: &[&dyn GpuBackend],
    probe: &Probe,
    cli: &dyn PodmanCli,
    args: &[String],
    host: &crate::run_env::RunHost,
) -> RunVerdict {
    use crate::run_args::{ImageArg, image_of};
    let mut verdict = RunVerdict::default();
    if vendors.is_empty() {
        return verdict;
    }
    let image = match image_of(args) {
        ImageArg::Image(i) => i,
        ImageArg::Rootfs | ImageArg::Missing => return verdict,
        ImageArg::UnknownOption(o) => {
            verdict.warnings.push(format!(
                "the image is not checked against the host's drivers: gpuctl does not know whether {o} takes a value, so it cannot tell which argument is the image; check it with 'gpuctl doctor --image IMAGE'"
            ));
            return verdict;
        }
    };
    let env = match inspect(cli, &image) {
        Ok(env) => env,
        // No engine: the start fails next and says so.
        Err(InspectError::NoPodman { .. }) => return verdict,
        Err(e) => {
            verdict.warnings.push(format!(
                "the image is not checked against the host's drivers: {e}; if it is pulled by this start, check it afterwards with 'gpuctl doctor --image {image}'"
            ));
            return verdict;
        }
    };
    let options = crate::run_args::env_options(args);
    let env = match crate::run_env::container_env(&env, &options, host) {
        Ok(env) => env,
        Err(why) => {
            verdict.warnings.push(format!(
                "the image is not checked against the host's drivers: the container's environment cannot be told, since {why}; check the image with 'gpuctl doctor --image {image}'"
            ));
            return verdict;
        }
    };
    for c in vendors
        .iter()
        .flat_map(|v| v.diagnostics().image_checks(probe, &env))
    {
        match c.status {
            Status::Problem if verdict.refuse.is_none() => verdict.refuse = Some(refusal(&c)),
            Status::Problem | Status::Warning => verdict.warnings.push(refusal(&c)),
            Status::Ok | Status::Skipped => tracing::debug!("{}", refusal(&c)),
        }
    }
    // THE verdict on the loaded stack with this image, as `gpuctl requirement --driver SPEC
    // --image-env` gives it: a stack that does not fit the GPUs is refused like an image the
    // driver cannot run; a GPU no source lists is said.
    if verdict.refuse.is_none() {
        for v in vendors {
            let Some(lv) = crate::driver_fit::loaded_verdict_with(probe, v.vendor(), Some(&env))
            else {
                continue;
            };
            let specs = lv.specs.join(", ");
            let why = lv.verdict.why.unwrap_or_default();
            match lv.verdict.fit {
                Fit::No if verdict.refuse.is_none() => {
                    verdict.refuse = Some(format!(
                        "{image} on the loaded {} driver: driver {specs} does not satisfy the GPUs: {why}; install a driver 'gpuctl requirement' accepts",
                        v.display_name()
                    ));
                }
                Fit::Unknown if lv.unlisted => verdict.warnings.push(format!(
                    "{image} on the loaded {} driver: whether driver {specs} drives the GPUs is unknown: {why}",
                    v.display_name()
                )),
                _ => {}
            }
        }
    }
    verdict
}

/// The sentence `gpuctl run` refuses an image with: the check's subject, what it saw and the
/// remedy, as doctor prints them in a block.
pub fn refusal(check: &Check) -> String {
    let mut s = format!("{}: {}", check.subject, check.facts.join("; "));
    if let Some(r) = &check.remedy {
        s.push_str(&format!("; {r}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_one_line_with_the_remedy() {
        let c = Check::new(
            CheckCode::new("x"),
            "img on the loaded driver",
            Status::Problem,
        )
        .fact("a")
        .fact("b")
        .remedy("c");
        assert_eq!(refusal(&c), "img on the loaded driver: a; b; c");
    }
}

#[cfg(test)]
mod run_tests {
    use super::*;
    use crate::backend::MockGpuBackend;
    use crate::check::podman::MockPodmanCli;
    use crate::host::Host;
    use gpuctl_cdi::CdiRegistry;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    /// A vendor that finds a problem in any image declaring `NEEDS=new`.
    fn picky() -> &'static MockGpuBackend {
        let mut m = MockGpuBackend::new();
        m.expect_display_name().return_const("Picky");
        // Not registered: THE verdict has no loaded stack of its to ask about.
        m.expect_vendor().return_const("picky");
        let mut diagnostics = crate::backend::MockDiagnostics::new();
        diagnostics.expect_image_checks().returning(|_, env| {
            if env.get("NEEDS") == Some("new") {
                vec![
                    Check::new(
                        CheckCode::new("picky-image"),
                        format!("{} on Picky", env.name()),
                        Status::Problem,
                    )
                    .fact("the driver is old")
                    .remedy("update it"),
                ]
            } else {
                Vec::new()
            }
        });
        m.expect_diagnostics()
            .return_const(Box::new(diagnostics) as Box<dyn crate::backend::Diagnostics>);
        Box::leak(Box::new(m))
    }

    fn verdict(env: Option<Result<String, String>>, args: &[&str]) -> RunVerdict {
        let host = Host::system();
        let probe = Probe::with_cdi(&host, CdiRegistry::default());
        let mut cli = MockPodmanCli::new();
        cli.expect_image_env().returning(move |_| env.clone());
        let host = crate::run_env::RunHost {
            engine: crate::launch::Engine::Podman,
            vars: Vec::new(),
        };
        before_run(&[picky()], &probe, &cli, &s(args), &host)
    }

    #[test]
    fn a_vendor_s_problem_refuses_the_image_in_one_sentence() {
        let v = verdict(Some(Ok("[\"NEEDS=new\"]".into())), &["--rm", "img", "sh"]);
        assert_eq!(
            v.refuse.as_deref(),
            Some("img on Picky: the driver is old; update it")
        );
        let v = verdict(Some(Ok("[\"NEEDS=old\"]".into())), &["--rm", "img"]);
        assert_eq!(v, RunVerdict::default());
        // the container's environment, not the image's, is judged
        let v = verdict(
            Some(Ok("[\"NEEDS=old\"]".into())),
            &["-e", "NEEDS=new", "img"],
        );
        assert!(v.refuse.is_some(), "{v:?}");
        let v = verdict(
            Some(Ok("[\"NEEDS=new\"]".into())),
            &["--env=NEEDS=old", "img"],
        );
        assert_eq!(v, RunVerdict::default());
    }

    #[test]
    fn what_cannot_be_inspected_or_placed_is_a_warning() {
        let v = verdict(Some(Err("image not known".into())), &["img"]);
        assert!(v.refuse.is_none());
        assert_eq!(
            v.warnings,
            [
                "the image is not checked against the host's drivers: cannot inspect image img (image not known); if it is pulled by this start, check it afterwards with 'gpuctl doctor --image img'"
            ]
        );
        let v = verdict(None, &["img"]);
        assert_eq!(v, RunVerdict::default());
        // An option the finder does not know (podman's --gpus is known since 5.8.2's list): the
        // image cannot be placed, so it is a warning, never a refusal.
        let v = verdict(
            Some(Ok("[\"NEEDS=new\"]".into())),
            &["--not-a-podman-option", "all", "img"],
        );
        assert!(v.refuse.is_none());
        assert_eq!(v.warnings.len(), 1);
    }
}
