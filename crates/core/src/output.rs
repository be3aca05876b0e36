//! How a command's typed report is printed. Each command builds one `Serialize` report in core
//! (detect's [`crate::detect::HostReport`], doctor's [`crate::doctor::DoctorReport`]) and renders
//! it in one place beside it, as text or as JSON; the CLI only picks the format.

/// The two forms every report prints in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// For people.
    Text,
    /// One JSON object, for scripts (its keys are in docs/commands.md).
    Json,
}
