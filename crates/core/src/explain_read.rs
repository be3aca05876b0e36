//! Families and emitter readings together (issue 31): a generic family (a hook failed, CDI
//! was mentioned, a GPU word with no family) gives way to a line whose emitter names the
//! reason; a specific family keeps the text but a reading on another line is said beside it; a
//! library the image lacks is the image's, not claimed.

use std::path::Path;

use crate::backend::Registry;
use crate::families::{Family, FamilyCode, PRIORITY_CDI, PRIORITY_HOOK};
use crate::probe::Probe;
use crate::reading::{self, EmitterRule, Owner, RANK_DECISIVE, RANK_REASON, RANK_WRAPPER, Reading};
use crate::text::py_strip;

/// The code of a diagnosis read from an emitter's rule rather than a family.
pub const STRUCTURED: FamilyCode = FamilyCode::new("gpu-structured");

/// The family of a structured diagnosis: no signs, no doctor check of its own (like an
/// unrecognised failure, every check that found something is shown).
pub(crate) const STRUCTURED_FAMILY: Family = Family {
    code: STRUCTURED,
    signs: &[],
    priority: u8::MAX - 1,
    diagnosis: "",
    remedy: "",
    checks: &[],
};

/// Every emitter rule, core's and each registered vendor's, with the tokens that make an
/// object a GPU's (the vendors' names, and `gpu`).
pub fn rules_of(registry: &Registry) -> (Vec<&'static EmitterRule>, Vec<&'static str>) {
    let mut rules: Vec<&'static EmitterRule> = reading::core_rules().collect();
    let mut gpu: Vec<&'static str> = vec!["gpu"];
    for b in registry.backends() {
        rules.extend(b.diagnostics().emitter_rules().iter());
        gpu.push(b.vendor());
    }
    (rules, gpu)
}

/// The families' and the emitter rules' words found in `text` in one pass (a stderr can be
/// 16 MiB: one scan, not one per catalogue), then the family and the readings.
pub(crate) fn classify_and_read(
    text: &str,
    lines: &crate::text::Lines,
    registry: &Registry,
) -> (Option<Family>, Vec<Reading>) {
    let (rules, gpu) = rules_of(registry);
    let mut words = crate::families::sign_words(registry);
    words.extend(reading::words(&rules));
    // A pasted message (a small text) may be wrapped: its words are looked for with its line
    // breaks as spaces, so a family's sign or a rule's words broken across lines are found
    // (the rules then read the lines joined: reading::read_found).
    // A terminal breaks a word that runs past its width where it stands, so the lines are
    // also looked at glued together (both copies in one pass, a line break between them).
    let found = if text.len() <= reading::WRAPPED_MAX && text.contains('\n') {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let haystack = format!("{}\n{}", lines.join(" "), lines.concat());
        let mut found = crate::text::present(&haystack, &words);
        found.extend(across_mixed_breaks(&lines, &words, &found));
        found
    } else {
        crate::text::present(text, &words)
    };
    let best = crate::families::classify_found(&found, registry);
    let mut readings = reading::read_found(text, lines, &rules, &gpu, &found);
    readings.extend(reading::listing::render_groups(text));
    readings.extend(reading::listing::no_drm_device(text));
    readings.extend(reading::listing::owner_only(text));
    readings.extend(reading::listing_sycl::no_gpu(text));
    (best, readings)
}

/// The words of several words that a paste holds only across line breaks of both kinds, one
/// where a space was and one inside a word (a terminal's wrap of a path, then a form's at a
/// space): looked for with every whitespace taken out of both, one search a word, and only
/// for the words the two plain joins did not find.
fn across_mixed_breaks<'w>(
    lines: &[&str],
    words: &[&'w str],
    found: &std::collections::HashSet<&'w str>,
) -> Vec<&'w str> {
    let bare = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    let haystack = bare(&lines.concat());
    words
        .iter()
        .filter(|w| w.contains(' ') && !found.contains(*w))
        .filter(|w| {
            let needle = bare(w);
            !needle.is_empty()
                && memchr::memmem::find(haystack.as_bytes(), needle.as_bytes()).is_some()
        })
        .copied()
        .collect()
}

/// What explains the text.
pub(crate) enum Answer<'r> {
    /// The family (or no family) as before; readings on other lines are said beside it.
    Family,
    /// The emitter's reading of this line.
    Structured(&'r Reading),
    /// A library the image must ship, or the workload's own failure (its out-of-memory): not a
    /// GPU misconfiguration.
    Image,
}

/// A family whose cause is "something underneath failed": a hook by name, a mention of CDI,
/// a CDI kind, or no family at all.
pub(crate) fn generic(family: Option<Family>) -> bool {
    family.is_none_or(|f| matches!(f.priority, PRIORITY_HOOK | PRIORITY_CDI | u8::MAX))
}

/// Decides between the family and the most specific reading.
pub(crate) fn decide<'r>(
    family: Option<Family>,
    pre_cdi: bool,
    primary: Option<&'r Reading>,
) -> Answer<'r> {
    let Some(r) = primary else {
        return Answer::Family;
    };
    if pre_cdi || !(generic(family) || r.rank <= RANK_DECISIVE) {
        return Answer::Family;
    }
    match r.owner {
        Owner::Image | Owner::Workload | Owner::Harmless if family.is_none() => Answer::Image,
        // The workload's own failure, or a harmless message, never stands in for a family's
        // cause.
        Owner::Workload | Owner::Harmless => Answer::Family,
        _ if r.rank < RANK_WRAPPER => Answer::Structured(r),
        _ => Answer::Family,
    }
}

/// The readings that name a reason on a line the chosen answer does not quote: said beside it,
/// so that two disagreeing readings are both given.
pub(crate) fn other_readings(readings: &[Reading], chosen: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in readings
        .iter()
        .filter(|r| r.rank <= RANK_REASON && r.owner == Owner::Stack && !chosen.contains(&r.line))
    {
        let s = format!("line {} also reads: {}", r.line, r.sentence());
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The hint of a structured diagnosis.
pub(crate) fn hint(r: &Reading) -> String {
    format!(
        "Hint: check this: {}.\nThen run 'gpuctl doctor' for every check of this host.",
        r.check.trim_end_matches('.')
    )
}

/// What this host says about the reading, where the host can show it: a device node or file
/// the line names, and the path the rule names (a driver's `/sys/module/<name>`), present or
/// not; the kernel driver that binds a render node the line names (VA-API fails on a node
/// nvidia-drm drives); the options of the mount point the rule names (`/dev` mounted noexec).
pub(crate) fn host_facts(r: &Reading, probe: &Probe) -> Vec<String> {
    let object = r.object.as_deref().filter(|o| o.starts_with('/'));
    let mut facts: Vec<String> = object
        .into_iter()
        .chain(r.host_path)
        .filter_map(|path| match probe.host().exists(Path::new(path)) {
            Ok(true) => Some(format!("this host has {path}")),
            Ok(false) => Some(format!("this host has no {path}")),
            Err(_) => None,
        })
        .collect();
    if let Some(node) = object.and_then(|o| o.strip_prefix("/dev/dri/")) {
        let link = format!("/sys/class/drm/{node}/device/driver");
        let driver = probe.host().read_link(Path::new(&link)).ok();
        if let Some(name) = driver.as_ref().and_then(|d| d.file_name()?.to_str()) {
            facts.push(format!(
                "on this host /dev/dri/{node} is driven by the kernel driver {name}"
            ));
        }
    }
    if let Some(point) = r.host_mount {
        facts.extend(mount_options(probe, point));
    }
    facts
}

/// This host's mount options for `point`, from /proc/mounts (the last entry for it is the one
/// in force), said as a fact: "this host mounts /dev with rw,nosuid,noexec".
fn mount_options(probe: &Probe, point: &str) -> Option<String> {
    let mounts = probe
        .host()
        .read_to_string(Path::new("/proc/mounts"), 1 << 20)
        .ok()?;
    let options = mounts.lines().rev().find_map(|l| {
        let mut f = l.split_whitespace();
        let (_, at, _, options) = (f.next()?, f.next()?, f.next()?, f.next()?);
        (at == point).then_some(options)
    })?;
    let noexec = options.split(',').any(|o| o == "noexec");
    Some(format!(
        "this host mounts {point} with {options}{}",
        if noexec {
            " (noexec: ROCm cannot map /dev/kfd's memory there)"
        } else {
            " (not noexec)"
        }
    ))
}

/// Why a text `explain` does not claim is still no GPU misconfiguration, when an emitter's
/// rule can say so (a library the image lacks, the workload's own out-of-memory): the line
/// `gpuctl explain` adds to its "none found".
pub fn not_claimed_because(stderr: &str, registry: &Registry) -> Option<String> {
    let pasted = crate::text::unquote_paste(stderr);
    let plain = crate::text::plain_quotes(py_strip(&pasted));
    let text: &str = &plain;
    if super::explain(text, registry, None).is_some() {
        return None;
    }
    let (rules, gpu) = rules_of(registry);
    let readings = reading::read(text, &rules, &gpu);
    let r = readings.iter().find(|r| r.owner != Owner::Stack)?;
    let whose = match r.owner {
        Owner::Workload => "the workload's own failure",
        Owner::Harmless => "a harmless message",
        _ => "the image's packaging",
    };
    Some(format!(
        "line {}: {} This is {whose}, not the GPU's setup: {}.",
        r.line,
        r.sentence(),
        r.check.trim_end_matches('.')
    ))
}
