//! What the structured fallback says: the operation a failure line's verb names, and what a
//! failure of that operation on that kind of object means, with what to check. The table is
//! docs/explain.md#fallback's.

use super::Operation;
use super::vocabulary::ComponentKind;

/// The verbs and states that name each operation, in the order they are tried: a line's
/// reason (a version, no device) before its verb (`initialise`), since "cuInit failed: CUDA
/// driver version is insufficient" failed to match versions, not to start. Lower case; the
/// line is lowered before the search.
const OPERATIONS: &[(Operation, &[&str])] = &[
    (
        Operation::FindRuntime,
        &[
            "unknown runtime",
            "invalid runtime",
            "runtime handler",
            "no runtime for",
            "runtimeclass",
            "runtime name",
        ],
    ),
    (
        Operation::MatchVersion,
        &[
            "mismatch",
            "version is",
            "versions",
            "newer",
            "older",
            "at least",
            "invalid device function",
            "insufficient",
            "requires ",
            "required ",
            "too old",
            "incompatible",
            "unsupported",
            "not supported",
            "unknown flag",
            "unknown option",
            "unrecognized option",
            "no kernel image",
        ],
    ),
    (
        Operation::FindDevice,
        &[
            "no device",
            "no such device",
            "no gpu",
            "no usable",
            "devices were found",
            "device not found",
            "devices found",
            "0 devices",
            "zero devices",
            "not available",
            "no cuda gpus",
            "no hip gpus",
            "-capable device",
            " capable device",
            "platforms found",
            "could not find any",
            "unable to find any",
            "failed to find any",
            "found no ",
            "invalid device",
            "device ordinal",
            "not detected",
        ],
    ),
    (
        Operation::LoadLibrary,
        &[
            "shared object",
            "dlopen",
            "load librar",
            "loading librar",
            "failed to load",
            "could not load",
            "couldn't load",
            "unable to load",
            "cannot load",
            "error loading",
            "undefined symbol",
        ],
    ),
    (
        Operation::Mount,
        &["mount", "volume", "symlink", "create link"],
    ),
    (
        Operation::Allocate,
        &["allocat", "out of ", "in use", "busy", "insufficient"],
    ),
    (
        Operation::Open,
        &[
            "open",
            "permission denied",
            "access denied",
            "not permitted",
        ],
    ),
    (
        Operation::Stat,
        &[
            "stat ",
            "no such file",
            "not found",
            "does not exist",
            "missing",
            "cannot find",
            "could not find",
        ],
    ),
    (
        Operation::Initialise,
        &["init", "start", "createinstance", "communicate", "connect"],
    ),
];

/// The GPU's own nouns, lowered, as [`device_operation`] looks for them (the vocabulary's
/// [`ComponentKind::Device`] words).
const DEVICE_NOUNS: &[&str] = &["gpus", "gpu", "radeon", "geforce", "intel arc"];

/// What a line (lowered) says about the GPU by a generic noun, from the words right around
/// the noun: that none was found (`No GPU found`, `GPU not detected`, `requires a GPU`), that
/// this one is not supported (`unsupported GPU`, `GPU is not supported`), or that it did not
/// start (`failed to initialize GPU`). Anything else (`loaded on GPU 0`, `GPU memory`) says
/// nothing of the GPU, and the noun is then no component of the line. A noun glued into a
/// name (`tensorflow-gpu`, `gpu_layers`, `/gpu/`) is no GPU.
pub(super) fn device_operation(lower: &str) -> Option<Operation> {
    const FIND_AFTER: &[&str] = &[
        " not found",
        " not detected",
        " not available",
        " is not available",
        " unavailable",
        " is required",
        " required",
        " device not found",
        " devices not found",
        " device is not available",
        " was not found",
        " were not found",
        " is not accessible",
        " not accessible",
        " is missing",
        " missing",
    ];
    const FIND_BEFORE: &[&str] = &[
        "requires a ",
        "requires ",
        "need a ",
        "needs a ",
        "find any ",
        "find a ",
        "detect any ",
        "detect a ",
        "detected no ",
    ];
    const MATCH_AFTER: &[&str] = &[
        " is not supported",
        " not supported",
        " unsupported",
        " is too old",
        " is not compatible",
        " not compatible",
        " is incompatible",
    ];
    const MATCH_BEFORE: &[&str] = &["unsupported ", "not a supported ", "incompatible "];
    const INIT_AFTER: &[&str] = &[
        " initialization failed",
        " initialisation failed",
        " failed to initialize",
        " failed to initialise",
        " init failed",
    ];
    const INIT_BEFORE: &[&str] = &[
        "initialize ",
        "initialise ",
        "init ",
        "initialize the ",
        "initialise the ",
    ];
    let glued =
        |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || b"-_/=".contains(&c));
    let b = lower.as_bytes();
    let (mut found, mut standalone) = (None, false);
    for noun in DEVICE_NOUNS {
        for (at, _) in lower.match_indices(noun) {
            let end = at + noun.len();
            let next = match b.get(end) {
                Some(b's') if !noun.ends_with('s') => b.get(end + 1).copied(),
                c => c.copied(),
            };
            if glued(at.checked_sub(1).map(|i| b[i])) || glued(next) {
                continue;
            }
            standalone = true;
            let (before, after) = (&lower[..at], lower[end..].trim_start_matches('s'));
            let after_any = |w: &[&str]| w.iter().any(|p| after.starts_with(p));
            let before_any = |w: &[&str]| w.iter().any(|p| before.ends_with(p));
            let op = if before_any(MATCH_BEFORE) || after_any(MATCH_AFTER) {
                Operation::MatchVersion
            } else if before_any(INIT_BEFORE) || after_any(INIT_AFTER) {
                Operation::Initialise
            } else if before_any(FIND_BEFORE) || after_any(FIND_AFTER) {
                Operation::FindDevice
            } else {
                continue;
            };
            found.get_or_insert(op);
        }
    }
    let none = standalone && super::fallback_scan::none_found(lower);
    found.or_else(|| none.then_some(Operation::FindDevice))
}

/// `text` as lower-case words: a status name's parts apart (`hipErrorInvalidDevice`,
/// `CUDA_ERROR_NO_DEVICE` read as "hip error invalid device", "cuda error no device").
pub(super) fn as_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut lower_before = false;
    for c in text.chars() {
        if c == '_' {
            out.push(' ');
        } else {
            if c.is_ascii_uppercase() && lower_before {
                out.push(' ');
            }
            out.push(c.to_ascii_lowercase());
        }
        lower_before = c.is_ascii_lowercase();
    }
    out
}

/// The operation `text` (a line, or its part from the emitter on) names, and whether a verb
/// named it (`false`: only the object's kind gave it). A library's "not found" or "cannot
/// open" is its loading; a resource's "insufficient" is its allocation.
pub(super) fn operation(text: &str, object: Option<ComponentKind>) -> (Operation, bool) {
    use ComponentKind as K;
    // errno's "operation not supported" says nothing of a version.
    let lower = as_words(text).replace("operation not supported", "");
    let library = matches!(
        object,
        Some(K::DriverLibrary | K::ImageLibrary | K::DriverFile)
    );
    let found = |op: Operation| {
        OPERATIONS
            .iter()
            .find(|(o, _)| *o == op)
            .is_some_and(|(_, words)| words.iter().any(|w| lower.contains(w)))
    };
    if object == Some(K::Device) {
        return device_operation(&text.to_ascii_lowercase())
            .map_or((Operation::Initialise, false), |op| (op, true));
    }
    if object == Some(K::Resource) && found(Operation::Allocate) {
        return (Operation::Allocate, true);
    }
    if object == Some(K::ContainerRuntime) && (found(Operation::Stat) || found(Operation::Open)) {
        return (Operation::FindRuntime, true);
    }
    for (op, words) in OPERATIONS {
        if words.iter().any(|w| lower.contains(w)) {
            let op = match op {
                Operation::Stat | Operation::Open if library => Operation::LoadLibrary,
                _ => *op,
            };
            return (op, true);
        }
    }
    let op = match object {
        Some(K::DriverLibrary | K::ImageLibrary | K::DriverFile) => Operation::LoadLibrary,
        Some(K::DeviceNode) => Operation::Open,
        Some(K::Resource) => Operation::Allocate,
        Some(K::Variable) => Operation::FindDevice,
        Some(K::ContainerRuntime) => Operation::FindRuntime,
        Some(K::Flag) => Operation::MatchVersion,
        _ => Operation::Initialise,
    };
    (op, false)
}

/// What a failure of `op` on an object of `kind` means, and what to check: templates where
/// `{object}` is the object, `{who}` the emitter, `{vendor}` whose component it is (`NVIDIA`,
/// or `GPU`) and `{nodes}` the vendor's device nodes.
pub(super) fn cause(op: Operation, kind: Option<ComponentKind>) -> (&'static str, &'static str) {
    use ComponentKind as K;
    use Operation as O;
    match (op, kind) {
        (O::Open | O::Stat | O::LoadLibrary, Some(K::KernelModule)) => (
            "the kernel module {object} is not there for the running kernel: the {vendor} driver is not installed, or was built for another kernel (a kernel upgrade without DKMS, a module Secure Boot refused), or the container cannot see the host's modules.",
            "on the host, 'modinfo {object}', 'dkms status' and 'uname -r'; install the driver for the running kernel, then 'gpuctl doctor'",
        ),
        (O::LoadLibrary, Some(K::DriverLibrary)) => (
            "{object} is a library of the host's {vendor} driver, not of the image: the GPU stack mounts it into a container given the GPU (a CDI device, or the vendor's hook or runtime), so the container was not given the GPU, or the host has no driver where the toolkit looks for it.",
            "on the host, 'ldconfig -p | grep {object}' shows whether the driver installed it; run the container with the GPU given as 'gpuctl args' prints it ('podman run $(gpuctl args) ...'), then 'gpuctl doctor'",
        ),
        (O::LoadLibrary, Some(K::DriverFile)) => (
            "the driver file {object} is missing where the loader looks, or names a library the container lacks: the GPU's user-space driver was not mounted (no GPU given, or the graphics or video capability not requested) or is not installed in the image.",
            "'ls -l' the file inside the container; for NVIDIA's files request the capability (NVIDIA_DRIVER_CAPABILITIES=all, or graphics,video); for Mesa's or Intel's drivers install them in the image; then 'gpuctl doctor'",
        ),
        (O::LoadLibrary, _) => (
            "a library of the {vendor} stack could not be loaded where the program runs: it is missing, or it was built for another release than the rest of the stack.",
            "'ldd' on the program inside the container names what is missing; a driver library comes from the host with the GPU ('gpuctl args'), the others from the image",
        ),
        (O::Open | O::Stat, Some(K::DeviceNode)) => (
            "it was not passed to the container, the host's driver did not create it (not loaded, or the GPU has another number here), or the user's groups may not open it.",
            "'ls -l {object}' on the host and in the container; pass the nodes that exist as 'gpuctl args' prints them, keep the node's group ('--group-add keep-groups' under crun), and run 'gpuctl doctor' (a CDI spec naming a node the host lacks is stale)",
        ),
        (O::Open | O::Stat, Some(K::Program)) => (
            "it is not there or could not be run: the vendor's tools are mounted only into a container given the GPU (NVIDIA's with the utility capability), or they are not installed on this machine.",
            "give the container the GPU as 'gpuctl args' prints it (for NVIDIA, NVIDIA_DRIVER_CAPABILITIES including utility); on the host, 'which {object}'",
        ),
        (O::Open | O::Stat, _) => (
            "a file of the {vendor} stack ({object}) is missing or not readable where it was looked up: the stack that should provide it (the host's driver, or the CDI spec or hook that mounts it) did not.",
            "'ls -l' the path on the host and in the container, then 'gpuctl doctor' (a CDI spec naming a file the host lacks is stale)",
        ),
        (O::FindDevice | O::MatchVersion, Some(K::Variable)) => (
            "{object} has a value the stack does not take, or selects devices the container does not have.",
            "'env | grep {object}' in the container and the vendor's documented values (NVIDIA_VISIBLE_DEVICES=all, NVIDIA_DRIVER_CAPABILITIES=compute,utility; CUDA_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES count from 0 among the GPUs the container was given)",
        ),
        (O::FindDevice, Some(K::Device)) => (
            "the program found no {vendor} GPU it can use: the container was not given one (no CDI device, '--device' nodes or '--gpus'), its user may not open the device nodes, a *_VISIBLE_DEVICES selection hides them, or the host's driver does not drive the GPU (not loaded, or too old for it).",
            "'gpuctl detect' and 'gpuctl doctor' on the host (GPU, driver, nodes, groups); run the container with the GPU given as 'gpuctl args' prints it, and 'ls -l /dev/dri /dev/nvidia* /dev/kfd' inside it",
        ),
        (O::MatchVersion, Some(K::Device)) => (
            "the program does not support this GPU, or not with what it found: its build lacks the GPU's architecture (an NVIDIA compute capability, an AMD gfx target; ROCm's HSA_OVERRIDE_GFX_VERSION can stand in a close relative), or the driver or user space it found is too old or too new for the GPU.",
            "'gpuctl detect' names the GPU; compare it with the program's list of supported GPUs and its build's architectures; 'gpuctl requirement' gives the driver this GPU needs",
        ),
        (O::FindDevice, _) => (
            "the container was not given the {vendor} GPU (no device nodes or driver files), its user may not open the nodes, a *_VISIBLE_DEVICES selection hides them, or the host's driver does not see the GPU.",
            "'gpuctl doctor' on the host (driver, nodes, groups); run the container with the GPU given as 'gpuctl args' prints it and run {nodes} inside it",
        ),
        (O::MatchVersion, Some(K::Flag)) => (
            "the engine does not know {object}: it is older than the release that added it (docker 19.03 for --gpus), or it is another engine.",
            "'docker version' or 'podman version'; with podman, ask for the GPU by CDI name as 'gpuctl args' prints it",
        ),
        (O::MatchVersion, _) => (
            "the version it found is not one it works with: the image's user space (its CUDA, ROCm or oneAPI release, or a loader's driver) expects a newer or older driver than the host runs, or the GPU is too new or too old for it.",
            "compare the image's need with the host's driver: 'gpuctl requirement' gives the driver range this GPU needs, 'gpuctl doctor --image IMAGE' checks the image's declared need against the loaded driver",
        ),
        (O::Initialise, Some(K::KernelModule)) => (
            "the kernel log gives the reason: firmware missing or refused, a GPU this driver release does not support, or a module built for another kernel.",
            "'dmesg' on the host, around the driver's lines; 'gpuctl doctor' checks the driver's fit with this GPU and kernel",
        ),
        (O::Initialise, _) => (
            "it did not start on the GPU, and the line does not say why: the container was not given the GPU's device nodes or may not open them, a user-space driver it needs is missing from the image or of another release than the host's kernel driver, or the kernel driver is not loaded or not answering (a GPU in a bad state).",
            "in the container, {nodes} and the user-space driver the program loads; on the host, 'gpuctl doctor' (driver loaded, nodes, fit); the lines before this one often name the step that failed",
        ),
        (O::Mount, _) => (
            "it is missing on the host, the image already has something else there (a file where a directory goes, or a library it ships itself), or the mount is malformed (docker splits -v at ':').",
            "'ls -l' the source on the host; regenerate a CDI spec after a driver change and run 'gpuctl doctor', which checks every path a spec names",
        ),
        (O::Allocate, Some(K::Resource)) => (
            "no node could give the pod {object}: the device plugin that advertises it is not running or found no GPU, or every such GPU is taken.",
            "'kubectl describe node' shows the node's allocatable {object}; check the device plugin's pods and logs, and the node's GPUs with 'gpuctl doctor'",
        ),
        (O::Allocate, _) => (
            "another process or container holds the GPU or its resources (an exclusive compute mode, MIG, a running job), or the GPU is in a bad state.",
            "'gpuctl doctor' and the vendor's tool on the host (nvidia-smi, rocm-smi, xpu-smi) for what holds the GPU",
        ),
        (O::FindRuntime, _) => (
            "the engine or orchestrator does not know the runtime {object}: the vendor's container runtime is not installed, or not registered in the engine's configuration.",
            "'which {object}' on the node; register it (docker's /etc/docker/daemon.json 'runtimes', containerd's config.toml, CRI-O's crio.conf; 'nvidia-ctk runtime configure' writes NVIDIA's) and restart the engine",
        ),
        (O::Install, _) => (
            "a package of the {vendor} stack could not be installed where the line ran: its repository is not configured, or it does not serve this release.",
            "the package manager's lines above name the package; add the vendor's repository as its install guide says, then 'gpuctl doctor'",
        ),
        (O::RunHook, _) => (
            "a hook of the {vendor} stack failed; the lines it printed name the reason.",
            "the hook's own lines above, then 'gpuctl doctor'",
        ),
    }
}
