//! An image's NVIDIA requirements, read from the container's environment with the container
//! toolkit's own rules (docs/image-check.md, "The grammar"): which variables are requirements
//! and the legacy `CUDA_VERSION` rule ([`legacy`], nvidia-container-toolkit's
//! `internal/config/image/cuda_image.go`), and how each is evaluated ([`dsl`],
//! libnvidia-container's `src/cli/dsl.c` and `src/cli/configure.c`).
//!
//! `cuda` is the newest CUDA line the driver runs ([`crate::cuda::driver_cuda_line`]: what
//! NVML's major.minor is), `driver` the driver release. `arch` (the GPU's compute capability)
//! is not read by gpuctl, and `brand` is each of the brands libnvidia-container names in turn:
//! an answer that differs with them is "depends", never taken as a pass.

use crate::cuda::{self, CudaVersion};
use crate::release::DriverRelease;

pub mod dsl;
pub mod legacy;

/// The image's requirement variables, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageEnv {
    /// Each requirement variable (`NVIDIA_REQUIRE_*` but `NVIDIA_REQUIRE_JETPACK*`): (name,
    /// value), in order.
    pub requires: Vec<(String, String)>,
    /// `NVIDIA_DISABLE_REQUIRE` is set to a true value.
    pub disabled: bool,
    /// `CUDA_VERSION`, when set.
    pub cuda_version: Option<String>,
}

/// Reads `KEY=VALUE` lines; other lines (blank, no `=`) are ignored, a later value of a key
/// replaces an earlier one, as an environment does (the tests' way in; gpuctl reads the
/// environment through core's `ImageEnv`).
#[cfg(test)]
pub(crate) fn parse(text: &str) -> ImageEnv {
    from_vars(gpuctl_core::plugin::ImageEnv::parse("", text).vars())
}

/// The requirement variables among an environment's `(KEY, VALUE)` pairs, each key once:
/// `NVIDIA_REQUIRE_*` but `NVIDIA_REQUIRE_JETPACK*` (Jetson mount options, which the toolkit
/// leaves out), `NVIDIA_DISABLE_REQUIRE` and `CUDA_VERSION`.
pub fn from_vars(vars: &[(String, String)]) -> ImageEnv {
    let get = |k: &str| {
        vars.iter()
            .rev()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    ImageEnv {
        // Go's strconv.ParseBool, which the toolkit uses for it.
        disabled: get("NVIDIA_DISABLE_REQUIRE").is_some_and(|v| legacy::parse_bool_true(&v)),
        cuda_version: get("CUDA_VERSION"),
        requires: vars
            .iter()
            .filter(|(k, _)| legacy::is_requirement(k))
            .cloned()
            .collect(),
    }
}

/// The NVIDIA variables of an image's environment as doctor and run carry it.
pub fn from_env(env: &gpuctl_core::plugin::ImageEnv) -> ImageEnv {
    from_vars(env.vars())
}

impl ImageEnv {
    /// True when the image declares nothing the toolkit checks: no `NVIDIA_REQUIRE_*`, no
    /// `CUDA_VERSION`, no `NVIDIA_DISABLE_REQUIRE`.
    pub fn is_empty(&self) -> bool {
        self.requires.is_empty() && self.cuda_version.is_none() && !self.disabled
    }
}

/// What the image's requirements say of a host's driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// The requirements hold (or the image has none, or turned them off).
    Fits,
    /// They cannot hold: why, naming what would.
    Fails(String),
    /// They hold only if the GPU's brand or architecture is right, which gpuctl cannot read.
    Depends(String),
}

/// The worlds gpuctl cannot tell apart: each brand libnvidia-container names, and one it may
/// name in a later release.
fn brand_worlds() -> impl Iterator<Item = Option<&'static str>> {
    dsl::BRANDS
        .iter()
        .map(|b| Some(*b))
        .chain(std::iter::once(None))
}

/// What the requirements come to on `driver`: for each, whether it can be satisfied and
/// whether it can be refused, over the brands; `worlds_fail` when in every world some
/// requirement cannot be satisfied, `worlds_fit` when in every world all must be.
struct Judgement {
    per_req: Vec<dsl::Verdicts>,
    worlds_fail: bool,
    worlds_fit: bool,
    /// The first requirement that cannot be satisfied in the first world where one cannot.
    failing: Option<usize>,
}

fn judge(reqs: &[(String, String)], driver: &DriverRelease) -> Judgement {
    let cuda_line = cuda::driver_cuda_line(driver).map(|c| c.to_string());
    let cuda_open = cuda_open(driver);
    let mut j = Judgement {
        per_req: vec![dsl::Verdicts::default(); reqs.len()],
        worlds_fail: true,
        worlds_fit: true,
        failing: None,
    };
    for brand in brand_worlds() {
        let facts = dsl::Facts {
            cuda: cuda_line.as_deref(),
            cuda_open,
            driver: driver.as_str(),
            brand,
        };
        let (mut fails, mut sure) = (false, true);
        for (i, (_, value)) in reqs.iter().enumerate() {
            let v = dsl::evaluate(value, &facts);
            let seen = &mut j.per_req[i];
            seen.satisfied |= v.satisfied;
            seen.unsatisfied |= v.unsatisfied;
            seen.invalid |= v.invalid;
            if !v.satisfied {
                fails = true;
                j.failing = j.failing.or(Some(i));
            } else if v.unsatisfied || v.invalid {
                sure = false;
            }
        }
        j.worlds_fail &= fails;
        j.worlds_fit &= !fails && sure;
    }
    j
}

/// Whether `driver` may run a newer CUDA than the table says: its branch is newer than the
/// table's newest, so the table's newest CUDA is only the least it runs.
pub fn cuda_open(driver: &DriverRelease) -> bool {
    let newest = cuda::toolkit_floors()
        .iter()
        .map(|r| r.driver.branch())
        .max();
    newest.is_some_and(|b| driver.branch() > b)
}

/// The requirements the hook would pass, or why the image fails before any is read.
fn requirements_or_failure(env: &ImageEnv) -> Result<Vec<(String, String)>, String> {
    let reqs = legacy::requirements(env).map_err(|e| {
        format!(
            "CUDA_VERSION: {e}; NVIDIA's legacy hook stops on it (\"failed to get requirements\")"
        )
    })?;
    if reqs.len() > legacy::MAX_REQUIREMENTS {
        return Err(format!(
            "the image has {} requirements (its NVIDIA_REQUIRE_* variables{}), more than the {} nvidia-container-cli takes: it refuses the container (\"input error: too many requirements\")",
            reqs.len(),
            if reqs.iter().any(|(k, _)| k == "CUDA_VERSION") {
                " and CUDA_VERSION's cuda>=X.Y"
            } else {
                ""
            },
            legacy::MAX_REQUIREMENTS
        ));
    }
    Ok(reqs)
}

/// The toolkit's verdict on `env` for a host whose loaded driver is `driver`: what NVIDIA's
/// legacy hook (nvidia-container-cli) would do with the container. A requirement it refuses
/// as an invalid expression, too many requirements or a `CUDA_VERSION` it cannot read fail as
/// an unsatisfied one does; the `Err` side is kept for callers and not used.
pub fn check(env: &ImageEnv, driver: &DriverRelease) -> Result<Fit, String> {
    if env.disabled {
        return Ok(Fit::Fits);
    }
    let reqs = match requirements_or_failure(env) {
        Ok(r) => r,
        Err(why) => return Ok(Fit::Fails(why)),
    };
    let j = judge(&reqs, driver);
    if j.worlds_fit {
        return Ok(Fit::Fits);
    }
    if j.worlds_fail
        && let Some(i) = j.failing
    {
        let (name, value) = &reqs[i];
        return Ok(Fit::Fails(fail_words(
            env,
            name,
            value,
            j.per_req[i],
            driver,
        )));
    }
    let names: Vec<&str> = reqs
        .iter()
        .zip(&j.per_req)
        .filter(|(_, v)| v.unsatisfied || v.invalid)
        .map(|((k, _), _)| k.as_str())
        .collect();
    let what = if cuda::driver_cuda_line(driver).is_some() && !cuda_open(driver) {
        "only on some GPU brands or architectures, which gpuctl does not read".to_string()
    } else {
        format!(
            "only on some GPU brands or architectures, which gpuctl does not read, or with a CUDA NVIDIA's table does not give for {driver}"
        )
    };
    Ok(Fit::Depends(format!(
        "{} holds for driver {driver} {what}",
        names.join(", ")
    )))
}

/// The oldest driver of NVIDIA's Table 3 on which the image's requirements hold whatever the
/// GPU's brand: the "install a driver of at least" of a failure. `None` when none does (a
/// requirement no driver meets, or one the hook refuses on every driver).
pub fn least_driver(env: &ImageEnv) -> Option<&'static DriverRelease> {
    let reqs = requirements_or_failure(env).ok()?;
    let mut rows: Vec<&'static DriverRelease> =
        cuda::toolkit_floors().iter().map(|r| &r.driver).collect();
    rows.sort();
    rows.into_iter().find(|d| judge(&reqs, d).worlds_fit)
}

/// The CUDA an image's requirements ask for, as written: the `cuda>=` condition of the first
/// alternative of `NVIDIA_REQUIRE_CUDA`, or the legacy `CUDA_VERSION`'s `cuda>=X.Y`.
pub fn asked_cuda(env: &ImageEnv) -> Option<String> {
    legacy::requirements(env)
        .ok()?
        .into_iter()
        .filter(|(k, _)| k == "NVIDIA_REQUIRE_CUDA" || k == "CUDA_VERSION")
        .find_map(|(_, v)| first_cuda_floor(&v).map(str::to_string))
}

/// The value of the `cuda>=` condition in the first alternative of a requirement.
fn first_cuda_floor(value: &str) -> Option<&str> {
    value
        .split(' ')
        .find(|a| !a.is_empty())?
        .split(',')
        .find_map(|c| c.strip_prefix("cuda>="))
}

/// The failure in words: what nvidia-container-cli would say, and for a CUDA floor the driver
/// that meets it and the CUDA this driver runs, so either way out can be taken.
fn fail_words(
    env: &ImageEnv,
    name: &str,
    value: &str,
    seen: dsl::Verdicts,
    driver: &DriverRelease,
) -> String {
    let shown = value.escape_debug();
    if !seen.unsatisfied {
        return format!(
            "{name} ('{shown}') is not an expression nvidia-container-cli reads: NVIDIA's legacy hook refuses the container (\"requirement error: invalid expression\")"
        );
    }
    let wanted = first_cuda_floor(value).and_then(|v| CudaVersion::parse(v).ok());
    let have = cuda::driver_cuda_line(driver);
    match (wanted, have) {
        (Some(v), Some(h))
            if !dsl::compare_version(&h.to_string(), dsl::Op::Ge, &v.to_string())
                .unwrap_or(true) =>
        {
            let need = least_driver(env)
                .map_or(String::new(), |d| format!("a driver of at least {d}, or "));
            // 12.8.1 against a 12.8 driver: the hook compares NVML's major.minor with the
            // whole value, so no driver of that line meets it.
            let whole = if v.update.is_some_and(|u| u > 0) && v.minor_line() == h {
                format!(
                    ", and nvidia-container-cli compares the driver's CUDA (major.minor, {h}) with the whole {v}, which no {h} driver meets"
                )
            } else {
                String::new()
            };
            format!(
                "{name} wants CUDA {v} or newer{whole}: needs {need}an image built for CUDA {h} or older (driver {driver} runs CUDA {h})"
            )
        }
        _ => format!(
            "{name} ('{shown}') does not hold for driver {driver}: nvidia-container-cli says \"{}\"",
            dsl::unsatisfied_message(value).escape_debug()
        ),
    }
}

#[cfg(test)]
mod real_strings;
#[cfg(test)]
mod tests;
