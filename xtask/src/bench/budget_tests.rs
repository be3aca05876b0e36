use rstest::rstest;

use super::{Budgets, Figures, Metric, compare, thousands};
use crate::bench::check::{BUDGETS, WORKLOADS};

fn committed() -> Budgets {
    match Budgets::parse(BUDGETS) {
        Ok(b) => b,
        Err(e) => panic!("xtask/budgets.tsv does not read: {e}"),
    }
}

/// Every budget the committed file holds, each measured at exactly its budget.
fn at_budget(b: &Budgets) -> Figures {
    b.rows
        .iter()
        .filter(|r| r.metric != Metric::Ratio)
        .map(|r| ((r.workload.clone(), r.metric), r.value))
        .collect()
}

#[test]
fn the_committed_budgets_cover_every_workload_and_name_only_workloads() {
    let b = committed();
    assert_eq!(b.margin_percent, 10.0);
    for w in WORKLOADS {
        let has = |m| b.rows.iter().any(|r| r.workload == w.name && r.metric == m);
        assert!(
            has(Metric::Instructions),
            "{}: no instructions budget",
            w.name
        );
        assert_eq!(has(Metric::PeakKib), w.peak, "{}: peak budget", w.name);
    }
    let known = |n: &str| WORKLOADS.iter().any(|w| w.name == n);
    for r in &b.rows {
        assert!(
            r.workload.split('/').all(known),
            "{} names no workload",
            r.workload
        );
    }
    assert!(
        b.rows
            .iter()
            .any(|r| r.metric == Metric::Ratio && r.workload == "args-all-4096/args-all-512")
    );
}

/// The ceilings issue 26 set: a budget above them must not be committed.
#[rstest]
#[case("args-all-8", Metric::Instructions, 1_300_000.0)]
#[case("args-all-4096", Metric::Instructions, 80_000_000.0)]
#[case("args-all-4096", Metric::PeakKib, 16.0 * 1024.0)]
#[case("args-all-4096/args-all-512", Metric::Ratio, 9.0)]
#[case("detect-json-4096/detect-json-512", Metric::Ratio, 9.0)]
fn the_committed_budgets_stay_under_the_issue_ceilings(
    #[case] workload: &str,
    #[case] metric: Metric,
    #[case] ceiling: f64,
) {
    let b = committed();
    let row = b
        .rows
        .iter()
        .find(|r| r.workload == workload && r.metric == metric);
    let Some(row) = row else {
        panic!("no {metric} budget for {workload}");
    };
    assert!(
        row.value <= ceiling,
        "{workload} {metric}: budget {} above {ceiling}",
        row.value
    );
}

#[test]
fn figures_at_their_budgets_pass() {
    let b = committed();
    let (outcomes, unbudgeted) = compare(&b, &at_budget(&b), None);
    assert!(unbudgeted.is_empty(), "{unbudgeted:?}");
    assert_eq!(outcomes.len(), b.rows.len());
    for o in &outcomes {
        assert!(o.ok(), "{:?}", o.failure());
    }
}

/// The gate's own proof: the 4096-GPU host made quadratic again (issue 26: 10x the 512-GPU
/// host's growth) fails its instruction budget and the growth ratio, each with a sentence that
/// names the workload, the figure and the budget; nothing else fails.
#[test]
fn a_quadratic_regression_fails_the_check() {
    let b = committed();
    let mut figures = at_budget(&b);
    let key = ("args-all-4096".to_string(), Metric::Instructions);
    let budget = figures[&key];
    figures.insert(key, budget * 10.0);
    let (outcomes, _) = compare(&b, &figures, None);
    let failed: Vec<String> = outcomes.iter().filter_map(|o| o.failure()).collect();
    assert_eq!(failed.len(), 2, "{failed:#?}");
    assert!(
        failed
            .iter()
            .any(|f| f.starts_with("args-all-4096 instructions: measured ")
                && f.contains(&thousands((budget * 10.0) as u64))
                && f.contains(&format!("over its budget of {}", thousands(budget as u64)))),
        "{failed:#?}"
    );
    assert!(
        failed
            .iter()
            .any(|f| f.starts_with("args-all-4096/args-all-512 ratio: measured ")),
        "{failed:#?}"
    );
}

#[rstest]
#[case(1.099, true)]
#[case(1.10, true)]
#[case(1.101, false)]
fn the_margin_is_ten_percent_above_the_budget(#[case] factor: f64, #[case] ok: bool) {
    let b =
        Budgets::parse("margin 10%\nw instructions 1_000_000\n").unwrap_or_else(|e| panic!("{e}"));
    let figures: Figures = [(("w".to_string(), Metric::Instructions), 1e6 * factor)].into();
    let (outcomes, _) = compare(&b, &figures, None);
    assert_eq!(outcomes[0].ok(), ok, "{:?}", outcomes[0].failure());
    assert_eq!(outcomes[0].failure().is_none(), ok);
}

#[test]
fn a_budget_with_nothing_measured_fails_and_a_figure_without_a_budget_is_named() {
    let b = Budgets::parse("margin 10%\nw instructions 100\n").unwrap_or_else(|e| panic!("{e}"));
    let figures: Figures = [(("v".to_string(), Metric::Instructions), 1.0)].into();
    let (outcomes, unbudgeted) = compare(&b, &figures, None);
    assert!(!outcomes[0].ok());
    assert!(
        outcomes[0]
            .failure()
            .is_some_and(|f| f.contains("nothing was measured"))
    );
    assert_eq!(
        unbudgeted,
        ["v instructions: measured, but xtask/budgets.tsv has no budget for it"]
    );
    // With a selection, the budgets of workloads not run are not judged.
    let (outcomes, _) = compare(&b, &figures, Some(&["v".to_string()]));
    assert!(outcomes.is_empty());
}

#[rstest]
#[case("w instructions 5\n", "no `margin N%` line")]
#[case("margin ten\n", "a percentage")]
#[case("margin 10%\nw cycles 5\n", "the metric is one of")]
#[case("margin 10%\nw instructions -5\n", "a positive number")]
#[case("margin 10%\nw ratio 5\n", "written A/B")]
#[case("margin 10%\nw instructions 5\nw instructions 6\n", "a second budget")]
#[case("margin 10%\nw instructions\n", "expected `margin N%`")]
fn a_wrong_budget_line_is_named(#[case] text: &str, #[case] says: &str) {
    match Budgets::parse(text) {
        Ok(b) => panic!("read {b:?}"),
        Err(e) => assert!(e.contains(says), "{e}"),
    }
}

#[rstest]
#[case(0, "0")]
#[case(999, "999")]
#[case(1000, "1,000")]
#[case(1_234_567, "1,234,567")]
fn thousands_groups_digits(#[case] n: u64, #[case] s: &str) {
    assert_eq!(thousands(n), s);
}
