//! A driver finding as doctor prints it.

use super::*;

fn gpu() -> GpuName {
    GpuName {
        address: "0000:03:00.0".into(),
        id: "8086:56a0".into(),
        label: Some("Alchemist".into()),
    }
}

#[test]
fn a_setting_needed_names_it_exactly_with_its_own_hint() {
    let f = DriverFinding {
        code: CheckCode::new("intel-driver"),
        gpu: gpu(),
        state: DriverState::Unbound(vec![Unbound::SettingNeeded {
            driver: "i915".into(),
            release: "6.1".into(),
            settings: vec!["i915.force_probe=56a0".into()],
            parameter: ("i915.force_probe".into(), Some(String::new())),
            unasked_from: Some(Version::new(6, 2)),
        }]),
    };
    let c = f.check();
    assert_eq!(
        (c.code, c.status, c.subject.as_str()),
        (
            CheckCode::new("intel-driver"),
            Status::Problem,
            "0000:03:00.0 (8086:56a0, Alchemist)"
        )
    );
    assert_eq!(
        c.facts,
        [
            "no kernel driver is bound to it",
            "on Linux 6.1, i915 binds 56a0 only with i915.force_probe=56a0; i915.force_probe is empty"
        ]
    );
    let r = c.remedy.unwrap_or_default();
    assert!(
        r.starts_with("Hint: add 'i915.force_probe=56a0' to the kernel command line"),
        "{r}"
    );
    assert!(r.contains("'options i915 force_probe=56a0'"), "{r}");
    assert!(r.lines().all(|l| l.len() <= 100), "{r}");
}

#[test]
fn a_kernel_too_old_hides_the_module_advice() {
    let f = DriverFinding {
        code: CheckCode::new("amd-driver"),
        gpu: gpu(),
        state: DriverState::Unbound(vec![
            Unbound::KernelTooOld {
                release: "5.15.0-91-generic".into(),
                reason: "kernel 5.15 is older than 6.5".into(),
                floor: Some(Version::new(6, 5)),
            },
            Unbound::ModuleNotLoaded {
                module: "amdgpu".into(),
            },
        ]),
    };
    let c = f.check();
    assert_eq!(
        c.facts[1],
        "Linux 5.15.0-91-generic: kernel 5.15 is older than 6.5"
    );
    assert_eq!(c.facts.len(), 2);
    assert_eq!(
        c.remedy.as_deref(),
        Some(
            "Hint: boot Linux 6.5 or newer (a newer distribution kernel, or its hardware-enablement kernel)."
        )
    );
}

#[test]
fn bound_gpus_share_one_check_and_others_get_their_own() {
    let bound = DriverFinding {
        code: CheckCode::new("amd-driver"),
        gpu: gpu(),
        state: DriverState::Bound {
            driver: "amdgpu".into(),
        },
    };
    let vm = DriverFinding {
        state: DriverState::Other {
            driver: "vfio-pci".into(),
            wanted: vec!["amdgpu".into()],
        },
        ..bound.clone()
    };
    let checks = driver_checks(
        CheckCode::new("amd-driver"),
        "AMD",
        &[bound.clone(), bound, vm],
    );
    let got: Vec<(Status, &str, usize)> = checks
        .iter()
        .map(|c| (c.status, c.subject.as_str(), c.facts.len()))
        .collect();
    assert_eq!(
        got,
        [
            (Status::Ok, "2 AMD GPU(s)", 2),
            (Status::Warning, "0000:03:00.0 (8086:56a0, Alchemist)", 1)
        ]
    );
    assert_eq!(
        driver_checks(CheckCode::new("amd-driver"), "AMD", &[])[0].status,
        Status::Skipped
    );
}
