//! Intel's `gpuctl doctor` checks: the driver bound to each Intel GPU (i915 or xe) and, for one
//! that has none, why: a kernel older than the GPU's floor, a driver that lists the id only from
//! a later release, the module not loaded, or the `force_probe` setting the running release
//! needs, named exactly (`i915.force_probe=56a0`) from the Intel table; and the groups that own
//! the render nodes (docs/explain.md#driver-checks).

use std::collections::HashMap;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::driver::{self, DriverFinding, DriverState, GpuName, Unbound};
use gpuctl_core::plugin::kernel::{self, KernelRelease};
use gpuctl_core::plugin::nodes;
use gpuctl_core::plugin::pci::{self, PciDevice};
use gpuctl_core::plugin::{Check, CheckCode, DoctorContext};

use crate::requirement::{Binding, INTEL_GPU_CLASSES, INTEL_VENDOR_ID, IntelGpu, lookup};
use crate::table::DriverRow;

/// The driver bound to each Intel GPU.
pub const DRIVER: CheckCode = CheckCode::new("intel-driver");
/// The render nodes of the GPUs i915 or xe drive: there, and who owns them.
pub const NODES: CheckCode = CheckCode::new("intel-nodes");
/// Every check [`checks`] can return.
pub const CHECKS: &[CheckCode] = &[DRIVER, NODES];

/// What a `force_probe` value says of one device id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForceProbe {
    /// The driver probes it although its release gates it.
    Forced,
    /// The driver leaves it alone although it would bind it.
    Blocked,
    /// Neither.
    Neither,
}

/// Reads a `force_probe` value the way i915 and xe do (their Kconfig help for
/// `DRM_I915_FORCE_PROBE` and `DRM_XE_FORCE_PROBE`, since "drm/i915: Expand force_probe to block
/// probe of devices as well", 2023): `*` alone forces every device and `!*` alone blocks every
/// one; otherwise a comma-separated list of hex ids, where `!` before an id blocks it and a
/// block wins over a force of the same id.
pub fn force_probe(value: &str, id: u16) -> ForceProbe {
    match value.trim() {
        "*" => return ForceProbe::Forced,
        "!*" => return ForceProbe::Blocked,
        _ => {}
    }
    let mut forced = false;
    for token in value.split(',').map(str::trim) {
        let (blocked, hex) = match token.strip_prefix('!') {
            Some(h) => (true, h),
            None => (false, token),
        };
        if u16::from_str_radix(hex, 16).ok() != Some(id) {
            continue;
        }
        if blocked {
            return ForceProbe::Blocked;
        }
        forced = true;
    }
    if forced {
        ForceProbe::Forced
    } else {
        ForceProbe::Neither
    }
}

/// Every Intel check that applies to this host.
pub fn checks(probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
    let host = probe.host();
    let (gpus, _) = probe.pci().gpus_of(INTEL_VENDOR_ID, INTEL_GPU_CLASSES);
    let ids: Vec<u16> = gpus.iter().map(|g| g.device_id).collect();
    let names = pci::device_names(host, INTEL_VENDOR_ID, &ids);
    let kernel = kernel::kernel_release(host);
    let findings: Vec<DriverFinding> = gpus
        .iter()
        .map(|g| finding(host, g, &names, kernel.as_ref()))
        .collect();
    let mut out = driver::driver_checks(DRIVER, "Intel", &findings);
    // THE verdict on the loaded stack, as `gpuctl requirement --driver` gives it.
    gpuctl_core::plugin::driver_fit::apply(&mut out, DRIVER, probe, "intel");
    out.extend(nodes::bound_render_nodes_check(
        probe,
        INTEL_VENDOR_ID,
        &findings,
        NODES,
        "Intel render nodes",
        "the driver drives the GPU but udev made no node for it: run 'sudo udevadm trigger --subsystem-match=drm' or reboot.",
    ));
    out
}

fn finding(
    host: &Host,
    gpu: &PciDevice,
    names: &HashMap<u16, String>,
    kernel: Option<&KernelRelease>,
) -> DriverFinding {
    let table = lookup(gpu.device_id);
    let label: Vec<&str> = names
        .get(&gpu.device_id)
        .map(String::as_str)
        .into_iter()
        .chain(table.platform)
        .collect();
    let wanted: Vec<&str> = if table.drivers.is_empty() {
        vec!["i915", "xe"]
    } else {
        table.drivers.iter().map(|d| d.driver).collect()
    };
    let state = match kernel::bound_driver(host, &gpu.address) {
        Ok(Some(d)) if wanted.contains(&d.as_str()) => DriverState::Bound { driver: d },
        Ok(Some(d)) => DriverState::Other {
            driver: d,
            wanted: wanted.iter().map(|w| w.to_string()).collect(),
        },
        Ok(None) => DriverState::Unbound(why_unbound(host, &table, kernel)),
        Err(e) => DriverState::Unreadable(e),
    };
    DriverFinding {
        code: DRIVER,
        gpu: GpuName::of(gpu, (!label.is_empty()).then(|| label.join(", "))),
        state,
    }
}

/// Why neither i915 nor xe bound a GPU on this kernel, from the Intel table: the floor first,
/// then the driver that would bind it with the least (unasked, else with its settings).
fn why_unbound(host: &Host, gpu: &IntelGpu, kernel: Option<&KernelRelease>) -> Vec<Unbound> {
    if gpu.drivers.is_empty() {
        return vec![Unbound::NotInTables];
    }
    let Some(k) = kernel else {
        let mut why = vec![Unbound::KernelUnknown {
            needs: gpu.requirement().describe(),
        }];
        why.extend(
            gpu.drivers
                .iter()
                .filter_map(|d| not_loaded(host, d.driver)),
        );
        return why;
    };
    if let Some(old) = driver::kernel_too_old(&gpu.requirement(), k) {
        return vec![old];
    }
    let mut later = Vec::new();
    let mut unasked: Vec<&DriverRow> = Vec::new();
    let mut asked: Vec<(&DriverRow, Vec<String>, Option<_>)> = Vec::new();
    for d in &gpu.drivers {
        match gpu.binding(d, k.version) {
            Binding::ListedFrom(from) => later.push(Unbound::ListedFrom {
                driver: d.driver.to_string(),
                from,
            }),
            Binding::Unasked => unasked.push(d),
            Binding::Asked { settings, until } => asked.push((d, settings, until)),
        }
    }
    let mut why = if let Some(d) = unasked.first() {
        let (param, value) = parameter(host, d.driver, "force_probe");
        match value.as_deref().map(|v| force_probe(v, gpu.device_id)) {
            Some(ForceProbe::Blocked) => vec![Unbound::Blocked {
                parameter: param,
                value: value.unwrap_or_default(),
            }],
            _ => loaded_or_unexplained(host, d.driver),
        }
    } else if let Some((d, settings, until)) = asked.first() {
        let own = settings
            .iter()
            .find(|s| s.starts_with(&format!("{}.", d.driver)))
            .and_then(|s| s.split_once('.'))
            .and_then(|(_, rest)| rest.split_once('='))
            .map(|(p, _)| p.to_string())
            .unwrap_or_else(|| "force_probe".to_string());
        let (param, value) = parameter(host, d.driver, &own);
        let says = value.as_deref().map(|v| match own.as_str() {
            "force_probe" => force_probe(v, gpu.device_id),
            _ if matches!(v, "1" | "Y" | "y") => ForceProbe::Forced,
            _ => ForceProbe::Neither,
        });
        match says {
            Some(ForceProbe::Blocked) => vec![Unbound::Blocked {
                parameter: param,
                value: value.unwrap_or_default(),
            }],
            Some(ForceProbe::Forced) => loaded_or_unexplained(host, d.driver),
            _ => {
                let mut why: Vec<Unbound> = not_loaded(host, d.driver).into_iter().collect();
                why.push(Unbound::SettingNeeded {
                    driver: d.driver.to_string(),
                    release: k.version.to_string(),
                    settings: settings.clone(),
                    parameter: (param, value),
                    unasked_from: *until,
                });
                why
            }
        }
    } else {
        Vec::new()
    };
    why.extend(later);
    why
}

/// `<driver>.<param>` and its value now (`None` when unreadable or the module is not loaded).
fn parameter(host: &Host, module: &str, param: &str) -> (String, Option<String>) {
    (
        format!("{module}.{param}"),
        kernel::module_parameter(host, module, param).ok().flatten(),
    )
}

fn not_loaded(host: &Host, module: &str) -> Option<Unbound> {
    matches!(kernel::module_loaded(host, module), Ok(false)).then(|| Unbound::ModuleNotLoaded {
        module: module.to_string(),
    })
}

fn loaded_or_unexplained(host: &Host, module: &str) -> Vec<Unbound> {
    vec![not_loaded(host, module).unwrap_or(Unbound::Unexplained {
        drivers: vec![module.to_string()],
    })]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("", ForceProbe::Neither)]
    #[case("56a0", ForceProbe::Forced)]
    #[case("56A0", ForceProbe::Forced)]
    #[case("4500,56a0", ForceProbe::Forced)]
    #[case("*", ForceProbe::Forced)]
    #[case("!*", ForceProbe::Blocked)]
    #[case("!56a0", ForceProbe::Blocked)]
    #[case("56a0,!56a0", ForceProbe::Blocked)]
    #[case("!56a0,56a0", ForceProbe::Blocked)]
    #[case("56a1", ForceProbe::Neither)]
    #[case("!56a1", ForceProbe::Neither)]
    fn force_probe_values(#[case] value: &str, #[case] want: ForceProbe) {
        assert_eq!(force_probe(value, 0x56a0), want);
    }
}
