//! Spec parsing against registered components, and the multi-vendor report.

use rstest::rstest;

use super::report::{GpuInput, VendorInput, report};
use super::tests::{INTEL_DRIVER as DRIVER, ROCM};
use super::*;

const AMD: VendorComponents = VendorComponents {
    vendor: "amd",
    components: &[ROCM, LINUX_KERNEL],
};
const INTEL: VendorComponents = VendorComponents {
    vendor: "intel",
    components: &[DRIVER, LINUX_KERNEL],
};

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[rstest]
#[case("rocm:6.2", "rocm", Setting::Version(Known::Exact(v("6.2"))), &["amd"])]
#[case("ROCm:6.2+", "rocm", Setting::Version(Known::AtLeast(v("6.2"))), &["amd"])]
#[case("kernel:6.8", "kernel", Setting::Version(Known::Exact(v("6.8"))), &["amd", "intel"])]
#[case("xe", "intel-kernel-driver", Setting::Choice("xe".into()), &["intel"])]
#[case("kernel driver:I915", "intel-kernel-driver", Setting::Choice("i915".into()), &["intel"])]
fn specs_name_a_registered_component(
    #[case] spec: &str,
    #[case] key: &str,
    #[case] setting: Setting,
    #[case] vendors: &[&str],
) {
    let s = parse_spec(spec, &[&AMD, &INTEL]).unwrap();
    assert_eq!(
        (s.settings[0].0.key, &s.settings[0].1, s.vendors.as_slice()),
        (key, &setting, vendors)
    );
}

#[rstest]
#[case("open:580")]
#[case("nvidia")]
#[case("")]
#[case("rocm")]
fn other_specs_are_unknown(#[case] spec: &str) {
    let e = parse_spec(spec, &[&AMD, &INTEL]).unwrap_err();
    assert!(matches!(e, SpecError::Unknown { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("rocm:VERSION, kernel:VERSION, i915, xe")
    );
}

const WITH_PARAMETERS: VendorComponents = VendorComponents {
    vendor: "intel",
    components: &[DRIVER, LINUX_KERNEL, KERNEL_PARAMETERS],
};

/// `MODULE.PARAMETER=VALUE` is a kernel parameter where a vendor registers them, the
/// parameter's `-` read as `_` as the kernel reads it; anything else of that shape is none.
#[rstest]
#[case("i915.force_probe=56c0", Some("i915.force_probe=56c0"))]
#[case("i915.force-probe=56c0", Some("i915.force_probe=56c0"))]
#[case("xe.force_probe=!56c0", Some("xe.force_probe=!56c0"))]
#[case("i915.alpha_support=1", Some("i915.alpha_support=1"))]
#[case("force_probe=56c0", None)]
#[case("i915.force_probe=", None)]
#[case(".force_probe=56c0", None)]
#[case("i915.force probe=56c0", None)]
#[case("kernel-parameters:6.8", None)]
fn kernel_parameters_where_a_vendor_registers_them(#[case] spec: &str, #[case] want: Option<&str>) {
    let got = parse_spec(spec, &[&WITH_PARAMETERS]).ok();
    let setting = got
        .as_ref()
        .map(|s| (s.settings[0].0.key, &s.settings[0].1));
    let want = want.map(|w| Setting::Parameter(w.to_string()));
    assert_eq!(setting, want.as_ref().map(|w| (KERNEL_PARAMETERS.key, w)));
    // Without the registration there is no such form.
    assert!(parse_spec(spec, &[&INTEL]).is_err());
}

/// What a value asks ([`Asks`]) is checked against the stack's settings, after every bound.
#[rstest]
#[case(None, &[], "7.2", Fit::No)]
#[case(None, &["i915.force_probe=56c0"], "7.2", Fit::Yes)]
#[case(None, &["i915.force_probe=56c1"], "7.2", Fit::No)]
#[case(Some("6.2"), &[], "6.1", Fit::No)]
#[case(Some("6.2"), &[], "6.2", Fit::Yes)]
#[case(Some("6.2"), &[], "6.1+", Fit::Unknown)]
#[case(Some("6.2"), &[], "", Fit::Unknown)]
// The floor is said before the setting: too old a kernel is a "no" for its own reason.
#[case(Some("6.2"), &[], "5.4", Fit::No)]
fn asks_are_checked_against_the_stack_s_settings(
    #[case] unasked_from: Option<&str>,
    #[case] settings: &[&str],
    #[case] kernel: &str,
    #[case] want: Fit,
) {
    let mut i915 = Alternative::plain("i915");
    i915.asks = Some(Asks {
        settings: vec!["i915.force_probe=56c0".to_string()],
        unasked_from: unasked_from.map(v),
        why: "i915 binds 56c0 only with i915.force_probe=56c0".to_string(),
    });
    let r = Requirement::new("Intel", 0x8086)
        .with_constraint(Constraint::choice(DRIVER, vec![i915]))
        .with_constraint(Constraint::range(LINUX_KERNEL, Some(v("6.0")), None).unwrap());
    let mut stack = Stack::new();
    stack = match kernel.strip_suffix('+') {
        Some(k) => stack.with_version(LINUX_KERNEL.key, Known::AtLeast(v(k))),
        None if kernel.is_empty() => stack,
        None => stack.with_version(LINUX_KERNEL.key, Known::Exact(v(kernel))),
    };
    for s in settings {
        stack = stack.with_setting(s);
    }
    let verdict = r.verdict(&stack);
    assert_eq!(verdict.fit, want, "{verdict:?}");
    if kernel == "5.4" {
        assert_eq!(verdict.why.as_deref(), Some("kernel 5.4 is older than 6.0"));
    } else if want == Fit::No {
        assert!(verdict.why.unwrap_or_default().contains("only with"));
    }
    // The describe is the note's, never the asks'.
    assert_eq!(
        r.describe(),
        "i915 kernel driver, Linux kernel 6.0 or newer"
    );
}

#[test]
fn a_bad_version_of_a_known_component_says_why() {
    let e = parse_spec("rocm:6.x", &[&AMD]).unwrap_err();
    assert!(matches!(e, SpecError::BadVersion { .. }));
}

fn gpu(vendor: &'static str, req: Requirement) -> GpuInput {
    GpuInput {
        vendor,
        pci_address: None,
        requirement: req,
        left_out: None,
        floors: Vec::new(),
    }
}

fn vendor(vendor: &'static str, gpus: Vec<GpuInput>) -> VendorInput<'static> {
    VendorInput {
        vendor,
        display: vendor.to_string(),
        gpus,
        model: None,
        source: None,
    }
}

#[test]
fn the_report_checks_each_vendor_against_its_own_specs() {
    let mi300 = Requirement::new("AMD", 0x1002)
        .with_device_id(0x74a1)
        .with_constraint(Constraint::range(ROCM, Some(v("6.0")), None).unwrap());
    let bmg = Requirement::new("Intel", 0x8086)
        .with_device_id(0xe20b)
        .with_constraint(Constraint::choice(DRIVER, vec![Alternative::plain("xe")]))
        .with_constraint(Constraint::range(LINUX_KERNEL, Some(v("6.11")), None).unwrap());
    let specs = [
        parse_spec("rocm:5.7", &[&AMD, &INTEL]).unwrap(),
        parse_spec("xe", &[&AMD, &INTEL]).unwrap(),
        parse_spec("kernel:6.12", &[&AMD, &INTEL]).unwrap(),
    ];
    let r = report(
        vec![
            vendor("amd", vec![gpu("amd", mi300)]),
            vendor("intel", vec![gpu("intel", bmg)]),
        ],
        &specs,
        Vec::new(),
    )
    .unwrap();
    assert_eq!(r.vendors.len(), 2);
    let driver = |i: usize| r.vendors[i].driver.as_ref().unwrap();
    assert_eq!(driver(0).specs, ["rocm:5.7", "kernel:6.12"]);
    assert_eq!(driver(0).spec, "rocm:5.7, kernel:6.12");
    assert!(!driver(0).satisfied);
    assert_eq!(driver(1).specs, ["xe", "kernel:6.12"]);
    assert!(driver(1).satisfied);
    // The Intel driver is the device's own; the combined line keeps only the kernel.
    let intel = r.vendors[1].combined.as_ref().unwrap();
    assert_eq!(intel.describe, "Linux kernel 6.11 or newer");
    assert!(r.host_conflicts.is_empty());
    assert!(r.unserved());
}
