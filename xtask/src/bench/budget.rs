//! The budgets of `cargo xtask bench --check`: the committed file (`xtask/budgets.tsv`) and the
//! comparison of measured figures with it. Kept apart from the measuring so the gate itself is
//! tested with figures fed to it (a regression must fail, a figure within the margin must not).

use std::collections::BTreeMap;
use std::fmt;

/// What a budget limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Metric {
    /// Instructions the whole process executes (callgrind's `Collected`), dynamic loader included.
    Instructions,
    /// The process's peak resident memory, KiB (`ru_maxrss` of the reaped child).
    PeakKib,
    /// One workload's instructions over another's (`A/B` in the workload column): growth.
    Ratio,
}

impl Metric {
    /// The name the budget file uses.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Instructions => "instructions",
            Metric::PeakKib => "peak-kib",
            Metric::Ratio => "ratio",
        }
    }

    fn parse(s: &str) -> Option<Metric> {
        [Metric::Instructions, Metric::PeakKib, Metric::Ratio]
            .into_iter()
            .find(|m| m.name() == s)
    }

    /// A figure of this metric, for people.
    pub fn show(self, v: f64) -> String {
        match self {
            Metric::Instructions => thousands(v.round() as u64),
            Metric::PeakKib => format!("{:.1} MiB", v / 1024.0),
            Metric::Ratio => format!("{v:.2}x"),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One budget line.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// The workload (or `A/B` for a ratio).
    pub workload: String,
    /// What is limited.
    pub metric: Metric,
    /// The budget; the limit is this plus the margin.
    pub value: f64,
}

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct Budgets {
    /// How far above its budget a figure may be before the check fails, in percent.
    pub margin_percent: f64,
    /// The budgets, in the file's order.
    pub rows: Vec<Budget>,
}

impl Budgets {
    /// Reads the file's text: `#` comments, one `margin N%` line, then `workload metric budget`
    /// lines (fields split by whitespace; `_` may group digits).
    pub fn parse(text: &str) -> Result<Budgets, String> {
        let mut margin = None;
        let mut rows = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let at = |why: &str| format!("budgets line {}: {why}: {line:?}", n + 1);
            match fields[..] {
                ["margin", m] => {
                    let v = m
                        .strip_suffix('%')
                        .and_then(|v| v.parse::<f64>().ok())
                        .filter(|v| (0.0..=100.0).contains(v))
                        .ok_or_else(|| at("the margin is a percentage such as 10%"))?;
                    margin = Some(v);
                }
                [workload, metric, value] => {
                    let metric = Metric::parse(metric)
                        .ok_or_else(|| at("the metric is one of instructions, peak-kib, ratio"))?;
                    let value = value
                        .replace('_', "")
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite() && *v > 0.0)
                        .ok_or_else(|| at("the budget is a positive number"))?;
                    if metric == Metric::Ratio && !workload.contains('/') {
                        return Err(at("a ratio's workload is written A/B"));
                    }
                    if rows
                        .iter()
                        .any(|r: &Budget| r.workload == workload && r.metric == metric)
                    {
                        return Err(at("a second budget for the same workload and metric"));
                    }
                    rows.push(Budget {
                        workload: workload.to_string(),
                        metric,
                        value,
                    });
                }
                _ => return Err(at("expected `margin N%` or `workload metric budget`")),
            }
        }
        let margin_percent = margin.ok_or("the budgets file has no `margin N%` line")?;
        Ok(Budgets {
            margin_percent,
            rows,
        })
    }

    /// The figure above which `b` fails.
    pub fn limit(&self, b: &Budget) -> f64 {
        b.value * (1.0 + self.margin_percent / 100.0)
    }
}

/// Measured figures, by workload and metric.
pub type Figures = BTreeMap<(String, Metric), f64>;

/// One budget compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The budget.
    pub budget: Budget,
    /// The figure measured (a ratio computed from two), if any.
    pub measured: Option<f64>,
    /// The budget plus the margin.
    pub limit: f64,
    /// The margin, in percent.
    pub margin_percent: f64,
}

impl Outcome {
    /// Within the limit.
    pub fn ok(&self) -> bool {
        self.measured.is_some_and(|m| m <= self.limit)
    }

    /// The sentence that says why it failed; `None` when it did not.
    pub fn failure(&self) -> Option<String> {
        let b = &self.budget;
        match self.measured {
            _ if self.ok() => None,
            None => Some(format!(
                "{} {}: nothing was measured for this budget (is the workload still run?)",
                b.workload, b.metric
            )),
            Some(m) => Some(format!(
                "{} {}: measured {}, over its budget of {} by {:.0}% (the margin allows {}%, up to {})",
                b.workload,
                b.metric,
                b.metric.show(m),
                b.metric.show(b.value),
                (m / b.value - 1.0) * 100.0,
                self.margin_percent,
                b.metric.show(self.limit)
            )),
        }
    }
}

/// Compares `figures` with the budgets of the workloads in `selected` (all when `None`). A
/// ratio `A/B` is computed from A's and B's instructions. Also returns the figures measured
/// with no budget, which fail too: every figure the check takes must be judged.
pub fn compare(
    budgets: &Budgets,
    figures: &Figures,
    selected: Option<&[String]>,
) -> (Vec<Outcome>, Vec<String>) {
    let wanted =
        |w: &str| selected.is_none_or(|s| w.split('/').all(|part| s.iter().any(|x| x == part)));
    let mut outcomes = Vec::new();
    for b in budgets.rows.iter().filter(|b| wanted(&b.workload)) {
        let measured = match b.metric {
            Metric::Ratio => b.workload.split_once('/').and_then(|(a, c)| {
                let get = |w: &str| figures.get(&(w.to_string(), Metric::Instructions));
                Some(get(a)? / get(c)?)
            }),
            m => figures.get(&(b.workload.clone(), m)).copied(),
        };
        outcomes.push(Outcome {
            budget: b.clone(),
            measured,
            limit: budgets.limit(b),
            margin_percent: budgets.margin_percent,
        });
    }
    let unbudgeted = figures
        .keys()
        .filter(|(w, m)| {
            !budgets
                .rows
                .iter()
                .any(|b| &b.workload == w && b.metric == *m)
        })
        .map(|(w, m)| format!("{w} {m}: measured, but xtask/budgets.tsv has no budget for it"))
        .collect();
    (outcomes, unbudgeted)
}

#[cfg(test)]
#[path = "budget_tests.rs"]
mod tests;
