//! docs/requirement.md#intersect-and-conflicts and Rex-GPU's t/98: intersect and conflicts, and the
//! table's lookup rules.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use rstest::rstest;

use gpuctl_core::plugin::requirement::{CombineError, Requirement};

use super::table::{GenerationRow, GenerationTable};
use super::tests::{b200, b300, bounded, future, h100, k80, p100, v100};
use super::*;

use KernelModule::{Either, Open, Proprietary};

fn shape(r: &Requirement) -> (Option<&str>, KernelModule, Option<u32>, Option<u32>) {
    (
        r.generation(),
        r.kernel_module(),
        r.min_branch(),
        r.max_branch(),
    )
}

/// Rex's `intersect` of `reqs`, in order.
fn all(reqs: &[Requirement]) -> Result<Requirement, CombineError> {
    intersect(&reqs.iter().collect::<Vec<_>>())
}

#[test]
fn intersect_single_is_unchanged() {
    assert_eq!(intersect(&[&v100()]), Ok(v100()));
    let pair = intersect(&[&v100(), &p100()]).expect("combines");
    assert_eq!(intersect(&[&pair]), Ok(pair));
}

#[rstest]
#[case(vec![b200(), h100()], (None, Open, Some(570), None))]
#[case(vec![b200(), b300()], (None, Open, Some(580), None))]
#[case(vec![v100(), k80()], (None, Proprietary, None, Some(470)))]
#[case(vec![h100(), h100()], (None, Either, None, None))]
fn intersect_shapes(
    #[case] reqs: Vec<Requirement>,
    #[case] want: (Option<&str>, KernelModule, Option<u32>, Option<u32>),
) {
    let r = all(&reqs).expect("combines");
    assert_eq!(shape(&r), want);
    assert_eq!(r.members(), &reqs[..]);
    assert_eq!((r.device_id(), r.name(), r.compute()), (None, None, None));
}

#[test]
fn an_intersection_has_no_compute_opinion() {
    let b200 = requirement(Some("Blackwell"), Open, (Some(570), None), Some(true))
        .expect("valid")
        .with_device_id(0x2901);
    let both = intersect(&[&b200, &b200]).expect("combines");
    assert_eq!((b200.compute(), both.compute()), (Some(true), None));
}

#[test]
fn intersect_flattens_one_level() {
    let inner = intersect(&[&v100(), &p100()]).expect("combines");
    let r = intersect(&[&inner, &h100()]).expect("combines");
    assert_eq!(r.members(), &[v100(), p100(), h100()]);
    assert_eq!(r.max_branch(), Some(580));
    assert_eq!(
        intersect(&[&b200(), &b300()]).expect("combines").members(),
        &[b200(), b300()]
    );
}

const V100_B200: &str = "B200 (Blackwell, 10de:2901) needs the open kernel module, but Tesla V100 \
                         (Maxwell/Pascal/Volta, 10de:1db4) needs the proprietary one";

#[rstest]
#[case(vec![v100(), b200()], vec![V100_B200])]
#[case(vec![b200(), v100()], vec![V100_B200])]
#[case(vec![b200(), b300(), v100(), p100()], vec![
    "B200 (Blackwell, 10de:2901), B300 (Blackwell Ultra, 10de:3182) need the open kernel module, \
     but Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4), Tesla P100 (Maxwell/Pascal/Volta, \
     10de:15f8) need the proprietary one"])]
#[case(vec![k80(), b300()], vec![
    "B300 (Blackwell Ultra, 10de:3182) needs the open kernel module, but Tesla K80 (Kepler or \
     older, 10de:102d) needs the proprietary one",
    "B300 (Blackwell Ultra, 10de:3182) needs driver branch 580 or newer, but Tesla K80 (Kepler \
     or older, 10de:102d) is supported only up to branch 470"])]
#[case(vec![future(), h100(), v100()], vec![
    "Future GPU needs driver branch 590 or newer, but Tesla V100 (Maxwell/Pascal/Volta, \
     10de:1db4) is supported only up to branch 580"])]
#[case(vec![future(), b200(), v100()], vec![
    V100_B200,
    "Future GPU needs driver branch 590 or newer, but Tesla V100 (Maxwell/Pascal/Volta, \
     10de:1db4) is supported only up to branch 580"])]
#[case(vec![v100(), p100(), h100()], vec![])]
#[case(vec![], vec![])]
fn conflicts_exact(#[case] reqs: Vec<Requirement>, #[case] want: Vec<&str>) {
    assert_eq!(Requirement::conflicts(&reqs), want);
    if !want.is_empty() {
        let err = all(&reqs).expect_err("conflicts");
        assert_eq!(
            err.to_string(),
            format!(
                "no single NVIDIA driver supports all GPUs on this host: {}",
                want.join("; ")
            )
        );
    }
}

#[test]
fn conflict_ties_name_the_first_member() {
    let a = bounded(Some("A"), (Some(600), None));
    let b = bounded(Some("B"), (Some(600), None));
    let c = bounded(Some("C"), (None, Some(580)));
    let d = bounded(Some("D"), (None, Some(580)));
    assert_eq!(
        Requirement::conflicts([&a, &b, &c, &d]),
        ["A needs driver branch 600 or newer, but C is supported only up to branch 580"]
    );
}

#[test]
fn intersect_of_nothing_is_an_error() {
    let err = intersect(&[]).expect_err("empty");
    assert_eq!(err, CombineError::Empty);
    assert_eq!(err.to_string(), "intersect needs at least one requirement");
}

#[rstest]
#[case("1db4", Some(0x1db4))]
#[case("1DB4", Some(0x1db4))]
#[case("1db4\n", Some(0x1db4))]
#[case("0x1db4", None)]
#[case(" 1db4", None)]
#[case("1db", None)]
#[case("1db40", None)]
#[case("2b85x", None)]
#[case("zzzz", None)]
#[case("", None)]
#[case("1db4\n\n", None)]
fn lenient_ids(#[case] text: &str, #[case] want: Option<u16>) {
    assert_eq!(table::parse_lenient_device_id(text), want);
}

#[rstest]
#[case((0x2331, 0x2330), None, "first 2331 is above last 2330")]
#[case((0x2330, 0x2330), Some((590, 580)), "min_branch 590 is above max_branch 580: no driver branch can satisfy that")]
fn bad_rows(#[case] range: (u16, u16), #[case] bounds: Option<(u32, u32)>, #[case] want: &str) {
    let bounds = bounds.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    let row = GenerationRow::new(range, None, Open, bounds, None);
    assert_eq!(row.map_err(|e| e.to_string()), Err(want.to_string()));
}

#[test]
fn table_lookup_first_match_wins() {
    let narrow = GenerationRow::new(
        (0x2330, 0x2330),
        Some("Hopper (site)".into()),
        Open,
        (Some(575), None),
        None,
    );
    let block = GenerationRow::new(
        (0x2000, 0x2fff),
        Some("Block".into()),
        Either,
        (None, None),
        Some(true),
    );
    let table = GenerationTable::new(vec![block.expect("valid")])
        .with_prepended(vec![narrow.expect("valid")]);
    assert_eq!(
        shape(&table.lookup(0x2330)),
        (Some("Hopper (site)"), Open, Some(575), None)
    );
    assert_eq!(table.lookup(0x2330).compute(), None);
    assert_eq!(table.lookup(0x2331).generation(), Some("Block"));
    assert_eq!(table.lookup(0x2331).compute(), Some(true));
    assert_eq!(table.lookup(0x3000), unconstrained().with_device_id(0x3000));
    assert_eq!(
        table.for_device_id(Some("2330\n")).device_id(),
        Some(0x2330)
    );
    assert_eq!(table.for_device_id(Some("0x2330")), unconstrained());
    assert_eq!(table.for_device_id(None), unconstrained());
    assert_eq!(table.row_for(0x2331).map(|(i, _)| i), Some(1));
}
