//! PCI devices as sysfs lists them, and their names from a `pci.ids` file.
//!
//! This works before any GPU driver is installed: `/sys/bus/pci/devices/<addr>/{vendor,device,
//! class}` exist for every PCI function the kernel enumerated, bound or not.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::finding::Finding;
use crate::text::{escape_controls, py_strip};
use crate::{Host, HostError};

/// Where sysfs lists PCI functions.
pub const PCI_DEVICES: &str = "/sys/bus/pci/devices";

/// Where distributions install the PCI name database, in the order gpuctl looks.
pub const PCI_IDS_PATHS: [&str; 3] = [
    "/usr/share/misc/pci.ids",
    "/usr/share/hwdata/pci.ids",
    "/usr/share/pci.ids",
];

/// sysfs attribute files are one short line; anything longer is not sysfs.
const ATTR_LIMIT: u64 = 4096;
/// The real pci.ids is about 1.5 MB.
const PCI_IDS_LIMIT: u64 = 16 * 1024 * 1024;

/// One PCI function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciDevice {
    /// The bus address, `0000:3b:00.0`.
    pub address: String,
    /// The PCI vendor id (`0x10de` for NVIDIA).
    pub vendor_id: u16,
    /// The PCI device id.
    pub device_id: u16,
    /// The 24-bit class code (`0x030200`: 3D controller).
    pub class: u32,
    /// The PCI revision, when sysfs gives it (libdrm names some AMD GPUs by revision).
    pub revision: Option<u8>,
}

impl PciDevice {
    /// True for display controllers (base class 0x03) and processing accelerators (0x12), the
    /// two classes GPUs enumerate as (AMD Instinct MI300 is 0x1200).
    pub fn is_gpu_class(&self) -> bool {
        GPU_BASE_CLASSES.contains(&self.base_class())
    }

    /// The base class, the top byte of the class code (`0x03` display, `0x12` accelerator).
    pub fn base_class(&self) -> u8 {
        (self.class >> 16) as u8
    }

    /// The device id as four lowercase hex digits, as `lspci -nn` prints it.
    pub fn device_id_hex(&self) -> String {
        format!("{:04x}", self.device_id)
    }
}

/// The PCI base classes a GPU enumerates as: display controllers (0x03) and processing
/// accelerators (0x12). A vendor whose GPUs are all display controllers narrows this
/// (core's `GpuBackend::pci_classes`), so its other accelerators (Intel's NPU is a
/// 0x12 function of vendor 0x8086) are not counted as its GPUs.
pub const GPU_BASE_CLASSES: &[u8] = &[0x03, 0x12];

/// True for a PCI function's address as the kernel names it (`pci_name()`,
/// `"%04x:%02x:%02x.%d"`): a domain of four to eight lower-case hex digits (Intel VMD domains
/// have five), a bus of two, a device of two below 0x20, a function from 0 to 7. Any other name
/// under sysfs is not a PCI address, and must never become a path or a word of podman's (see
/// docs/output-safety.md).
pub fn is_pci_address(s: &str) -> bool {
    let hex = |p: &str| {
        p.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    let mut parts = s.split(':');
    let (Some(domain), Some(bus), Some(rest), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let Some((device, function)) = rest.split_once('.') else {
        return false;
    };
    (4..=8).contains(&domain.len())
        && hex(domain)
        && bus.len() == 2
        && hex(bus)
        && device.len() == 2
        && hex(device)
        && matches!(device.as_bytes()[0], b'0' | b'1')
        && matches!(function.as_bytes(), [b'0'..=b'7'])
}

/// Parses a sysfs id file (`"0x10de\n"`).
pub fn parse_hex_attr(text: &str) -> Option<u32> {
    let t = py_strip(text);
    let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

fn read_attr(host: &Host, dir: &Path, name: &str) -> Result<Option<u32>, HostError> {
    let text = host.read_to_string(&dir.join(name), ATTR_LIMIT)?;
    Ok(parse_hex_attr(&text))
}

/// The base class of the PCI function at `address` (`0000:03:00.0`), read from its own `class`
/// file: one function's class without walking the bus. `None` when it cannot be read or parsed.
pub fn function_base_class(host: &Host, address: &str) -> Option<u8> {
    if !is_pci_address(address) {
        return None;
    }
    let dir = Path::new(PCI_DEVICES).join(address);
    read_attr(host, &dir, "class")
        .ok()
        .flatten()
        .map(|class| (class >> 16) as u8)
}

/// The GPUs (display or accelerator class) of one PCI vendor, sorted by bus address, with a
/// warning for each entry that could not be read. It walks the bus; a caller with a
/// probe (core's `Probe`) asks `Probe::pci` instead, which walks it once per run.
pub fn gpus_of_vendor(host: &Host, vendor_id: u16) -> (Vec<PciDevice>, Vec<Finding>) {
    PciScan::read(host).gpus_of_vendor(vendor_id)
}

/// [`gpus_of_vendor`] narrowed to the base classes `classes` ([`PciScan::gpus_of`]).
pub fn gpus_of(host: &Host, vendor_id: u16, classes: &[u8]) -> (Vec<PciDevice>, Vec<Finding>) {
    PciScan::read(host).gpus_of(vendor_id, classes)
}

/// The GPU-class functions of every vendor on the PCI bus, read in one walk, and what could
/// not be read. Each function costs two reads (`vendor`, `class`); a GPU two more (`device`,
/// `revision`), so a host of ten thousand NICs is walked once, not once per vendor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciScan {
    gpus: Vec<PciDevice>,
    /// Each warning with the vendor it concerns; `None` concerns every vendor (the bus could
    /// not be listed, a name is not an address, a function's vendor could not be read).
    warnings: Vec<(Option<u16>, Finding)>,
}

impl PciScan {
    /// Walks `/sys/bus/pci/devices` under the host root; no such directory is no device.
    pub fn read(host: &Host) -> PciScan {
        let mut scan = PciScan {
            gpus: Vec::new(),
            warnings: Vec::new(),
        };
        let entries = match host.list_dir(Path::new(PCI_DEVICES)) {
            Ok(e) => e,
            Err(e) if e.is_absent() => return scan,
            Err(e) => {
                scan.warnings
                    .push((None, Finding::PciUnlistable { error: e }));
                return scan;
            }
        };
        for entry in entries {
            let Some(name) = entry.name_str().filter(|n| is_pci_address(n)) else {
                scan.warnings.push((
                    None,
                    Finding::PciAddressInvalid {
                        path: PCI_DEVICES.to_string(),
                        name: escape_controls(&entry.name.to_string_lossy()).into_owned(),
                    },
                ));
                continue;
            };
            let dir = PathBuf::from(PCI_DEVICES).join(name);
            let unreadable = |error| Finding::PciDeviceUnreadable {
                address: name.to_string(),
                error,
            };
            let vendor_id = match read_attr(host, &dir, "vendor") {
                Ok(Some(v)) => match u16::try_from(v) {
                    Ok(v) => v,
                    Err(_) => continue,
                },
                Ok(None) => continue,
                Err(e) => {
                    scan.warnings.push((None, unreadable(e)));
                    continue;
                }
            };
            match gpu_function(host, &dir, name, vendor_id) {
                Ok(Some(dev)) => scan.gpus.push(dev),
                Ok(None) => {}
                Err(e) => scan.warnings.push((Some(vendor_id), unreadable(e))),
            }
        }
        scan
    }

    /// Every vendor's GPUs, by bus address.
    pub fn gpus(&self) -> &[PciDevice] {
        &self.gpus
    }

    /// One vendor's GPUs, by bus address, with the warnings that concern it.
    pub fn gpus_of_vendor(&self, vendor_id: u16) -> (Vec<PciDevice>, Vec<Finding>) {
        self.gpus_of(vendor_id, GPU_BASE_CLASSES)
    }

    /// One vendor's functions of the base classes `classes` (its backend's
    /// `GpuBackend::pci_classes` in core), by bus address, with the warnings that
    /// concern the vendor.
    pub fn gpus_of(&self, vendor_id: u16, classes: &[u8]) -> (Vec<PciDevice>, Vec<Finding>) {
        let gpus = self
            .gpus
            .iter()
            .filter(|d| d.vendor_id == vendor_id && classes.contains(&d.base_class()))
            .cloned()
            .collect();
        let warnings = self
            .warnings
            .iter()
            .filter(|(v, _)| v.is_none_or(|v| v == vendor_id))
            .map(|(_, w)| w.clone())
            .collect();
        (gpus, warnings)
    }
}

/// The function at `dir` when its class is a GPU's; its id must be readable then.
fn gpu_function(
    host: &Host,
    dir: &Path,
    name: &str,
    vendor_id: u16,
) -> Result<Option<PciDevice>, HostError> {
    let Some(class) = read_attr(host, dir, "class")? else {
        return Ok(None);
    };
    let dev = PciDevice {
        address: name.to_string(),
        vendor_id,
        device_id: 0,
        class,
        revision: None,
    };
    if !dev.is_gpu_class() {
        return Ok(None);
    }
    let Some(device_id) = read_attr(host, dir, "device")?.and_then(|d| u16::try_from(d).ok())
    else {
        return Ok(None);
    };
    // A revision that cannot be read only costs a name, never the device.
    let revision = read_attr(host, dir, "revision")
        .ok()
        .flatten()
        .and_then(|r| u8::try_from(r).ok());
    Ok(Some(PciDevice {
        device_id,
        revision,
        ..dev
    }))
}

/// Names of `device_ids` of `vendor_id` from the first pci.ids file found under the host root.
/// Ids the file does not know are left out; no file means no names.
pub fn device_names(host: &Host, vendor_id: u16, device_ids: &[u16]) -> HashMap<u16, String> {
    for path in PCI_IDS_PATHS {
        match host.read_to_string(Path::new(path), PCI_IDS_LIMIT) {
            Ok(text) => return parse_pci_ids(&text, vendor_id, device_ids),
            Err(e) => tracing::debug!("{e}"),
        }
    }
    HashMap::new()
}

/// Looks `device_ids` of `vendor_id` up in pci.ids text, without building the whole database.
pub fn parse_pci_ids(text: &str, vendor_id: u16, device_ids: &[u16]) -> HashMap<u16, String> {
    let mut names = HashMap::new();
    let vendor = format!("{vendor_id:04x}");
    let mut in_vendor = false;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with('\t') {
            if in_vendor {
                break; // vendors are listed once; ours is done
            }
            in_vendor = line
                .get(..4)
                .is_some_and(|v| v.eq_ignore_ascii_case(&vendor));
            continue;
        }
        if !in_vendor || line.starts_with("\t\t") {
            continue;
        }
        let rest = &line[1..];
        let (Some(id), Some(name)) = (rest.get(..4), rest.get(4..)) else {
            continue;
        };
        if let Ok(id) = u16::from_str_radix(id, 16)
            && device_ids.contains(&id)
        {
            names.insert(id, name.trim().to_string());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("0x10de\n", Some(0x10de))]
    #[case("0x030200\n", Some(0x030200))]
    #[case(" 0x8086 \n\n", Some(0x8086))]
    #[case("10de", None)]
    #[case("0x", None)]
    #[case("0xzz", None)]
    #[case("0x1234567890", None)]
    fn hex_attrs(#[case] text: &str, #[case] want: Option<u32>) {
        assert_eq!(parse_hex_attr(text), want);
    }

    const IDS: &str = "# test extract\n10de  NVIDIA Corporation\n\t1db4  GV100GL [Tesla V100 PCIe 16GB]\n\t\t10de 1214  Tesla V100 PCIe 16GB\n\t2901  NVIDIA B200\n1002  Advanced Micro Devices, Inc. [AMD/ATI]\n\t2901  not this one\n";

    #[test]
    fn pci_ids_lookup_stays_in_its_vendor() {
        let names = parse_pci_ids(IDS, 0x10de, &[0x1db4, 0x2901, 0x3000]);
        assert_eq!(
            names.get(&0x1db4).map(String::as_str),
            Some("GV100GL [Tesla V100 PCIe 16GB]")
        );
        assert_eq!(names.get(&0x2901).map(String::as_str), Some("NVIDIA B200"));
        assert_eq!(names.len(), 2);
        let amd = parse_pci_ids(IDS, 0x1002, &[0x2901]);
        assert_eq!(amd.get(&0x2901).map(String::as_str), Some("not this one"));
    }

    #[rstest]
    #[case("0000:03:00.0", true)]
    #[case("0000:ff:1f.7", true)]
    #[case("10000:e1:00.0", true)] // an Intel VMD domain
    #[case("0000:03:00.0,Z,bind-propagation=rshared", false)]
    #[case("0000:03:00.0\u{2028}privileged: true", false)]
    #[case("0000:03:00.8", false)]
    #[case("0000:03:20.0", false)]
    #[case("0000:0B:00.0", false)]
    #[case("000:03:00.0", false)]
    #[case("0000:03:00", false)]
    #[case("0000:03:00.0:1", false)]
    #[case("0000:03:00.", false)]
    #[case("", false)]
    #[case("renderD128", false)]
    fn pci_addresses(#[case] name: &str, #[case] want: bool) {
        assert_eq!(is_pci_address(name), want);
    }

    #[test]
    fn gpu_classes() {
        let mk = |class| PciDevice {
            address: "a".into(),
            vendor_id: 1,
            device_id: 2,
            class,
            revision: None,
        };
        assert!(mk(0x030000).is_gpu_class());
        assert!(mk(0x030200).is_gpu_class());
        assert!(mk(0x120000).is_gpu_class());
        assert!(!mk(0x068000).is_gpu_class());
        assert!(!mk(0x020000).is_gpu_class());
    }
}
