//! AMD's `gpuctl doctor` checks: the driver bound to each AMD GPU (amdgpu) and, for one that
//! has none, why (a kernel older than the GPU's floor in the AMD table, the module not loaded);
//! `/dev/kfd`, which ROCm opens first; and the groups that own the nodes a container gets
//! (docs/explain.md#driver-checks).

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Probe;
use gpuctl_core::plugin::driver::{self, DriverFinding, DriverState, GpuName, Unbound};
use gpuctl_core::plugin::kernel::{self, KernelRelease};
use gpuctl_core::plugin::nodes;
use gpuctl_core::plugin::pci::PciDevice;
use gpuctl_core::plugin::{Check, CheckCode, DoctorContext, Status};

use crate::requirement::AMD_VENDOR_ID;
use crate::{KFD, device_requirement};

/// The driver bound to each AMD GPU.
pub const DRIVER: CheckCode = CheckCode::new("amd-driver");
/// `/dev/kfd`: there, and who owns it.
pub const KFD_CHECK: CheckCode = CheckCode::new("amd-kfd");
/// The render nodes of the GPUs amdgpu drives: there, and who owns them.
pub const NODES: CheckCode = CheckCode::new("amd-nodes");
/// Every check [`checks`] can return.
pub const CHECKS: &[CheckCode] = &[DRIVER, KFD_CHECK, NODES];

/// The kernel driver ROCm and the render nodes need.
pub const AMDGPU: &str = "amdgpu";

/// Every AMD check that applies to this host.
pub fn checks(probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
    let host = probe.host();
    let (gpus, _) = probe.pci().gpus_of_vendor(AMD_VENDOR_ID);
    let kernel = kernel::kernel_release(host);
    let findings: Vec<DriverFinding> = gpus
        .iter()
        .map(|g| finding(host, g, kernel.as_ref()))
        .collect();
    let mut out = driver::driver_checks(DRIVER, "AMD", &findings);
    // THE verdict on the loaded stack, as `gpuctl requirement --driver` gives it.
    gpuctl_core::plugin::driver_fit::apply(&mut out, DRIVER, probe, "amd");
    if gpus.is_empty() {
        return out;
    }
    let any_bound = findings
        .iter()
        .any(|f| matches!(&f.state, DriverState::Bound { .. }));
    out.push(kfd(host, any_bound));
    out.extend(nodes::bound_render_nodes_check(
        probe,
        AMD_VENDOR_ID,
        &findings,
        NODES,
        "AMD render nodes",
        "amdgpu drives the GPU but udev made no node for it: run 'sudo udevadm trigger --subsystem-match=drm' or reboot.",
    ));
    out
}

/// What one AMD GPU's driver binding says.
fn finding(host: &Host, gpu: &PciDevice, kernel: Option<&KernelRelease>) -> DriverFinding {
    let req = device_requirement(gpu);
    let label = req.as_ref().and_then(|r| {
        let parts: Vec<&str> = r.name().into_iter().chain(r.label()).collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    });
    let state = match kernel::bound_driver(host, &gpu.address) {
        Ok(Some(d)) if d == AMDGPU => DriverState::Bound { driver: d },
        Ok(Some(d)) => DriverState::Other {
            driver: d,
            wanted: vec![AMDGPU.to_string()],
        },
        Ok(None) => DriverState::Unbound(why_unbound(host, req.as_ref(), kernel)),
        Err(e) => DriverState::Unreadable(e),
    };
    DriverFinding {
        code: DRIVER,
        gpu: GpuName::of(gpu, label),
        state,
    }
}

/// Why amdgpu did not bind a GPU: the kernel's floor first (no module helps on an older
/// kernel), then the module.
fn why_unbound(
    host: &Host,
    req: Option<&gpuctl_core::plugin::requirement::Requirement>,
    kernel: Option<&KernelRelease>,
) -> Vec<Unbound> {
    let mut why = Vec::new();
    match (req, kernel) {
        (Some(r), Some(k)) => {
            if let Some(old) = driver::kernel_too_old(r, k) {
                return vec![old];
            }
        }
        (Some(r), None) => why.push(Unbound::KernelUnknown {
            needs: r.describe(),
        }),
        (None, _) => why.push(Unbound::NotInTables),
    }
    match kernel::module_loaded(host, AMDGPU) {
        Ok(false) => why.push(Unbound::ModuleNotLoaded {
            module: AMDGPU.to_string(),
        }),
        Ok(true) if kernel.is_some() && req.is_some() => why.push(Unbound::Unexplained {
            drivers: vec![AMDGPU.to_string()],
        }),
        _ => {}
    }
    why
}

/// `/dev/kfd` with its owner; missing is a problem only once amdgpu drives a GPU (before
/// that, the driver check has the cause).
fn kfd(host: &Host, any_bound: bool) -> Check {
    if !any_bound && !host.exists(std::path::Path::new(KFD)).unwrap_or(false) {
        return Check::new(KFD_CHECK, KFD, Status::Skipped).fact(format!(
            "amdgpu drives no AMD GPU, so there is no {KFD} yet (see {DRIVER})"
        ));
    }
    nodes::nodes_check(
        KFD_CHECK,
        KFD,
        host,
        &[KFD.to_string()],
        "amdgpu is loaded without KFD, which ROCm needs: use a kernel built with CONFIG_HSA_AMD (every distribution kernel is) or AMD's amdgpu-dkms, then reboot; check 'sudo dmesg | grep kfd'.",
    )
}
