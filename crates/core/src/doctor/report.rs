//! `gpuctl doctor`'s typed report and its one printer: text for people, JSON for scripts.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::check::{Check, Status};
use crate::output::ReportFormat;

/// Everything doctor found. In JSON: `{"checks": [...], "problems": N}`, the checks with the
/// keys of [`Check`], `problems` the number of checks that found one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoctorReport {
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl Serialize for DoctorReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Counted as it is written, so that checks added after the run (the image's) count.
        let mut s = serializer.serialize_struct("DoctorReport", 2)?;
        s.serialize_field("checks", &self.checks)?;
        s.serialize_field("problems", &self.problems())?;
        s.end()
    }
}

impl DoctorReport {
    /// True when a check found a problem.
    pub fn has_problem(&self) -> bool {
        self.problems() > 0
    }

    /// How many checks found a problem.
    pub fn problems(&self) -> usize {
        self.count(Status::Problem)
    }

    fn count(&self, status: Status) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }

    /// The report as `gpuctl doctor --format <format>` prints it, ending in a newline; JSON
    /// is one line.
    pub fn render(&self, format: ReportFormat) -> Result<String, serde_json::Error> {
        Ok(match format {
            ReportFormat::Text => self.text(),
            ReportFormat::Json => {
                let mut s = serde_json::to_string(self)?;
                s.push('\n');
                s
            }
        })
    }

    /// The text `gpuctl doctor` prints: one block per check, then the counts.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            out.push_str(&format!(
                "{:<8} {:<18} {}\n",
                c.status.as_str(),
                c.code,
                c.subject
            ));
            for f in &c.facts {
                out.push_str(&format!("         - {f}\n"));
            }
            match c.remedy.as_deref() {
                // A remedy that carries its own `Hint: ` (a driver finding's, as a family's)
                // is printed as written, one indented line per line.
                Some(r) if r.starts_with("Hint: ") => {
                    for line in r.lines() {
                        out.push_str(&format!("         {line}\n"));
                    }
                }
                Some(r) => out.push_str(&format!("         fix: {r}\n")),
                None => {}
            }
        }
        out.push_str(&format!(
            "{} problem(s), {} warning(s), {} ok, {} skipped\n",
            self.count(Status::Problem),
            self.count(Status::Warning),
            self.count(Status::Ok),
            self.count(Status::Skipped)
        ));
        out
    }
}
