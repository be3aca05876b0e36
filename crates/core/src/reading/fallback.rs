//! The structured fallback (issue 31): a GPU failure no family and no emitter rule claims is
//! still read by its structure. Of the lines that report a failure and name a component of the
//! stack (the vocabulary: [`super::vocabulary`], each vendor's from its own component lists),
//! the most specific is read: the **emitter** from the line's own prefix (a component that
//! prints, `nvidia-container-cli:`, `NVML`, `hipError…`; else an engine's or orchestrator's
//! prefix; else the loader for a library), the **operation** from its verb, the **object** from
//! the component it names, and the cause from what that operation's failure on that kind of
//! object means ([`super::fallback_causes`]). It ranks below every rule and family: the caller
//! asks it only when nothing else claimed the text.
//!
//! Not claimed: a library the image ships (cuDNN, rocBLAS, the Level Zero loader) that cannot
//! be loaded, the workload's own out-of-memory, a framework built without GPU support, a
//! Kubernetes manifest the API server refused. A text that names a component but has no line
//! that reads as its failure is [`Fallback::Unrecognised`] only when no line reports a failure
//! at all, or one does next to the component's line.

use super::fallback_causes::{cause, device_operation, operation};
use super::fallback_object::{nodes, object_of};
use super::fallback_scan::{
    Found, Known, Mention, Vocabulary, any_failure, command_of, is_command, is_exception,
    is_failure, is_frame, names_reason, not_the_stack_at_all, scan,
};
use super::vocabulary::ComponentKind as K;
use super::{Operation, Owner, RANK_NOTE, RANK_VAGUE, Reading};

/// What the fallback makes of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// The failure line read by its structure.
    Read(Reading),
    /// Components named (these words), but no line reads as their failure.
    Unrecognised(Vec<&'static str>),
    /// No GPU failure: no component named, or the failure is the image's or the workload's.
    Unclaimed,
}

/// The engines' and orchestrators' prefixes, when no component says who printed the line:
/// the innermost (rightmost) is the emitter.
const ENGINES: &[(&str, &str, &str)] = &[
    ("Error response from daemon", "docker", "the docker daemon"),
    ("docker:", "docker", "docker"),
    ("podman", "podman", "podman"),
    ("crun:", "crun", "crun"),
    ("runc create failed", "runc", "runc"),
    ("runc:", "runc", "runc"),
    ("containerd", "containerd", "containerd"),
    ("cri-o", "cri-o", "CRI-O"),
    ("kubelet", "kubelet", "the kubelet"),
    ("Warning  Failed", "kubelet", "the kubelet"),
    ("FailedScheduling", "kube-scheduler", "the scheduler"),
    ("modprobe:", "modprobe", "modprobe"),
    // runc's libcontainer/rootfs_linux.go: "error mounting %q to rootfs at %q: %w".
    ("to rootfs at", "runc", "runc"),
];

/// One failure line to read: its mentions (its own, or its traceback's, or the command whose
/// output it is).
struct Candidate<'t> {
    number: usize,
    text: &'t str,
    mentions: Vec<Mention>,
    /// The program of the command line this line is the output of, or the hook whose stderr
    /// it is.
    command: Option<Known>,
}

/// Reads `text` by its structure with the vocabulary `v`.
pub fn read(text: &str, v: &Vocabulary) -> Fallback {
    let found = devices_only_failing(scan(text, v));
    if found.is_empty() || not_the_stack_at_all(text) {
        return Fallback::Unclaimed;
    }
    let candidates = candidates(text, &found);
    let mut excluded = false;
    let mut best: Option<(u8, Reading)> = None;
    for c in &candidates {
        match reading(c, v) {
            Some((score, r)) => {
                if best.as_ref().is_none_or(|(s, _)| score >= *s) {
                    best = Some((score, r));
                }
            }
            None => excluded = true,
        }
    }
    if let Some((_, r)) = best {
        return Fallback::Read(r);
    }
    if excluded {
        return Fallback::Unclaimed;
    }
    // A library the image ships itself (cuDNN, NVRTC, the ROCm libraries) is no component of
    // the GPU stack's: a text that names only such libraries is the image's, not a GPU failure
    // left unrecognised.
    let stack = |f: &&Found<'_>| {
        f.mentions
            .iter()
            .any(|m| m.known.component.kind != K::ImageLibrary)
    };
    let named: Vec<&Found<'_>> = found
        .iter()
        .filter(|f| !is_command(f.text))
        .filter(stack)
        .collect();
    let beside = |f: &Found<'_>| {
        let lines: Vec<&str> = text
            .lines()
            .skip(f.number.saturating_sub(2))
            .take(3)
            .collect();
        lines.iter().any(|l| is_failure(l))
    };
    if named.is_empty() || (any_failure(text) && !named.iter().any(|f| beside(f))) {
        return Fallback::Unclaimed;
    }
    let mut words: Vec<&'static str> = Vec::new();
    for m in named.iter().flat_map(|f| &f.mentions) {
        if !words.contains(&m.known.component.word) {
            words.push(m.known.component.word);
        }
    }
    Fallback::Unrecognised(words)
}

/// The GPU by a generic word counts only where it is the line's only component and the line
/// says the GPU was not found, not the one the program supports, or did not start: `No GPU
/// found` is the GPU stack's failure, `model loaded on GPU 0` or `GPU memory: 3 GiB` beside an
/// error is not; a line with a more specific component is read by that one.
fn devices_only_failing(found: Vec<Found<'_>>) -> Vec<Found<'_>> {
    let device = |m: &Mention| m.known.component.kind == K::Device;
    found
        .into_iter()
        .filter_map(|mut f| {
            if f.mentions.iter().all(device) {
                let lower = f.text.to_ascii_lowercase();
                let reads = device_operation(&lower).is_some()
                    && is_failure(f.text)
                    && !workload_or_image(f.text, &lower);
                reads.then_some(f)
            } else {
                f.mentions.retain(|m| !device(m));
                Some(f)
            }
        })
        .collect()
}

/// The failure lines that name a component: a line of its own, the exception line a
/// traceback's frames lead to, and the output lines of a command that runs a program of the
/// stack (`$ nvidia-smi` then `No devices were found`).
fn candidates<'t>(text: &'t str, found: &[Found<'t>]) -> Vec<Candidate<'t>> {
    let mut out: Vec<Candidate<'t>> = Vec::new();
    let mut add =
        |number: usize, line: &'t str, mentions: &[Mention], command: Option<Known>| match out
            .iter_mut()
            .find(|c| c.number == number)
        {
            Some(c) => c.mentions.extend_from_slice(mentions),
            None => out.push(Candidate {
                number,
                text: line,
                mentions: mentions.to_vec(),
                command,
            }),
        };
    for f in found {
        if let Some(program) = command_of(f) {
            let after = text[f.start..].lines().enumerate().skip(1).take(5);
            for (i, line) in after.take_while(|(_, l)| !is_command(l)) {
                if is_failure(line) {
                    add(f.number + i, line, &[], Some(program));
                }
            }
            continue;
        }
        if is_command(f.text) {
            continue;
        }
        if is_frame(f.text) {
            let after = text[f.start..].lines().enumerate().skip(1).take(200);
            if let Some((i, line)) = after
                .filter(|(_, l)| !is_frame(l))
                .find(|(_, l)| !l.trim().is_empty())
                .filter(|(_, l)| is_exception(l))
            {
                add(f.number + i, line, &f.mentions, None);
            }
            continue;
        }
        if is_failure(f.text) {
            add(f.number, f.text, &f.mentions, hook_of(text, f, found));
        }
    }
    out.sort_by_key(|c| c.number);
    out
}

fn op_of(text: &str, kind: Option<K>) -> Operation {
    operation(text, kind).0
}

/// The hook whose stderr a log line is (logrus's `time="…" level=error msg=…` after the
/// engine's `error running hook …, stderr:`): the program of the stack the wrapper names, else
/// the one a runtime flag of the text (`--runtime=nvidia`) runs its hooks with.
fn hook_of(text: &str, f: &Found<'_>, found: &[Found<'_>]) -> Option<Known> {
    let t = f.text.trim_start();
    if !(t.starts_with("time=") || t.starts_with("level=")) {
        return None;
    }
    let before = text[..f.start].trim_end_matches(['\n', '\r']);
    let wrapper = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    if !(wrapper.contains("running hook") || wrapper.contains("executing hook")) {
        return None;
    }
    let prints = |m: &&Mention| !m.known.component.emitter.is_empty();
    let named = found
        .iter()
        .find(|w| w.number + 1 == f.number)
        .and_then(|w| {
            w.mentions
                .iter()
                .filter(prints)
                .find(|m| m.known.component.kind == K::Program)
        });
    let flag = || {
        found
            .iter()
            .flat_map(|w| &w.mentions)
            .filter(prints)
            .find(|m| m.known.component.kind == K::Flag)
    };
    named.or_else(flag).map(|m| m.known)
}

/// The reading of one candidate and how specific it is (an operation named by a verb, an
/// object), or `None` when the failure is the image's or the workload's.
fn reading(c: &Candidate<'_>, v: &Vocabulary) -> Option<(u8, Reading)> {
    let lower = c.text.to_ascii_lowercase();
    if workload_or_image(c.text, &lower) {
        return None;
    }
    let (emitter, who, from, by) = emitter(c);
    let object = object_of(c.text, &c.mentions, from, by);
    let kind = object.as_ref().map(|(_, k, _)| *k);
    let (emitter, who) = match emitter {
        // The loader is the emitter of a library's loading only.
        "dynamic-loader" if op_of(c.text, kind) != Operation::LoadLibrary => {
            ("program", "the program that printed it")
        }
        _ => (emitter, who),
    };
    let segment = c.text.get(from..).unwrap_or(c.text);
    let (op, explicit) = operation(segment, kind);
    let (op, explicit) = if explicit || from == 0 {
        (op, explicit)
    } else {
        operation(c.text, kind)
    };
    if kind == Some(K::ImageLibrary)
        && matches!(op, Operation::LoadLibrary | Operation::MatchVersion)
    {
        return None;
    }
    let vendor = object
        .as_ref()
        .and_then(|(_, _, k)| k.vendor)
        .or(by.and_then(|k| k.vendor))
        .or_else(|| c.mentions.iter().find_map(|m| m.known.vendor));
    // With no object, the emitter's own kind says what failed (a kernel module's probe).
    let (cause_t, check_t) = match kind {
        // A device node's errno says which of the open's causes it was.
        Some(K::DeviceNode) => super::fallback_errno::device_node(c.text),
        _ => None,
    }
    .unwrap_or_else(|| cause(op, kind.or(by.map(|k| k.component.kind))));
    let nodes = nodes(v, vendor);
    // The GPU is what the operation looks for, not an object of it: "could not find a usable
    // device", not "… device GPU".
    let object_s = object
        .as_ref()
        .filter(|(_, k, _)| *k != K::Device)
        .map(|(o, _, _)| o.clone());
    let fill = |t: &str| {
        // With no object, a noun the object would have followed stands alone ("the kernel
        // module is not there", not "the kernel module it is not there").
        let t = match object_s {
            Some(_) => t.to_string(),
            // An object in brackets goes with its brackets ("a file of the stack", not "… (it)").
            None => ["module", "file", "runtime", "pod"]
                .iter()
                .fold(t.replace(" ({object})", ""), |t, n| {
                    t.replace(&format!("{n} {{object}}"), n)
                }),
        };
        t.replace("{object}", object_s.as_deref().unwrap_or("it"))
            .replace("{who}", who)
            .replace("{vendor} GPU", vendor.map_or("GPU", |_| "{vendor} GPU"))
            .replace("{vendor}", vendor.unwrap_or("GPU"))
            .replace("{nodes}", &nodes)
    };
    let score =
        u8::from(names_reason(&lower)) * 4 + u8::from(explicit) * 2 + u8::from(object.is_some());
    let r = Reading {
        line: c.number,
        emitter,
        operation: op,
        object: object_s.clone(),
        cause: fill(cause_t),
        check: fill(check_t),
        owner: Owner::Stack,
        // A line where a component of the stack names its reason with a verb; else only a
        // note, which a generic family keeps its text against (an engine's words about the
        // hook's own binary are the hook family's).
        rank: if score >= 6 && by.is_some() {
            RANK_VAGUE
        } else {
            RANK_NOTE
        },
        who,
        host_path: None,
        host_mount: None,
    };
    Some((score, r))
}

/// The workload's out-of-memory, a framework built without GPU support, a program whose own
/// kernel is missing from its build (SYCL's `No kernel named … was found`,
/// `PI_ERROR_INVALID_KERNEL_NAME`), a manifest the API server refused: none is the GPU
/// stack's.
fn workload_or_image(line: &str, lower: &str) -> bool {
    const NOT_THE_STACK: &[&str] = &[
        "out of memory",
        "outofmemory",
        "out_of_memory",
        "memoryallocation",
        "not compiled with",
        "compiled without",
        "built without",
        "no kernel named",
        "invalid_kernel_name",
        // PyTorch's tensors on two devices: the program's own placement
        "expected all tensors to be on the same device",
        // The kernel's ENOEXEC for a binary of another architecture (an x86 image on a Jetson:
        // NVIDIA/nvidia-docker#1116): the image's, whatever runtime started it.
        "exec format error",
        // musl's loader ("Error relocating %s: %s: symbol not found"): a glibc program, or the
        // driver's glibc libraries, in a musl image (Alpine): the image's libc
        // (vancluever/docker-nomad#7).
        "error relocating",
    ];
    NOT_THE_STACK.iter().any(|w| lower.contains(w)) || line.contains("\" is invalid: ")
}

/// Who printed the line: a component that prints (its runtime's name or status anywhere, a
/// program or kernel module in a prefix's place), else the innermost engine's prefix, else the
/// program of the command it is the output of, else the loader for a library, else the
/// program. Also where its part of the line starts, and the mention it is.
fn emitter(c: &Candidate<'_>) -> (&'static str, &'static str, usize, Option<Known>) {
    let by_component = c
        .mentions
        .iter()
        .filter(|m| !m.known.component.emitter.is_empty())
        .filter(|m| m.known.component.kind == K::Runtime || in_prefix(c.text, m))
        .max_by_key(|m| m.at);
    if let Some(m) = by_component {
        let k = m.known.component;
        return (k.emitter, k.who, m.at, Some(m.known));
    }
    if let Some(k) = c.command {
        return (k.component.emitter, k.component.who, 0, Some(k));
    }
    let by_engine = ENGINES
        .iter()
        .filter_map(|(w, e, who)| c.text.rfind(w).map(|at| (at, *e, *who)))
        .max_by_key(|(at, _, _)| *at);
    if let Some((at, e, who)) = by_engine {
        return (e, who, at, None);
    }
    let library = c.mentions.iter().any(|m| {
        matches!(
            m.known.component.kind,
            K::DriverLibrary | K::ImageLibrary | K::DriverFile
        )
    });
    if library {
        return ("dynamic-loader", "the dynamic loader", 0, None);
    }
    if let Some(m) = c.mentions.iter().find(|m| {
        m.known.component.kind == K::KernelModule && !m.known.component.emitter.is_empty()
    }) {
        let k = m.known.component;
        return (k.emitter, k.who, 0, Some(m.known));
    }
    ("program", "the program that printed it", 0, None)
}

/// Whether a mention stands where a line names who prints it: first on the line
/// (`nvidia-persistenced failed to initialize`), or followed by `:` (after an optional `[pid]`)
/// or by ` error:`; or the word is itself a prefix (`NVRM:`), or the kernel's
/// `[drm:amdgpu_…]`.
fn in_prefix(line: &str, m: &Mention) -> bool {
    let word = m.known.component.word;
    let before = &line[..m.at];
    // A program's name in a path (`stat /usr/bin/nvidia-smi: …`) is the object, not who speaks.
    if before.ends_with('/') {
        return false;
    }
    if word.ends_with(':') || before.ends_with("drm:") || before.trim().is_empty() {
        return true;
    }
    let rest = &line[m.end..];
    let rest = match rest.strip_prefix('[') {
        Some(r) => r.split_once(']').map_or(r, |(_, after)| after),
        None => rest,
    };
    rest.starts_with(':')
        || [" error:", " Error:", " ERROR:", " fatal:"]
            .iter()
            .any(|p| rest.starts_with(p))
}
