//! Issue 31, round 8 (set K's misses as classes): NVIDIA's lines whose reason earlier rules did
//! not read. Each string is the emitter's own, named beside its rule; docs/explain.md
//! ("Round 8") has the table.
//!
//! - NVIDIA's first Go binding of NVML (NVIDIA/gpu-monitoring-tools bindings/go/nvml, vendored
//!   by Nomad's nomad-device-nvidia, early k8s-device-plugin and dcgm-exporter releases):
//!   `ErrUnsupportedGPU = errors.New("unsupported GPU device")`, returned by NewDevice when NVML
//!   gives no minor number, PCI bus id or UUID for a GPU. The binding reads NVML's structures
//!   as they were when it was written; with a newer driver or GPU it can read none
//!   (hashicorp/nomad-device-nvidia#34: rebuilt on go-nvml v0.12.0-2, the plug-in worked).
//! - libnvidia-container's CUDA initialisation, stage "initialization error", CUDA's reason
//!   "unknown error" (CUDA_ERROR_UNKNOWN, 999): older libnvidia-container releases called cuInit
//!   on the host to read the GPUs, and 999 there is a host driver in a bad state
//!   (NVIDIA/libnvidia-container#103: a reboot fixed it); rootless podman with `no-cgroups =
//!   true` on CentOS 7 got the same line (NVIDIA/nvidia-container-runtime#85).
//! - nvidia-installer: "The kernel module failed to load, because it was not signed by a key
//!   that is trusted by the kernel", printed before its generic "Unable to load the kernel
//!   module 'nvidia.ko'" when Secure Boot (module signature enforcement) refused the module it
//!   built (NVIDIA/gpu-operator#266).
//! - The dynamic loader's "undefined symbol: nvml…" (glibc's "symbol lookup error: %s:
//!   undefined symbol: %s"): the program was linked against an NVML newer than the host's
//!   libnvidia-ml (hashicorp/nomad#8303: Nomad's nvidia-gpu plug-in calls
//!   nvmlDeviceGetPciInfo_v3, which a 340 legacy driver's NVML lacks).
//! - dockerd's "unable to retrieve OCI runtime error (open …/log.json: no such file or
//!   directory)" (moby's libcontainerd) where the runtime is NVIDIA's: the runtime exited
//!   before runc wrote its log, so the reason is the NVIDIA runtime's own start
//!   (NVIDIA/nvidia-container-runtime#68: a runtime package without the hook it injects).
//! - glibc's ldconfig (elf/ldconfig.c): "File %s is empty, not checked." on the driver's
//!   libraries: empty placeholders where the runtime mounts the host's files, kept in an image
//!   committed from a container given the GPU (microsoft/WSL#8274) or written by a build; at
//!   run time they stand where the driver's libraries go.
//! - CUDA's no device under WSL2 (a path under /mnt/c/ or /usr/lib/wsl, WSL's kernel): CUDA
//!   reaches the GPU only through the Windows driver's libcuda in /usr/lib/wsl/lib, and a
//!   Linux driver's libcuda found before it sees no GPU (NVIDIA/cuml#6218).
//! - The engine's mount of nvidia-persistenced's socket (`open
//!   /run/nvidia-persistenced/socket: no such file or directory`): a CDI spec or the toolkit
//!   mounts it where the daemon ran, and the daemon is gone (badbread/crumbvms#395: it died
//!   after a driver upgrade left the old module loaded; a reboot fixed it).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "nvml",
        who: "the tool's NVML binding",
        line: &[
            &["nvml", "unsupported GPU device"],
            &["NVML", "unsupported GPU device"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU's NVML record"),
        cause: "the NVML binding the tool was built with (NVIDIA's first Go binding, gpu-monitoring-tools' nvml package, in Nomad's NVIDIA device plug-in and early device plug-ins and exporters) got no minor number, PCI bus id or UUID for the GPU: a binding older than the driver or the GPU, which reads NVML's structures of its own time, or a GPU NVML reports without a device node (WSL, vGPU).",
        check: "upgrade the plug-in (or rebuild it) to a release built on NVIDIA/go-nvml; 'nvidia-smi -q | grep -i -e \"minor number\" -e \"bus id\" -e uuid' on the host shows what NVML gives",
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-container-cli",
        who: "nvidia-container-cli (the legacy hook)",
        line: &[&[
            "nvidia-container-cli",
            "initialization error: cuda error: unknown error",
        ]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("CUDA"),
        cause: "the hook's own CUDA initialisation on the host (cuInit, which older libnvidia-container releases call to read the GPUs) failed with CUDA's unknown error (999): the host's driver is in a bad state (a driver changed without a reboot, nvidia_uvm missing or wedged after a suspend, a broken installation), or the hook ran for a rootless engine ('no-cgroups = true'), where such a release cannot initialise CUDA on some hosts (CentOS 7).",
        check: "'nvidia-smi' and a CUDA sample ('deviceQuery') on the host; 'lsmod | grep nvidia_uvm' and 'dmesg | grep -i -e NVRM -e Xid'; reboot after a driver change; upgrade libnvidia-container (newer releases do not initialise CUDA)",
        rank: RANK_VAGUE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-installer",
        who: "NVIDIA's installer",
        line: &[&[
            "failed to load, because it was not signed by a key that is trusted by the kernel",
        ]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "the kernel refused the module the installer built because it is not signed by a key the kernel trusts: Secure Boot (or module signature enforcement) is on, and the module was built unsigned or signed with a key not enrolled in the machine's MOK list.",
        check: "'mokutil --sb-state'; sign the module when the installer asks (or pass --module-signing-secret-key and --module-signing-public-key) and enrol the public key ('sudo mokutil --import <key>.der', then confirm at the next boot), or use the distribution's signed driver packages; for the GPU operator's driver container, its Secure Boot documentation",
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the dynamic loader",
        line: &[&["undefined symbol: nvml"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("undefined symbol: "),
        cause: "the program calls the NVML function {object}, which the host driver's libnvidia-ml does not have: the driver is older than the NVML the program was built against (a legacy branch such as 340 or 390 keeps an old NVML), or an older libnvidia-ml (a copy in the image, a stub) is loaded before the driver's.",
        check: "'nvidia-smi' names the driver release ('gpuctl requirement' says which releases drive the GPU); upgrade the driver where the GPU allows, or turn off the program's NVIDIA support on such a host (Nomad: plugin \"nvidia-gpu\" { config { enabled = false } }); 'ldd' on the program shows which libnvidia-ml it loads",
        ..RULE
    },
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["unable to retrieve OCI runtime error", "log.json"]],
        needs: &[
            "--runtime=nvidia",
            "--runtime nvidia",
            "nvidia-container-runtime",
            "runtime=nvidia",
        ],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("nvidia"),
        cause: "the NVIDIA runtime (nvidia-container-runtime) exited before runc wrote its error log, so the reason is in the runtime's own start: its packages do not match (a runtime without the hook it injects: nvidia-container-runtime-hook or nvidia-container-toolkit missing or of another release), it cannot find runc (the runtimes its config.toml names), or its config.toml does not parse.",
        check: "'nvidia-container-runtime --version' and 'which nvidia-container-runtime-hook nvidia-container-toolkit'; install the runtime, the toolkit and libnvidia-container from one release ('dpkg -l | grep nvidia-container' or 'rpm -qa | grep nvidia-container'); 'journalctl -u docker' has the runtime's own message",
        ..RULE
    },
    EmitterRule {
        emitter: "ldconfig",
        who: "ldconfig",
        line: &[&["is empty, not checked"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: crate::explain_rules_libs::DRIVER_LIBS,
        cause: "the image holds {object} as an empty file where the host driver's library goes: a placeholder the NVIDIA runtime mounts the host's file over, kept in an image committed from a container given the GPU ('docker commit') or written by a build; the runtime's mounts then meet files of the image's own, and without a GPU the placeholders stand in for the driver.",
        check: "'ls -l' the files in the image ('docker run --rm IMAGE ls -l /usr/lib/x86_64-linux-gnu/libcuda*' without the GPU): remove the empty driver files from the image (and WSL's libdxcore.so), rebuild it from its Dockerfile rather than 'docker commit', and run it with the GPU given",
        ..RULE
    },
    EmitterRule {
        emitter: "cuda",
        who: "the CUDA driver under WSL2",
        line: &[
            &["CUDA_ERROR_NO_DEVICE"],
            &["no CUDA-capable device is detected"],
            &["cudaErrorNoDevice"],
        ],
        needs: &[
            "/mnt/c/",
            "/usr/lib/wsl",
            "microsoft-standard",
            "WSL2",
            "WSL 2",
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the GPU"),
        cause: "the text is from WSL2, where CUDA reaches the GPU only through the Windows driver's libcuda in /usr/lib/wsl/lib: a Linux driver's libcuda installed in the distribution (an nvidia-driver or cuda-drivers package) or shipped in a venv or conda environment is found first and sees no GPU; or the Windows driver is older than WSL's GPU support; in a container, none was given.",
        check: "'ldconfig -p | grep libcuda' and 'python -c \"import ctypes.util; print(ctypes.util.find_library('cuda'))\"' must point into /usr/lib/wsl/lib; remove a Linux driver package from the distribution (never install one under WSL) or put /usr/lib/wsl/lib first; 'nvidia-smi' on Windows names the driver",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-persistenced",
        who: "the container's mount of nvidia-persistenced's socket",
        line: &[&[
            "/run/nvidia-persistenced/socket",
            "no such file or directory",
        ]],
        operation: Operation::Mount,
        object: ObjectAt::Is("/run/nvidia-persistenced/socket"),
        cause: "the NVIDIA stack mounts nvidia-persistenced's socket into the container (a CDI spec generated while the daemon ran, or the toolkit), and the host has none: the daemon is not running: it exits when a driver upgrade left the loaded kernel module of another release (until a reboot), it is not enabled, or it stopped after the spec was generated.",
        check: "'systemctl status nvidia-persistenced' and 'nvidia-smi' on the host (a driver/library version mismatch means reboot); start and enable the daemon, or regenerate the CDI spec ('nvidia-ctk cdi generate') where it does not run",
        host_path: Some("/run/nvidia-persistenced/socket"),
        rank: RANK_DECISIVE,
        ..RULE
    },
];
