//! The NVIDIA Container Toolkit's binaries read by structure (issue 31): nvidia-container-cli
//! loading the driver's libraries under its configured root, `nvidia-ctk cdi generate` locating
//! them, and an engine executing a runtime binary the toolkit ships. Sources in
//! docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_REASON, RULE};

use crate::explain_rules_libs::DRIVER_LIBS;

/// The toolkit's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // libnvidia-container: `<stage> error: load library failed: <library>` (dlopen under the
    // root `--root` names, config.toml's `root`). The same line comes from a host without the
    // driver (NVIDIA/libnvidia-container#231), from a root that names a driver container's
    // tree (/run/nvidia/driver, NVIDIA/nvidia-docker#1711, NVIDIA/nvidia-container-toolkit#154)
    // and from docker installed as a snap: the reading names all three, the host tells them
    // apart (`explain` reads config.toml's root).
    EmitterRule {
        emitter: "nvidia-container-cli",
        who: "nvidia-container-cli (the legacy hook)",
        line: &[&["load library failed: "]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::After("load library failed: "),
        objects: DRIVER_LIBS,
        cause: "the hook found no {object} under the driver root it is configured with: the host has no NVIDIA driver's user-space libraries (no driver, or only its kernel module); or config.toml's 'root' names a driver container's tree (the GPU operator's /run/nvidia/driver) that is not there or not running; or docker runs as a snap, whose confinement hides the host's libraries; or, under WSL 2, Windows gives no driver libraries (/usr/lib/wsl/lib) because its build or driver is too old for GPU support in WSL (Windows 10 21H2 or Windows 11, a WSL-capable NVIDIA driver).",
        check: "'nvidia-smi' and 'ldconfig -p | grep libnvidia-ml' on the host; 'grep -n root /etc/nvidia-container-runtime/config.toml' ('root' is '/' for a driver installed on the host); 'snap list docker' (use the distribution's or docker.com's docker instead); under WSL 2 'ls /usr/lib/wsl/lib' and 'winver' on Windows",
        host_path: Some("/sys/module/nvidia"),
        // More specific than the dynamic loader's reading of the same line's dlerror.
        rank: RANK_REASON - 1,
        ..RULE
    },
    // nvidia-ctk cdi generate: `failed to generate CDI spec: ... failed to locate
    // libcuda.so.<version>: pattern ... not found` (NVIDIA/nvidia-container-toolkit#735). No
    // spec was written, so no hook of a spec ran: the reading is decisive against a warning
    // earlier in the same output that names nvidia-cdi-hook.
    EmitterRule {
        emitter: "nvidia-ctk",
        who: "nvidia-ctk cdi generate",
        line: &[&["failed to generate CDI spec", "failed to locate "]],
        operation: Operation::LoadLibrary,
        // The library itself, wherever the wrapping puts it (`failed to locate
        // libcuda.so.<v>`, or internal/lookup/root/root.go's `failed to locate versioned
        // driver libraries: failed to locate "libcuda.so.<v>"`).
        object: ObjectAt::Named,
        objects: DRIVER_LIBS,
        cause: "the driver's NVML was found but not its {object} in the directories nvidia-ctk searches (the linker cache and the standard library directories under the driver root): the driver is installed under a non-standard prefix (/var/lib/nvidia/lib64, /usr/local/nvidia/lib64, a driver container's root), so no spec could be written.",
        check: "'ldconfig -p | grep libcuda' and 'find / -name \"libcuda.so.*\" 2>/dev/null' on the host; add the driver's library directory to /etc/ld.so.conf.d/ and run 'sudo ldconfig', or pass '--driver-root=<prefix>' to 'nvidia-ctk cdi generate'",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // An engine executing the runtime binary daemon.json names: containerd's shim reports Go's
    // `exec: "<name>": executable file not found in $PATH` (NVIDIA/nvidia-container-runtime#98).
    // The quote right after the name keeps `nvidia-container-runtime-hook` (the legacy hook, a
    // family of its own) out.
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[
            &["exec: \"nvidia-container-runtime\": executable file not found"],
            &["exec: \"nvidia-container-runtime.cdi\": executable file not found"],
            &["exec: \"nvidia-container-runtime.legacy\": executable file not found"],
            &["fork/exec /usr/bin/nvidia-container-runtime: no such file or directory"],
        ],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("nvidia-container-runtime"),
        cause: "the daemon has a runtime registered whose binary is not installed: /etc/docker/daemon.json's \"runtimes\" (or \"default-runtime\") names nvidia-container-runtime, and the toolkit that ships it was removed or never installed, or is not on the daemon's PATH; with it as the default runtime every container fails, GPU or not.",
        check: "'command -v nvidia-container-runtime' and 'cat /etc/docker/daemon.json' on the host; reinstall nvidia-container-toolkit, or remove the runtime (and \"default-runtime\": \"nvidia\") from daemon.json, then 'sudo systemctl restart docker'",
        ..RULE
    },
];
