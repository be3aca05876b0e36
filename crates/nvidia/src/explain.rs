//! What this host says about an NVIDIA failure beyond doctor's checks: which driver release the
//! loaded module is against the release the failing libraries or files are of (a box that ships
//! its own libraries cannot be fixed by a reboot), and whether nouveau holds the GPU.

use std::path::Path;

use gpuctl_core::plugin::Probe;

use crate::families::NVML_VERSION_MISMATCH;
use crate::families_driver as D;
use crate::proc_version::{PROC_VERSION, parse_proc_version};
use gpuctl_core::plugin::FamilyCode;
use gpuctl_core::plugin::STRUCTURED;

/// Where distributions put the driver's libraries.
const LIB_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
];

/// nouveau's module directory, present while it is loaded.
const NOUVEAU: &str = "/sys/module/nouveau";

/// Facts for `gpuctl explain` (see [`gpuctl_core::plugin::Diagnostics::explain_details`]).
pub fn details(code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
    let host = probe.host();
    let loaded = host
        .read_to_string(Path::new(PROC_VERSION), 64 * 1024)
        .ok()
        .and_then(|t| parse_proc_version(&t));
    let module = || match &loaded {
        Some(l) => format!("the loaded kernel module is {} ({PROC_VERSION})", l.version),
        None => {
            format!("no NVIDIA kernel module is loaded on this host ({PROC_VERSION} is missing)")
        }
    };
    let has_lib = |version: &str| {
        LIB_DIRS.iter().any(|d| {
            host.exists(&Path::new(d).join(format!("libnvidia-ml.so.{version}")))
                .unwrap_or(false)
        })
    };
    match code {
        c if c == NVML_VERSION_MISMATCH => {
            let mut out = vec![module()];
            let (Some(printed), Some(l)) = (after(text, "NVML library version: "), &loaded) else {
                return out;
            };
            if l.version.starts_with(&printed) {
                out.push(format!("the NVML that printed this is {printed}, the module's release: the mismatch is elsewhere (another process's libraries)"));
            } else if has_lib(&l.version) {
                out.push(format!("the NVML that printed this is {printed}, while this host's own libnvidia-ml is {}: the container or box carries driver libraries of its own, and a reboot will not fix it", l.version));
            } else {
                out.push(format!("the NVML that printed this is {printed}; this host has no libnvidia-ml.so.{} of the loaded module: the host was upgraded and still runs the old module, reboot it", l.version));
            }
            out
        }
        c if c == D::HOOK_DRIVER_FILES.code => {
            let mut out = vec![module()];
            if let Some(v) = after(text, ".so.")
                && let Some(l) = &loaded
                && v != l.version
            {
                out.push(format!(
                    "the hook looked for files of release {v}, which is not the loaded {}: they are leftovers",
                    l.version
                ));
            }
            out
        }
        c if [D::NOUVEAU, D::DRIVER_UNREACHABLE, D::HOOK_NO_CUDA_DEVICE]
            .iter()
            .any(|f| f.code == c) =>
        {
            let nouveau = host.exists(Path::new(NOUVEAU)).unwrap_or(false);
            vec![
                module(),
                if nouveau {
                    format!("nouveau is loaded on this host ({NOUVEAU} exists)")
                } else {
                    format!("nouveau is not loaded on this host ({NOUVEAU} is absent)")
                },
            ]
        }
        c if [D::TOOLBOX_CDI_GENERATE, D::NODE_MISSING]
            .iter()
            .any(|f| f.code == c) =>
        {
            vec![module()]
        }
        c if c == STRUCTURED => structured(text, probe),
        _ => Vec::new(),
    }
}

/// The toolkit's configuration, whose `root` tells the legacy hook where the driver is.
const TOOLKIT_CONFIG: &str = "/etc/nvidia-container-runtime/config.toml";

/// GPU vendors by PCI vendor ID (the PCI ID Repository, https://pci-ids.ucw.cz/), to name
/// whose GPU a host has when a CUDA build finds no NVIDIA driver.
const OTHER_VENDORS: &[(u16, &str)] = &[(0x1002, "AMD"), (0x8086, "Intel")];

/// What this host says about a structured reading of NVIDIA's: whose GPUs it has when a CUDA
/// build found no NVIDIA driver, and the driver root the hook was given when it could not load
/// the driver's library or enter that root.
fn structured(text: &str, probe: &Probe) -> Vec<String> {
    let mut out = Vec::new();
    if text.contains("Found no NVIDIA driver") {
        let gpus = probe.pci().gpus();
        let others: Vec<&str> = OTHER_VENDORS
            .iter()
            .filter(|(id, _)| gpus.iter().any(|g| g.vendor_id == *id))
            .map(|(_, name)| *name)
            .collect();
        let nvidia = gpus
            .iter()
            .any(|g| g.vendor_id == crate::vendor_id::NVIDIA_VENDOR_ID);
        if !nvidia && !others.is_empty() {
            out.push(format!(
                "this host shows {} GPUs and no NVIDIA one: the image is a CUDA build on a host whose GPU is not NVIDIA's; use the framework's build for that GPU",
                others.join(" and ")
            ));
        } else if nvidia {
            out.push("this host shows an NVIDIA GPU: the container was not given it".to_string());
        }
    }
    if (text.contains("load library failed: ") || text.contains("change root failed"))
        && let Ok(config) = probe
            .host()
            .read_to_string(Path::new(TOOLKIT_CONFIG), 256 * 1024)
        && let Some(root) = toolkit_root(&config)
        && root != "/"
    {
        let there = probe.host().exists(Path::new(&root)).unwrap_or(false);
        out.push(format!(
            "{TOOLKIT_CONFIG} sets root = \"{root}\", so the hook looks for the driver there, and this host {} {root}",
            if there { "has" } else { "has no" }
        ));
    }
    out
}

/// The `root = "..."` a toolkit config.toml sets (not commented out).
fn toolkit_root(config: &str) -> Option<String> {
    config.lines().find_map(|l| {
        let (key, value) = l.trim().split_once('=')?;
        (key.trim() == "root").then(|| value.trim().trim_matches('"').to_string())
    })
}

/// The version-like word after `marker` (`565.57`, `418.39`).
fn after(text: &str, marker: &str) -> Option<String> {
    text.match_indices(marker).find_map(|(at, _)| {
        let v: String = text[at + marker.len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let v = v.trim_end_matches('.');
        (v.contains('.') && v.len() >= 5).then(|| v.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_after_their_marker() {
        assert_eq!(
            after("NVML library version: 565.57\n", "NVML library version: ").as_deref(),
            Some("565.57")
        );
        assert_eq!(
            after(
                "open failed: /usr/lib/libnvidia-tls.so.418.39: no such",
                ".so."
            )
            .as_deref(),
            Some("418.39")
        );
        assert_eq!(after("libnvidia-ml.so.1: cannot", ".so."), None);
    }

    #[test]
    fn the_toolkit_root_is_read_unless_commented_out() {
        let config = "[nvidia-container-cli]\n#root = \"/run/nvidia/driver\"\n  root = \"/run/nvidia/driver\"\n";
        assert_eq!(toolkit_root(config).as_deref(), Some("/run/nvidia/driver"));
        assert_eq!(
            toolkit_root("#root = \"/x\"\nldconfig = \"@/sbin/ldconfig\"\n"),
            None
        );
    }
}
