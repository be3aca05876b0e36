//! Reading a failure by its structure (issue 31): for each line, who printed it (the
//! **emitter**, told by the line's own prefix and shape), what it was doing when it failed (the
//! **operation**) and on what (the **object**: a path, a library, a runtime or resource name).
//! The cause is what that emitter's failure of that operation on that object means, from the
//! emitter's own error strings (docs/explain.md#emitters, with their sources); a family with a
//! more specific remedy still wins where it applies.
//!
//! Core holds the vendor-neutral emitters (engines, OCI runtimes, Kubernetes, graphics
//! loaders); each vendor adds its own through [`crate::backend::Diagnostics::emitter_rules`]. It
//! imports no registry (the backend trait names its types), so the caller passes the rules.

mod matching;
pub(crate) mod rules;
mod rules_egl;
mod rules_engines;
mod rules_graphics;
// The structured fallback (issue 31): a GPU failure no rule claims, read by its structure.
pub(crate) mod fallback;
mod fallback_causes;
mod fallback_errno;
mod fallback_object;
pub(crate) mod fallback_scan;
pub(crate) mod listing;
pub(crate) mod listing_sycl;
mod wrapped;
pub(crate) use wrapped::WRAPPED_MAX;
mod rules_environment;
mod rules_install;
mod rules_opencl;
mod rules_round8;
mod rules_round9;
mod rules_vaapi;
mod rules_vulkan;
mod status;
pub mod vocabulary;

use matching::apply;
pub use status::{EmitterStatus, NumberAt, decimal_after, hex_after, status};

use std::collections::HashSet;

use serde::Serialize;

/// What the emitter was doing when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// Open a device node or a file.
    Open,
    /// Look a path up (`stat`).
    Stat,
    /// Load a shared library, an ICD or a driver module file.
    LoadLibrary,
    /// Find a runtime, a runtime handler or a device driver by name.
    FindRuntime,
    /// Find a device to use, and find none.
    FindDevice,
    /// Allocate a resource: a device for a pod, device memory, a node's extended resource.
    Allocate,
    /// Initialise a library or a driver.
    Initialise,
    /// Match a version, a requirement or a code object against what is there.
    MatchVersion,
    /// Mount or link a file into the container.
    Mount,
    /// Run a hook (the wrapper line: the reason is on the hook's own line).
    RunHook,
    /// Install a package of the stack (a driver, the toolkit, kernel headers for a driver build).
    Install,
}

impl Operation {
    /// The name in JSON and in corpus files (`load-library`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Operation::Open => "open",
            Operation::Stat => "stat",
            Operation::LoadLibrary => "load-library",
            Operation::FindRuntime => "find-runtime",
            Operation::FindDevice => "find-device",
            Operation::Allocate => "allocate",
            Operation::Initialise => "initialise",
            Operation::MatchVersion => "match-version",
            Operation::Mount => "mount",
            Operation::RunHook => "run-hook",
            Operation::Install => "install",
        }
    }

    /// The verb in a sentence: "NVML could not initialise".
    const fn verb(self) -> &'static str {
        match self {
            Operation::Open => "open",
            Operation::Stat => "find",
            Operation::LoadLibrary => "load",
            Operation::FindRuntime => "find the runtime",
            Operation::FindDevice => "find a usable device",
            Operation::Allocate => "allocate",
            Operation::Initialise => "initialise",
            Operation::MatchVersion => "match",
            Operation::Mount => "mount",
            Operation::RunHook => "run the hook",
            Operation::Install => "install",
        }
    }
}

/// Where a rule's object sits in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectAt {
    /// The rule has no object (NVML's initialisation).
    None,
    /// The token right after this marker (`unknown or invalid runtime name: ` then `nvidia`).
    After(&'static str),
    /// The token right before this marker (`libcudnn.so.8` then `: cannot open shared object`).
    Before(&'static str),
    /// Always this object: the library a wrapper names in its own words (`nvml error:` is NVML).
    Is(&'static str),
    /// The first token of the line whose file name (after any directory) starts with one of the
    /// rule's [`EmitterRule::objects`]: the object read by what it is, not by where one
    /// wording puts it, so every loader's sentence about `libcuda.so.1` (`Can't open shared
    /// object file libcuda.so.1`, `Couldn't open CUDA library libcuda.so.1`) reads the same.
    Named,
}

/// Whose failure it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    /// The host's GPU stack: driver, toolkit, engine, runtime or orchestrator configuration.
    Stack,
    /// The image: a library it must ship itself (cuDNN, cuBLAS, the ROCm libraries). gpuctl
    /// does not claim it, and says why.
    Image,
    /// The workload itself: its own out-of-memory, an invalid argument it passed (a status of
    /// the runtime's enum that no set-up causes). gpuctl does not claim it, and says why.
    Workload,
    /// No failure at all: a message the stack prints on a working host (an optional firmware
    /// file it does without). gpuctl does not claim it, and says why.
    Harmless,
}

/// One emitter's failure of one operation: the line's shape, where its object is, and what it
/// means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmitterRule {
    /// The emitter's stable name (`nvml`, `kubelet`), as JSON and corpus files give it.
    pub emitter: &'static str,
    /// The emitter in a sentence (`NVML`, `the kubelet`).
    pub who: &'static str,
    /// The line's shape: any one of these lists, every substring of it on one line.
    pub line: &'static [&'static [&'static str]],
    /// Words that make the line another emitter's (a hook exec'ed by runc is the hook's, not
    /// the engine's runtime): any one of them on the line and the rule does not read it.
    pub unless: &'static [&'static str],
    /// When not empty, the text must hold one of these somewhere (an informational line, such
    /// as the DRM driver ffmpeg opened, explains only beside the failure it belongs to).
    pub needs: &'static [&'static str],
    /// The text must hold none of these anywhere: an environment reading that holds only
    /// where the text names no GPU of another kind (a machine whose only GPU is Intel's).
    pub absent: &'static [&'static str],
    /// What it was doing.
    pub operation: Operation,
    /// Where the object is.
    pub object: ObjectAt,
    /// When not empty, the object must start with one of these (a library's family: the
    /// driver's `libcuda.so` versus the image's `libcudnn`).
    pub objects: &'static [&'static str],
    /// The object must name a GPU component (a token `nvidia`, `amd`, `intel`, `gpu`, or a
    /// registered vendor's word): a runtime `runsc` or a resource `example.com/foo` is no GPU's.
    pub gpu_object: bool,
    /// Whose failure it is.
    pub owner: Owner,
    /// What the failure means; `{object}` is replaced by the object.
    pub cause: &'static str,
    /// What to check, as a sentence with commands.
    pub check: &'static str,
    /// A host path whose presence bears on the cause (`/sys/module/nvidia` for "driver not
    /// loaded"): `explain` says whether this host has it.
    pub host_path: Option<&'static str>,
    /// A mount point whose options bear on the cause (`/dev` mounted `noexec` stops ROCm
    /// mapping /dev/kfd): `explain` says this host's options for it.
    pub host_mount: Option<&'static str>,
    /// Lower is more specific: [`RANK_REASON`] for a line that names the reason,
    /// [`RANK_WRAPPER`] for one that only says something underneath failed.
    pub rank: u8,
    /// When not empty, the rule reads these values of the emitter's own status enum (one
    /// class of it, whose failure means one cause): by name anywhere, and by message, bare
    /// name or number only on a line with one of [`EmitterRule::line`]'s shapes; `{status}`
    /// in the cause names the one found.
    pub statuses: &'static [EmitterStatus],
    /// Where callers print a status's number ([`NumberAt`]).
    pub numbers: &'static [NumberAt],
    /// A prefix callers drop from a status's name (vulkaninfo's `ERROR_INCOMPATIBLE_DRIVER`
    /// for `VK_ERROR_INCOMPATIBLE_DRIVER`): the name without it reads on a line of the shape.
    pub bare: &'static str,
    /// `{status}` gives the number in hex (`0x1008`).
    pub hex: bool,
}

/// A reason that contradicts any other cause (the kernel driver is not loaded: no
/// permission or spec can be the cause then); it wins over a specific family too.
pub const RANK_DECISIVE: u8 = 5;
/// A line that names the reason (NVML's "driver not loaded").
pub const RANK_REASON: u8 = 10;
/// A line that names what failed but not why (NVML's "Unknown Error").
pub const RANK_VAGUE: u8 = 30;
/// A line that names no failure of its own (libdrm's missing marketing-name table): it is the
/// answer only when no line names a reason.
pub const RANK_NOTE: u8 = 40;
/// A wrapper line: a hook exited non-zero, the reason is elsewhere.
pub const RANK_WRAPPER: u8 = 50;

/// The fields every rule starts from: `EmitterRule { emitter: .., ..RULE }`.
pub const RULE: EmitterRule = EmitterRule {
    emitter: "",
    who: "",
    line: &[],
    unless: &[],
    needs: &[],
    absent: &[],
    operation: Operation::Initialise,
    object: ObjectAt::None,
    objects: &[],
    gpu_object: false,
    owner: Owner::Stack,
    cause: "",
    check: "",
    host_path: None,
    host_mount: None,
    rank: RANK_REASON,
    statuses: &[],
    numbers: &[],
    bare: "",
    hex: false,
};

/// What the dynamic loader (ld.so, dlopen, Python's ImportError) prints for a library it cannot
/// find: `<library>: cannot open shared object file`.
const NOT_FOUND: &str = ": cannot open shared object file";

/// The dynamic loader's rule, for a vendor to classify its libraries: `EmitterRule { objects:
/// IMAGE_LIBS, owner: Owner::Image, cause, check, ..LOADER }`.
pub const LOADER: EmitterRule = EmitterRule {
    emitter: "dynamic-loader",
    who: "the dynamic loader",
    line: &[&[NOT_FOUND]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Before(NOT_FOUND),
    ..RULE
};

/// What one line says, read by its emitter's rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reading {
    /// The line's number, from 1.
    pub line: usize,
    /// The emitter's stable name.
    pub emitter: &'static str,
    /// What it was doing.
    pub operation: Operation,
    /// On what, when the line names it.
    pub object: Option<String>,
    /// What the failure means.
    pub cause: String,
    /// What to check.
    pub check: String,
    /// Whose failure it is.
    pub owner: Owner,
    /// How specific the line is (lower: more).
    #[serde(skip)]
    pub rank: u8,
    /// The emitter in a sentence.
    #[serde(skip)]
    pub who: &'static str,
    /// The host path whose presence bears on the cause ([`EmitterRule::host_path`]).
    #[serde(skip)]
    pub host_path: Option<&'static str>,
    /// The mount point whose options bear on the cause ([`EmitterRule::host_mount`]).
    #[serde(skip)]
    pub host_mount: Option<&'static str>,
}

impl Reading {
    /// "NVML could not initialise: the driver is not loaded on this host."
    pub fn sentence(&self) -> String {
        let what = match (&self.object, self.operation) {
            // "could not find a WSL GPU adapter", not "find a usable device a WSL GPU adapter".
            (Some(o), Operation::FindDevice) => format!("find {o}"),
            (Some(o), op) => format!("{} {o}", op.verb()),
            (None, op) => op.verb().to_string(),
        };
        format!("{} could not {what}: {}", self.who, self.cause)
    }
}

/// Core's rules (engines and orchestrators in [`rules::CORE_RULES`] and rules_engines.rs, graphics and compute
/// loaders in rules_graphics.rs, their status enums in rules_vaapi.rs, rules_vulkan.rs,
/// rules_egl.rs and rules_opencl.rs; round 5's in rules_environment.rs); vendors' come through
/// [`crate::backend::Diagnostics::emitter_rules`].
pub fn core_rules() -> impl Iterator<Item = &'static EmitterRule> {
    rules::CORE_RULES
        .iter()
        .chain(rules_engines::RULES)
        .chain(rules_graphics::VAAPI_RULES)
        .chain(rules_graphics::LOADER_RULES)
        .chain(rules_vaapi::RULES)
        .chain(rules_egl::RULES)
        .chain(rules_opencl::RULES)
        .chain(rules_vulkan::RULES)
        .chain(rules_environment::RULES)
        .chain(rules_install::RULES)
        .chain(rules_round8::RULES)
        .chain(rules_round9::RULES)
}

/// Every word of `rules`' line shapes, for the one `text::present` pass that
/// [`read_found`] reads.
pub fn words(rules: &[&EmitterRule]) -> Vec<&'static str> {
    rules
        .iter()
        .flat_map(|r| {
            r.line
                .iter()
                .flat_map(|l| l.iter().copied())
                .chain(r.needs.iter().copied())
                .chain(r.absent.iter().copied())
        })
        .chain(status::stems(rules.iter().copied()))
        .collect()
}

/// Every line of `text` one of `rules` reads, in line order; `gpu` are the tokens that make an
/// object a GPU's (each registered vendor's name, and `gpu`). The words of every rule are
/// looked for in one pass first, so that a long log costs one scan plus the few rules whose
/// words it holds.
pub fn read(text: &str, rules: &[&EmitterRule], gpu: &[&str]) -> Vec<Reading> {
    let found = crate::text::present(text, &words(rules));
    read_found(text, &crate::text::Lines::of(text), rules, gpu, &found)
}

/// [`read`] on the words already found in the text (`found` holds at least those of
/// [`words`] that occur) and its line index (`lines`, which the caller also quotes from: one
/// index a text).
pub fn read_found(
    text: &str,
    lines: &crate::text::Lines,
    rules: &[&EmitterRule],
    gpu: &[&str],
    found: &HashSet<&str>,
) -> Vec<Reading> {
    let candidates = candidates_by(rules, &|w| found.contains(w));
    let mut out = Vec::new();
    let mut read = vec![false; candidates.len()];
    if !candidates.is_empty() {
        for (k, (r, present)) in candidates.iter().enumerate() {
            for i in lines.holding(text, &needles(r, present)) {
                if let Some(reading) = apply(r, lines.get(text, i), i + 1, gpu, present) {
                    out.push(reading);
                    read[k] = true;
                }
            }
        }
    }
    if text.len() <= WRAPPED_MAX {
        out.extend(wrapped::read(text, rules, gpu, found, &candidates, &read));
    }
    // In line order, and within a line in the rules' order (the order `primary` breaks ties by).
    out.sort_by_key(|r| r.line);
    out
}

/// What a line the rule can read must hold: the longest word of one of its shapes, or the
/// stem of one of its statuses found in the text (a status is read by its name anywhere, and
/// by its message or number only on a line of a shape).
fn needles<'r>(r: &'r EmitterRule, present: &[&'r EmitterStatus]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = r
        .line
        .iter()
        .filter_map(|l| l.iter().copied().max_by_key(|w| w.len()))
        .collect();
    out.extend(present.iter().map(|s| status::stem(s.name)));
    out.sort_unstable();
    out.dedup();
    out
}

/// A rule and the statuses of its enum found in the text.
pub(super) type Candidate<'r> = (&'r EmitterRule, Vec<&'r EmitterStatus>);

/// The rules whose words `has`: every word of one of its line shapes (or, for a status rule,
/// a status's stem), one of its `needs`, none of its `absent`.
pub(super) fn candidates_by<'r>(
    rules: &[&'r EmitterRule],
    has: &dyn Fn(&str) -> bool,
) -> Vec<Candidate<'r>> {
    // A status rule is a candidate when the stem of one of its statuses' names is in the
    // text, or its shape is (a message, bare name or number reads on a line of that shape).
    rules
        .iter()
        .copied()
        .filter(|r| r.needs.is_empty() || r.needs.iter().any(|w| has(w)))
        .filter(|r| !r.absent.iter().any(|w| has(w)))
        .filter_map(|r| {
            let shape = r.line.iter().any(|l| l.iter().all(|w| has(w)));
            if r.statuses.is_empty() {
                return shape.then(Vec::new).map(|p| (r, p));
            }
            let present = status::present_by(r, has);
            (!present.is_empty() || shape).then_some((r, present))
        })
        .collect()
}

/// The reading that explains the text: the most specific; of two as specific, the host's
/// stack before the image or the workload (a missing driver library explains the image's missing ones), then
/// the later line (a later line names what an earlier one wrapped).
pub fn primary(readings: &[Reading]) -> Option<&Reading> {
    let key = |r: &Reading| (r.rank, r.owner != Owner::Stack);
    readings
        .iter()
        .reduce(|best, r| if key(r) <= key(best) { r } else { best })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_status;
