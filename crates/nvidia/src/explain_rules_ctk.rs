//! The NVIDIA Container Toolkit's Go binaries read by what failed (issue 31, round 4), from
//! NVIDIA/nvidia-container-toolkit: the runtime (internal/runtime/runtime.go,
//! runtime_factory.go and internal/oci: `failed to create NVIDIA Container Runtime: ...`,
//! `error constructing low-level runtime: ... no runtime binary found from candidate list`,
//! `error loading config`), its spec modifiers (internal/modifier: `invalid runtime mode`,
//! the `runtime.nvidia.com` CDI vendor), the legacy hook's wrapper
//! (cmd/nvidia-container-runtime-hook: `couldn't find binary nvidia-container-cli in PATH`,
//! `couldn't open required configuration file`, `unsupported capabilities found`,
//! `cannot set MIG_CONFIG_DEVICES in non privileged container`), the CDI hooks
//! (cmd/nvidia-cdi-hook: update-ldcache's `Error updating ldcache`, internal/ldconfig's mounts
//! and pivot_root, the container state every hook loads, chmod's mode, the CUDA compat
//! library), and nvcdi's discovery (pkg/nvcdi: WSL's driver store through dxcore, IMEX
//! channels, Jetson's CSV files). Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_REASON, RULE};

/// The runtime's lines.
const RUNTIME: EmitterRule = EmitterRule {
    emitter: "nvidia-container-runtime",
    who: "the NVIDIA Container Runtime",
    ..RULE
};

/// The legacy hook's wrapper (nvidia-container-runtime-hook, also installed as
/// nvidia-container-toolkit).
const HOOK: EmitterRule = EmitterRule {
    emitter: "nvidia-container-runtime-hook",
    who: "nvidia-container-runtime-hook (the legacy hook)",
    ..RULE
};

/// The CDI spec's hooks (`nvidia-cdi-hook <hook>`, `nvidia-ctk hook <hook>` in older specs):
/// the toolkit's binary, so the emitter is the corpus's `nvidia-ctk`.
const CDI_HOOK: EmitterRule = EmitterRule {
    emitter: "nvidia-ctk",
    who: "a hook of the CDI spec (nvidia-cdi-hook, or nvidia-ctk hook)",
    ..RULE
};

/// nvidia-ctk and the nvcdi library the runtime, the device plugin and nvidia-ctk share.
const CTK: EmitterRule = EmitterRule {
    emitter: "nvidia-ctk",
    who: "the toolkit's CDI generator (nvcdi)",
    ..RULE
};

/// Where the toolkit's configuration is.
const CONFIG_CHECK: &str = "'nvidia-ctk config' prints the configuration the toolkit reads; fix or regenerate /etc/nvidia-container-runtime/config.toml ('sudo nvidia-ctk config --in-place --set ...', or reinstall nvidia-container-toolkit-base)";

/// The toolkit's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // cmd/nvidia-ctk/cdi/generate: nvcdi initialises NVML from the driver root it is given
    // (`--driver-root`, '/' by default) and prints "failed to initalize NVML: %v" (its
    // spelling); ERROR_LIBRARY_NOT_FOUND is no libnvidia-ml there (NVIDIA/nvidia-container-toolkit#118,
    // corpus 250: the driver of a driver container, under /run/nvidia/driver).
    EmitterRule {
        line: &[
            &["NVML", "ERROR_LIBRARY_NOT_FOUND"],
            &["NVML", "NVML Shared Library Not Found"],
        ],
        needs: &["cdi generate"],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("libnvidia-ml.so.1 under its driver root"),
        cause: "the CDI generator looks for the driver's libraries under its driver root, '/' unless --driver-root names another, and found no NVML there: the driver is not installed on this host, or it lives in a driver container's root (the GPU operator's /run/nvidia/driver, a Fedora CoreOS or other image-based host), which --driver-root must name.",
        check: "'ls /run/nvidia/driver/usr/lib*/libnvidia-ml.so.1' and 'ldconfig -p | grep libnvidia-ml' on the host; with a driver container run 'nvidia-ctk cdi generate --driver-root=/run/nvidia/driver --output=/etc/cdi/nvidia.yaml'",
        host_path: Some("/run/nvidia/driver"),
        // More specific than NVML's reading of the same code.
        rank: RANK_REASON - 1,
        ..CTK
    },
    // internal/oci/runtime_low_level.go: the low-level runtime config.toml's `runtimes` lists.
    EmitterRule {
        line: &[&["no runtime binary found from candidate list"]],
        operation: Operation::FindRuntime,
        object: ObjectAt::After("candidate list: "),
        cause: "the NVIDIA runtime wraps a low-level OCI runtime, and none of those config.toml's 'runtimes' lists ({object}) is on its PATH: runc (or crun) is not installed where the engine runs it, or sits in a directory the list does not name (a snap, a static binary under /usr/local/sbin, a containerd-bundled runc).",
        check: "'command -v runc crun' on the host; set '[nvidia-container-runtime] runtimes = [\"<path to runc>\"]' in /etc/nvidia-container-runtime/config.toml",
        ..RUNTIME
    },
    // internal/runtime/runtime.go: `error loading config: %v`, config.toml not parsed.
    EmitterRule {
        line: &[&["nvidia-container-runtime", "error loading config: "]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("/etc/nvidia-container-runtime/config.toml"),
        cause: "the NVIDIA runtime could not read its configuration (/etc/nvidia-container-runtime/config.toml, or the file NVIDIA_CTK_CONFIG_FILE_PATH names): the file has a TOML syntax error or a value of the wrong type, often from a hand edit or a 'sed' on it.",
        check: CONFIG_CHECK,
        ..RUNTIME
    },
    // cmd/nvidia-container-runtime-hook/hook_config.go.
    EmitterRule {
        line: &[&["couldn't open required configuration file"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("/etc/nvidia-container-runtime/config.toml"),
        cause: "the legacy hook was pointed at a configuration file (its -config flag, or NVIDIA_CTK_CONFIG_FILE_PATH) that does not exist or does not parse: a path from another installation (the GPU operator's toolkit directory, a removed package).",
        check: CONFIG_CHECK,
        ..HOOK
    },
    // internal/modifier/mode.go and factory.go: config.toml's `mode`.
    EmitterRule {
        line: &[
            &["invalid runtime mode: "],
            &["failed to construct OCI spec modifier", "invalid mode "],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("config.toml's mode"),
        cause: "the NVIDIA runtime's configured mode ('[nvidia-container-runtime] mode' in config.toml) is not one it knows (auto, legacy, cdi, csv).",
        check: CONFIG_CHECK,
        ..RUNTIME
    },
    // internal/modifier/cdi.go.
    EmitterRule {
        line: &[&[
            "vendor 'runtime.nvidia.com' is not supported when requesting other CDI devices",
        ]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("runtime.nvidia.com/gpu"),
        cause: "the container asks for the NVIDIA runtime's own CDI devices (runtime.nvidia.com/gpu=..., which the runtime generates) together with other CDI devices (nvidia.com/gpu=... from a spec): the runtime takes one kind or the other.",
        check: "request either 'runtime.nvidia.com/gpu=<n>' or 'nvidia.com/gpu=<n>' (from 'nvidia-ctk cdi list'), not both",
        rank: RANK_REASON - 1,
        ..RUNTIME
    },
    // cmd/nvidia-container-runtime-hook/main.go: exec.LookPath("nvidia-container-cli").
    EmitterRule {
        line: &[&["couldn't find binary nvidia-container-cli"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("nvidia-container-cli"),
        cause: "the legacy hook runs nvidia-container-cli, which is not installed or not on its PATH: the libnvidia-container-tools package is missing (only part of the toolkit installed), or config.toml's 'path' names a place it is not.",
        check: "'command -v nvidia-container-cli' on the host; install libnvidia-container-tools and libnvidia-container1 (or the full nvidia-container-toolkit)",
        rank: RANK_DECISIVE,
        ..HOOK
    },
    // cmd/nvidia-container-runtime-hook/container_config.go: NVIDIA_DRIVER_CAPABILITIES.
    EmitterRule {
        line: &[&["unsupported capabilities found in '"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("NVIDIA_DRIVER_CAPABILITIES"),
        cause: "the container's NVIDIA_DRIVER_CAPABILITIES names a capability the hook does not know or config.toml's 'supported-driver-capabilities' does not allow (the values are compute, compat32, graphics, utility, video, display, ngx, or all).",
        check: "the image's and the container's NVIDIA_DRIVER_CAPABILITIES ('docker inspect'); use the values listed, or 'all'",
        rank: RANK_DECISIVE,
        ..HOOK
    },
    EmitterRule {
        line: &[
            &["cannot set MIG_CONFIG_DEVICES in non privileged container"],
            &["cannot set MIG_MONITOR_DEVICES in non privileged container"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("MIG configuration access"),
        cause: "the container asks to configure or monitor MIG (NVIDIA_MIG_CONFIG_DEVICES / NVIDIA_MIG_MONITOR_DEVICES), which the hook grants only to a privileged container.",
        check: "run the container privileged (as the MIG manager and the device plugin with MIG do), or drop the variable",
        rank: RANK_DECISIVE,
        ..HOOK
    },
    EmitterRule {
        line: &[&["Invalid value for config option 'supported-driver-capabilities'"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("config.toml's supported-driver-capabilities"),
        cause: "config.toml's 'supported-driver-capabilities' names a capability the hook does not know.",
        check: CONFIG_CHECK,
        rank: RANK_DECISIVE,
        ..HOOK
    },
    // cmd/nvidia-cdi-hook/update-ldcache: `Error updating ldcache: %v`, and internal/ldconfig's
    // steps (a private /proc, the host's ldconfig bind-mounted, pivot_root into the container).
    EmitterRule {
        line: &[
            &["Error updating ldcache: "],
            &["nvidia-cdi-hook", "error running pivot_root: "],
            &["nvidia-cdi-hook", "error mounting host ldconfig: "],
        ],
        operation: Operation::Mount,
        object: ObjectAt::Is("the container's linker cache"),
        cause: "the CDI spec's update-ldcache hook (nvidia-cdi-hook update-ldcache) could not run the host's ldconfig inside the container: it needs to mount and pivot_root in a namespace of its own, which a rootless, user-namespaced or nested engine, or a seccomp or AppArmor profile, does not allow (operation not permitted); or the image's root is read-only there.",
        check: "the error after it on the line; for a rootless or nested engine regenerate the spec without the ldcache hook ('nvidia-ctk cdi generate --disable-hook update-ldcache', with LD_LIBRARY_PATH in the image), or run the engine with the needed privileges",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    // Every nvidia-cdi-hook subcommand: oci.LoadContainerState / GetContainerRoot.
    EmitterRule {
        line: &[
            &["failed to determine", " container root"],
            &["failed to load container state: "],
        ],
        unless: &["nvidia-container-cli"],
        operation: Operation::Mount,
        object: ObjectAt::Is("the container's state"),
        cause: "a hook of the CDI spec could not read the container's state from its runtime (the OCI state on standard input, and the root path in it): the runtime runs hooks at a stage or in a way the hook does not expect (a hook placed in the wrong list of a hand-written spec, or a runtime that does not pass the state).",
        check: "'nvidia-ctk cdi generate' writes the hooks as createContainer hooks; regenerate the spec and use an OCI runtime that passes the container state to hooks (runc, crun)",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    EmitterRule {
        line: &[
            &["failed to parse mode as octal"],
            &["a non-empty mode must be specified"],
        ],
        operation: Operation::Mount,
        object: ObjectAt::Is("the chmod hook's mode"),
        cause: "the CDI spec's chmod hook was given a mode that is not an octal number: a hand-edited or foreign CDI spec.",
        check: "regenerate the spec ('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml')",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    // cmd/nvidia-cdi-hook/create-symlinks and pkg/lookup/symlinks/symlink.go `ForceCreate`:
    // the link's place holds a file the hook cannot remove.
    EmitterRule {
        line: &[&["failed to create link [", "failed to remove existing file"]],
        operation: Operation::Mount,
        object: ObjectAt::After("failed to create link ["),
        cause: "the spec's create-symlinks hook must replace the file at the link's place in the container ({object}) with a link, and cannot remove it: that file is a mount point there (device or resource busy: a volume over it, or a file the runtime itself mounted, as the toolkit's CSV mode on Jetson mounts nvidia_icd.json that the spec then links), or its directory is read-only.",
        check: "'docker inspect' Mounts (or the pod's volumes) for that path; drop the volume over it; on Jetson upgrade nvidia-container-toolkit and regenerate the spec ('sudo nvidia-ctk cdi generate')",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    // crun's hook wrapper (`error executing hook `<path>` (exit code: 1)`) on a spec hook while
    // the command line bind-mounts the host's whole /dev: the spec's hooks (chmod of the
    // /dev/dri nodes, links under /dev) then act on the host's /dev as mounted, and fail.
    EmitterRule {
        line: &[
            &["error executing hook `", "nvidia-ctk`"],
            &["error executing hook `", "nvidia-cdi-hook`"],
        ],
        needs: &["-v /dev:/dev", "--volume /dev:/dev", "--volume=/dev:/dev"],
        operation: Operation::RunHook,
        object: ObjectAt::Is("the CDI spec's hooks"),
        cause: "the container bind-mounts the host's whole /dev over the one the CDI spec builds (-v /dev:/dev), so the spec's hooks (chmod of the /dev/dri nodes, the device links) run against the host's /dev as mounted into the container and fail.",
        check: "drop '-v /dev:/dev' (the spec passes every node the GPU needs: 'nvidia-ctk cdi list'), or pass the GPU without CDI hooks",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    // cmd/nvidia-cdi-hook/cudacompat: the image's CUDA forward-compatibility libraries.
    EmitterRule {
        line: &[
            &["failed to open CUDA compat library"],
            &["failed to load elf info for CUDA compat library"],
            &["failed to get container forward compat directory"],
        ],
        operation: Operation::Mount,
        object: ObjectAt::Is("the image's CUDA compat libraries"),
        cause: "the CDI spec's enable-cuda-compat hook could not read the image's CUDA forward-compatibility libraries (/usr/local/cuda/compat): they are unreadable or not ELF files, as a broken or hand-copied cuda-compat package leaves them.",
        check: "'ls -l /usr/local/cuda/compat' in the image; reinstall the image's cuda-compat package or remove the directory",
        rank: RANK_DECISIVE,
        ..CDI_HOOK
    },
    // pkg/nvcdi/driver-wsl.go, internal/dxcore: WSL's driver store found through dxcore.
    EmitterRule {
        line: &[
            &["failed to initialize dxcore"],
            &["no driver store paths found"],
            &["at WSL driver store paths"],
            &["failed to find NVIDIA driver store path"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("WSL's GPU (the driver store)"),
        cause: "this is WSL and nvcdi found no NVIDIA GPU in it: dxcore (libdxcore.so, /usr/lib/wsl/lib) reports no adapter, or the Windows driver's store has no libcuda: the Windows NVIDIA driver is missing or too old for WSL, the distribution runs as WSL 1, or /usr/lib/wsl is not mounted.",
        check: "'ls /usr/lib/wsl/lib' and '/usr/lib/wsl/lib/nvidia-smi' in the distribution, 'wsl -l -v' (version 2) on Windows; install the current Windows NVIDIA driver (never a Linux driver inside WSL)",
        rank: RANK_DECISIVE,
        ..CTK
    },
    // pkg/nvcdi/lib-imex.go.
    EmitterRule {
        line: &[
            &["IMEX channel ", " not found at "],
            &["invalid channel ID "],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the IMEX channel"),
        cause: "the container asks for an IMEX channel the host does not have: its device node (/dev/nvidia-caps-imex-channels/channel<N>) was not created (the driver creates channel0 only with NVreg_CreateImexChannel0=1; others come from the IMEX daemon or 'nvidia-modprobe'), or the channel number is beyond the driver's range.",
        check: "'ls -l /dev/nvidia-caps-imex-channels' on the host; create the channel (the IMEX daemon, or the DRA driver's ComputeDomain) or ask for one that exists",
        ..CTK
    },
    // internal/platform-support/tegra/csv, pkg/nvcdi/lib-csv.go: Jetson's CSV mode.
    EmitterRule {
        line: &[
            &["host-files-for-container.d", "no such file or directory"],
            &["not supported in CSV mode"],
            &["CSV file is empty"],
            &["failed to parse CSV file"],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("Jetson's CSV mount lists"),
        cause: "the toolkit ran in CSV mode (Jetson/L4T), which mounts what the CSV files under /etc/nvidia-container-runtime/host-files-for-container.d list, and those files are missing, empty or malformed (the nvidia-l4t packages that ship them are not installed, or this is no Jetson and the mode is wrong), or the request (a MIG device) has no meaning on Jetson.",
        check: "'ls /etc/nvidia-container-runtime/host-files-for-container.d' on the device; on Jetson install the L4T container packages (nvidia-container, nvidia-l4t-*); elsewhere set mode = \"auto\" in config.toml",
        ..CTK
    },
];
