//! The structured fallback's one pass over the text: where the vocabulary's words occur as
//! tokens, grouped by line, and the shapes of a line (a failure, a wrapper, a command echo, a
//! traceback's frame) the reading needs.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::vocabulary::{Component, ComponentKind};

/// One vocabulary entry: a component and whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The component.
    pub component: Component,
    /// Its vendor's name in sentences (`NVIDIA`); `None` for core's.
    pub vendor: Option<&'static str>,
}

/// The vocabulary with its automaton, built once per registry.
#[derive(Debug)]
pub struct Vocabulary {
    pub(super) known: Vec<Known>,
    ac: Option<AhoCorasick>,
}

impl Vocabulary {
    /// The vocabulary of `known` (a word listed twice keeps its first entry).
    pub fn new(mut known: Vec<Known>) -> Self {
        let mut seen = std::collections::HashSet::new();
        known.retain(|k| !k.component.word.is_empty() && seen.insert(k.component.word));
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(known.iter().map(|k| k.component.word))
            .ok();
        Vocabulary { known, ac }
    }
}

/// One word found as a token: its place in its line and its entry.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mention {
    pub at: usize,
    pub end: usize,
    pub known: Known,
}

/// A line that holds at least one mention.
#[derive(Debug)]
pub(super) struct Found<'t> {
    /// Its number, from 1.
    pub number: usize,
    /// Where it starts in the text.
    pub start: usize,
    pub text: &'t str,
    pub mentions: Vec<Mention>,
}

/// Every line of `text` that names a component, in line order: one pass of the automaton, the
/// line numbers counted as it goes.
pub(super) fn scan<'t>(text: &'t str, v: &Vocabulary) -> Vec<Found<'t>> {
    let Some(ac) = &v.ac else {
        return Vec::new();
    };
    let bytes = text.as_bytes();
    let mut out: Vec<Found<'t>> = Vec::new();
    let (mut number, mut start, mut cursor) = (1, 0, 0);
    for m in ac.find_iter(text) {
        for (i, b) in bytes[cursor..m.start()].iter().enumerate() {
            if *b == b'\n' {
                number += 1;
                start = cursor + i + 1;
            }
        }
        cursor = m.start();
        let Some(known) = v.known.get(m.pattern().as_usize()).copied() else {
            continue;
        };
        if !bounded(bytes, m.start(), m.end(), known.component.prefix) {
            continue;
        }
        if out.last().is_none_or(|f| f.number != number) {
            let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
            out.push(Found {
                number,
                start,
                text: text[start..end].trim_end_matches('\r'),
                mentions: Vec::new(),
            });
        }
        if let Some(f) = out.last_mut() {
            f.mentions.push(Mention {
                at: m.start() - start,
                end: m.end() - start,
                known,
            });
        }
    }
    out
}

/// A word is a token: no letter or digit runs into its first letter, and none but an upper-case
/// letter runs on after its last (unless it is a prefix): `xe` is not in `exec`, `NVML` is in
/// `NVMLError`.
fn bounded(b: &[u8], start: usize, end: usize, prefix: bool) -> bool {
    let (first, last) = (b[start], b[end - 1]);
    if first.is_ascii_alphanumeric() && start > 0 && b[start - 1].is_ascii_alphanumeric() {
        return false;
    }
    let after = b.get(end).copied();
    prefix
        || !last.is_ascii_alphanumeric()
        || !after.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// What makes a line report a failure, lowered; errno texts are among them.
const FAILURE: &[&str] = &[
    "error",
    "fail",
    "cannot",
    "can't",
    "could not",
    "couldn't",
    "unable to",
    "not found",
    "no such",
    "denied",
    "invalid",
    "unsupported",
    "not supported",
    "timeout",
    "timed out",
    "exit status",
    "exit code",
    "not loaded",
    "mismatch",
    "insufficient",
    "not available",
    "unavailable",
    "no device",
    "no gpu",
    "no usable",
    "found no ",
    "devices were found",
    "not permitted",
    "fatal",
    "panic",
    "unknown flag",
    "unknown option",
    "unknown runtime",
    "not detected",
    "errno",
    // A crash or a run that ended in failure, as shells, runtimes and compose print it.
    "segmentation fault",
    "core dumped",
    "exited with",
    "check failed",
    "capable device",
    // PyTorch's and TensorFlow's own out-of-memory ("CUDA out of memory. Tried to allocate"):
    // a failure line, so that its reading is found and said to be the workload's
    // (`workload_or_image`) rather than the text left "not recognised" (set K).
    "out of memory",
];

/// Words that say there was no failure: removed before [`FAILURE`] is looked for.
const NO_FAILURE: &[&str] = &[
    "no error",
    "0 error",
    "without error",
    "errors: 0",
    "error_count",
    // nvidia-ctk's `cdi generate` logs these optional files on every host without the fabric
    // manager, MPS or the persistence daemon; the spec is still whole (NVIDIA/nvidia-container-toolkit#40).
    "could not locate /var/run/nvidia-fabricmanager/socket: pattern /var/run/nvidia-fabricmanager/socket not found",
    "could not locate /run/nvidia-fabricmanager/socket: pattern /run/nvidia-fabricmanager/socket not found",
    "could not locate /tmp/nvidia-mps: pattern /tmp/nvidia-mps not found",
    "could not locate /var/run/nvidia-persistenced/socket: pattern /var/run/nvidia-persistenced/socket not found",
];

/// A wrapper's words: a line that has only these says something underneath failed, not what.
const WRAPPERS: &[&str] = &[
    "error response from daemon",
    "failed to create task for container",
    "failed to create shim task",
    "failed to create shim",
    "oci runtime create failed",
    "oci runtime error",
    "runc create failed",
    "unable to start container process",
    "error during container init",
    "starting container process caused",
    "container init caused",
    "error running hook",
    "error executing hook",
    "running hook",
    "running prestart hook",
    "exit status",
    "exit code",
    "failed to create containerd task",
    "failed to start containerd task",
];

static FAILURE_AC: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(FAILURE)
        .ok()
});

/// Whether any line of `text` reports a failure (one pass).
pub(super) fn any_failure(text: &str) -> bool {
    match FAILURE_AC.as_ref() {
        Some(ac) => text.lines().any(|l| ac.is_match(l) && is_failure(l)),
        None => text.lines().any(is_failure),
    }
}

/// Whether `line` reports a failure: one of [`FAILURE`]'s words once [`NO_FAILURE`]'s are
/// gone, or klog's error shape (`E0312 10:00:00.000000`).
pub(super) fn is_failure(line: &str) -> bool {
    // klog's and glog's error and fatal shapes (`E0312 10:00:00`, `F0000 00:00:…`).
    let klog = matches!(line.as_bytes().first(), Some(b'E' | b'F'))
        && line.len() > 5
        && line.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    klog || says_failure(&line.to_ascii_lowercase())
}

fn says_failure(lower: &str) -> bool {
    let mut lower = lower.to_string();
    for w in NO_FAILURE {
        lower = lower.replace(w, " ");
    }
    FAILURE.iter().any(|w| lower.contains(w)) || none_found(&lower)
}

/// "No <thing> found" (or detected, available, discovered): a program's own words that it
/// looked for something and found none (`No Intel Arc GPU found`, `no available GPU device
/// found`), `no` a word of its own and the verb within a few words of it.
pub(super) fn none_found(lower: &str) -> bool {
    const VERBS: &[&str] = &[" found", " detected", " available", " discovered"];
    lower.match_indices("no ").any(|(at, _)| {
        let word = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        let rest = &lower[at + 2..];
        let near = &rest[..rest.floor_char_boundary(48)];
        word && VERBS.iter().any(|v| near.contains(v))
    })
}

/// Whether `lower` (a lowered line) names a failure of its own once its wrappers' words are
/// gone: `error running hook #0: ... stderr: mount error: ...` does, `exit status 1` alone not.
pub(super) fn names_reason(lower: &str) -> bool {
    let mut rest = lower.to_string();
    for w in WRAPPERS {
        rest = rest.replace(w, " ");
    }
    says_failure(&rest)
}

/// The program a command line runs (`$ nvidia-smi -L`, `root@host:~# rocminfo`, `sudo
/// vainfo`, or a line that is only a program of the stack and its arguments), when it is one of
/// the stack's programs in `found`'s mentions.
pub(super) fn command_of(f: &Found<'_>) -> Option<Known> {
    let t = f.text.trim_start();
    let (prompted, rest) = match t.find(['$', '#']) {
        Some(i)
            if t[i + 1..].starts_with(' ')
                && (i == 0 || t[..i].contains(['@', ':', '~']) && !t[..i].contains(' ')) =>
        {
            (true, &t[i + 2..])
        }
        _ => (false, t),
    };
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("sudo ").unwrap_or(rest).trim_start();
    let first = rest.split_whitespace().next()?;
    let program = first.rsplit('/').next().unwrap_or(first);
    let known = f
        .mentions
        .iter()
        .find(|m| {
            m.known.component.kind == ComponentKind::Program && m.known.component.word == program
        })
        .map(|m| m.known);
    match known {
        Some(k) if prompted || !is_failure(f.text) => Some(k),
        _ => None,
    }
}

/// Whether the line is a shell command (a prompt, or `sudo`), whatever it runs: its words are
/// the user's, never a failure's.
pub(super) fn is_command(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("$ ")
        || t.starts_with("# ")
        || t.starts_with("sudo ")
        || t.split_once(['$', '#']).is_some_and(|(p, r)| {
            r.starts_with(' ') && !p.is_empty() && p.contains('@') && !p.contains(' ')
        })
}

/// Whether the line is part of a Python traceback's body (a frame, or the source line under
/// one): its words belong to the exception line that ends the traceback.
pub(super) fn is_frame(line: &str) -> bool {
    line.starts_with(' ') || line.starts_with('\t') || line.starts_with("Traceback")
}

/// The exception line that ends a traceback: no indentation, and `Name: ` or `a.b.NameError:`
/// first (`RuntimeError: No CUDA GPUs are available`).
pub(super) fn is_exception(line: &str) -> bool {
    let Some((name, _)) = line.split_once(": ") else {
        return false;
    };
    !name.is_empty()
        && !line.starts_with([' ', '\t'])
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && ["Error", "Exception", "Warning", "Failure"]
            .iter()
            .any(|s| name.ends_with(s))
}

/// A text whose failure is a registry's answer or a host limit, whatever GPU words stand
/// around it: an image the registry does not have (an `nvidia/cuda` tag that was removed names
/// CUDA, but the pull failed: NVIDIA/nvidia-docker#1735, corpus 219), a limit a GPU program met
/// (too many open files, inotify instances: intel/intel-device-plugins-for-kubernetes#2075,
/// corpus 218, whose other lines only follow from it). Only the fallback gives way to it: a
/// family or rule that reads its own reason elsewhere in the text still answers.
pub(super) fn not_the_stack_at_all(text: &str) -> bool {
    const NOT_THE_TEXT: &[&str] = &[
        // distribution/distribution's error codes, docker's and podman's pull
        "manifest unknown",
        "pull access denied",
        "repository does not exist",
        "toomanyrequests",
        "requested access to the resource is denied",
        // Kubernetes' pull events (kubelet's ErrImagePull, ImagePullBackOff) and containerd's
        // resolver ("failed to resolve reference")
        "ErrImagePull",
        "ImagePullBackOff",
        "Failed to pull image",
        "failed to resolve reference",
        // errno EMFILE (Go's lower-case, glibc's strerror), inotify's max_user_instances
        "too many open files",
        "Too many open files",
        "inotify",
        // The kernel's ENOEXEC for a binary of another architecture (an x86 image on a Jetson:
        // NVIDIA/nvidia-docker#1116) and musl's loader on glibc symbols (an Alpine image:
        // vancluever/docker-nomad#7): the image's, whatever GPU words stand beside them.
        "exec format error",
        "Error relocating ",
        // A full disk while an image is pulled or unpacked (pytorch/pytorch#92822: a ROCm
        // image's layer), apt's refusal of a repository's expired or unknown signing key
        // (ROCm/legacy-rocm-build#1551), Python's import of a module the image lacks, and
        // FFmpeg's filter graph that cannot negotiate formats (jellyfin/jellyfin#2238: the
        // application's filter order): none is the GPU stack's.
        "failed to register layer",
        "no space left on device",
        "EXPKEYSIG",
        "NO_PUBKEY",
        "The following signatures were invalid",
        "No module named ",
        "Impossible to convert between the formats supported by the filter",
    ];
    // Case-sensitive, as the tools print them: no copy of a text that may be 16 MiB; a paste
    // (64 KiB or less) is also looked at with its breaks as spaces and with its lines glued,
    // as a terminal or a form may have wrapped a phrase.
    let pasted = || {
        let joined = [text.replace('\n', " "), text.replace('\n', "")];
        NOT_THE_TEXT
            .iter()
            .any(|w| w.contains(' ') && joined.iter().any(|j| j.contains(w)))
    };
    NOT_THE_TEXT.iter().any(|w| text.contains(w))
        || (text.len() <= 64 << 10 && text.contains('\n') && pasted())
        // docker's pull of a tag the registry lacks: "manifest for %s not found" (set K),
        // looked for across a line break, as a pasted message may be wrapped.
        || text.match_indices("manifest for ").any(|(i, _)| {
            let rest = text.get(i..).unwrap_or("");
            let near = rest.get(..rest.len().min(300)).unwrap_or(rest);
            near.contains("not found") || near.contains("not\nfound")
        })
}
