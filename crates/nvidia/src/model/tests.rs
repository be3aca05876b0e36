//! The model's cases from Rex-GPU's t/98-requirement.t (docs/requirement.md#rex-gpus-test-cases),
//! on core's requirements built by hand with the shapes the NVIDIA table gives those GPUs (the
//! table itself is tested in its crate): construction, describe, who, satisfied_by and why_not
//! against a driver source as core's stack. The fixtures serve `combine_tests` too.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use rstest::rstest;

use gpuctl_core::plugin::requirement::{Requirement, Stack};

use super::*;

use KernelModule::{Either, Open, Proprietary};

pub(super) fn req(
    name: Option<&str>,
    generation: &str,
    id: u16,
    module: KernelModule,
    bounds: (Option<u32>, Option<u32>),
) -> Requirement {
    let r = requirement(Some(generation), module, bounds, None)
        .expect("fixture is valid")
        .with_device_id(id);
    match name {
        Some(n) => r.with_name(n),
        None => r,
    }
}

/// A requirement with only `bounds`, named or not (the reference's `new(min_branch => ...)`).
pub(super) fn bounded(name: Option<&str>, bounds: (Option<u32>, Option<u32>)) -> Requirement {
    let r = requirement(None, Either, bounds, None).expect("valid");
    match name {
        Some(n) => r.with_name(n),
        None => r,
    }
}

pub(super) fn b200() -> Requirement {
    req(Some("B200"), "Blackwell", 0x2901, Open, (Some(570), None))
}
pub(super) fn b300() -> Requirement {
    req(
        Some("B300"),
        "Blackwell Ultra",
        0x3182,
        Open,
        (Some(580), None),
    )
}
pub(super) fn v100() -> Requirement {
    req(
        Some("Tesla V100"),
        "Maxwell/Pascal/Volta",
        0x1db4,
        Proprietary,
        (None, Some(580)),
    )
}
pub(super) fn p100() -> Requirement {
    req(
        Some("Tesla P100"),
        "Maxwell/Pascal/Volta",
        0x15f8,
        Proprietary,
        (None, Some(580)),
    )
}
pub(super) fn h100() -> Requirement {
    req(
        Some("H100"),
        "Turing/Ampere/Ada/Hopper",
        0x2330,
        Either,
        (None, None),
    )
}
pub(super) fn k80() -> Requirement {
    req(
        Some("Tesla K80"),
        "Kepler or older",
        0x102d,
        Proprietary,
        (None, Some(470)),
    )
}
pub(super) fn future() -> Requirement {
    bounded(Some("Future GPU"), (Some(590), None))
}
/// The unnamed per-id shapes, as `for_device_id` gives them.
pub(super) fn by_id(id: &str) -> Requirement {
    let hex = u16::from_str_radix(id, 16).unwrap_or_default();
    match id {
        "2901" => req(None, "Blackwell", hex, Open, (Some(570), None)),
        "3182" => req(None, "Blackwell Ultra", hex, Open, (Some(580), None)),
        "1db4" => req(
            None,
            "Maxwell/Pascal/Volta",
            hex,
            Proprietary,
            (None, Some(580)),
        ),
        "102d" => req(None, "Kepler or older", hex, Proprietary, (None, Some(470))),
        "27b0" => req(None, "Turing/Ampere/Ada/Hopper", hex, Either, (None, None)),
        _ => unconstrained(),
    }
}

/// What is known of a source's branch, as the reference's hash says it.
#[derive(Debug, Clone, Copy)]
enum Branch {
    Exact(u32),
    AtLeast(u32),
    Unknown,
}

/// A driver source as core's stack: a module word (any, as the reference echoes it) and a
/// branch.
fn src(module: Option<KernelModule>, branch: Branch) -> Stack {
    match branch {
        Exact(b) => source_stack(module, Some(b), None),
        AtLeast(f) => source_stack(module, None, Some(f)),
        Unknown => source_stack(module, None, None),
    }
}
use Branch::{AtLeast, Exact, Unknown};

#[rstest]
#[case(b200(), "open kernel module, driver branch 570 or newer")]
#[case(b300(), "open kernel module, driver branch 580 or newer")]
#[case(v100(), "proprietary kernel module, driver branch 580 or older")]
#[case(k80(), "proprietary kernel module, driver branch 470 or older")]
#[case(h100(), "any kernel module, any driver branch")]
#[case(unconstrained(), "any kernel module, any driver branch")]
#[case(bounded(None, (Some(580), Some(580))), "any kernel module, driver branch 580 to 580")]
fn describe_exact(#[case] r: Requirement, #[case] want: &str) {
    assert_eq!(r.describe(), want);
}

#[rstest]
#[case(v100(), "Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4)")]
#[case(unconstrained().with_device_id(0x3000), "NVIDIA GPU (10de:3000)")]
#[case(unconstrained(), "NVIDIA GPU")]
#[case(future(), "Future GPU")]
#[case(requirement(Some("X"), Either, (None, None), None).expect("valid"), "NVIDIA GPU (X)")]
#[case(unconstrained().with_name("N").with_device_id(0xabcd), "N (10de:abcd)")]
#[case(by_id("2901").with_name(""), " (Blackwell, 10de:2901)")]
#[case(intersect(&[&b200(), &h100()]).expect("combines"),
       "B200 (Blackwell, 10de:2901), H100 (Turing/Ampere/Ada/Hopper, 10de:2330)")]
fn who_exact(#[case] r: Requirement, #[case] want: &str) {
    assert_eq!(r.who(), want);
}

// The reference's device_id checks (four lowercase hex digits) are the type's here: a device id
// is a u16, and text reaches the table only through the lenient lookup (table tests).
#[rstest]
#[case((Some(590), Some(580)), "min_branch 590 is above max_branch 580: no driver branch can satisfy that")]
#[case((Some(1), Some(0)), "min_branch 1 is above max_branch 0: no driver branch can satisfy that")]
fn invalid_construction(#[case] bounds: (Option<u32>, Option<u32>), #[case] want: &str) {
    for module in [Open, Proprietary, Either] {
        assert_eq!(
            requirement(Some("X"), module, bounds, Some(true)).map_err(|e| e.to_string()),
            Err(want.to_string())
        );
    }
}

#[test]
fn default_is_either_without_bounds() {
    let r = unconstrained();
    assert_eq!(
        (
            r.generation(),
            r.kernel_module(),
            r.min_branch(),
            r.max_branch()
        ),
        (None, Either, None, None)
    );
    assert_eq!(
        (r.device_id(), r.name(), r.compute(), r.members().len()),
        (None, None, None, 0)
    );
}

#[rstest]
#[case("open", Ok(Open))]
#[case("proprietary", Ok(Proprietary))]
#[case("either", Ok(Either))]
#[case(
    "nouveau",
    Err("kernel_module must be open, proprietary or either, not 'nouveau'")
)]
#[case(
    "Open",
    Err("kernel_module must be open, proprietary or either, not 'Open'")
)]
#[case("", Err("kernel_module must be open, proprietary or either, not ''"))]
fn kernel_module_words(#[case] word: &str, #[case] want: Result<KernelModule, &str>) {
    assert_eq!(
        KernelModule::parse(word).map_err(|e| e.to_string()),
        want.map_err(str::to_string)
    );
}

#[rstest]
#[case("580", Ok(580))]
#[case("0580", Ok(580))]
#[case("0", Ok(0))]
#[case("580.95", Err("a driver branch is an integer like 580, not '580.95'"))]
#[case(" 580", Err("a driver branch is an integer like 580, not ' 580'"))]
#[case("580\n", Err("a driver branch is an integer like 580, not '580\\n'"))]
#[case("new", Err("a driver branch is an integer like 580, not 'new'"))]
#[case("", Err("a driver branch is an integer like 580, not ''"))]
#[case("-1", Err("a driver branch is an integer like 580, not '-1'"))]
#[case(
    "99999999999",
    Err("driver branch 99999999999 is out of range: a branch is at most 4294967295")
)]
fn branches(#[case] text: &str, #[case] want: Result<u32, &str>) {
    assert_eq!(
        parse_branch(text).map_err(|e| e.to_string()),
        want.map_err(str::to_string)
    );
}

#[rstest]
#[case("new", Some(Open), Exact(580), true)]
#[case("new", Some(Proprietary), Exact(580), true)]
#[case("new", Some(Open), Unknown, true)]
#[case("new", None, Exact(580), true)]
#[case("2901", Some(Open), Exact(580), true)]
#[case("2901", Some(Open), Exact(570), true)]
#[case("2901", Some(Open), Exact(565), false)]
#[case("2901", Some(Proprietary), Exact(580), false)]
#[case("2901", Some(Open), Unknown, false)]
#[case("2901", None, Exact(580), false)]
#[case("3182", Some(Open), Exact(570), false)]
#[case("3182", Some(Open), Exact(580), true)]
#[case("1db4", Some(Proprietary), Exact(580), true)]
#[case("1db4", Some(Proprietary), Exact(470), true)]
#[case("1db4", Some(Proprietary), Exact(595), false)]
#[case("1db4", Some(Open), Exact(580), false)]
#[case("102d", Some(Proprietary), Exact(470), true)]
#[case("102d", Some(Proprietary), Exact(580), false)]
#[case("27b0", Some(Proprietary), Exact(595), true)]
#[case("27b0", Some(Open), Exact(565), true)]
fn satisfied_by_matrix(
    #[case] id: &str,
    #[case] module: Option<KernelModule>,
    #[case] branch: Branch,
    #[case] want: bool,
) {
    let r = by_id(id);
    let s = src(module, branch);
    assert_eq!(r.satisfied_by(&s), want);
    assert_eq!(r.why_not(&s).is_none(), want);
}

fn min_only(min: u32) -> Requirement {
    bounded(None, (Some(min), None))
}

#[rstest]
#[case(unconstrained(), src(Some(Proprietary), AtLeast(580)), None)]
#[case(by_id("2901"), src(Some(Open), AtLeast(590)), None)]
#[case(by_id("3182"), src(Some(Open), AtLeast(590)), None)]
#[case(
    by_id("2901"),
    src(Some(Proprietary), AtLeast(580)),
    Some("proprietary kernel module, the open one is needed")
)]
#[case(
    min_only(600),
    src(Some(Proprietary), AtLeast(580)),
    Some("installs the newest branch it carries, known only to be 580 or newer; 600 is needed")
)]
#[case(
    min_only(580),
    src(Some(Proprietary), AtLeast(560)),
    Some("installs the newest branch it carries, known only to be 560 or newer; 580 is needed")
)]
#[case(
    by_id("1db4"),
    src(Some(Proprietary), AtLeast(580)),
    Some("installs the newest branch it carries, which can be newer than 580")
)]
#[case(
    by_id("1db4"),
    src(Some(Proprietary), AtLeast(560)),
    Some("installs the newest branch it carries, which can be newer than 580")
)]
#[case(
    by_id("1db4"),
    src(Some(Proprietary), Unknown),
    Some("driver branch not known, 580 or older is needed")
)]
#[case(unconstrained(), src(Some(Proprietary), Unknown), None)]
#[case(
    by_id("1db4"),
    source_stack(Some(Proprietary), Some(580), Some(560)),
    None
)]
#[case(
    by_id("1db4"),
    src(Some(Proprietary), Exact(590)),
    Some("branch 590 is newer than 580")
)]
#[case(
    by_id("2901"),
    src(Some(Open), Exact(565)),
    Some("branch 565 is older than 570")
)]
#[case(
    by_id("2901"),
    src(Some(Open), Unknown),
    Some("driver branch not known, 570 or newer is needed")
)]
#[case(
    by_id("2901"),
    src(None, Exact(580)),
    Some("unknown kernel module, the open one is needed")
)]
#[case(
    by_id("2901"),
    src(Some(Either), Exact(580)),
    Some("either kernel module, the open one is needed")
)]
// With both bounds and nothing known, the lower bound is named; the upper one always wins
// for an at-least source, even below the minimum.
#[case(bounded(None, (Some(535), Some(580))),
       src(Some(Open), Unknown), Some("driver branch not known, 535 or newer is needed"))]
#[case(requirement(None, Open, (None, Some(580)), None).expect("valid"),
       src(Some(Open), AtLeast(500)),
       Some("installs the newest branch it carries, which can be newer than 580"))]
fn why_not_matrix(#[case] r: Requirement, #[case] s: Stack, #[case] want: Option<&str>) {
    assert_eq!(r.why_not(&s).as_deref(), want);
    assert_eq!(r.satisfied_by(&s), want.is_none());
}
