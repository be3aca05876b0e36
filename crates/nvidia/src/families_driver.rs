//! NVIDIA failures by cause, where the legacy hook (nvidia-container-cli), Toolbx, CUDA or
//! the kernel says what is wrong with the driver: each cause its own family and its own fix, so
//! that the generic hook family ([`crate::families`]) answers only what none of these names.
//! The real texts are in crates/cli/tests/explain_corpus/ with their sources
//! (docs/explain.md#nvidia-hook).

use crate::doctor_codes;
use gpuctl_core::plugin::codes;
use gpuctl_core::plugin::{
    Family, FamilyCode, PRIORITY_HOOK, PRIORITY_KEEP_GROUPS, PRIORITY_NOTHING_INJECTED,
    PRIORITY_PRECISE,
};

/// `detection error: open failed: …so.<version>`: files of another driver release.
pub const HOOK_DRIVER_FILES: Family = Family {
    code: FamilyCode::new("nvidia-hook-driver-files"),
    signs: &[&["detection error: open failed:"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "nvidia-container-cli found driver libraries of another release than the one installed (the linker cache still lists files of an old or half-removed driver, e.g. libnvidia-tls.so.<old version>): the upgrade left stale files or links behind.",
    remedy: "Hint: find the leftovers ('ldconfig -p | grep -E \"libnvidia|libcuda\"'), remove the old release's files\n(or reinstall the driver packages), run 'sudo ldconfig', and reboot if the loaded module is the old one too.",
    checks: &[doctor_codes::DRIVER],
};

/// The persistence daemon's socket cannot be mounted: the host's /run is bind-mounted.
pub const HOOK_PERSISTENCED: Family = Family {
    code: FamilyCode::new("nvidia-hook-persistenced"),
    signs: &[&[
        "nvidia-container-cli: mount error",
        "nvidia-persistenced/socket",
    ]],
    priority: PRIORITY_PRECISE,
    diagnosis: "nvidia-container-cli could not create the mount point for nvidia-persistenced's socket in the container: the container's /run (or /var/run) is a bind mount of the host's ('-v /run:/run', '-v /var/run:/var/run'), where the socket already exists.",
    remedy: "Hint: do not bind-mount the host's whole /run or /var/run into a GPU container; mount only the sockets\nit needs (e.g. '-v /var/run/docker.sock:/var/run/docker.sock'), or pass the GPUs by CDI\n('podman run $(gpuctl args nvidia) ...').",
    checks: &[],
};

/// Toolbx could not apply the CDI spec it generated (the persistence daemon's socket).
pub const TOOLBOX_CDI_MOUNT: Family = Family {
    code: FamilyCode::new("nvidia-toolbox-cdi-mount"),
    signs: &[&["failed to apply mount from Container Device Interface for NVIDIA"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "Toolbx applies an NVIDIA CDI spec it generates itself and could not bind a path the spec names into the box (nvidia-persistenced's socket under /run has no mount point there, containers/toolbox#1572): a Toolbx bug, not the host's set-up.",
    remedy: "Hint: update Toolbx to a release with containers/toolbox#1577 (merged 2024-10-29); until then stop the\npersistence daemon before entering: 'sudo systemctl stop nvidia-persistenced'.",
    checks: &[],
};

/// Toolbx could not generate its NVIDIA CDI spec: the driver's user-space libraries are missing.
pub const TOOLBOX_CDI_GENERATE: Family = Family {
    code: FamilyCode::new("nvidia-toolbox-cdi-generate"),
    signs: &[
        &["Container Device Interface containerEdits for NVIDIA"],
        &["Generating Container Device Interface for NVIDIA: failed"],
    ],
    priority: PRIORITY_PRECISE,
    diagnosis: "Toolbx could not generate the NVIDIA CDI spec it needs: the host's NVIDIA user-space libraries of the loaded driver's version (libcuda.so.<version>) are missing; the kernel module alone is not enough.",
    remedy: "Hint: install the driver's user-space (CUDA) libraries of the same version as the loaded module (RPM Fusion:\n'sudo dnf install xorg-x11-drv-nvidia-cuda-libs'; Debian/Ubuntu: the libnvidia-compute package of the branch),\nthen 'toolbox enter' again.",
    checks: &[doctor_codes::DRIVER],
};

/// `unsatisfied condition: driver >= …` or `brand = …`: the image's driver or brand clause.
pub const DRIVER_REQUIREMENT: Family = Family {
    code: FamilyCode::new("nvidia-driver-requirement"),
    signs: &[
        &["unsatisfied condition: driver"],
        &["unsatisfied condition: brand"],
    ],
    // The toolkit too old for the brand: NVIDIA/nvidia-container-toolkit#24 (corpus 235),
    // whose maintainer names 1.9.0.
    priority: PRIORITY_KEEP_GROUPS - 2,
    diagnosis: "the image's NVIDIA_REQUIRE_* names a driver branch or GPU brand this host does not satisfy (old CUDA images ask for 'brand=tesla,driver>=418,driver<419'): the hook refused the GPU before the container started. Or, for a brand clause, the host's toolkit is older than the brand names the image lists: libnvidia-container before 1.9.0 does not know 'quadrortx', 'nvidiartx' and the other RTX brands, so no GPU satisfies them.",
    remedy: "Hint: upgrade the host driver to the branch the image names, or use a newer image; where the clause is an\nold image's brand list for another GPU, start it with '-e NVIDIA_DISABLE_REQUIRE=1'.",
    checks: &[doctor_codes::DRIVER],
};

/// `device error: … unknown device`: the visible-devices value names no GPU of this host.
pub const HOOK_UNKNOWN_DEVICE: Family = Family {
    code: FamilyCode::new("nvidia-hook-unknown-device"),
    signs: &[&["device error:", "unknown device"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "NVIDIA_VISIBLE_DEVICES (or '--gpus device=...') names a GPU the driver does not have: an index past the last GPU, another machine's UUID, a MIG device in the old 'MIG-GPU-<uuid>/<gi>/<ci>' form that current drivers name 'MIG-<uuid>' (NVIDIA/nvidia-container-toolkit#203), or a value the hook reads as a device name ('false', a path).",
    remedy: "Hint: list the GPUs and MIG devices with 'nvidia-smi -L' and pass an index or UUID from it, or 'all';\n'gpuctl args nvidia:N' checks the index against this host.",
    checks: &[codes::TIER],
};

/// `cuda error: no cuda-capable device is detected` from the hook: the driver sees no GPU.
pub const HOOK_NO_CUDA_DEVICE: Family = Family {
    code: FamilyCode::new("nvidia-hook-no-cuda-device"),
    signs: &[&["cuda error: no cuda-capable device is detected"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "the driver is installed but CUDA finds no GPU it can use on the host: the GPU is bound to another driver (nouveau, vfio-pci), powered off (a laptop's switchable GPU), or hidden by CUDA_VISIBLE_DEVICES.",
    remedy: "Hint: 'nvidia-smi' on the host must list the GPU; 'lspci -k -d 10de:' must say 'Kernel driver in use: nvidia'\n(bind it to nvidia, or switch the laptop to its NVIDIA GPU), and CUDA_VISIBLE_DEVICES must not hide it.",
    checks: &[doctor_codes::DRIVER],
};

/// The legacy hook under a rootless runtime: no capabilities, no device nodes.
pub const HOOK_ROOTLESS: Family = Family {
    code: FamilyCode::new("nvidia-hook-rootless"),
    signs: &[&["capability change failed: operation not permitted"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "nvidia-container-cli ran as the legacy hook of a rootless runtime (rootless runc or podman), which may neither change capabilities nor create device nodes: that hook needs root.",
    remedy: "Hint: rootless containers get NVIDIA GPUs through CDI, not the hook: generate the spec\n('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml') and run 'podman run $(gpuctl args nvidia) ...'.",
    checks: &[doctor_codes::NO_CGROUPS, codes::TIER],
};

/// A `/dev/nvidia*` node the container is given does not exist on the host.
pub const NODE_MISSING: Family = Family {
    code: FamilyCode::new("nvidia-node-missing"),
    signs: &[
        &["stat /dev/nvidia", "no such file or directory"],
        &["custom device \"/dev/nvidia", "no such file or directory"],
    ],
    priority: PRIORITY_PRECISE,
    diagnosis: "an NVIDIA device node the container is given (/dev/nvidia-uvm, /dev/nvidia0, /dev/nvidiactl) does not exist on the host: its kernel module is not loaded (nvidia-uvm loads on first CUDA use), or the driver was reinstalled without a reboot.",
    remedy: "Hint: create the nodes on the host: 'sudo nvidia-modprobe -u -c=0' (or run 'nvidia-smi' once as root),\ncheck 'lsmod | grep nvidia', then start the container again.",
    // A CDI spec that names a node the host lacks is the usual cause under CDI (cdi-stale).
    checks: &[
        doctor_codes::DRIVER,
        doctor_codes::UVM_CHECK,
        codes::CDI_STALE,
    ],
};

/// nvidia-smi found no kernel driver to talk to.
pub const DRIVER_UNREACHABLE: Family = Family {
    code: FamilyCode::new("nvidia-driver-unreachable"),
    signs: &[&["couldn't communicate with the NVIDIA driver"]],
    priority: PRIORITY_HOOK + 2,
    // An update of the driver's packages (unattended-upgrades) that replaced some of them is
    // among the causes (set K: lyulyul/shine-cluster#50, a partial upgrade of a 460 driver).
    diagnosis: "nvidia-smi found its libraries but no kernel driver: on the host the nvidia module is not loaded (nouveau holds the GPU, Secure Boot refused the module, a kernel or driver package update without a rebuilt module, such as an unattended upgrade that replaced part of the driver's packages); in a container, the device nodes were not passed.",
    remedy: "Hint: run 'nvidia-smi' on the host; if it fails there too, load the module ('sudo modprobe nvidia', and\n'sudo dmesg | grep -i nvrm' says why not); if only the container fails, start it with\n'podman run $(gpuctl args nvidia) ...'.",
    checks: &[doctor_codes::DRIVER],
};

/// The kernel's nouveau driver holds the GPU.
pub const NOUVEAU: Family = Family {
    code: FamilyCode::new("nvidia-nouveau"),
    signs: &[&["obtained ownership of the NVIDIA device"]],
    priority: PRIORITY_PRECISE,
    diagnosis: "nouveau, the kernel's own driver for NVIDIA GPUs, holds the GPU, so NVIDIA's driver cannot bind it and no CUDA container can use it.",
    remedy: "Hint: blacklist nouveau ('echo blacklist nouveau | sudo tee /etc/modprobe.d/blacklist-nouveau.conf',\nthen 'sudo update-initramfs -u' or 'sudo dracut --force') and reboot.",
    checks: &[doctor_codes::DRIVER],
};

/// CUDA in the container found no GPU.
pub const CUDA_NO_DEVICE: Family = Family {
    code: FamilyCode::new("nvidia-cuda-no-device"),
    signs: &[
        &["no CUDA-capable device is detected"],
        &["CUDA_ERROR_NO_DEVICE"],
        // cudaError_t 100 by name (CUDA Runtime API reference, cudaErrorNoDevice).
        &["cudaErrorNoDevice"],
    ],
    priority: PRIORITY_NOTHING_INJECTED - 1,
    diagnosis: "CUDA in the container found no GPU: none was given to the container (no CDI device, '--gpus' or hook), or its device nodes were not passed.",
    remedy: "Hint: start the container with the GPU arguments ('podman run $(gpuctl args nvidia) ...' or\n'gpuctl run --gpus nvidia ...'); 'gpuctl doctor nvidia' says what the host offers.",
    checks: &[codes::TIER, doctor_codes::DRIVER],
};

/// The driver's user-space libraries are not in the container.
pub const USER_LIBS_MISSING: Family = Family {
    code: FamilyCode::new("nvidia-user-libs-missing"),
    signs: &[
        &["libcuda.so.1: cannot open shared object file"],
        &["couldn't find libnvidia-ml.so library"],
    ],
    priority: PRIORITY_NOTHING_INJECTED,
    // Mounted but not in the linker cache is the second reading: the toolkit runs the
    // ldconfig its config.toml names (`@/sbin/ldconfig.real` in the Ubuntu package,
    // `@/sbin/ldconfig` in Debian's and the RPMs), and running ldconfig in the container found
    // them (set K: NVIDIA/libnvidia-container#67).
    diagnosis: "the NVIDIA driver's user-space libraries (libcuda.so.1, libnvidia-ml.so.1) are not found in the container: they come from the host together with the GPU, so no GPU was given to it (or a box was made without the host's driver), or it was given without the capability that brings them (NVIDIA_DRIVER_CAPABILITIES: libcuda comes with 'compute', libnvidia-ml with 'utility'), or they were mounted but the container's linker cache does not list them (the toolkit's ldconfig step did not run: its config.toml names an ldconfig this host lacks, such as Ubuntu's '@/sbin/ldconfig.real' on a Debian host).",
    remedy: "Hint: give the container the GPU ('podman run $(gpuctl args nvidia) ...'; for a box 'distrobox create --nvidia');\nthe image itself must not ship a libcuda of its own. If it was given the GPU, 'ldconfig -p | grep -i nvidia' in the\ncontainer: empty while 'ls /usr/lib/x86_64-linux-gnu/libnvidia-ml*' finds them means the linker cache was not\nrefreshed: 'ldconfig' in the container, and the ldconfig line of /etc/nvidia-container-runtime/config.toml.",
    checks: &[codes::TIER, doctor_codes::DRIVER],
};
