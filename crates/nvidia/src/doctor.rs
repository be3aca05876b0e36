//! NVIDIA's `gpuctl doctor` checks: the driver in use against what the GPUs need, the uvm
//! node CUDA opens, the hook's `no-cgroups` for rootless podman, CDI specs written for another
//! driver version, and the `/dev/char` links that keep device rules across a daemon-reload.

use std::path::Path;

use gpuctl_core::plugin::evidence::{self, Found};
use gpuctl_core::plugin::{Check, CheckCode, DoctorContext, Status};
use gpuctl_core::plugin::{Probe, Tier, devnode};

use crate::nodes::leads_to_driver_node;
use crate::requirement::NVIDIA_VENDOR_ID;
use crate::tier::KIND;

pub use crate::doctor_codes::{DEV_CHAR, DRIVER, NO_CGROUPS, SPEC_DRIVER, UVM_CHECK};
pub use crate::proc_version::{
    LoadedDriver, MODULE_TAINT, PROC_VERSION, loaded_driver, parse_proc_version,
};
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{Fit, VendorRequest, Verdict};
use gpuctl_core::plugin::requirement_answer::{Request, answer_scanned};

/// Every check doctor can report for NVIDIA: [`checks`]' and, with `--image-env`, the image's.
pub const CHECKS: &[CheckCode] = &[
    DRIVER,
    UVM_CHECK,
    NO_CGROUPS,
    SPEC_DRIVER,
    DEV_CHAR,
    crate::image_check::CODE,
];

/// The toolkit's configuration, which the legacy hook reads.
pub const TOOLKIT_CONFIG: &str = "/etc/nvidia-container-runtime/config.toml";
/// Where packages install the toolkit's spec-refresh unit (toolkit 1.18 and later): the Debian
/// package puts it in /etc/systemd/system, RPM-based ones in /usr/lib/systemd/system
/// (docs/vendors.md, "NVIDIA CDI tier").
pub const CDI_REFRESH_UNITS: [&str; 3] = [
    "/etc/systemd/system/nvidia-cdi-refresh.service",
    "/usr/lib/systemd/system/nvidia-cdi-refresh.service",
    "/lib/systemd/system/nvidia-cdi-refresh.service",
];
/// The file nvidia-cdi-refresh writes unless its environment file says otherwise.
pub const CDI_REFRESH_OUTPUT: &str = "/var/run/cdi/nvidia.yaml";

/// How to regenerate the NVIDIA spec at `spec_path`: `nvidia-ctk` writing that very file (a
/// spec written elsewhere would not replace it), and the refresh service where the host has it.
pub fn regenerate(probe: &Probe, spec_path: &str) -> String {
    let mut how = format!("'sudo nvidia-ctk cdi generate --output={spec_path}'");
    let unit = CDI_REFRESH_UNITS
        .iter()
        .any(|u| probe.host().is_file(Path::new(u)).unwrap_or(false));
    if unit {
        if spec_path == CDI_REFRESH_OUTPUT {
            how.push_str(
                ", or 'sudo systemctl start nvidia-cdi-refresh.service', which this host has installed and which writes that file",
            );
        } else {
            how.push_str(&format!(
                "; this host has nvidia-cdi-refresh installed, which keeps {CDI_REFRESH_OUTPUT} current: 'sudo systemctl enable --now nvidia-cdi-refresh.path'"
            ));
        }
    }
    how
}

/// Every NVIDIA check that applies to this host.
pub fn checks(probe: &Probe, ctx: &DoctorContext) -> Vec<Check> {
    let host = probe.host();
    if probe.pci().gpus_of_vendor(NVIDIA_VENDOR_ID).0.is_empty() {
        return vec![
            Check::new(DRIVER, "NVIDIA", Status::Skipped)
                .fact("no NVIDIA GPU under /sys/bus/pci/devices"),
        ];
    }
    let loaded = loaded_driver(host);
    let mut out = vec![driver(probe, loaded.as_ref())];
    out.push(uvm(probe));
    out.push(no_cgroups(probe, ctx));
    if let Some(d) = &loaded {
        out.extend(spec_driver(probe, d));
    }
    out.push(dev_char(probe));
    out
}

fn driver(probe: &Probe, loaded: Option<&LoadedDriver>) -> Check {
    let Some(d) = loaded else {
        return Check::new(DRIVER, "NVIDIA driver", Status::Problem)
            .fact(format!("{PROC_VERSION} is missing: no NVIDIA kernel module is loaded"))
            .remedy("install the driver 'gpuctl requirement' names, then reboot (or 'sudo modprobe nvidia')");
    };
    let module = if d.open { "open" } else { "proprietary" };
    // The loaded release as `gpuctl requirement --driver` takes it, asked through the very
    // path that command answers by: THE verdict (docs/requirement.md#one-verdict).
    let spec_text = crate::loaded::driver_spec(d);
    let mut c = Check::new(
        DRIVER,
        format!("NVIDIA {} ({module} kernel module)", d.version),
        Status::Ok,
    );
    let specs = [spec_text.clone()];
    let request = Request {
        ids: &[],
        specs: &specs,
        vendor: VendorRequest::default(),
    };
    let report = match answer_scanned(probe.host(), probe.pci(), Registry::discovered(), request) {
        Ok(r) => r,
        Err(e) => {
            c.status = Status::Warning;
            return c.fact(format!("cannot judge driver {spec_text}: {e}"));
        }
    };
    let Some(entry) = report.vendors.iter().find(|v| v.vendor == "nvidia") else {
        c.status = Status::Warning;
        return c.fact(format!("cannot judge driver {spec_text}"));
    };
    if let Some(comb) = &entry.combined {
        c = c.fact(format!("the GPUs need: {}", comb.describe));
    }
    for conflict in &entry.conflicts {
        c = c.fact(format!("the GPUs conflict: {conflict}"));
    }
    let verdict = report
        .verdict("nvidia")
        .unwrap_or_else(|| Verdict::unknown("no verdict"));
    match (verdict.fit, verdict.why) {
        (Fit::Yes, _) | (_, None) => c,
        (Fit::No, Some(why)) => {
            c.status = Status::Problem;
            c.fact(format!("driver {spec_text} does not satisfy them: {why}"))
                .remedy("install a driver 'gpuctl requirement' accepts (see its combined line)")
        }
        // A fit core adds later is not a yes: it reads as unknown until this check words it.
        (_, Some(why)) => {
            c.status = Status::Warning;
            c.fact(format!(
                "whether driver {spec_text} drives them is unknown: {why}"
            ))
            .remedy(
                "check the GPUs against the driver's own README (Appendix A) before relying on it",
            )
        }
    }
}

fn uvm(probe: &Probe) -> Check {
    const UVM: &str = "/dev/nvidia-uvm";
    let found = evidence::device_node(probe.host(), Path::new(UVM));
    let c = Check::new(UVM_CHECK, UVM, Status::Ok);
    // A link is the driver's node only when it resolves to one (`-> sda` hands CUDA a disk),
    // by the rule the grants follow (docs/output-safety.md, "Device nodes that are links").
    if matches!(found, Found::Present)
        && let Err(why) = devnode::vet_node(probe.host(), Path::new(UVM), leads_to_driver_node)
    {
        return Check {
            status: Status::Problem,
            ..c
        }
        .fact(format!("{UVM} is {}: CUDA would open that instead", why.0))
        .remedy("remove the link and load the module: sudo nvidia-modprobe -u -c=0 (or 'sudo modprobe nvidia-uvm'), then regenerate the CDI spec");
    }
    match found {
        Found::Present => c.fact("present"),
        Found::Missing | Found::Wrong(_) => Check {
            status: Status::Problem,
            ..c
        }
        .fact(format!(
            "{} {}: the nvidia-uvm module is not loaded, and CUDA cannot start without it",
            UVM,
            found.describe("a device node")
        ))
        .remedy("sudo nvidia-modprobe -u -c=0 (or 'sudo modprobe nvidia-uvm'), then regenerate the CDI spec"),
        // Unknown, or a state core adds later: nothing sure is known, so a warning.
        _ => Check {
            status: Status::Warning,
            ..c
        }
        .fact(found.describe("a device node")),
    }
}

fn no_cgroups(probe: &Probe, ctx: &DoctorContext) -> Check {
    let tier = crate::tier::tier(probe).ok().flatten();
    if tier != Some(Tier::Hook) {
        return Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Skipped).fact(
            "the legacy hook is not the tier in use; its no-cgroups setting does not matter",
        );
    }
    let rootless = ctx.rootless();
    if rootless == Some(false) {
        return Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Ok)
            .fact("podman runs as root: the hook may set up device cgroups");
    }
    let text = match probe
        .host()
        .read_to_string(Path::new(TOOLKIT_CONFIG), 1024 * 1024)
    {
        Ok(t) => t,
        Err(e) if e.is_absent() => String::new(),
        Err(e) => {
            return Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Warning).fact(format!(
                "cannot tell whether the hook sets up device cgroups: {e}"
            ));
        }
    };
    if no_cgroups_set(&text) {
        Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Ok)
            .fact("no-cgroups = true under [nvidia-container-cli]")
    } else if rootless.is_none() {
        Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Warning)
            .fact("no-cgroups is not true under [nvidia-container-cli], and who runs podman is unknown (/proc/self/status cannot be read): rootless podman with the legacy hook would fail")
            .remedy(format!("for rootless podman, set no-cgroups = true under [nvidia-container-cli] in {TOOLKIT_CONFIG}"))
    } else {
        Check::new(NO_CGROUPS, TOOLKIT_CONFIG, Status::Problem)
            .fact("rootless podman with the legacy hook, and no-cgroups is not true under [nvidia-container-cli]")
            .remedy(format!("sudo sed -i 's/^#no-cgroups = false/no-cgroups = true/' {TOOLKIT_CONFIG} (or move to CDI: 'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml')"))
    }
}

/// True when `[nvidia-container-cli]` sets `no-cgroups = true`.
pub fn no_cgroups_set(text: &str) -> bool {
    let mut in_cli = false;
    let mut set = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_cli = line == "[nvidia-container-cli]";
        } else if in_cli
            && let Some((k, v)) = line.split_once('=')
            && k.trim() == "no-cgroups"
        {
            set = v.split('#').next().unwrap_or("").trim() == "true";
        }
    }
    set
}

/// NVIDIA specs whose mounted libraries carry another driver version than the loaded one.
fn spec_driver(probe: &Probe, loaded: &LoadedDriver) -> Vec<Check> {
    let mut out = Vec::new();
    for spec in probe.cdi().specs_for(KIND) {
        let other: Vec<&String> = spec
            .host_mounts
            .iter()
            .filter(|m| m.contains("nvidia") || m.contains("libcuda"))
            .filter(|m| {
                m.rsplit(".so.").next().is_some_and(|v| {
                    v.matches('.').count() >= 1
                        && v.starts_with(|c: char| c.is_ascii_digit())
                        && v != loaded.version
                })
            })
            .collect();
        let mut c = Check::new(SPEC_DRIVER, spec.path.clone(), Status::Ok);
        if let Some(first) = other.first() {
            c.status = Status::Problem;
            c = c
                .fact(format!(
                    "it mounts {first} but the loaded driver is {}",
                    loaded.version
                ))
                .remedy(regenerate(probe, &spec.path));
        } else {
            c = c.fact(format!("written for the loaded driver {}", loaded.version));
        }
        out.push(c);
    }
    out
}

fn dev_char(probe: &Probe) -> Check {
    let host = probe.host();
    let linked = host
        .list_dir(Path::new("/dev/char"))
        .unwrap_or_default()
        .iter()
        .filter_map(|e| e.name_str().map(str::to_string))
        .any(|n| {
            host.read_link(&Path::new("/dev/char").join(&n))
                .is_ok_and(|t| t.to_string_lossy().contains("nvidia"))
        });
    if linked {
        Check::new(DEV_CHAR, "/dev/char", Status::Ok).fact("links to the NVIDIA nodes exist")
    } else {
        Check::new(DEV_CHAR, "/dev/char", Status::Warning)
            .fact("no /dev/char link leads to an NVIDIA node: a 'systemctl daemon-reload' can take the GPUs from running containers (NVML 'Unknown Error')")
            .remedy("sudo nvidia-ctk system create-dev-char-symlinks --create-all")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Sun Jul 27 06:54:38 UTC 2025\nGCC version:  gcc version 12.3.0\n",
        Some((true, "580.65.06", 580))
    )]
    #[case(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.154.05  Thu Dec 28 15:37:48 UTC 2023\n",
        Some((false, "535.154.05", 535))
    )]
    #[case("GCC version: 12\n", None)]
    fn proc_version(#[case] text: &str, #[case] want: Option<(bool, &str, u32)>) {
        let got = parse_proc_version(text).map(|d| (d.open, d.version, d.branch));
        assert_eq!(got, want.map(|(o, v, b)| (o, v.to_string(), b)));
    }

    #[rstest]
    #[case("[nvidia-container-cli]\nno-cgroups = true\n", true)]
    #[case("[nvidia-container-cli]\n#no-cgroups = false\n", false)]
    #[case("no-cgroups = true\n[nvidia-container-cli]\n", false)]
    #[case(
        "[nvidia-container-cli]\nno-cgroups = true # rootless\n[nvidia-container-runtime]\n",
        true
    )]
    fn no_cgroups(#[case] text: &str, #[case] want: bool) {
        assert_eq!(no_cgroups_set(text), want);
    }
}
