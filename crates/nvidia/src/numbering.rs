//! One numbering of NVIDIA GPUs for `detect` and `args nvidia:N`: the
//! GPUs in PCI bus-address order, each with the device minor the nvidia driver gave it.
//!
//! The GPUs are the NVIDIA display and accelerator functions in `/sys/bus/pci/devices` (found
//! whatever driver they are bound to, or none) together with the entries of
//! `/proc/driver/nvidia/gpus` (one per GPU the nvidia driver drives, named by PCI address).
//! A GPU bound to another driver (vfio-pci, to pass it to a virtual machine) keeps its place in
//! the order: it has no node, and asking for it is an error that names it, never the next
//! GPU's node. The minor of each GPU is looked up by its PCI address.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use gpuctl_cdi::ReadProblem;
use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::pci::{PCI_DEVICES, PciDevice};
use gpuctl_core::plugin::{Finding, GpuError, Probe};

use crate::nodes::{
    self, DevNodes, GPU_MINOR_MAX, PROC_GPUS, check_gpu_node, dev_nodes, host_error, shared_nodes,
    unserved,
};

/// The remedy every refused device map ends with.
const REMEDY: &str = "Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec.";

/// One entry of `/proc/driver/nvidia/gpus`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcEntry {
    /// The entry's name as the directory holds it.
    pub raw: OsString,
    /// The name as text (lossy when it is not UTF-8), for messages and ordering.
    pub name: String,
    /// The `Device Minor` of its information file, when one can be read.
    pub minor: Option<u32>,
}

impl ProcEntry {
    /// True when the name is a PCI address as the kernel writes it (`0000:3b:00.0`): only
    /// then can it be matched with a PCI device and put in bus-address order.
    pub fn is_address(&self) -> bool {
        self.raw.to_str().is_some_and(is_pci_address)
    }
}

/// One GPU in index order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gpu {
    /// Its PCI address.
    pub address: String,
    /// What sysfs says of it (absent when only procfs lists it).
    pub pci: Option<PciDevice>,
    /// Its entry in `proc` (absent when the nvidia driver does not drive it).
    pub proc: Option<usize>,
}

/// The NVIDIA GPUs of a host in index order, with what was read to number them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Numbering {
    /// The GPUs: `nvidia:N` is `gpus[N]`.
    pub gpus: Vec<Gpu>,
    /// Every procfs entry, sorted by name.
    pub proc: Vec<ProcEntry>,
    /// PCI devices that could not be read (one of them may be a GPU).
    pub pci_warnings: Vec<Finding>,
    /// Minors that more than one procfs entry claims.
    pub duplicate_minors: HashSet<u32>,
}

/// `dddd:bb:ss.f` in lowercase hex, as the kernel's `pci_name()` writes it (the domain may be
/// longer than four digits).
pub fn is_pci_address(s: &str) -> bool {
    let hex = |p: &str, n: usize| {
        p.len() == n && p.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    let parts: Vec<&str> = s.split(':').collect();
    let [domain, bus, slot_fn] = parts.as_slice() else {
        return false;
    };
    let Some((slot, func)) = slot_fn.split_once('.') else {
        return false;
    };
    domain.len() >= 4
        && hex(domain, domain.len())
        && hex(bus, 2)
        && hex(slot, 2)
        && matches!(func.as_bytes(), [b'0'..=b'7'])
}

/// Reads sysfs and procfs and numbers the GPUs. Only a procfs directory that exists but cannot
/// be listed is an error; everything else is recorded for the caller to judge. The PCI bus is
/// the probe's, walked once per run.
pub fn read(probe: &Probe, pci_vendor: u16) -> Result<Numbering, GpuError> {
    let host = probe.host();
    let (pci, pci_warnings) = probe.pci().gpus_of_vendor(pci_vendor);
    let proc: Vec<ProcEntry> = match host.list_dir(Path::new(PROC_GPUS)) {
        Ok(entries) => entries
            .into_iter()
            .map(|e| {
                let name = e.name.to_string_lossy().into_owned();
                let minor = nodes::minor_of(host, &PathBuf::from(PROC_GPUS).join(&e.name));
                ProcEntry {
                    raw: e.name,
                    name,
                    minor,
                }
            })
            .collect(),
        Err(e) if e.is_absent() => Vec::new(),
        Err(e) => return Err(host_error(e)),
    };
    let mut gpus: Vec<Gpu> = pci
        .into_iter()
        .map(|d| Gpu {
            address: d.address.clone(),
            pci: Some(d),
            proc: None,
        })
        .collect();
    let mut by_address: HashMap<String, usize> = gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (g.address.clone(), i))
        .collect();
    for (i, entry) in proc.iter().enumerate() {
        if !entry.is_address() {
            continue;
        }
        match by_address.get(&entry.name) {
            Some(&g) => gpus[g].proc = Some(i),
            None => {
                by_address.insert(entry.name.clone(), gpus.len());
                gpus.push(Gpu {
                    address: entry.name.clone(),
                    pci: None,
                    proc: Some(i),
                });
            }
        }
    }
    gpus.sort_by(|a, b| a.address.cmp(&b.address));
    let mut seen = HashSet::new();
    let duplicate_minors = proc
        .iter()
        .filter_map(|e| e.minor)
        .filter(|m| !seen.insert(*m))
        .collect();
    Ok(Numbering {
        gpus,
        proc,
        pci_warnings,
        duplicate_minors,
    })
}

impl Numbering {
    /// The minor of a GPU the nvidia driver drives, when its procfs entry names one that a GPU
    /// can have and no other entry claims.
    pub fn minor(&self, gpu: &Gpu) -> Option<u32> {
        self.proc
            .get(gpu.proc?)?
            .minor
            .filter(|m| *m <= GPU_MINOR_MAX && !self.duplicate_minors.contains(m))
    }

    /// Why a procfs entry's minor is no GPU's: out of range, or claimed twice.
    fn bad_minor(&self, entry: &ProcEntry) -> Option<String> {
        let m = entry.minor?;
        if m > GPU_MINOR_MAX {
            return Some(format!(
                "{} under {PROC_GPUS} gives Device Minor {m}, which no NVIDIA GPU has (the driver numbers GPUs 0 to {GPU_MINOR_MAX}; 254 is nvidia-modeset, 255 nvidiactl)",
                entry.name
            ));
        }
        if self.duplicate_minors.contains(&m) {
            let claims: Vec<&str> = self
                .proc
                .iter()
                .filter(|e| e.minor == Some(m))
                .map(|e| e.name.as_str())
                .collect();
            return Some(format!(
                "{} under {PROC_GPUS} give the same Device Minor {m}, which the driver gives to one GPU only",
                claims.join(" and ")
            ));
        }
        None
    }

    /// Why the numbering cannot be trusted for an index grant: the reference's refusals (no
    /// map at all; an entry without a readable minor), then what gpuctl adds (an entry that is
    /// no PCI address, a PCI device that could not be read). `None` when it can.
    pub fn refusal(&self) -> Option<GpuError> {
        let refuse = |what: String| {
            Some(unserved(format!(
                "the selection asks for an nvidia device by index, but {what} — refusing a device map that could grant the wrong GPU.  {REMEDY}"
            )))
        };
        if self.proc.is_empty() {
            return Some(unserved(format!(
                "the selection asks for an nvidia device by index, but the device-minor map under {PROC_GPUS} is unavailable — cannot identify the device nodes.  {REMEDY}"
            )));
        }
        if let Some(e) = self.proc.iter().find(|e| !e.is_address()) {
            return refuse(format!(
                "{} under {PROC_GPUS} is not a PCI address, so it cannot be put in PCI order",
                quoted(&e.raw)
            ));
        }
        if let Some(e) = self.proc.iter().find(|e| e.minor.is_none()) {
            return refuse(format!(
                "{} under {PROC_GPUS} exposes no readable 'Device Minor'",
                e.name
            ));
        }
        if let Some(why) = self.proc.iter().find_map(|e| self.bad_minor(e)) {
            return refuse(why);
        }
        if let Some(w) = self.pci_warnings.first() {
            return refuse(format!(
                "not every PCI device under {PCI_DEVICES} could be read ({w}), and an unread one may be a GPU that shifts the numbering"
            ));
        }
        None
    }

    /// The minor of GPU `index`, or the sentence saying why it has none. Call after
    /// [`Numbering::refusal`] and the range check.
    pub fn minor_at(&self, host: &Host, index: u32) -> Result<u32, GpuError> {
        let Some(gpu) = self.gpus.get(index as usize) else {
            return Err(unserved(format!("there is no nvidia:{index}")));
        };
        if let Some(minor) = self.minor(gpu) {
            return Ok(minor);
        }
        Err(unserved(format!(
            "the selection asks for nvidia:{index}, the GPU at {}, but {} — pick another index ('gpuctl detect' lists them), or bind the GPU to the nvidia driver",
            gpu.address,
            self.no_node_reason(host, gpu)
        )))
    }

    /// One warning per GPU that `nvidia:N` cannot grant on the raw tier, for `detect`.
    pub fn warnings(&self, host: &Host) -> Vec<Finding> {
        let mut out: Vec<Finding> = self
            .proc
            .iter()
            .filter(|e| !e.is_address())
            .map(|e| {
                Finding::vendor(
                    "nvidia",
                    "nvidia-proc-entry-not-pci-address",
                    vec![("entry", e.raw.to_string_lossy().to_string())],
                    format!(
                        "{} under {PROC_GPUS} is not a PCI address: no GPU can be granted by index on the raw tier until it is gone",
                        quoted(&e.raw)
                    ),
                )
            })
            .collect();
        out.extend(
            self.gpus
                .iter()
                .enumerate()
                .filter(|(_, g)| self.minor(g).is_none())
                .map(|(i, g)| {
                    let why = self.no_node_reason(host, g);
                    Finding::vendor(
                        "nvidia",
                        "nvidia-index-not-grantable",
                        vec![
                            ("index", i.to_string()),
                            ("pci_address", g.address.clone()),
                            ("reason", why.clone()),
                        ],
                        format!(
                            "nvidia:{i} ({}): {why}; 'nvidia:{i}' cannot be granted on the raw tier",
                            g.address
                        ),
                    )
                }),
        );
        out
    }

    /// Why a GPU has no `/dev/nvidia<minor>`: its procfs entry names none, or the nvidia
    /// driver does not drive it (its sysfs `driver` link names the driver that does).
    fn no_node_reason(&self, host: &Host, gpu: &Gpu) -> String {
        let address = &gpu.address;
        if let Some(why) = gpu
            .proc
            .and_then(|i| self.proc.get(i))
            .and_then(|e| self.bad_minor(e))
        {
            return why;
        }
        if gpu.proc.is_some() {
            return format!(
                "{address} under {PROC_GPUS} exposes no readable 'Device Minor', so its node is unknown"
            );
        }
        let link = PathBuf::from(PCI_DEVICES).join(address).join("driver");
        match host.read_link(&link) {
            Ok(target) => match target.file_name().map(|n| n.to_string_lossy()) {
                Some(driver) if driver == "nvidia" => format!(
                    "the nvidia driver lists no entry {address} under {PROC_GPUS}, so its device minor is unknown (check that /proc is the host's)"
                ),
                Some(driver) => format!(
                    "it is bound to {}, not to the nvidia driver, so it has no /dev/nvidia node",
                    driver.escape_debug()
                ),
                None => format!("its driver link {} names no driver", link.display()),
            },
            Err(e) if matches!(e.problem, ReadProblem::NotFound) => {
                "it is bound to no driver, so it has no /dev/nvidia node".to_string()
            }
            Err(e) => {
                format!("its driver is unknown ({e}) and {PROC_GPUS} lists no entry for it")
            }
        }
    }
}
/// The raw nodes for an index grant: the shared nodes, then `/dev/nvidia<minor>` of each
/// selected GPU, the minor looked up by the GPU's PCI address. A per-GPU node is built from the
/// minor (the driver's word) and need not exist, but a link there is refused. A numbering that
/// cannot be trusted is refused whichever index is asked for, as the reference refuses a
/// gappy map.
pub fn indexed_nodes(
    host: &Host,
    numbering: &Numbering,
    indexes: &[u32],
) -> Result<DevNodes, GpuError> {
    if let Some(refusal) = numbering.refusal() {
        return Err(refusal);
    }
    let n = numbering.gpus.len();
    let bad: Vec<u32> = indexes
        .iter()
        .copied()
        .filter(|&i| i as usize >= n)
        .collect();
    if !bad.is_empty() {
        return Err(unserved(format!(
            "the selection asks for nvidia device(s) {} but this host has {n} NVIDIA device(s) (see /proc/driver/nvidia/gpus); choose an index below {n}, or run 'gpuctl detect' to list them",
            gpuctl_core::plugin::text::py_int_list(&bad),
        )));
    }
    let mut gpu_nodes = Vec::with_capacity(indexes.len());
    for &i in indexes {
        let node = format!("/dev/nvidia{}", numbering.minor_at(host, i)?);
        check_gpu_node(host, &node)?;
        gpu_nodes.push(node);
    }
    let mut out = dev_nodes(host)?;
    out.nodes = shared_nodes(&out.nodes);
    out.nodes.extend(gpu_nodes);
    Ok(out)
}

/// A name in a message, quoted and escaped: a newline in it cannot start a line of output.
fn quoted(name: &OsStr) -> String {
    format!("{:?}", name.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("0000:3b:00.0", true)]
    #[case("10000:e1:1f.7", true)]
    #[case("0000:3B:00.0", false)]
    #[case("0000:3b:00.8", false)]
    #[case("000:3b:00.0", false)]
    #[case("0000:3b:00", false)]
    #[case("0000:3b:00.0 --privileged", false)]
    #[case("gpu0", false)]
    fn pci_addresses(#[case] s: &str, #[case] want: bool) {
        assert_eq!(is_pci_address(s), want);
    }
}
