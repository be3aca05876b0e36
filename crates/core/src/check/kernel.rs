//! What the kernel says about drivers, read through the host: the running kernel's release,
//! the driver bound to a PCI function, loaded modules and their parameters. Vendors' driver
//! checks read these here, so that each fact is read one way ([`super::driver`] words them).

use std::path::Path;

use crate::host::{Host, HostError};
use crate::pci::PCI_DEVICES;
use crate::requirement::Version;

/// The running kernel's release.
pub const OSRELEASE: &str = "/proc/sys/kernel/osrelease";
/// Where the kernel lists loaded modules (and built-in ones that have parameters).
pub const MODULES: &str = "/sys/module";
/// The command line the running kernel was booted with.
pub const CMDLINE: &str = "/proc/cmdline";

/// The command line is at most `COMMAND_LINE_SIZE` (2 KiB to 4 KiB on the common arches, 64 KiB
/// at most anywhere).
const CMDLINE_LIMIT: u64 = 64 * 1024;

/// sysfs and procfs attributes are one short line.
const ATTR_LIMIT: u64 = 4096;

/// The running kernel, as `/proc/sys/kernel/osrelease` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelRelease {
    /// The release as written (`6.1.0-18-amd64`).
    pub release: String,
    /// Its major and minor number (`6.1`): what driver id lists change with.
    pub version: Version,
}

/// The running kernel's release; `None` when the file is missing or not a release.
pub fn kernel_release(host: &Host) -> Option<KernelRelease> {
    let text = host.read_to_string(Path::new(OSRELEASE), ATTR_LIMIT).ok()?;
    let release = text.trim().to_string();
    let version = parse_osrelease(&release)?;
    Some(KernelRelease { release, version })
}

/// The `major.minor` of a kernel release (`6.1.0-18-amd64` is 6.1, `6.8.12+bpo` is 6.8).
pub fn parse_osrelease(text: &str) -> Option<Version> {
    let mut parts = text.trim().split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some(Version::new(major, minor))
}

/// The driver bound to a PCI function (the last part of its `driver` link); `None` when none.
pub fn bound_driver(host: &Host, address: &str) -> Result<Option<String>, HostError> {
    let link = Path::new(PCI_DEVICES).join(address).join("driver");
    match host.read_link(&link) {
        Ok(target) => Ok(target
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)),
        Err(e) if e.is_absent() => Ok(None),
        Err(e) => Err(e),
    }
}

/// True when `/sys/module/<module>` exists: the module is loaded (or built in).
pub fn module_loaded(host: &Host, module: &str) -> Result<bool, HostError> {
    host.exists(&Path::new(MODULES).join(module))
}

/// A module parameter's value now, without its newline; a `charp` never set reads `(null)`,
/// which is given as empty. `None` when the module or the parameter is not there.
pub fn module_parameter(
    host: &Host,
    module: &str,
    param: &str,
) -> Result<Option<String>, HostError> {
    let path = Path::new(MODULES)
        .join(module)
        .join("parameters")
        .join(param);
    match host.read_to_string(&path, ATTR_LIMIT) {
        Ok(v) => {
            let v = v.trim_end_matches('\n');
            Ok(Some(if v == "(null)" {
                String::new()
            } else {
                v.to_string()
            }))
        }
        Err(e) if e.is_absent() => Ok(None),
        Err(e) => Err(e),
    }
}

/// `module.param` as the kernel command line sets it (`i915.force_probe=56c0`): the value of
/// the last such word before `--` (the kernel applies them in order, so a later one wins), the
/// quotes of `param="a b"` or `"param=a b"` taken off, `-` and `_` alike in names as the kernel
/// compares them (`parameq`). `None` when the line does not set it or cannot be read.
pub fn cmdline_parameter(host: &Host, module: &str, param: &str) -> Option<String> {
    let line = host
        .read_to_string(Path::new(CMDLINE), CMDLINE_LIMIT)
        .ok()?;
    cmdline_value(&line, module, param)
}

/// The value `line` gives `module.param`, as [`cmdline_parameter`] reads it.
pub fn cmdline_value(line: &str, module: &str, param: &str) -> Option<String> {
    let norm = |s: &str| s.replace('-', "_");
    let want = format!("{}.{}", norm(module), norm(param));
    let mut found = None;
    for word in cmdline_words(line) {
        if word == "--" {
            break;
        }
        if let Some((name, value)) = word.split_once('=')
            && norm(name) == want
        {
            found = Some(value.to_string());
        }
    }
    found
}

/// The words of a kernel command line: split at whitespace outside double quotes, the quotes
/// dropped (the kernel's `next_arg`).
fn cmdline_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A module parameter in effect: its value in sysfs where the module shows it (which holds
/// what the command line and the module's options set), else what the kernel command line
/// sets for a module not loaded yet; `None` when neither says.
pub fn parameter_in_effect(host: &Host, module: &str, param: &str) -> Option<String> {
    module_parameter(host, module, param)
        .ok()
        .flatten()
        .or_else(|| cmdline_parameter(host, module, param))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("6.1.0-18-amd64\n", Some((6, 1)))]
    #[case("6.8.12+bpo-amd64", Some((6, 8)))]
    #[case("5.15.0-91-generic", Some((5, 15)))]
    #[case("6.12.9-200.fc41.x86_64", Some((6, 12)))]
    #[case("6", None)]
    #[case("linux", None)]
    #[case("", None)]
    fn osrelease(#[case] text: &str, #[case] want: Option<(u32, u32)>) {
        assert_eq!(parse_osrelease(text), want.map(|(a, b)| Version::new(a, b)));
    }

    #[rstest]
    #[case(
        "BOOT_IMAGE=/vmlinuz root=/dev/sda1 i915.force_probe=56c0 quiet\n",
        Some("56c0")
    )]
    #[case("i915.force_probe=56c0 i915.force_probe=!56c0", Some("!56c0"))]
    #[case("i915.force-probe=56c0", Some("56c0"))]
    #[case("\"i915.force_probe=56c0,4905\" quiet", Some("56c0,4905"))]
    #[case("i915.force_probe=\"*\"", Some("*"))]
    #[case("quiet -- i915.force_probe=56c0", None)]
    #[case("xe.force_probe=56c0", None)]
    #[case("i915.force_probe", None)]
    #[case("", None)]
    fn cmdline(#[case] line: &str, #[case] want: Option<&str>) {
        assert_eq!(cmdline_value(line, "i915", "force_probe").as_deref(), want);
    }
}
