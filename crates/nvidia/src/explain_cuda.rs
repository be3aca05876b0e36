//! explain's host evidence for the hook's `unsatisfied condition: cuda>=13.0`: the CUDA the
//! failure asks for against the CUDA the loaded driver runs (NVIDIA's Table 3,
//! [`crate::cuda::driver_cuda_line`]), compared as `nvidia-container-cli` compares them
//! ([`crate::image_env::dsl`]). The driver being loaded and healthy says nothing about it: a
//! 535 driver that runs CUDA 12.2 is the very cause of a `cuda>=13.0` failure, and a 580 driver
//! that runs 13.0 is not, whatever else is wrong on the host.

use std::path::Path;

use gpuctl_core::plugin::FamilyCode;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::{Check, Status};

use crate::cuda;
use crate::families::CUDA_REQUIREMENT;
use crate::image_check::CODE;
use crate::image_env::{self, dsl};
use crate::proc_version::{PROC_VERSION, parse_proc_version};
use crate::release::DriverRelease;

/// What a failure's text asks of the driver's CUDA: the operator and the version, from either
/// wording libnvidia-container has printed (`cuda>=13.0, please update ...` since it prints
/// the requirement's first piece; `cuda >= 9.0` before).
pub fn asked(text: &str) -> Option<(dsl::Op, String)> {
    let rest = text.split("unsatisfied condition: cuda").nth(1)?;
    let rest = rest.trim_start_matches(' ');
    let run = rest.bytes().take_while(|b| b"<>=!".contains(b)).count();
    let op = dsl::op_of(&rest[..run]).filter(|_| run > 0)?;
    let rest = rest[run..].trim_start_matches(' ');
    let version: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let version = version.trim_end_matches('.').to_string();
    (!version.is_empty()).then_some((op, version))
}

/// The check: `problem` when the loaded driver's CUDA does not meet what the text asks (this
/// host shows the cause), `ok` when it does, `skipped` when either cannot be told.
pub fn checks(code: FamilyCode, text: &str, probe: &Probe) -> Vec<Check> {
    if code != CUDA_REQUIREMENT {
        return Vec::new();
    }
    let asked = asked(text);
    let subject = match &asked {
        Some((op, v)) => format!(
            "the failure's cuda{}{v} on the loaded NVIDIA driver",
            op.as_str()
        ),
        None => "the failure's CUDA on the loaded NVIDIA driver".to_string(),
    };
    let loaded = probe
        .host()
        .read_to_string(Path::new(PROC_VERSION), 64 * 1024)
        .ok()
        .and_then(|t| parse_proc_version(&t))
        .and_then(|d| DriverRelease::parse(&d.version).ok());
    let Some(driver) = loaded else {
        return vec![Check::new(CODE, subject, Status::Skipped).fact(format!(
            "{PROC_VERSION} names no loaded NVIDIA driver to compare with"
        ))];
    };
    let Some(line) = cuda::driver_cuda_line(&driver) else {
        return vec![Check::new(CODE, subject, Status::Skipped).fact(format!(
            "NVIDIA's Table 3 gives no CUDA for the loaded driver {driver}"
        ))];
    };
    let runs = format!("loaded driver {driver}, which runs CUDA {line}");
    let Some((op, version)) = asked else {
        return vec![Check::new(CODE, subject, Status::Skipped).fact(format!(
            "{runs}; the failure names no CUDA version to compare with"
        ))];
    };
    let cond = format!("cuda{}{version}", op.as_str());
    match dsl::compare_version(&line.to_string(), op, &version) {
        Some(true) => vec![Check::new(CODE, subject, Status::Ok).fact(format!(
            "{runs}, which meets {cond}: this driver is not what refused the container"
        ))],
        // A branch newer than the table may run the CUDA asked for.
        Some(false) if image_env::cuda_open(&driver) => vec![
            Check::new(CODE, subject, Status::Skipped).fact(format!(
                "{runs} at least: its branch is newer than NVIDIA's Table 3, which cannot tell whether it meets {cond}"
            )),
        ],
        Some(false) => {
            let env = image_env::from_vars(&[("NVIDIA_REQUIRE_CUDA".to_string(), cond.clone())]);
            let need = image_env::least_driver(&env).map_or(String::new(), |d| {
                format!("install a driver of at least {d}, or ")
            });
            let remedy = format!("{need}use an image built for CUDA {line} or older");
            vec![
                Check::new(CODE, subject, Status::Problem)
                    .fact(format!("{runs}, which does not meet {cond}"))
                    .fact(format!("to run such an image here: {remedy}"))
                    .remedy(remedy),
            ]
        }
        None => vec![Check::new(CODE, subject, Status::Skipped).fact(format!(
            "{runs}; '{cond}' does not read as nvidia-container-cli reads it"
        ))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=13.0, please update your driver to a newer version, or use an earlier cuda container",
        dsl::Op::Ge,
        "13.0"
    )]
    #[case(
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda >= 9.0\\\\n\\\"\"",
        dsl::Op::Ge,
        "9.0"
    )]
    #[case(
        "unsatisfied condition: cuda>=12.8.1 brand=tesla",
        dsl::Op::Ge,
        "12.8.1"
    )]
    #[case("unsatisfied condition: cuda=12.8,driver>=570", dsl::Op::Eq, "12.8")]
    fn the_text_s_cuda(#[case] text: &str, #[case] op: dsl::Op, #[case] v: &str) {
        assert_eq!(asked(text), Some((op, v.to_string())));
    }

    #[test]
    fn a_text_without_a_version_asks_nothing() {
        assert_eq!(
            asked("CUDA driver version is insufficient for CUDA runtime version"),
            None
        );
        assert_eq!(asked("unsatisfied condition: cuda>=, please"), None);
    }
}
