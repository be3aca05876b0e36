//! The model's cases from Rex-GPU's t/98-requirement.t (docs/requirement.md#rex-gpus-test-cases),
//! on requirements built by hand with the shapes the NVIDIA table gives those GPUs (the table
//! itself is tested in its crate): construction, describe, who, satisfied_by and why_not. The
//! fixtures serve `combine_tests` too.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use rstest::rstest;

use super::*;

use KernelModule::{Either, Open, Proprietary};

pub(super) fn req(
    name: Option<&str>,
    generation: &str,
    id: &str,
    module: KernelModule,
    bounds: (Option<u32>, Option<u32>),
) -> Requirement {
    let mut b = Requirement::builder()
        .generation(generation)
        .device_id(id)
        .kernel_module(module);
    if let Some(n) = name {
        b = b.name(n);
    }
    if let Some(min) = bounds.0 {
        b = b.min_branch(min);
    }
    if let Some(max) = bounds.1 {
        b = b.max_branch(max);
    }
    b.build().expect("fixture is valid")
}

pub(super) fn b200() -> Requirement {
    req(Some("B200"), "Blackwell", "2901", Open, (Some(570), None))
}
pub(super) fn b300() -> Requirement {
    req(
        Some("B300"),
        "Blackwell Ultra",
        "3182",
        Open,
        (Some(580), None),
    )
}
pub(super) fn v100() -> Requirement {
    req(
        Some("Tesla V100"),
        "Maxwell/Pascal/Volta",
        "1db4",
        Proprietary,
        (None, Some(580)),
    )
}
pub(super) fn p100() -> Requirement {
    req(
        Some("Tesla P100"),
        "Maxwell/Pascal/Volta",
        "15f8",
        Proprietary,
        (None, Some(580)),
    )
}
pub(super) fn h100() -> Requirement {
    req(
        Some("H100"),
        "Turing/Ampere/Ada/Hopper",
        "2330",
        Either,
        (None, None),
    )
}
pub(super) fn k80() -> Requirement {
    req(
        Some("Tesla K80"),
        "Kepler or older",
        "102d",
        Proprietary,
        (None, Some(470)),
    )
}
pub(super) fn future() -> Requirement {
    Requirement::builder()
        .name("Future GPU")
        .min_branch(590)
        .build()
        .expect("valid")
}
/// The unnamed per-id shapes, as `for_device_id` gives them.
pub(super) fn by_id(id: &str) -> Requirement {
    match id {
        "2901" => req(None, "Blackwell", id, Open, (Some(570), None)),
        "3182" => req(None, "Blackwell Ultra", id, Open, (Some(580), None)),
        "1db4" => req(
            None,
            "Maxwell/Pascal/Volta",
            id,
            Proprietary,
            (None, Some(580)),
        ),
        "102d" => req(None, "Kepler or older", id, Proprietary, (None, Some(470))),
        "27b0" => req(None, "Turing/Ampere/Ada/Hopper", id, Either, (None, None)),
        _ => Requirement::default(),
    }
}
fn src(module: Option<KernelModule>, branch: BranchKnowledge) -> DriverSource {
    DriverSource::new(module, branch)
}
use BranchKnowledge::{AtLeast, Exact, Unknown};

#[rstest]
#[case(b200(), "open kernel module, driver branch 570 or newer")]
#[case(b300(), "open kernel module, driver branch 580 or newer")]
#[case(v100(), "proprietary kernel module, driver branch 580 or older")]
#[case(k80(), "proprietary kernel module, driver branch 470 or older")]
#[case(h100(), "any kernel module, any driver branch")]
#[case(Requirement::default(), "any kernel module, any driver branch")]
#[case(Requirement::builder().min_branch(580).max_branch(580).build().expect("valid"),
       "any kernel module, driver branch 580 to 580")]
fn describe_exact(#[case] r: Requirement, #[case] want: &str) {
    assert_eq!(r.describe(), want);
}

#[rstest]
#[case(v100(), "Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4)")]
#[case(Requirement::builder().device_id("3000").build().expect("valid"), "NVIDIA GPU (10de:3000)")]
#[case(Requirement::default(), "NVIDIA GPU")]
#[case(future(), "Future GPU")]
#[case(Requirement::builder().generation("X").build().expect("valid"), "NVIDIA GPU (X)")]
#[case(Requirement::builder().name("N").device_id("abcd").build().expect("valid"), "N (10de:abcd)")]
#[case(by_id("2901").named(""), " (Blackwell, 10de:2901)")]
#[case(b200().intersect_with(&h100()).expect("combines"),
       "B200 (Blackwell, 10de:2901), H100 (Turing/Ampere/Ada/Hopper, 10de:2330)")]
fn who_exact(#[case] r: Requirement, #[case] want: &str) {
    assert_eq!(r.who(), want);
}

#[rstest]
#[case(Requirement::builder().device_id("2E12"), "device_id must be four lowercase hex digits, not '2E12'")]
#[case(Requirement::builder().device_id("2e1"), "device_id must be four lowercase hex digits, not '2e1'")]
#[case(Requirement::builder().device_id("2e12\n"), "device_id must be four lowercase hex digits, not '2e12\\n'")]
#[case(Requirement::builder().min_branch(590).max_branch(580),
       "min_branch 590 is above max_branch 580: no driver branch can satisfy that")]
// device_id is checked before the bounds, as the reference's alphabetical order has it.
#[case(Requirement::builder().min_branch(590).max_branch(580).device_id("ZZZZ"),
       "device_id must be four lowercase hex digits, not 'ZZZZ'")]
fn invalid_construction(#[case] b: RequirementBuilder, #[case] want: &str) {
    assert_eq!(b.build().map_err(|e| e.to_string()), Err(want.to_string()));
}

#[test]
fn default_is_either_without_bounds() {
    let r = Requirement::default();
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
    #[case] branch: BranchKnowledge,
    #[case] want: bool,
) {
    let r = by_id(id);
    let s = src(module, branch);
    assert_eq!(r.satisfied_by(&s), want);
    assert_eq!(r.why_not(&s).is_none(), want);
}

fn min_only(min: u32) -> Requirement {
    Requirement::builder()
        .min_branch(min)
        .build()
        .expect("valid")
}

#[rstest]
#[case(Requirement::default(), src(Some(Proprietary), AtLeast(580)), None)]
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
#[case(Requirement::default(), src(Some(Proprietary), Unknown), None)]
#[case(
    by_id("1db4"),
    DriverSource::from_parts(Some(Proprietary), Some(580), Some(560)),
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
#[case(Requirement::builder().min_branch(535).max_branch(580).build().expect("valid"),
       src(Some(Open), Unknown), Some("driver branch not known, 535 or newer is needed"))]
#[case(Requirement::builder().kernel_module(Open).max_branch(580).build().expect("valid"),
       src(Some(Open), AtLeast(500)),
       Some("installs the newest branch it carries, which can be newer than 580"))]
fn why_not_matrix(#[case] r: Requirement, #[case] s: DriverSource, #[case] want: Option<&str>) {
    assert_eq!(r.why_not(&s).as_deref(), want);
    assert_eq!(r.satisfied_by(&s), want.is_none());
}
