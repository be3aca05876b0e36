//! What no renderer prints: a value its reader would split into other values. podman's
//! `--mount` splits its value at `,` and has no quoting for it (a by-path name holding
//! `,Z,bind-propagation=rshared` adds mount options); `--device` splits at `:` (host path,
//! container path, permissions), in podman and docker alike; an environment name ends at its
//! first `=`; Quadlet's `AddDevice=` reads quotes without C escapes and takes a leading `-` as
//! "optional". Such a value refuses the whole rendering (exit 1, one sentence naming it) rather
//! than being quoted for one reader and misread by the next (docs/output-safety.md).

use std::fmt;

use thiserror::Error;

use super::Format;
use crate::plan::{Need, Plan};

/// Why an argument is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsafe {
    /// White space, a control character or a wildcard where the shell splits and expands
    /// (`podman run $(gpuctl args ...)`).
    ShellWord,
    /// A `,` or a line break in a `--mount` path.
    MountSeparator,
    /// A `:` in a `--device` path.
    DeviceColon,
    /// A `=` in an environment variable's name, or an empty name.
    KeyEquals,
    /// A device Quadlet's `AddDevice=` would read differently from podman.
    QuadletDevice,
}

/// An argument a reader would not take as the one value gpuctl means.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct UnsafeArgument {
    /// The argument, as it would have been printed.
    pub argument: String,
    /// What its reader would do with it.
    pub why: Unsafe,
}

impl fmt::Display for UnsafeArgument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arg = quoted(&self.argument);
        match self.why {
            Unsafe::ShellWord => write!(
                f,
                "the argument {arg} holds white space, a control character or a shell wildcard, so 'podman run $(gpuctl args ...)' would split or expand it into other arguments — nothing is printed; check the host's /dev, /sys and CDI specs for that name, or use '--format json'"
            ),
            Unsafe::MountSeparator => write!(
                f,
                "the mount path {arg} holds a ',' or a line break, which podman's and docker's --mount read as the start of other mount options (there is no quoting for it) — nothing is printed; check the host's /dev/dri/by-path and /sys/class/drm for that name"
            ),
            Unsafe::DeviceColon => write!(
                f,
                "the device path {arg} holds a ':', which podman's and docker's --device read as the start of the container path and permissions — nothing is printed; check the host's /dev for that name"
            ),
            Unsafe::KeyEquals => write!(
                f,
                "the environment variable name {arg} is empty or holds a '=', which the engine reads as the end of the name — nothing is printed; check the vendor backend and CDI specs that set it"
            ),
            Unsafe::QuadletDevice => write!(
                f,
                "the device {arg} would need quoting in Quadlet's AddDevice=, which reads quotes without C escapes and a leading '-' as 'optional' — nothing is printed; check the host's /dev and CDI specs for that name, or use '--format json'"
            ),
        }
    }
}

/// The argument in double quotes with every control character escaped, so the sentence stays
/// one line.
fn quoted(arg: &str) -> String {
    format!("{arg:?}")
}

/// Refuses a plan holding a value that the readers of `format` would split: every format's
/// engine reads `--device`, `--mount` and `-e` the same way, and Quadlet adds its own reading
/// of `AddDevice=`. The shell's word splitting is `check_one_word`'s, for the one-line
/// formats only.
pub fn check_plan(plan: &Plan, format: Format) -> Result<(), UnsafeArgument> {
    for item in plan.items() {
        check_need(&item.need, format)?;
    }
    Ok(())
}

fn check_need(need: &Need, format: Format) -> Result<(), UnsafeArgument> {
    let refuse = |argument: &str, why| {
        Err(UnsafeArgument {
            argument: argument.to_string(),
            why,
        })
    };
    match need {
        Need::BindReadOnly(path) if path.contains([',', '\n', '\r']) => {
            refuse(path, Unsafe::MountSeparator)
        }
        Need::DeviceNode(path) if path.contains(':') => refuse(path, Unsafe::DeviceColon),
        Need::Env { name, .. } if name.is_empty() || name.contains('=') => {
            refuse(name, Unsafe::KeyEquals)
        }
        Need::CdiDevice(name) | Need::DeviceNode(name)
            if format == Format::Quadlet && !is_quadlet_device(name) =>
        {
            refuse(name, Unsafe::QuadletDevice)
        }
        _ => Ok(()),
    }
}

/// True when Quadlet's `AddDevice=` reads `value` back as it is: not empty, no leading `-`, and
/// nothing its word splitting would unquote or unescape (white space, controls, quotes,
/// backslashes, `;`).
pub fn is_quadlet_device(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with('-')
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"'\\;".contains(c))
}

/// True when the shell's word splitting and pathname expansion leave `arg` as one word,
/// unchanged.
pub fn is_one_word(arg: &str) -> bool {
    !arg.chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '*' | '?' | '['))
}

/// Refuses the whole list when any argument is not one word: plain output is all or nothing.
pub(super) fn check_one_word(args: &[String]) -> Result<(), UnsafeArgument> {
    match args.iter().find(|a| !is_one_word(a)) {
        Some(a) => Err(UnsafeArgument {
            argument: a.clone(),
            why: Unsafe::ShellWord,
        }),
        None => Ok(()),
    }
}
