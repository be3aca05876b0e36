//! The neutral model across vendors, with components shaped like the real vendors' ones.

use rstest::rstest;

use super::*;

const MODULE: Component = Component {
    key: "nvidia-kernel-module",
    noun: "kernel module",
    short: "kernel module",
    values: &["open", "proprietary"],
    scope: Scope::Host,
};
const BRANCH: Component = Component {
    key: "nvidia-driver-branch",
    noun: "driver branch",
    short: "branch",
    values: &[],
    scope: Scope::Host,
};
pub(super) const ROCM: Component = Component {
    key: "rocm",
    noun: "ROCm",
    short: "ROCm",
    values: &[],
    scope: Scope::Host,
};
pub(super) const INTEL_DRIVER: Component = Component {
    key: "intel-kernel-driver",
    noun: "kernel driver",
    short: "kernel driver",
    values: &["i915", "xe"],
    scope: Scope::Device,
};

fn v(text: &str) -> Version {
    Version::parse(text).unwrap()
}

fn range(c: Component, min: Option<&str>, max: Option<&str>) -> Constraint {
    Constraint::range(c, min.map(v), max.map(v)).unwrap()
}

fn nvidia(id: u16, module: &str, min: u32) -> Requirement {
    Requirement::new("NVIDIA", 0x10de)
        .with_device_id(id)
        .with_label("Blackwell")
        .with_constraint(Constraint::choice(
            MODULE,
            vec![Alternative::plain(module.to_string())],
        ))
        .with_constraint(range(BRANCH, Some(&min.to_string()), None))
}

fn amd(id: u16, target: &str, min: &str, max: Option<&str>, kernel: &str) -> Requirement {
    Requirement::new("AMD", 0x1002)
        .with_device_id(id)
        .with_label(target)
        .with_constraint(range(ROCM, Some(min), max))
        .with_constraint(range(LINUX_KERNEL, Some(kernel), None))
}

fn intel(id: u16, drivers: &[&str], kernel: &str) -> Requirement {
    let alts = drivers
        .iter()
        .map(|d| Alternative::plain(d.to_string()))
        .collect();
    Requirement::new("Intel", 0x8086)
        .with_device_id(id)
        .with_constraint(Constraint::choice(INTEL_DRIVER, alts))
        .with_constraint(range(LINUX_KERNEL, Some(kernel), None))
}

#[rstest]
#[case("580", &[580])]
#[case("6.2", &[6, 2])]
#[case("6.8.0", &[6, 8, 0])]
fn versions_parse(#[case] text: &str, #[case] parts: &[u32]) {
    assert_eq!(v(text).parts(), parts);
    assert_eq!(v(text).to_string(), text);
}

#[rstest]
#[case("")]
#[case("6.")]
#[case(".6")]
#[case("6..2")]
#[case("v6")]
#[case("1.2.3.4.5")]
#[case("99999999999")]
fn bad_versions_are_refused(#[case] text: &str) {
    assert!(Version::parse(text).is_err());
}

#[test]
fn a_release_line_bound_includes_its_point_releases() {
    assert!(v("6.3.2").within_max(&v("6.3")));
    assert!(!v("6.4").within_max(&v("6.3")));
    assert_eq!(v("6.2"), v("6.2.0"));
}

#[test]
fn describe_and_who_use_the_components_words() {
    let r = amd(0x74a1, "gfx942", "6.0", None, "6.8").with_name("AMD Instinct MI300X");
    assert_eq!(r.describe(), "ROCm 6.0 or newer, Linux kernel 6.8 or newer");
    assert_eq!(r.who(), "AMD Instinct MI300X (gfx942, 1002:74a1)");
    let n = nvidia(0x2901, "open", 570);
    assert_eq!(
        n.describe(),
        "open kernel module, driver branch 570 or newer"
    );
    assert_eq!(n.who(), "NVIDIA GPU (Blackwell, 10de:2901)");
    assert_eq!(Requirement::new("Intel", 0x8086).describe(), "any driver");
}

#[test]
fn an_amd_and_an_nvidia_gpu_do_not_conflict_and_meet_on_the_kernel() {
    let reqs = [
        nvidia(0x2901, "open", 570),
        amd(0x74a1, "gfx942", "6.0", None, "6.8"),
        intel(0xe20b, &["xe"], "6.12"),
    ];
    assert!(Requirement::conflicts(&reqs).is_empty());
    let c = Requirement::intersect(&reqs).unwrap();
    // The Intel driver is each device's own, so it is not part of the host's requirement.
    assert_eq!(
        c.describe(),
        "open kernel module, driver branch 570 or newer, ROCm 6.0 or newer, Linux kernel 6.12 or newer"
    );
    assert_eq!(c.members().len(), 3);
    assert_eq!(c.vendor(), "");
}

#[test]
fn two_amd_gpus_whose_rocm_ranges_do_not_overlap_conflict() {
    let reqs = [
        amd(0x66a1, "gfx906", "5.0", Some("5.7"), "4.19"),
        amd(0x7550, "gfx1201", "6.4", None, "6.11"),
    ];
    assert_eq!(
        Requirement::conflicts(&reqs),
        [
            "AMD GPU (gfx1201, 1002:7550) needs ROCm 6.4 or newer, but AMD GPU (gfx906, 1002:66a1) \
          is supported only up to ROCm 5.7"
        ]
    );
    assert_eq!(
        Requirement::intersect(&reqs).map_err(|e| e.to_string()),
        Err(
            "no single AMD driver supports all GPUs on this host: AMD GPU (gfx1201, 1002:7550) \
             needs ROCm 6.4 or newer, but AMD GPU (gfx906, 1002:66a1) is supported only up to \
             ROCm 5.7"
                .to_string()
        )
    );
}

#[test]
fn a_conflict_among_several_vendors_names_no_vendor() {
    let reqs = [
        amd(0x7550, "gfx1201", "6.4", None, "6.14"),
        Requirement::new("Intel", 0x8086)
            .with_device_id(0x56a0)
            .with_constraint(range(LINUX_KERNEL, None, Some("6.8"))),
    ];
    let err = Requirement::intersect(&reqs).expect_err("conflicts");
    assert!(matches!(&err, CombineError::Conflict { vendor, .. } if vendor.is_empty()));
    assert_eq!(
        err.to_string(),
        "no single driver stack supports all GPUs on this host: AMD GPU (gfx1201, 1002:7550) \
         needs Linux kernel 6.14 or newer, but Intel GPU (8086:56a0) is supported only up to \
         kernel 6.8"
    );
}

#[test]
fn module_conflicts_name_the_groups_in_the_components_value_order() {
    let reqs = [
        nvidia(0x1db4, "proprietary", 450),
        nvidia(0x2901, "open", 570),
    ];
    assert_eq!(
        Requirement::conflicts(&reqs),
        [
            "NVIDIA GPU (Blackwell, 10de:2901) needs the open kernel module, but NVIDIA GPU \
          (Blackwell, 10de:1db4) needs the proprietary one"
        ]
    );
}

#[test]
fn device_scoped_choices_never_conflict() {
    let reqs = [
        intel(0x9a49, &["i915"], "5.4"),
        intel(0x64a0, &["xe"], "6.11"),
    ];
    assert!(Requirement::conflicts(&reqs).is_empty());
}

#[rstest]
#[case(Stack::new().with_version("rocm", Known::Exact(v("6.2"))).with_version("kernel", Known::Exact(v("6.8"))), None)]
#[case(Stack::new().with_version("rocm", Known::Exact(v("5.7"))), Some("ROCm 5.7 is older than 6.0"))]
#[case(Stack::new().with_version("rocm", Known::Exact(v("6.2"))), Some("Linux kernel not known, 6.8 or newer is needed"))]
#[case(Stack::new().with_version("rocm", Known::Exact(v("6.2"))).with_version("kernel", Known::AtLeast(v("6.1"))), Some("installs the newest kernel it carries, known only to be 6.1 or newer; 6.8 is needed"))]
fn why_not_names_the_first_failing_constraint(#[case] stack: Stack, #[case] why: Option<&str>) {
    let r = amd(0x74a1, "gfx942", "6.0", None, "6.8");
    assert_eq!(r.why_not(&stack).as_deref(), why);
    assert_eq!(r.satisfied_by(&stack), why.is_none());
}

#[test]
fn an_alternatives_needs_hold_only_with_that_value() {
    let xe = Alternative {
        value: "xe".into(),
        needs: vec![range(LINUX_KERNEL, Some("6.11"), None)],
        note: Some("xe.force_probe=64a0 before 6.11".to_string()),
        asks: None,
    };
    let r = Requirement::new("Intel", 0x8086).with_constraint(Constraint::choice(
        INTEL_DRIVER,
        vec![Alternative::plain("i915"), xe],
    ));
    assert_eq!(
        r.describe(),
        "i915 kernel driver or xe kernel driver (Linux kernel 6.11 or newer; xe.force_probe=64a0 before 6.11)"
    );
    let xe_68 = Stack::new()
        .with_choice("intel-kernel-driver", "xe")
        .with_version("kernel", Known::Exact(v("6.8")));
    assert_eq!(
        r.why_not(&xe_68).as_deref(),
        Some("with the xe kernel driver, kernel 6.8 is older than 6.11")
    );
    let i915 = Stack::new().with_choice("intel-kernel-driver", "i915");
    assert!(r.satisfied_by(&i915));
    assert_eq!(
        r.why_not(&Stack::new().with_choice("intel-kernel-driver", "nouveau"))
            .as_deref(),
        Some("nouveau kernel driver, the i915 or xe one is needed")
    );
}

/// A stack that names only the kernel leaves each device to bind the driver that kernel lets
/// it: the device-scoped choice is met when some value's needs hold.
#[rstest]
#[case(&["i915", "xe:6.11"], "6.8", None)]
#[case(&["xe:6.11"], "6.12", None)]
#[case(&["xe:6.11"], "6.8", Some("with the xe kernel driver, kernel 6.8 is older than 6.11"))]
#[case(&["i915:6.2", "xe:6.11"], "5.15",
       Some("with the i915 kernel driver, kernel 5.15 is older than 6.2"))]
fn an_unnamed_device_driver_is_any_the_kernel_allows(
    #[case] drivers: &[&str],
    #[case] kernel: &str,
    #[case] why: Option<&str>,
) {
    let alts = drivers
        .iter()
        .map(|d| {
            let (value, first) = d.split_once(':').unwrap_or((d, ""));
            let mut alt = Alternative::plain(value.to_string());
            if !first.is_empty() {
                alt.needs.push(range(LINUX_KERNEL, Some(first), None));
            }
            alt
        })
        .collect();
    let r =
        Requirement::new("Intel", 0x8086).with_constraint(Constraint::choice(INTEL_DRIVER, alts));
    let stack = Stack::new().with_version("kernel", Known::Exact(v(kernel)));
    assert_eq!(r.why_not(&stack).as_deref(), why);
}

/// A host-wide choice (NVIDIA's module) left unnamed stays unknown, as it always has been.
#[test]
fn an_unnamed_host_choice_is_unknown() {
    let r = nvidia(0x2901, "open", 570);
    let stack = Stack::new().with_version("nvidia-driver-branch", Known::Exact(v("580")));
    assert_eq!(
        r.why_not(&stack).as_deref(),
        Some("unknown kernel module, the open one is needed")
    );
}

#[test]
fn a_range_whose_bounds_leave_nothing_is_refused() {
    assert!(Constraint::range(ROCM, Some(v("6.4")), Some(v("6.3"))).is_err());
    assert!(Constraint::range(ROCM, Some(v("6.3.2")), Some(v("6.3"))).is_ok());
}
