//! The reference's `check_gpu_error` cases (docs/reference-tools.md#examples, 57-64) and
//! podman's real CDI messages (docs/explain.md#cdi).

use super::*;
use crate::backend::{CdiTooling, Diagnostics, MockCdiTooling, MockGpuBackend, NoCapability};
use crate::families::{CDI_HINT, KEEP_GROUPS_HINT};
use rstest::rstest;

/// The three vendors' kinds and CDI toolkits, as their crates declare them.
const BUILT_IN: [(&str, &str, Option<&str>); 3] = [
    ("nvidia", "nvidia.com/gpu", Some("nvidia-ctk")),
    ("amd", "amd.com/gpu", Some("amd-ctk")),
    ("intel", "intel.com/gpu", Some("intel-cdi-specs-generator")),
];

fn mock(i: usize, v: &'static str, k: &'static str, tool: Option<&'static str>) -> MockGpuBackend {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const(v);
    m.expect_display_name().return_const(v);
    m.expect_device_noun().return_const("GPU");
    m.expect_order().return_const(i as u32);
    m.expect_cdi_kind().return_const(k);
    m.expect_cdi_kinds().returning(move || vec![k]);
    let mut cdi = MockCdiTooling::new();
    cdi.expect_cdi_tool().return_const(tool);
    cdi.expect_cdi_generator().return_const(None);
    m.expect_cdi_tooling()
        .return_const(Box::new(cdi) as Box<dyn CdiTooling>);
    // No families, words, rules, details or checks of its own.
    m.expect_diagnostics()
        .return_const(Box::new(NoCapability) as Box<dyn Diagnostics>);
    m
}

fn registry_of(vendors: &[(&'static str, &'static str, Option<&'static str>)]) -> Registry {
    Registry::from_backends(vendors.iter().enumerate().map(|(i, (v, k, t))| {
        &*Box::leak(Box::new(mock(i, v, k, *t))) as &'static dyn crate::backend::GpuBackend
    }))
}

fn registry() -> Registry {
    registry_of(&BUILT_IN)
}

fn hint_of(stderr: &str) -> Option<String> {
    explain(stderr, &registry(), None).map(|e| e.hint)
}

#[rstest]
#[case("Error: CDI device nvidia.com/gpu=all not registered", CDI_HINT)]
#[case("Error: amd.com/gpu=all: unresolvable CDI device", CDI_HINT)]
#[case(
    "Error: option --group-add keep-groups is not supported by runc",
    KEEP_GROUPS_HINT
)]
#[case("Error: nvidia.com/gpu=all: device not found", CDI_HINT)]
#[case("Error: cdi.k8s.io: registry not configured", CDI_HINT)]
#[case("  keep-groups and CDI\n", KEEP_GROUPS_HINT)]
#[case("\u{fffd}\u{fffd}CDI", CDI_HINT)]
#[case(
    "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
    CDI_HINT
)]
#[case(
    "Error: error setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
    CDI_HINT
)]
#[case(
    "Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device \"/dev/dri/renderD129\": no such file or directory",
    crate::families::STALE_CDI_HINT
)]
#[case("Error: stat nvidia.com/gpu=0: no such file or directory", CDI_HINT)]
#[case(
    "Error: getting CDI device names: converting GPU identifiers to CDI devices: could not discover GPU vendor: no known GPU vendor found in CDI specs",
    CDI_HINT
)]
fn recognised(#[case] stderr: &str, #[case] hint: &str) {
    assert_eq!(hint_of(stderr).as_deref(), Some(hint));
}

#[rstest]
#[case("Error: image not found")]
#[case("")]
#[case("Error: encoding failed")]
#[case("Error: cdi device failed")]
#[case("Error: Cdi device failed")]
fn not_a_gpu_problem(#[case] stderr: &str) {
    assert_eq!(hint_of(stderr), None);
}

#[test]
fn the_message_quotes_the_stripped_line_and_ends_with_the_hint() {
    let e = explain("  keep-groups and CDI\n", &registry(), None).expect("explained");
    let text = e.render();
    assert!(
        text.starts_with(
            "GPU misconfiguration, in these lines (of 1):\n    1 | keep-groups and CDI\n\n"
        ),
        "{text}"
    );
    assert!(text.ends_with(&format!("{KEEP_GROUPS_HINT}\n")), "{text}");
}

#[test]
fn only_the_matching_lines_and_their_neighbours_are_quoted() {
    let mut log: Vec<String> = (1..=300)
        .map(|i| format!("step {i}: pulling layer"))
        .collect();
    log[149] = "Error: option --group-add keep-groups is not supported by runc".to_string();
    let e = explain(&log.join("\n"), &registry(), None).expect("explained");
    let numbers: Vec<usize> = e.quote.iter().map(|q| q.number).collect();
    assert_eq!(numbers, [149, 150, 151]);
    let text = e.render();
    assert!(text.contains("(of 300)"), "{text}");
    assert!(!text.contains("step 1: pulling"), "{text}");
}

#[test]
fn podman_treating_a_cdi_name_as_a_path_is_named() {
    let e = explain(
        "Error: stat nvidia.com/gpu=0: no such file or directory",
        &registry(),
        None,
    )
    .expect("explained");
    assert!(
        e.diagnosis
            .contains("podman treated 'nvidia.com/gpu=0' as a host path"),
        "{}",
        e.diagnosis
    );
}

#[test]
fn the_stale_spec_diagnosis_beats_the_bare_cdi_word() {
    let e = explain(
        "Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device \"/dev/nvidia3\": no such file or directory",
        &registry(),
        None,
    )
    .expect("explained");
    assert!(e.diagnosis.contains("stale"), "{}", e.diagnosis);
}

/// A plug-in's CDI failure is not sent to another vendor's toolkit: with no generator known,
/// the hint says so in the plug-in's words; with one, the list names it beside the others'.
#[test]
fn the_cdi_hint_takes_the_vendors_words() {
    let mut vendors = BUILT_IN.to_vec();
    vendors.push(("ascend", "huawei.com/Ascend910", None));
    let text = "Error: setting up CDI devices: unresolvable CDI devices huawei.com/Ascend910=3";
    let hint = explain(text, &registry_of(&vendors), None)
        .expect("explained")
        .hint;
    assert!(
        hint.contains("gpuctl knows no CDI generator for ascend GPUs: a spec declaring\nhuawei.com/Ascend910 comes from"),
        "{hint}"
    );
    assert!(
        hint.contains("'podman run $(gpuctl args ascend) ...'"),
        "{hint}"
    );
    assert!(!hint.contains("nvidia-ctk"), "{hint}");
    // A failure that names no kind of the plug-in's keeps the list of the others' toolkits.
    let other = "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all";
    let hint = explain(other, &registry_of(&vendors), None)
        .expect("explained")
        .hint;
    assert_eq!(hint, CDI_HINT);
    vendors[3].2 = Some("ascend-ctk");
    let hint = explain(text, &registry_of(&vendors), None)
        .expect("explained")
        .hint;
    assert!(
        hint.contains("(nvidia-ctk / amd-ctk / intel-cdi-specs-generator / ascend-ctk)"),
        "{hint}"
    );
}
