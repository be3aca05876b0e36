//! The image check ([`gpuctl_core::plugin::Diagnostics::image_checks`]): the loaded driver
//! (`/proc/driver/nvidia/version`) against an image's NVIDIA requirements
//! ([`crate::image_env`]). In CDI mode the container toolkit does not check them
//! (NVIDIA/nvidia-container-toolkit#1470), so an image built for a newer CUDA starts and fails
//! at its first CUDA call; this says so before, with the release it needs and both ways out
//! (docs/image-check.md).

use std::path::Path;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::ImageEnv as Env;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::{Check, CheckCode, Status};

use crate::cuda;
use crate::image_env::{self, Fit, ImageEnv, asked_cuda, check, least_driver};
use crate::proc_version::{PROC_VERSION, parse_proc_version};
use crate::release::DriverRelease;

/// The check's code in doctor's report.
pub const CODE: CheckCode = CheckCode::new("nvidia-image");

/// The vendor's image checks: none when the image declares nothing the toolkit reads,
/// otherwise one.
pub fn image_checks(probe: &Probe, env: &Env) -> Vec<Check> {
    let nvidia = image_env::from_env(env);
    if nvidia.is_empty() {
        return Vec::new();
    }
    vec![image_check(probe.host(), &nvidia, env.name())]
}

/// The image check for the host's loaded NVIDIA driver; `image` names the image in the words
/// (`the image`, or its reference).
pub fn image_check(host: &Host, env: &ImageEnv, image: &str) -> Check {
    let subject = format!("{image} on the loaded NVIDIA driver");
    if env.disabled {
        return Check::new(CODE, subject, Status::Skipped).fact(
            "the image sets NVIDIA_DISABLE_REQUIRE: it asks that its requirements not be checked",
        );
    }
    let loaded = host
        .read_to_string(Path::new(PROC_VERSION), 64 * 1024)
        .ok()
        .and_then(|t| parse_proc_version(&t))
        .and_then(|d| DriverRelease::parse(&d.version).ok());
    let Some(driver) = loaded else {
        return Check::new(CODE, subject, Status::Skipped).fact(format!(
            "{PROC_VERSION} names no loaded NVIDIA driver to check the image against"
        ));
    };
    let runs =
        cuda::driver_cuda_line(&driver).map_or(String::new(), |c| format!(", which runs CUDA {c}"));
    let asks = asked_cuda(env).map_or(String::new(), |c| {
        format!("; the image asks for CUDA {} or newer", c.escape_debug())
    });
    let base = format!("loaded driver {driver}{runs}{asks}");
    match check(env, &driver) {
        Ok(Fit::Fits) => Check::new(CODE, subject, Status::Ok).fact(base),
        Ok(Fit::Fails(why)) => {
            let need = least_driver(env).map_or(String::new(), |d| {
                format!("install a driver of at least {d}, or ")
            });
            let older = cuda::driver_cuda_line(&driver)
                .map_or(String::new(), |c| format!(" for CUDA {c} or older"));
            let c = Check::new(CODE, subject, Status::Problem).fact(base);
            // A CUDA line the driver is too old for is said by the base fact and the remedy;
            // anything else (`driver>=560`, an expression the hook refuses) by the toolkit's
            // words.
            let cuda_line = !need.is_empty() && why.contains(" wants CUDA ");
            let c = if cuda_line { c } else { c.fact(why) };
            c.remedy(format!(
                    "{need}use an image built{older} (NVIDIA's legacy hook refuses such a container; under CDI it starts and fails at its first CUDA call)"
                ))
        }
        Ok(Fit::Depends(why)) => Check::new(CODE, subject, Status::Warning)
            .fact(base)
            .fact(why),
        Err(why) => Check::new(CODE, subject, Status::Skipped)
            .fact(format!("the image's requirements do not read: {why}")),
    }
}
