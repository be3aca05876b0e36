//! NVIDIA's failure families: what NVML, nvidia-smi, nvidia-container-cli and the toolkit's
//! hooks print, by name. The real texts are test cases in crates/cli/tests/explain_real.rs.

use crate::doctor_codes;
use crate::families_driver as D;
use gpuctl_core::plugin::codes;
use gpuctl_core::plugin::{
    Family, FamilyCode, PRIORITY_GROUPS, PRIORITY_HOOK, PRIORITY_KEEP_GROUPS,
    PRIORITY_NOTHING_INJECTED, PRIORITY_PRECISE,
};

const HOOK_HINT: &str = "Hint: the NVIDIA container hook failed to inject the GPU.  On rootless\npodman the toolkit must be configured with 'no-cgroups = true' under\n[nvidia-container-cli] in /etc/nvidia-container-runtime/config.toml\n(host admin action), and the toolkit must match the installed driver.";

const CDI_HOOK_HINT: &str = "Hint: the CDI spec's hooks run the toolkit's programs: install or update the\nNVIDIA Container Toolkit (1.17.1 or newer) so the spec's hook path exists, then\nregenerate the spec: 'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml'.";

/// The hook's `unsatisfied condition: cuda>=X.Y`: explain compares the text's CUDA with the
/// CUDA the loaded driver runs ([`crate::explain_cuda`]).
pub const CUDA_REQUIREMENT: FamilyCode = FamilyCode::new("nvidia-cuda-requirement");

/// NVML's version mismatch: explain adds which release the loaded module and the libraries are.
pub const NVML_VERSION_MISMATCH: FamilyCode = FamilyCode::new("nvidia-nvml-version-mismatch");

/// The NVIDIA families, in catalogue order: the driver and hook causes first
/// ([`crate::families_driver`]), then the rest.
pub const FAMILIES: &[Family] = &[
    D::HOOK_DRIVER_FILES,
    D::HOOK_PERSISTENCED,
    D::TOOLBOX_CDI_MOUNT,
    D::TOOLBOX_CDI_GENERATE,
    D::DRIVER_REQUIREMENT,
    D::HOOK_UNKNOWN_DEVICE,
    D::HOOK_NO_CUDA_DEVICE,
    D::HOOK_ROOTLESS,
    D::NODE_MISSING,
    D::DRIVER_UNREACHABLE,
    D::NOUVEAU,
    D::CUDA_NO_DEVICE,
    D::USER_LIBS_MISSING,
    Family {
        code: CUDA_REQUIREMENT,
        signs: &[
            &["requirement error: unsatisfied condition: cuda"],
            // The runtime's CSV mode (Jetson) checks the same requirement itself
            // (NVIDIA/nvidia-container-toolkit internal/modifier/csv.go).
            &["requirements not met: unsatisfied condition: cuda"],
            // The CUDA runtime in the container says the same after the start.
            &["CUDA driver version is insufficient for CUDA runtime version"],
            // cudaError_t 35 by name (CUDA Runtime API reference, cudaErrorInsufficientDriver).
            &["cudaErrorInsufficientDriver"],
        ],
        // The second reading, a container given no driver (the NVIDIA variables mistyped, no
        // --gpus or CDI device), is imagegenius/docker-immich#349's (corpus 246): a 550 driver,
        // a CUDA 12 image, error 35.
        priority: PRIORITY_KEEP_GROUPS - 2,
        diagnosis: "the image asks for a newer CUDA than the host's NVIDIA driver supports (its NVIDIA_REQUIRE_CUDA): the driver is too old for the image, not a cgroup or hook problem. Where the CUDA runtime inside the container says it (error 35) and the host's driver is new enough, the container was not given the driver at all: the runtime reports a driver it cannot load as an insufficient one.",
        remedy: "Hint: upgrade the host's NVIDIA driver to a branch that supports the image's CUDA, or use an\nimage built for an older CUDA ('nvidia-smi' on the host prints the CUDA version the driver supports).",
        // The text's CUDA against the loaded driver's: whether this host shows the cause is
        // that comparison, not whether the driver is healthy otherwise.
        checks: &[crate::image_check::CODE],
    },
    Family {
        code: NVML_VERSION_MISMATCH,
        signs: &[
            &["Driver/library version mismatch"],
            &["driver/library version mismatch"],
        ],
        priority: PRIORITY_KEEP_GROUPS - 1,
        diagnosis: "the NVIDIA kernel module that is loaded is not the version of the user-space driver (NVML) that talks to it: either the driver was upgraded and the old module is still loaded, or the container or box carries driver libraries of its own.",
        remedy: "Hint: when the host's own libraries differ from the loaded module, reboot the host (or reload the nvidia\nmodules) and regenerate the CDI spec ('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml');\nwhen the image or box ships its own driver libraries, a reboot does not help: remove them from it and let\nthe host's be mounted ('podman run $(gpuctl args nvidia) ...', 'distrobox create --nvidia').",
        checks: &[doctor_codes::DRIVER, codes::CDI_STALE],
    },
    Family {
        code: FamilyCode::new("nvidia-oci-runtime"),
        signs: &[&["OCI runtime \"nvidia\" not found"], &["find runc path"]],
        priority: PRIORITY_KEEP_GROUPS + 1,
        diagnosis: "podman is configured to use docker's 'nvidia' OCI runtime (nvidia-container-runtime), which podman does not need and which cannot find its runc.",
        remedy: "Hint: remove 'runtime = \"nvidia\"' (and any nvidia [engine.runtimes] entry) from containers.conf\nand drop '--runtime=nvidia'; give podman the GPUs through CDI instead: 'podman run $(gpuctl args nvidia) ...'.",
        checks: &[codes::OCI_RUNTIME],
    },
    Family {
        code: FamilyCode::new("nvidia-docker-no-gpu-driver"),
        signs: &[&["could not select device driver", "capabilities: [[gpu]]"]],
        priority: PRIORITY_PRECISE,
        // Docker's docs (docs.docker.com/desktop/features/gpu/): Docker Desktop passes GPUs
        // only on Windows with the WSL 2 backend; on Linux its engine runs in a VM without one.
        diagnosis: "docker's --gpus found no GPU device driver: the NVIDIA Container Toolkit is not installed, or docker was not restarted after it was configured (or docker is a snap that cannot see it), or the docker command talks to Docker Desktop's engine, which on Linux runs in a VM that has no GPU.",
        remedy: "Hint: install the NVIDIA Container Toolkit, then 'sudo nvidia-ctk runtime configure --runtime=docker'\nand 'sudo systemctl restart docker'; or pass the GPUs by CDI name: 'gpuctl run --engine docker -- ...'.\n'docker context ls' naming desktop-linux means Docker Desktop: use the host's Docker Engine ('docker context use default').",
        checks: &[codes::TIER],
    },
    Family {
        code: FamilyCode::new("nvidia-hook-no-cgroups"),
        signs: &[
            &["cgroup subsystem devices not found"],
            &["devices.allow: permission denied"],
            // EPERM rather than EACCES on the same write (src/cgroup_legacy.c `write error: %s`
            // of NVIDIA/libnvidia-container): the same cause in a user namespace.
            &["devices.allow: operation not permitted"],
            &["bpf_prog_query(BPF_CGROUP_DEVICE) failed"],
        ],
        priority: PRIORITY_PRECISE,
        diagnosis: "nvidia-container-cli tried to set up device cgroups, which a rootless container (or a cgroup v2 host) does not allow.",
        remedy: HOOK_HINT,
        checks: &[doctor_codes::NO_CGROUPS],
    },
    Family {
        // Podman Desktop's GPU guide, "Troubleshooting: Version mismatch"
        // (https://podman-desktop.io/docs/podman/gpu): nvidia-smi in the container prints this
        // when the CDI spec was generated for another driver than the one installed.
        code: FamilyCode::new("nvidia-nvml-na"),
        signs: &[&["Failed to initialize NVML: N/A"]],
        priority: PRIORITY_KEEP_GROUPS - 1,
        diagnosis: "NVML in the container cannot reach the driver ('N/A'): the CDI spec does not match the installed NVIDIA driver (it was generated for another version, or, under WSL, without the driver store's libdxcore.so).",
        remedy: "Hint: regenerate the CDI spec for the driver that is installed now:\n'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml' (inside the podman machine on macOS and Windows),\nthen restart the container (or the podman machine).",
        checks: &[
            codes::CDI_STALE,
            doctor_codes::SPEC_DRIVER,
            doctor_codes::DRIVER,
        ],
    },
    Family {
        code: FamilyCode::new("nvidia-nvml-unknown-error"),
        signs: &[&["Failed to initialize NVML: Unknown Error"]],
        priority: PRIORITY_PRECISE + 1,
        diagnosis: "the container lost its device cgroup rules for the NVIDIA nodes: systemd re-applied the unit's rules (a 'systemctl daemon-reload') and dropped the ones the runtime added, because /dev/char has no links to the NVIDIA nodes; on a Kubernetes node the kubelet's static CPU manager policy rewrites the container's cgroup the same way (NVIDIA/nvidia-docker#966).",
        remedy: "Hint: recreate the container; to stop it recurring create the /dev/char links\n('sudo nvidia-ctk system create-dev-char-symlinks --create-all') or pass the GPUs with CDI.",
        checks: &[doctor_codes::DEV_CHAR],
    },
    Family {
        code: FamilyCode::new("nvidia-nvml-insufficient-permissions"),
        signs: &[
            &["NVML: Insufficient Permissions"],
            &["nvml error: insufficient permissions"],
        ],
        priority: PRIORITY_GROUPS - 1,
        diagnosis: "the container may not open the NVIDIA device nodes (SELinux labels, the hook's 'no-cgroups' on a rootless host, or node permissions for a non-root user in the container).",
        remedy: "Hint: on SELinux hosts run 'sudo setsebool -P container_use_devices=true' or pass\n'--security-opt=label=disable'; for a non-root user in the container, give it the\ngroup that owns /dev/nvidia* (CDI specs of toolkit 1.19+ add it themselves).",
        checks: &[codes::SELINUX, doctor_codes::NO_CGROUPS],
    },
    Family {
        code: FamilyCode::new("nvidia-hook-cdi-mode"),
        signs: &[&["invoking the NVIDIA Container Runtime Hook directly"]],
        priority: PRIORITY_HOOK - 2,
        diagnosis: "the NVIDIA toolkit is set to CDI mode, so its legacy hook refuses to run; the GPUs must come from the CDI spec instead.",
        remedy: "Hint: request the GPUs by CDI name ('podman run $(gpuctl args nvidia) ...'), not through the hook\nor '--gpus' on an engine that routes it to the hook.",
        checks: &[codes::CDI_READABLE],
    },
    Family {
        code: FamilyCode::new("nvidia-cdi-hook"),
        signs: &[
            &["nvidia-cdi-hook"],
            &["nvidia-ctk` (exit code"],
            &["fork/exec", "nvidia-ctk"],
            // The create-symlinks hook of toolkit 1.17.0 refusing an image's own link.
            &["failed to create link [lib"],
        ],
        priority: PRIORITY_HOOK - 1,
        diagnosis: "a hook the CDI spec names (nvidia-cdi-hook or nvidia-ctk) is missing or failed: the spec was written by another toolkit version than the one installed.",
        remedy: CDI_HOOK_HINT,
        checks: &[codes::CDI_STALE],
    },
    Family {
        code: FamilyCode::new("nvidia-legacy-hook"),
        signs: &[
            &["nvidia-container-runtime-hook"],
            &["error executing hook", "nvidia-container-toolkit"],
            // Every nvidia-container-cli error is "nvidia-container-cli: <stage> error: ..."; the
            // loader's "nvidia-container-cli: error while loading shared libraries" is not one.
            &["nvidia-container-cli", " error: "],
        ],
        priority: PRIORITY_HOOK,
        diagnosis: "the NVIDIA container hook (nvidia-container-runtime-hook, nvidia-container-toolkit or nvidia-container-cli) failed, for a reason none of the hook's more specific messages names.",
        remedy: HOOK_HINT,
        checks: &[doctor_codes::NO_CGROUPS, doctor_codes::DRIVER],
    },
    Family {
        code: FamilyCode::new("nvidia-stale-spec"),
        signs: &[
            &["error stat'ing file", "nvidia", "No such file or directory"],
            &["cannot stat `", "nvidia", "No such file or directory"],
            &["failed to stat CDI host device \"/dev/nvidia"],
            &[
                "error mounting \"",
                "nvidia",
                "to rootfs at",
                "no such file or directory",
            ],
        ],
        priority: PRIORITY_HOOK + 1,
        diagnosis: "the CDI spec hands the container NVIDIA driver files or nodes that no longer exist: it was generated for another driver version.",
        remedy: "Hint: regenerate the CDI spec after every driver upgrade\n('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml', or enable the\nnvidia-cdi-refresh service of NVIDIA Container Toolkit 1.18 or newer).",
        checks: &[codes::CDI_STALE, doctor_codes::DRIVER],
    },
    Family {
        code: FamilyCode::new("nvidia-nothing-injected"),
        signs: &[
            &["nvidia-smi", "executable file not found"],
            &["`nvidia-smi` not found"],
            &["nvidia-smi: command not found"],
            &["nvidia-smi: not found"],
        ],
        priority: PRIORITY_NOTHING_INJECTED,
        diagnosis: "nvidia-smi is not in the container: no GPU was injected (no CDI device or hook was granted, or '--gpus' reached a podman that ignores it without a CDI spec).",
        remedy: "Hint: start the container with the arguments gpuctl prints ('podman run $(gpuctl args nvidia) ...',\nor 'gpuctl run -- ...'); 'gpuctl doctor nvidia' says what the host offers.",
        checks: &[codes::TIER],
    },
];
