//! NVIDIA's forms in `gpuctl requirement`: device ids (`2704`, `0x2704`, `10de:2704`) and
//! `--driver` specs (`open:580`, `580+`, `open:570.124.06`) as core's stack specs. The
//! requirement model itself, which core's answer asks, is the crate's private
//! `requirement_model`, which the backend hands to core.

use std::fmt;

use crate::model::{DRIVER_BRANCH, KERNEL_MODULE, KernelModule, parse_branch};
use crate::release::DriverRelease;
use gpuctl_core::plugin::{
    requirement as neutral,
    requirement::{Known, Setting, Stack, StackSpec, Version},
};

pub use crate::vendor_id::NVIDIA_VENDOR_ID;

/// The most device ids one call takes (core's limit, kept here for the parser's own callers).
pub const MAX_DEVICE_IDS: usize = neutral::MAX_DEVICE_IDS;

/// A device-id argument that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceIdError {
    /// Not `XXXX`, `0xXXXX` or `10de:XXXX`.
    Malformed {
        /// The argument as given.
        token: String,
    },
    /// More than [`MAX_DEVICE_IDS`] ids.
    TooMany {
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for DeviceIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceIdError::Malformed { token } => write!(
                f,
                "'{}' is not an NVIDIA PCI device id; give four hex digits as XXXX, 0xXXXX or \
                 10de:XXXX (e.g. 2901)",
                token.escape_debug()
            ),
            DeviceIdError::TooMany { limit } => {
                write!(
                    f,
                    "more than {limit} device ids were given, one per possible PCI device id"
                )
            }
        }
    }
}

impl std::error::Error for DeviceIdError {}

/// Parses one device id: `XXXX`, `0xXXXX` or `10de:XXXX`, four hex digits, any case.
pub fn parse_device_id(token: &str) -> Result<u16, DeviceIdError> {
    let malformed = || DeviceIdError::Malformed {
        token: token.to_string(),
    };
    let digits = match token.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => &token[2..],
        _ => match token.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("10de:") => &token[5..],
            _ => token,
        },
    };
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(malformed());
    }
    u16::from_str_radix(digits, 16).map_err(|_| malformed())
}

/// Parses device-id arguments one at a time, stopping at the first bad one or past
/// [`MAX_DEVICE_IDS`].
pub fn parse_device_ids<I, S>(tokens: I) -> Result<Vec<u16>, DeviceIdError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut ids = Vec::new();
    for token in tokens {
        if ids.len() == MAX_DEVICE_IDS {
            return Err(DeviceIdError::TooMany {
                limit: MAX_DEVICE_IDS,
            });
        }
        ids.push(parse_device_id(token.as_ref())?);
    }
    Ok(ids)
}

/// A `--driver` spec, parsed: the text as given and the driver source it stands for (the
/// kernel module it installs and what is known of its branch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverSpec {
    spec: String,
    kernel_module: Option<KernelModule>,
    branch: Known,
    release: Option<DriverRelease>,
}

impl DriverSpec {
    /// The spec as the user wrote it.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// What is known of the branch the source installs: exactly one (`open:580`), the newest
    /// a repository carries, at least one (`580+`), or nothing (`open`).
    pub fn branch(&self) -> Known {
        self.branch
    }

    /// The source as core's stack, for core's `why_not` and `satisfied_by`.
    pub fn to_stack(&self) -> Stack {
        crate::model::stack(self.kernel_module.map(KernelModule::as_str), self.branch)
    }

    /// The exact release (`570.124.06`) or branch (`570`) it names, for the release-precision
    /// floor checks; `None` for `open`, `580+` and other specs that name no one release.
    pub fn release(&self) -> Option<&DriverRelease> {
        self.release.as_ref()
    }

    /// The kernel module it names, if any.
    pub fn kernel_module(&self) -> Option<KernelModule> {
        self.kernel_module
    }
}

/// A `--driver` spec that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for DriverSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a driver spec: {}",
            self.spec.escape_debug(),
            self.reason
        )
    }
}

impl std::error::Error for DriverSpecError {}

/// Parses a driver spec: `open:580` (exactly branch 580), `open:580+` (the newest branch a
/// repository carries, at least 580), `open` (branch unknown), `580` or `580+` (module
/// unknown). The module is `open` or `proprietary`, any case.
pub fn parse_driver_spec(spec: &str) -> Result<DriverSpec, DriverSpecError> {
    let fail = |reason: String| DriverSpecError {
        spec: spec.to_string(),
        reason,
    };
    if spec.is_empty() {
        return Err(fail("it is empty".to_string()));
    }
    let (module, branch) = match spec.split_once(':') {
        Some((module, branch)) => (Some(module), Some(branch)),
        None if spec.bytes().next().is_some_and(|b| b.is_ascii_digit()) => (None, Some(spec)),
        None => (Some(spec), None),
    };
    let kernel_module = match module.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("open") => Some(KernelModule::Open),
        Some("proprietary") => Some(KernelModule::Proprietary),
        Some("either") => {
            return Err(fail(
                "a driver installs the open or the proprietary kernel module, not either"
                    .to_string(),
            ));
        }
        Some(_) => {
            let word = module.unwrap_or_default().escape_debug().to_string();
            return Err(fail(format!(
                "the kernel module must be open or proprietary, not '{word}'"
            )));
        }
    };
    // A full release (`570.124.06`) is judged by its branch in Rex-GPU's model and by the
    // release itself against the floors.
    if let Some(text) = branch.filter(|t| t.contains('.')) {
        let release = DriverRelease::parse(text).map_err(|e| fail(e.to_string()))?;
        let kernel_module = module_of_branch(kernel_module, release.branch()).map_err(fail)?;
        return Ok(DriverSpec {
            spec: spec.to_string(),
            kernel_module,
            branch: Known::Exact(Version::major(release.branch())),
            release: Some(release),
        });
    }
    let (branch, release) = match branch {
        None => (Known::Unknown, None),
        Some(text) => match text.strip_suffix('+') {
            Some(floor) => {
                let floor = parse_branch(floor).map_err(|e| fail(e.to_string()))?;
                (Known::AtLeast(Version::major(floor)), None)
            }
            None => {
                let b = parse_branch(text).map_err(|e| fail(e.to_string()))?;
                (
                    Known::Exact(Version::major(b)),
                    DriverRelease::parse(&b.to_string()).ok(),
                )
            }
        },
    };
    let kernel_module = match &release {
        Some(r) => module_of_branch(kernel_module, r.branch()).map_err(fail)?,
        None => kernel_module,
    };
    Ok(DriverSpec {
        spec: spec.to_string(),
        kernel_module,
        branch,
        release,
    })
}

/// The first branch NVIDIA released an open kernel module in: NVIDIA/open-gpu-kernel-modules'
/// first tag is 515.43.04 (2022-05-11); every earlier branch ships the proprietary module only.
pub const FIRST_OPEN_BRANCH: u32 = 515;

/// The module a release of `branch` installs: the one named; the proprietary one for a branch
/// older than [`FIRST_OPEN_BRANCH`] when none is named (it has no other, so `470` is not
/// "module unknown"); an error for the open module of such a branch.
fn module_of_branch(
    named: Option<KernelModule>,
    branch: u32,
) -> Result<Option<KernelModule>, String> {
    if branch >= FIRST_OPEN_BRANCH {
        return Ok(named);
    }
    match named {
        Some(KernelModule::Open) => Err(format!(
            "branch {branch} has no open kernel module (NVIDIA's first open one is branch \
             {FIRST_OPEN_BRANCH}, 515.43.04): write proprietary:{branch} or {branch}"
        )),
        _ => Ok(Some(KernelModule::Proprietary)),
    }
}

impl DriverSpec {
    /// The spec as core's stack spec: the kernel module (when named) and what is known of the
    /// branch, for NVIDIA's GPUs only; one such spec per request.
    pub fn to_stack_spec(&self) -> StackSpec {
        let mut settings = Vec::new();
        if let Some(m) = self.kernel_module {
            settings.push((KERNEL_MODULE, Setting::Choice(m.as_str().to_string())));
        }
        settings.push((DRIVER_BRANCH, Setting::Version(self.branch)));
        StackSpec {
            spec: self.spec.clone(),
            settings,
            vendors: vec!["nvidia"],
            whole_stack: true,
        }
    }
}
