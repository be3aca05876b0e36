//! What this host and the AMD table say about an AMD failure: the LLVM target the failing
//! program asked for (from the text, `for GPU arch : gfx1201`) or this host's AMD GPUs' targets,
//! and the ROCm releases that list each (docs/requirement.md#amd-table).

use gpuctl_core::plugin::FamilyCode;
use gpuctl_core::plugin::Probe;

use crate::families;
use crate::requirement::{AMD_VENDOR_ID, lookup};
use crate::table::tables;

/// The families whose cause is the GPU's target.
const TARGET_FAMILIES: &[FamilyCode] = &[families::HIP_NO_CODE_OBJECT, families::HSA_MEMORY_FAULT];

/// Facts for `gpuctl explain` (see [`gpuctl_core::plugin::Diagnostics::explain_details`]).
pub fn details(code: FamilyCode, text: &str, probe: &Probe) -> Vec<String> {
    if !TARGET_FAMILIES.contains(&code) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(target) = target_in(text) {
        out.push(format!(
            "the failing program asked for {target}: {}",
            listing(&target)
        ));
    }
    let (gpus, _) = probe.pci().gpus_of_vendor(AMD_VENDOR_ID);
    // One line per model: an 8-GPU node says it once.
    let mut models: Vec<(u16, Option<u8>, usize)> = Vec::new();
    for gpu in &gpus {
        match models
            .iter_mut()
            .find(|(id, rev, _)| *id == gpu.device_id && *rev == gpu.revision)
        {
            Some(m) => m.2 += 1,
            None => models.push((gpu.device_id, gpu.revision, 1)),
        }
    }
    for (id, revision, count) in models {
        let found = lookup(id, revision);
        let name = found.name.unwrap_or("AMD GPU");
        let which = if count == 1 {
            format!("this host's {name} (1002:{id:04x}) is")
        } else {
            format!("this host's {count} {name} (1002:{id:04x}) are")
        };
        out.push(match &found.target {
            Some(t) => format!("{which} {t}: {}", listing(t)),
            None => format!("{which} of no LLVM target the AMD table knows"),
        });
    }
    if gpus.is_empty() {
        out.push("this host has no AMD GPU under /sys/bus/pci/devices".to_string());
    }
    out
}

/// The first LLVM target (`gfx` and hex digits, `gfx90a`) the text names.
fn target_in(text: &str) -> Option<String> {
    text.match_indices("gfx").find_map(|(at, _)| {
        let tail: String = text[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        (tail.len() >= 3 && tail.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .then(|| format!("gfx{tail}"))
    })
}

/// Which ROCm releases list `target`, in one clause.
fn listing(target: &str) -> String {
    let t = tables();
    let rows = t.releases_listing(target);
    match (rows.first(), rows.last()) {
        (Some(first), Some(last)) if first.release == last.release => {
            format!("ROCm {} lists it", first.release)
        }
        (Some(first), Some(last)) => {
            let to = if Some(last.release) == t.newest_release() {
                format!("{} (the newest release in gpuctl's table)", last.release)
            } else {
                last.release.to_string()
            };
            format!("ROCm {} to {to} list it", first.release)
        }
        _ => match t.unofficial.get(target) {
            Some((value, _)) => format!(
                "no ROCm release lists it; people run it with HSA_OVERRIDE_GFX_VERSION={value}, which AMD does not support"
            ),
            None => "no ROCm release in gpuctl's table lists it".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_read_from_rocblas_words() {
        assert_eq!(
            target_in("Illegal seek for GPU arch : gfx1201\n").as_deref(),
            Some("gfx1201")
        );
        assert_eq!(target_in("gfx90a:sramecc+").as_deref(), Some("gfx90a"));
        assert_eq!(target_in("no target here"), None);
    }

    #[test]
    fn a_listed_target_names_its_releases_and_an_unlisted_one_says_so() {
        assert!(
            listing("gfx942").starts_with("ROCm "),
            "{}",
            listing("gfx942")
        );
        assert!(
            listing("gfx1032").contains("no ROCm release"),
            "{}",
            listing("gfx1032")
        );
    }
}
