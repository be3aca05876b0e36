//! Failure families: one catalogue of what goes wrong when a GPU container starts, used three
//! ways — `gpuctl explain` matches a family's signs in an engine's stderr, `gpuctl doctor` runs
//! the host checks that find its cause before any container starts, and `gpuctl run` explains a
//! failed launch. The catalogue and its public sources are listed in docs/explain.md.
//!
//! Signs are case-sensitive substrings, as the tools print them (podman's "Unable to find
//! group", NVML's "Driver/library version mismatch" and nvidia-container-cli's lower-case
//! "driver/library version mismatch" are different texts). Core holds the vendor-neutral
//! families; vendors add theirs through [`crate::backend::Diagnostics::families`].

pub(crate) mod catalogue;

pub use catalogue::{CDI_HINT, CORE_FAMILIES, KEEP_GROUPS_HINT, STALE_CDI_HINT};

use std::collections::HashSet;

use crate::backend::Registry;

/// The code of the answer for a failure that names a GPU component but matches no family.
pub const UNRECOGNISED: FamilyCode = FamilyCode::new("gpu-unrecognised");

/// Container-side group and permission problems of the engine's own making (keep-groups).
pub const PRIORITY_KEEP_GROUPS: u8 = 10;
/// Problems a precise text pins down (NVML's, nvidia-container-cli's, SELinux's, KFD's errno).
pub const PRIORITY_PRECISE: u8 = 12;
/// Group and node-permission problems.
pub const PRIORITY_GROUPS: u8 = 15;
/// Runtime hooks failing (NVIDIA's hooks by name).
pub const PRIORITY_HOOK: u8 = 20;
/// Precise CDI messages.
pub const PRIORITY_CDI_SPECIFIC: u8 = 25;
/// Anything mentioning CDI or a CDI kind.
pub const PRIORITY_CDI: u8 = 30;
/// The GPU simply is not there (a vendor tool missing in the container).
pub const PRIORITY_NOTHING_INJECTED: u8 = 40;

// The family type is part of the plug-in interface, so it lives in `pattern`, which imports
// nothing; this name stays here.
pub use crate::family::{Family, FamilyCode};

/// The words that name a GPU component: core's and every registered vendor's
/// ([`crate::backend::Diagnostics::gpu_words`]).
pub fn gpu_words(registry: &Registry) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = catalogue::CORE_WORDS.to_vec();
    for b in registry.backends() {
        out.extend(b.diagnostics().gpu_words().iter().copied());
    }
    out
}

/// Every family: core's, then each registered vendor's.
pub fn catalogue(registry: &Registry) -> Vec<Family> {
    let mut out: Vec<Family> = CORE_FAMILIES.to_vec();
    for b in registry.backends() {
        out.extend(b.diagnostics().families().iter().copied());
    }
    out
}

/// The family `text` shows, the lowest priority first; on a tie the earlier in the catalogue.
pub fn classify(text: &str, registry: &Registry) -> Option<Family> {
    let words = sign_words(registry);
    classify_found(&crate::text::present(text, &words), registry)
}

/// Every word of every family's signs, for one `text::present` pass that
/// [`classify_found`] reads (explain adds the emitter rules' words to the same pass).
pub fn sign_words(registry: &Registry) -> Vec<&'static str> {
    catalogue(registry)
        .iter()
        .flat_map(|f| f.signs.iter().copied().flatten().copied())
        .collect()
}

/// [`classify`] on the words already found in the text.
pub fn classify_found(found: &HashSet<&str>, registry: &Registry) -> Option<Family> {
    let mut best: Option<Family> = None;
    for f in catalogue(registry) {
        let shows = f
            .signs
            .iter()
            .any(|sign| !sign.is_empty() && sign.iter().all(|s| found.contains(s)));
        if shows && best.is_none_or(|b| f.priority < b.priority) {
            best = Some(f);
        }
    }
    best
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
