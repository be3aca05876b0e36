//! What podman's stderr can say about a GPU misconfiguration: the vocabulary both `explain` and
//! the vendor backends (through [`crate::backend::GpuBackend::error_patterns`]) use.

/// One thing podman's stderr can say, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorPattern {
    /// Substrings that must all occur.
    pub all_of: &'static [&'static str],
    /// Lower wins; see the `PRIORITY_*` constants.
    pub priority: u8,
    /// What went wrong, in one sentence.
    pub diagnosis: &'static str,
    /// What to do, as the `Hint:` block.
    pub hint: &'static str,
}

/// `--group-add keep-groups` problems.
pub const PRIORITY_KEEP_GROUPS: u8 = 10;
/// Container-side group and permission problems.
pub const PRIORITY_GROUPS: u8 = 15;
/// Runtime hooks (NVIDIA's legacy hook).
pub const PRIORITY_HOOK: u8 = 20;
/// Precise CDI messages.
pub const PRIORITY_CDI_SPECIFIC: u8 = 25;
/// Anything mentioning CDI or a CDI kind.
pub const PRIORITY_CDI: u8 = 30;

/// The hint for CDI problems (the reference's text, with the generators named).
pub const CDI_HINT: &str = "Hint: GPU CDI configuration appears to be missing or broken.\nEnsure the vendor's container toolkit is installed and a CDI spec is\ngenerated (nvidia-ctk / amd-ctk / intel-cdi-specs-generator).\nSee: https://podman-desktop.io/docs/podman/gpu";

/// The hint for keep-groups problems.
pub const KEEP_GROUPS_HINT: &str = "Hint: '--group-add keep-groups' (needed for AMD/Intel GPU render nodes)\nis only supported by the crun OCI runtime.  Install crun and run podman\nwith '--runtime crun' (or make crun podman's default runtime).";
