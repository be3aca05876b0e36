//! The lines both modes print: one per scenario run, then `integration: N passed, M failed`.

use std::time::Duration;

/// How one scenario run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Everything matched.
    Pass,
    /// Something did not; the sentences say what.
    Fail(Vec<String>),
    /// Not run here, and why (never counted as a pass).
    Skip(String),
}

/// The running count and the notes for the summary line.
#[derive(Debug, Default)]
pub struct Tally {
    passed: usize,
    failed: usize,
    skipped: usize,
    notes: Vec<String>,
}

impl Tally {
    /// Prints one scenario's line (and, for a failure, its reasons and `details` indented).
    pub fn record(
        &mut self,
        name: &str,
        runtime: &str,
        verdict: &Verdict,
        summary: &str,
        took: Duration,
        details: &str,
    ) {
        let secs = format!("{:.1} s", took.as_secs_f64());
        match verdict {
            Verdict::Pass => {
                self.passed += 1;
                println!("ok    {name:<24} {runtime:<5} {summary} ({secs})");
            }
            Verdict::Skip(why) => {
                self.skipped += 1;
                println!("skip  {name:<24} {runtime:<5} {why}");
            }
            Verdict::Fail(problems) => {
                self.failed += 1;
                println!("FAIL  {name:<24} {runtime:<5} {summary} ({secs})");
                for p in problems {
                    println!("        - {p}");
                }
                for line in details.lines() {
                    println!("        | {line}");
                }
            }
        }
    }

    /// Adds a note to the summary line, once.
    pub fn note(&mut self, note: &str) {
        if !self.notes.iter().any(|n| n == note) {
            self.notes.push(note.to_string());
        }
    }

    /// True when nothing failed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0
    }

    /// `integration: N passed, M failed[, K skipped][; note; note]`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "integration: {} passed, {} failed",
            self.passed, self.failed
        );
        if self.skipped > 0 {
            s.push_str(&format!(", {} skipped", self.skipped));
        }
        for n in &self.notes {
            s.push_str("; ");
            s.push_str(n);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_and_notes() {
        let mut t = Tally::default();
        let d = Duration::from_millis(300);
        t.record("a", "crun", &Verdict::Pass, "", d, "");
        t.record("b", "runc", &Verdict::Fail(vec!["x".into()]), "", d, "");
        t.record("c", "runc", &Verdict::Skip("why".into()), "", d, "");
        t.note("runc drops supplementary groups silently");
        t.note("runc drops supplementary groups silently");
        assert_eq!(
            t.summary(),
            "integration: 1 passed, 1 failed, 1 skipped; runc drops supplementary groups silently"
        );
        assert!(!t.all_passed());
    }
}
