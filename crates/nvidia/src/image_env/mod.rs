//! An image's NVIDIA requirements, read from its environment (`KEY=VALUE` lines, what `podman
//! image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' IMAGE` prints), with the
//! container toolkit's rules (docs/requirement.md, "An image's environment"):
//!
//! - every `NVIDIA_REQUIRE_*` variable must hold (several variables: and);
//! - in one variable, space-separated alternatives: or; within one, comma-separated
//!   conditions: and; a condition is `cuda`, `driver`, `arch` or `brand` with `=`, `!=`, `<`,
//!   `<=`, `>`, `>=`;
//! - `NVIDIA_DISABLE_REQUIRE` set to a true value turns the checks off;
//! - with no `NVIDIA_REQUIRE_CUDA`, `CUDA_VERSION=X.Y.Z` stands for `cuda>=X.Y`.
//!
//! `cuda` is compared with the newest CUDA the driver runs ([`crate::cuda::driver_cuda_line`]),
//! `driver` with the driver release. `arch` and `brand` are the GPU's compute capability and
//! brand, which gpuctl does not read from sysfs: a condition on them is reported as what the
//! answer depends on, never taken as true.

use std::cmp::Ordering;

use crate::cuda::{self, CudaVersion};
use crate::release::DriverRelease;

/// The image's requirement variables, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageEnv {
    /// Each `NVIDIA_REQUIRE_*` variable: (name, value), in order.
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
    from_vars(gpuctl_core::image_env::ImageEnv::parse("", text).vars())
}

/// The requirement variables among an environment's `(KEY, VALUE)` pairs, each key once.
pub fn from_vars(vars: &[(String, String)]) -> ImageEnv {
    let get = |k: &str| {
        vars.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    ImageEnv {
        // Go's strconv.ParseBool, which the toolkit uses for it.
        disabled: get("NVIDIA_DISABLE_REQUIRE")
            .is_some_and(|v| matches!(v.as_str(), "1" | "t" | "T" | "true" | "TRUE" | "True")),
        cuda_version: get("CUDA_VERSION"),
        requires: vars
            .iter()
            .filter(|(k, _)| k.starts_with("NVIDIA_REQUIRE_"))
            .cloned()
            .collect(),
    }
}

/// The NVIDIA variables of an image's environment as doctor and run carry it.
pub fn from_env(env: &gpuctl_core::image_env::ImageEnv) -> ImageEnv {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    Yes,
    No,
    Maybe,
}

fn compare(ord: Ordering, op: &str) -> Option<bool> {
    Some(match op {
        "=" | "==" => ord == Ordering::Equal,
        "!=" => ord != Ordering::Equal,
        "<" => ord == Ordering::Less,
        "<=" => ord != Ordering::Greater,
        ">" => ord == Ordering::Greater,
        ">=" => ord != Ordering::Less,
        _ => return None,
    })
}

fn split_condition(cond: &str) -> Option<(&str, &str, &str)> {
    let at = cond.find(['=', '!', '<', '>'])?;
    let (key, rest) = cond.split_at(at);
    let oplen = rest
        .bytes()
        .take_while(|b| matches!(b, b'=' | b'!' | b'<' | b'>'))
        .count();
    let (op, value) = rest.split_at(oplen);
    Some((key.trim(), op, value.trim()))
}

fn condition(cond: &str, driver: &DriverRelease) -> Result<Truth, String> {
    let bad = || format!("'{}' is not a requirement condition", cond.escape_debug());
    let (key, op, value) = split_condition(cond).ok_or_else(bad)?;
    let truth = |b: bool| if b { Truth::Yes } else { Truth::No };
    match key {
        "cuda" => {
            let want = CudaVersion::parse(value).map_err(|e| e.to_string())?;
            let have = cuda::driver_cuda_line(driver).ok_or_else(|| {
                format!("driver {driver} is older than every CUDA toolkit NVIDIA's table lists")
            })?;
            compare(have.cmp(&want.minor_line()), op)
                .map(truth)
                .ok_or_else(bad)
        }
        "driver" => {
            let want = DriverRelease::parse(value).map_err(|e| e.to_string())?;
            compare(driver.cmp(&want), op).map(truth).ok_or_else(bad)
        }
        "arch" | "brand" => compare(Ordering::Equal, op)
            .map(|_| Truth::Maybe)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The toolkit's verdict on `env` for a host whose loaded driver is `driver`; an unreadable
/// condition is an error naming it.
pub fn check(env: &ImageEnv, driver: &DriverRelease) -> Result<Fit, String> {
    if env.disabled {
        return Ok(Fit::Fits);
    }
    let mut requires = env.requires.clone();
    if !requires.iter().any(|(k, _)| k == "NVIDIA_REQUIRE_CUDA")
        && let Some(v) = &env.cuda_version
    {
        let line = CudaVersion::parse(v).map_err(|e| format!("CUDA_VERSION: {e}"))?;
        requires.push((
            "CUDA_VERSION".to_string(),
            format!("cuda>={}", line.minor_line()),
        ));
    }
    let mut depends = Vec::new();
    for (name, value) in &requires {
        let mut best = Truth::No;
        for alt in value.split_whitespace() {
            let mut t = Truth::Yes;
            for cond in alt.split(',').filter(|c| !c.is_empty()) {
                match condition(cond, driver).map_err(|e| format!("{name}: {e}"))? {
                    Truth::No => t = Truth::No,
                    Truth::Maybe if t == Truth::Yes => t = Truth::Maybe,
                    _ => {}
                }
            }
            if t == Truth::Yes {
                best = Truth::Yes;
                break;
            }
            if t == Truth::Maybe {
                best = Truth::Maybe;
            }
        }
        match best {
            Truth::Yes => {}
            Truth::Maybe => depends.push(name.clone()),
            Truth::No => return Ok(Fit::Fails(fail_words(name, value, driver))),
        }
    }
    Ok(if depends.is_empty() {
        Fit::Fits
    } else {
        Fit::Depends(format!(
            "{} holds for driver {driver} only on some GPU brands or architectures, which gpuctl does not read",
            depends.join(", ")
        ))
    })
}

/// The failure in words: the driver the image's CUDA needs, and the newest CUDA this driver
/// runs, so either way out can be taken.
fn fail_words(name: &str, value: &str, driver: &DriverRelease) -> String {
    let wanted = value
        .split_whitespace()
        .next()
        .into_iter()
        .flat_map(|alt| alt.split(','))
        .find_map(|c| {
            c.strip_prefix("cuda>=")
                .and_then(|v| CudaVersion::parse(v).ok())
        });
    let have = cuda::driver_cuda_line(driver);
    match wanted {
        Some(v) => {
            let need = cuda::min_driver_for_cuda(v.minor_line())
                .map_or(String::new(), |d| format!("a driver of at least {d}, or "));
            let run = have.map_or(String::new(), |h| {
                format!(" (driver {driver} runs CUDA {h})")
            });
            format!(
                "{name} wants CUDA {v} or newer: needs {need}an image built for CUDA {} or older{run}",
                have.map_or("-".to_string(), |h| h.to_string())
            )
        }
        None => format!("{name} ('{value}') does not hold for driver {driver}"),
    }
}

#[cfg(test)]
mod real_strings;
#[cfg(test)]
mod tests;
