//! From podman's stderr to a diagnosis and a remedy.
//!
//! The text is matched against the failure catalogue ([`crate::families`]): case-sensitive
//! substrings (case folding was tried by the Python tool and dropped for its false positives),
//! the lowest priority winning: keep-groups before the NVIDIA hook before CDI, as the reference
//! orders them; within CDI, podman's precise messages (unresolvable device, stale host node)
//! before the bare word `CDI`. A CDI name taken for a path is recognised by its shape.

use serde::Serialize;

use crate::backend::Registry;
use crate::check::{Check, CheckCode, Status, codes};
use crate::doctor::DoctorReport;
use crate::families;
use crate::families::catalogue::{KIND_MENTION, NAME_AS_PATH, UNRECOGNISED_FAMILY};
use crate::families::{Family, FamilyCode, PRIORITY_CDI_SPECIFIC};
use crate::probe::Probe;
use crate::reading::fallback::Fallback;
use crate::reading::{self, Operation, Reading};
use crate::text::py_strip;
use gpuctl_cdi::grammar::is_qualified_name;

/// What `explain` found: the typed report `gpuctl explain` and a failed `gpuctl run` print,
/// both through [`Explanation::render`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The failure family's code (`cdi-stale-spec`); [`families::UNRECOGNISED`] for a failure
    /// that names a GPU component but matches no family.
    pub family: FamilyCode,
    /// The `gpuctl doctor` checks that find the cause on the host.
    pub checks: &'static [CheckCode],
    /// The vendor whose family it is; `None` for core's.
    pub vendor: Option<&'static str>,
    /// podman's stderr, stripped.
    pub stderr: String,
    /// The lines that show the failure, each with a neighbour on either side.
    pub quote: Vec<Quoted>,
    /// How many lines the stripped stderr has.
    pub lines: usize,
    /// What went wrong.
    pub diagnosis: String,
    /// Facts from this host that bear on it (which spec declares what, which is skipped).
    pub details: Vec<String>,
    /// What doctor's file-only checks found on this host ([`Explanation::with_host`]); `None`
    /// when they were not run.
    pub host: Option<Vec<Check>>,
    /// The vendors' checks of this host against what the text itself says
    /// ([`crate::backend::Diagnostics::explain_checks`]); they join `host` in
    /// [`Explanation::with_host`].
    #[serde(skip)]
    pub text_checks: Vec<Check>,
    /// What to do.
    pub hint: String,
    /// Who printed the line the diagnosis rests on (`nvml`, `kubelet`), when an emitter's rule
    /// reads it (docs/explain.md#emitters).
    pub emitter: Option<&'static str>,
    /// What the devices are called in the headers: the family's vendor's noun, or every linked
    /// vendor's (`GPU`; `GPU or accelerator` with a plug-in's accelerators).
    #[serde(skip)]
    pub noun: String,
    /// What that emitter was doing when it failed.
    pub operation: Option<Operation>,
    /// On what (a path, a library, a runtime or resource name), when the line names it.
    pub object: Option<String>,
    /// What that failure means.
    pub cause: Option<String>,
    /// Every line an emitter's rule reads, in line order.
    pub readings: Vec<Reading>,
}

/// One quoted line of the failure text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quoted {
    /// Its number, from 1.
    pub number: usize,
    /// The line.
    pub text: String,
}

impl Explanation {
    /// Keeps, of doctor's `report`, the checks this family names (for a failure no family
    /// knows, every check that found something), so that the text says whether this host
    /// shows the cause.
    pub fn with_host(mut self, report: &DoctorReport) -> Self {
        let unrecognised = self.family == families::UNRECOGNISED || self.family == STRUCTURED;
        self.host = Some(
            report
                .checks
                .iter()
                .filter(|c| {
                    if unrecognised {
                        matches!(c.status, Status::Problem | Status::Warning)
                    } else {
                        // A vendor's family is about its own tier, not the others'.
                        self.checks.contains(&c.code)
                            && (c.code != codes::TIER || self.vendor.is_none_or(|v| c.subject == v))
                    }
                })
                .cloned()
                .chain(self.text_checks.iter().cloned())
                .collect(),
        );
        self
    }

    /// The text `gpuctl explain` prints: the lines that show the failure, the diagnosis with
    /// this host's facts and doctor's findings, and the hint.
    pub fn render(&self) -> String {
        // The quoted lines, and the objects a reading took from them, are the log's own bytes:
        // a control character in them (an escape sequence a container printed) is written as
        // `\u{1b}`, so that it cannot move the cursor, retitle the terminal or hide text
        // (docs/output-safety.md#text-output). The layout's own line breaks stay.
        let raw = self.render_raw();
        let mut out = String::with_capacity(raw.len());
        for line in raw.split_inclusive('\n') {
            let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
            out.push_str(&crate::text::escape_controls(body));
            out.push_str(end);
        }
        out
    }

    /// The text before its control characters are escaped.
    fn render_raw(&self) -> String {
        let unrecognised = self.family == families::UNRECOGNISED || self.family == STRUCTURED;
        let mut out = if self.family == STRUCTURED {
            format!(
                "{} failure, read from the line of the component that failed (of {}):\n",
                self.noun, self.lines
            )
        } else if unrecognised {
            format!(
                "Looks {n}-related, but gpuctl does not recognise it; the lines that name a {n} component (of {}):\n",
                self.lines,
                n = self.noun
            )
        } else {
            format!(
                "{} misconfiguration, in these lines (of {}):\n",
                self.noun, self.lines
            )
        };
        out.push_str(&quote::render(&self.quote));
        out.push('\n');
        out.push_str(&format!(
            "Diagnosis ({}): {}\n",
            self.family, self.diagnosis
        ));
        for d in &self.details {
            out.push_str(&format!("  - {d}\n"));
        }
        match &self.host {
            Some(checks) => out.push_str(&host_section(checks, self.checks, unrecognised)),
            None if !self.checks.is_empty() => out.push_str(&format!(
                "Checked before a start by 'gpuctl doctor': {}\n",
                names(self.checks)
            )),
            None => {}
        }
        out.push('\n');
        out.push_str(&self.hint);
        out.push('\n');
        out
    }
}

/// Check codes as a list in a sentence.
fn names(codes: &[CheckCode]) -> String {
    let names: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
    names.join(", ")
}

/// doctor's findings on this host, and whether they show the cause.
fn host_section(checks: &[Check], named: &[CheckCode], unrecognised: bool) -> String {
    if named.is_empty() && !unrecognised {
        return "On this host: no 'gpuctl doctor' check covers this cause.\n".to_string();
    }
    let mut out = if unrecognised {
        "On this host, what 'gpuctl doctor' checks without asking podman found:\n".to_string()
    } else {
        format!(
            "On this host ('gpuctl doctor' checks without asking podman: {}):\n",
            names(named)
        )
    };
    for c in checks {
        out.push_str(&format!(
            "  {:<8} {:<18} {}\n",
            c.status.as_str(),
            c.code,
            c.subject
        ));
        for f in &c.facts {
            out.push_str(&format!("           - {f}\n"));
        }
    }
    // A warning is a check that could not decide (an unknown user, evidence it could not
    // read): never "shows the cause", never an all-clear either.
    let shows = checks.iter().any(|c| c.status == Status::Problem);
    let undecided = checks.iter().any(|c| c.status == Status::Warning);
    let ran = checks.iter().any(|c| c.status != Status::Skipped);
    out.push_str(if unrecognised {
        if checks.is_empty() {
            "  No check found a problem on this host.\n"
        } else {
            ""
        }
    } else if shows {
        "  This host shows the cause (see the problem above).\n"
    } else if undecided {
        "  This host does not show the cause now, as far as the checks above could tell (a warning says what one could not).\n"
    } else if ran {
        "  This host does not show the cause now: the failure came from another host, or the state changed since.\n"
    } else {
        "  These checks could not be run here (see why above).\n"
    });
    out
}

/// Explains podman's stderr, or `None` when it shows no GPU failure. With a probe, the CDI
/// devices podman names are looked up in this host's specs, and each vendor adds what this
/// host says about its family. A failure that matches no family but names a GPU component is
/// answered as [`families::UNRECOGNISED`].
pub fn explain(stderr: &str, registry: &Registry, probe: Option<&Probe>) -> Option<Explanation> {
    // A message pasted from a forum or a blog carries its typography: the tools' wording is
    // ASCII (crate::text::plain_quotes).
    let pasted = crate::text::unquote_paste(stderr);
    let plain = crate::text::plain_quotes(py_strip(&pasted));
    let text: &str = &plain;
    // One line index for the rules, the quote and the pre-CDI check.
    let lines = crate::text::Lines::of(text);
    let (mut best, readings) = read::classify_and_read(text, &lines, registry);
    if best.is_some_and(|f| f.remedy == families::STALE_CDI_HINT)
        && foreign_node(text, registry, probe)
    {
        best = None;
    }
    // A kind counts as a CDI device name only with its `=`: `Insufficient amd.com/gpu` and a
    // pod's `nvidia.com/gpu: 1` are Kubernetes extended resources, not CDI (issue 31).
    let kinds: Vec<&str> = registry
        .backends()
        .iter()
        .flat_map(|b| b.cdi_kinds())
        .filter(|k| crate::text::holds(text, &format!("{k}=")))
        .collect();
    if best.is_none() && !kinds.is_empty() {
        best = Some(KIND_MENTION);
    }
    let pre_cdi = pre_cdi_podman(text, &lines);
    let primary = reading::primary(&readings);
    let structured = match read::decide(best, pre_cdi.is_some(), primary) {
        read::Answer::Image => return None,
        read::Answer::Structured(r) => Some(r),
        read::Answer::Family => None,
    };
    // Nothing but a generic family claimed the text: read it by its structure (issue 31),
    // below every rule and specific family (explain_fallback.rs). A generic family gives way
    // only to another line, where a component names its reason with a verb (the hook failed,
    // the next line says why); with no family, any reading answers.
    let fallback = (structured.is_none() && pre_cdi.is_none() && read::generic(best))
        .then(|| fallback::answer(text, registry))
        .filter(|f| match (best, f) {
            (None, _) => true,
            (Some(family), Fallback::Read(r)) => {
                let needles = quote::sign_needles(&family, text);
                let line = lines.get(text, r.line - 1);
                r.rank < reading::RANK_NOTE
                    && !needles.iter().chain(&kinds).any(|n| line.contains(n))
            }
            _ => false,
        });
    let structured = match &fallback {
        Some(Fallback::Read(r)) => Some(r),
        Some(Fallback::Unclaimed) => return None,
        _ => structured,
    };
    let (family, diagnosis, needles): (Family, String, Vec<&str>) = match (best, &pre_cdi) {
        _ if structured.is_some() => {
            let r = structured?;
            let line = lines.get(text, r.line - 1);
            (read::STRUCTURED_FAMILY, r.sentence(), vec![line])
        }
        (Some(f), Some(name)) if f.priority >= PRIORITY_CDI_SPECIFIC => {
            (NAME_AS_PATH, pre_cdi_diagnosis(name), vec![name.as_str()])
        }
        (Some(f), _) if f.signs.is_empty() => (f, f.diagnosis.to_string(), kinds),
        (Some(f), _) => (f, f.diagnosis.to_string(), quote::sign_needles(&f, text)),
        (None, Some(name)) => (NAME_AS_PATH, pre_cdi_diagnosis(name), vec![name.as_str()]),
        (None, None) => {
            let Some(Fallback::Unrecognised(words)) = &fallback else {
                return None;
            };
            let words = words.clone();
            let diagnosis = format!(
                "not recognised: these lines name a {} component ({}), but no failure family gpuctl knows matches them.",
                crate::backend::devices_noun(registry.backends().iter().copied()),
                words.join(", ")
            );
            (UNRECOGNISED_FAMILY, diagnosis, words)
        }
    };
    let (family, diagnosis) = match probe.and_then(|p| stale_instead(family, text, p)) {
        Some((stale, detail)) => {
            let diagnosis = stale.diagnosis.to_string();
            (stale, format!("{diagnosis} {detail}"))
        }
        None => (family, diagnosis),
    };
    let mut details = probe.map(|p| cdi::cdi_details(text, p)).unwrap_or_default();
    // Only readings need the quoted lines' numbers: a long log without one is not read again.
    let quoted: Vec<usize> = if readings.is_empty() {
        Vec::new()
    } else {
        lines
            .holding(text, &needles)
            .into_iter()
            .map(|i| i + 1)
            .collect()
    };
    details.extend(read::other_readings(&readings, &quoted));
    if let Some(Fallback::Read(_)) = &fallback {
        details.push(fallback::DETAIL.to_string());
    }
    if let (Some(r), Some(p)) = (structured, probe) {
        details.extend(read::host_facts(r, p));
    }
    let mut text_checks = Vec::new();
    if let Some(p) = probe {
        for b in registry.backends() {
            details.extend(b.diagnostics().explain_details(family.code, text, p));
            text_checks.extend(b.diagnostics().explain_checks(family.code, text, p));
        }
    }
    let owner = registry.backends().iter().find(|b| {
        b.diagnostics()
            .families()
            .iter()
            .any(|f| f.code == family.code)
    });
    let noun = match owner {
        Some(b) => b.device_noun().to_string(),
        None => crate::backend::devices_noun(registry.backends().iter().copied()),
    };
    let hint = match structured {
        Some(r) => read::hint(r),
        None => hint::remedy(&family, text, registry, probe),
    };
    // The typed fields name the reading the diagnosis rests on: the structured one, or the
    // most specific on a line the family quotes.
    let basis = structured.or_else(|| {
        readings
            .iter()
            .filter(|r| quoted.contains(&r.line) && r.rank < reading::RANK_WRAPPER)
            .min_by_key(|r| r.rank)
    });
    Some(Explanation {
        family: family.code,
        checks: family.checks,
        vendor: owner.map(|b| b.vendor()),
        noun,
        stderr: text.to_string(),
        quote: quote::lines(text, &lines, &needles),
        lines: lines.count(),
        diagnosis,
        details,
        host: None,
        text_checks,
        hint,
        emitter: basis.map(|r| r.emitter),
        operation: basis.map(|r| r.operation),
        object: basis.and_then(|r| r.object.clone()),
        cause: basis.map(|r| r.cause.clone()),
        readings,
    })
}

/// A runtime's stat of a `/dev` path that no vendor's words claim and no valid spec on this host
/// names (a USB device given with `--device` or a compose `devices:` entry, winboat-org/winboat#533)
/// is not a stale GPU spec: gpuctl does not claim it. podman's own CDI injection
/// (`failed to stat CDI host device`) and a text naming a CDI kind stay claimed.
fn foreign_node(text: &str, registry: &Registry, probe: Option<&Probe>) -> bool {
    if crate::text::holds(text, "failed to stat CDI host device") {
        return false;
    }
    let Some(path) = hint::missing_path(text).filter(|p| p.starts_with("/dev/")) else {
        return false;
    };
    let owned = families::gpu_words(registry)
        .iter()
        .filter(|w| w.starts_with("/dev/"))
        .any(|w| path.starts_with(w) || path == w.trim_end_matches('/'));
    let kind = registry
        .backends()
        .iter()
        .flat_map(|b| b.cdi_kinds())
        .any(|k| crate::text::holds(text, k));
    !owned && !kind && probe.is_none_or(|p| hint::spec_naming(p, path).is_none())
}

/// A node vendor's node that a runtime could not stat, when a valid spec on this host names it:
/// the node came from that spec, so the failure is core's stale spec, not a `--device` path
/// (podman's own stat of a `--device` path is told by its wording and never switched).
fn stale_instead(family: Family, text: &str, probe: &Probe) -> Option<(Family, String)> {
    if !crate::node_vendor::families::is_node_missing(family.code) {
        return None;
    }
    let path = hint::missing_path(text)?;
    let spec = hint::spec_naming(probe, path)?;
    let stale = families::CORE_FAMILIES
        .iter()
        .find(|f| f.remedy == families::STALE_CDI_HINT)?;
    Some((
        *stale,
        format!("Here {} names {path}, which this host lacks.", spec.path),
    ))
}

/// podman older than CDI support (or with a CDI library that rejects the name) treats a CDI
/// name as a host path: `Error: stat nvidia.com/gpu=0: no such file or directory`; an old
/// docker-compose passes it on the same way: `error gathering device information while adding
/// custom device "nvidia.com/gpu=all": no such file or directory`.
fn pre_cdi_podman(stderr: &str, lines: &crate::text::Lines) -> Option<String> {
    let holding = lines.holding(stderr, &["custom device \"", "stat "]);
    holding.into_iter().find_map(|i| {
        let line = lines.get(stderr, i);
        let name = if let Some(at) = line.find("custom device \"") {
            let rest = &line[at + 15..];
            &rest[..rest.find('"')?]
        } else {
            let rest = &line[line.find("stat ")? + 5..];
            &rest[..rest.find(": ")?]
        };
        name.contains('=').then(|| name.to_string())
    })
}

fn pre_cdi_diagnosis(name: &str) -> String {
    let why = if is_qualified_name(name) {
        "this podman's CDI library does not take it as a CDI device name (podman before 4.1 has no CDI, nor has docker unless CDI is enabled in its daemon.json; podman 4.1-4.2 needs names that start with a letter, e.g. nvidia-ctk's type-index names 'gpu0')"
    } else {
        "it is not a valid CDI device name"
    };
    format!("podman treated '{name}' as a host path: {why}.")
}

#[path = "explain_cdi.rs"]
mod cdi;
#[path = "explain_fallback.rs"]
mod fallback;
#[path = "explain_hint.rs"]
mod hint;
#[path = "explain_quote.rs"]
mod quote;
#[path = "explain_read.rs"]
mod read;

pub use read::{STRUCTURED, not_claimed_because, rules_of as emitter_rules};

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
