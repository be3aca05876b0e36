//! The grammar on vectors from the toolkit's own tests, read against libnvidia-container's
//! `src/cli/dsl.c`: nvidia-container-toolkit's `internal/requirements/constraints/
//! factory_test.go` (`TestParse`, `TestNewConstraintFromRequirement`: the same requirement
//! strings, which the toolkit's CSV-mode parser reads; where `dsl.c` reads one differently the
//! case says so), then the cases of the issue that found gpuctl looser than the hook.

use super::*;
use rstest::rstest;

/// A driver that runs CUDA `cuda` (what NVML's major.minor says), release `driver`, on a GPU of
/// brand `brand`.
fn facts<'a>(cuda: &'a str, driver: &'a str, brand: &'a str) -> Facts<'a> {
    Facts {
        cuda: Some(cuda),
        cuda_open: false,
        driver,
        brand: Some(brand),
    }
}

/// `s`: satisfied, `u`: unsatisfied, `i`: invalid expression.
fn verdict(predicate: &str, f: &Facts<'_>) -> &'static str {
    match evaluate(predicate, f) {
        Verdicts {
            satisfied: true,
            unsatisfied: false,
            invalid: false,
        } => "s",
        Verdicts {
            satisfied: false,
            unsatisfied: true,
            invalid: false,
        } => "u",
        Verdicts {
            satisfied: false,
            unsatisfied: false,
            invalid: true,
        } => "i",
        _ => "several",
    }
}

// factory_test.go, TestParse: each condition on a driver that runs CUDA 11.6.
#[rstest]
#[case("", "s")] // "empty is nil": no constraint, so it holds
#[case("notvalid", "i")] // "missing operator is invalid"
#[case("foo=45", "i")] // "invalid property": the Go parser ignores it, dsl.c refuses it
#[case("cuda=foo", "i")] // "cuda must be semver"
#[case("cuda>=11.6", "s")]
#[case("cuda>11.6", "u")]
#[case("cuda<=11.6", "s")]
#[case("cuda<11.6", "u")]
#[case("cuda=11.6", "s")]
#[case("cuda!=11.6", "u")]
fn the_toolkit_s_conditions(#[case] cond: &str, #[case] want: &str) {
    assert_eq!(verdict(cond, &facts("11.6", "510.47.03", "Tesla")), want);
}

// factory_test.go, TestNewConstraintFromRequirement's requirement strings: space separates
// alternatives (or), comma conditions (and); on drivers that run CUDA 11.6 and 11.4. arch is
// not a fact gpuctl has: where it is read, the answer is "several".
#[rstest]
#[case("cuda>=11.6 foo=bar", "11.6", "s")] // the first alternative holds: foo is never read
#[case("cuda>=11.6 foo=bar", "11.4", "i")] // ... else dsl.c reads it and refuses it
#[case("cuda>=11.6 arch=5.3", "11.6", "s")]
#[case("cuda>=11.6 arch=5.3", "11.4", "several")]
#[case("cuda>=11.6,arch=5.3", "11.6", "several")]
#[case("cuda>=11.6,arch=5.3", "11.4", "u")]
#[case("cuda<13.6 cuda>=11.6,arch=5.3", "11.4", "s")]
#[case("notvalid", "11.6", "i")] // "malformed constraint is invalid"
fn the_toolkit_s_requirements(#[case] req: &str, #[case] cuda: &str, #[case] want: &str) {
    assert_eq!(verdict(req, &facts(cuda, "510.47.03", "Tesla")), want);
}

// The cases: what the hook refuses, and what it accepts, on a CUDA 12.8 driver.
#[rstest]
// the whole value is compared: 12.8 is less than 12.8.1, and not equal to it
#[case("cuda>=12.8.1", "u")]
#[case("cuda=12.8.1", "u")]
#[case("cuda>=12.8.0", "s")] // trailing zeros do not count
#[case("cuda=12.8.0.0", "s")]
#[case("cuda>=12.8", "s")]
#[case("cuda>12.7.99", "s")]
// only the ASCII space separates alternatives: a TAB or a no-break space is part of a value
#[case("cuda>=13.0\tcuda>=12.0", "i")]
#[case("cuda>=13.0\u{a0}cuda>=12.0", "i")]
#[case("cuda>=13.0 cuda>=12.0", "s")]
#[case("cuda>=12.0  ", "s")]
// empty pieces are skipped
// operators: `==` is none of dsl.c's; `!` alone is `!=`; `=>` and `=<` are none
#[case("cuda==12.8", "i")]
#[case("cuda!13.0", "s")]
#[case("cuda=>12.0", "i")]
#[case("cuda=<12.0", "i")]
#[case("cuda>=", "i")] // no value
#[case(">=12.0", "i")] // no name
#[case("CUDA>=12.0", "s")] // names are read without case
#[case("cuda>=12.0a", "i")]
#[case("cuda>=.12", "i")]
#[case("cuda>=99999999999999999999", "i")] // strtoumax overflows
// brands compare as text without case, with = and != only
#[case("brand=tesla", "s")]
#[case("brand!=TESLA", "u")]
#[case("brand>=tesla", "i")]
// an alternative of commas only ends the evaluation with what came before
#[case(",", "s")]
#[case("cuda>=13.0 ,", "u")]
// what follows a failed condition is never read; what follows a held alternative neither
#[case("cuda>=13.0,garbage", "u")]
#[case("cuda>=12.0 garbage", "s")]
#[case("cuda>=13.0 garbage", "i")]
fn what_the_hook_reads_on_cuda_12_8(#[case] req: &str, #[case] want: &str) {
    assert_eq!(verdict(req, &facts("12.8", "570.124.06", "Tesla")), want);
}

#[test]
fn a_false_condition_of_128_bytes_or_more_is_invalid() {
    // "driver >= VALUE": 6 + 1 + 2 + 1 + value bytes; 118 bytes of value reach 128.
    let f = facts("12.8", "570.124.06", "Tesla");
    // 999.0.0... (117 bytes) and 9999.0.0... (118 bytes), both newer than 570.124.06
    let v117 = format!("999{}", ".0".repeat(57));
    let v118 = format!("9999{}", ".0".repeat(57));
    assert_eq!((v117.len(), v118.len()), (117, 118));
    assert_eq!(verdict(&format!("driver>={v117}"), &f), "u");
    assert_eq!(verdict(&format!("driver>={v118}"), &f), "i");
    // a true one is not kept, so its length does not matter
    assert_eq!(verdict(&format!("driver<={v118}"), &f), "s");
}

#[rstest]
#[case("12.8", Op::Ge, "12.8.1", false)]
#[case("12.8", Op::Lt, "12.8.1", true)]
#[case("12.8", Op::Eq, "12.8.0", true)]
#[case("12.10", Op::Gt, "12.9", true)]
#[case("570.124.06", Op::Ge, "570.124.6", true)]
#[case("570.124.06", Op::Gt, "570.26", true)]
#[case("535.183.01", Op::Lt, "536", true)]
#[case("580.65.06", Op::Eq, "580", false)]
#[case("1.0.5", Op::Ne, "1", true)]
fn versions_compare_number_by_number(
    #[case] v1: &str,
    #[case] op: Op,
    #[case] v2: &str,
    #[case] want: bool,
) {
    assert_eq!(compare_version(v1, op, v2), Some(want));
}

#[test]
fn the_unknown_is_either_and_invalid_stays_invalid() {
    let unknown = Facts {
        cuda: None,
        cuda_open: false,
        driver: "340.108",
        brand: None,
    };
    assert_eq!(verdict("cuda>=12.0", &unknown), "several");
    assert_eq!(verdict("cuda>=12.x", &unknown), "i");
    // a brand libnvidia-container names is not a later release's brand
    assert_eq!(verdict("brand=tesla", &unknown), "u");
    assert_eq!(verdict("brand=nvidiartx", &unknown), "several");
    assert_eq!(
        verdict("arch>=8.0", &facts("12.8", "570.26", "Tesla")),
        "several"
    );
}

#[test]
fn the_message_is_the_first_alternative() {
    assert_eq!(
        unsatisfied_message("cuda>=13.0 brand=tesla,driver>=535,driver<536"),
        "unsatisfied condition: cuda>=13.0, please update your driver to a newer version, or use an earlier cuda container"
    );
    assert_eq!(
        unsatisfied_message("driver>=560"),
        "unsatisfied condition: driver>=560"
    );
}

#[test]
fn a_driver_newer_than_the_table_runs_at_least_its_newest_cuda() {
    let newer = Facts {
        cuda: Some("13.2"),
        cuda_open: true,
        driver: "600.10",
        brand: Some("Tesla"),
    };
    assert_eq!(verdict("cuda>=13.0", &newer), "s");
    assert_eq!(verdict("cuda>=13.3", &newer), "several");
    assert_eq!(verdict("cuda=13.2", &newer), "several");
    assert_eq!(verdict("cuda<13.0", &newer), "u");
    assert_eq!(verdict("cuda>=13.x", &newer), "i");
}
