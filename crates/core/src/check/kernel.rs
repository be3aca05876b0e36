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
}
