//! Issue 31, round 5: vendor-neutral strings round 4's enumeration did not reach, and readings
//! that change with the environment the text shows (WSL2 and Docker Desktop, Jetson). Sources
//! (also in docs/explain.md#emitters):
//!
//! - moby/moby daemon/errors.go (incompatibleDeviceRequest: "could not select device driver %q
//!   with capabilities: %v"), daemon/devices.go (the driver named by the request, or the first
//!   whose capabilities match), daemon/cdi.go (the "cdi" driver, registered only when the
//!   daemon's `features.cdi` is on); Docker Desktop's docs: its engine is configured in
//!   Settings > Docker Engine, not by a WSL distribution's /etc/docker/daemon.json
//!   (docs.docker.com/engine/daemon/: with Docker Desktop the daemon is configured from its
//!   settings, not by editing daemon.json).
//! - glibc elf/ldconfig.c ("%s is not a symbolic link") on WSL's /usr/lib/wsl/lib, where the
//!   Windows driver ships copies of libcuda.so.1 (Microsoft's and NVIDIA's CUDA on WSL guide:
//!   the directory is mounted from the Windows driver store, read-only).
//! - glibc elf/dl-load.c ("file too short") on Jetson (L4T), whose images carry empty
//!   placeholders the NVIDIA runtime mounts the host's libraries over (NVIDIA/libnvidia-container
//!   and nvidia-container-toolkit's CSV files in
//!   /etc/nvidia-container-runtime/host-files-for-container.d).
//! - Mesa src/glx (dri2_glx.c, dri3_glx.c, drisw_glx.c: "No matching fbConfigs or visuals
//!   found", printed after "libGL error: "): GLX matches Mesa's DRI configs against the
//!   visuals the X server lists, so an X server driven by another GL stack (NVIDIA's GLX, a
//!   remote server) or another Mesa release leaves none.

use super::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_NOTE, RANK_REASON, RULE};

/// Words that show a text is from WSL2 (its kernel release, its GPU device and library
/// directory, Docker Desktop's WSL backend).
pub(crate) const WSL: &[&str] = &[
    "WSL",
    "/usr/lib/wsl",
    "/dev/dxg",
    "microsoft-standard",
    "Docker Desktop",
    // Windows' drives as WSL mounts them (a venv or a checkout under /mnt/c/Users/...).
    "/mnt/c/",
];

/// Words that show a text is from a Jetson (L4T) board.
const JETSON: &[&str] = &[
    "Jetson",
    "jetson",
    "JetPack",
    "Jetpack",
    "l4t",
    "L4T",
    "tegra",
    "Tegra",
    "host-files-for-container.d",
];

/// Words that name an integrated or discrete GPU of Intel or AMD as the machine's graphics (as
/// inxi, lshw, GNOME's About page and lspci print them).
const OTHER_GRAPHICS: &[&str] = &[
    "Intel® Xe Graphics",
    "Intel(R) Xe Graphics",
    "Mesa Intel",
    "UHD Graphics",
    "Iris Xe",
    "Iris(R) Xe",
    "AMD/ATI",
    "Radeon",
];

/// Words that name an NVIDIA GPU: with one of them the machine may have both.
const NVIDIA_GPU: &[&str] = &["NVIDIA", "GeForce", "Quadro", "Tesla", "RTX", "GTX"];

/// A reading that holds only in the environment the text shows: more specific than the same
/// line's general reading (which has [`RANK_REASON`]).
pub(crate) const RANK_ENVIRONMENT: u8 = RANK_REASON - 1;

/// The docker daemon's device request.
const DOCKER: EmitterRule = EmitterRule {
    emitter: "docker",
    who: "the docker daemon",
    operation: Operation::FindDevice,
    ..RULE
};

/// The "cdi" device driver missing.
const NO_CDI: &[&[&str]] = &[&["could not select device driver \"cdi\""]];

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        line: NO_CDI,
        object: ObjectAt::Is("the \"cdi\" device driver"),
        cause: "the daemon has no \"cdi\" device driver: '--device vendor.com/class=name' (a CDI device) needs Docker 25 or later with the CDI feature on, and this daemon runs with features.cdi off (off by default in the releases that introduced it), so it cannot serve the request.",
        check: "add '\"features\": {\"cdi\": true}' to /etc/docker/daemon.json (NixOS: virtualisation.docker.daemon.settings.features.cdi = true) and 'sudo systemctl restart docker'; 'docker info' then lists the CDI spec directories; or use '--gpus all' with the NVIDIA runtime",
        ..DOCKER
    },
    EmitterRule {
        line: NO_CDI,
        needs: WSL,
        object: ObjectAt::Is("the \"cdi\" device driver"),
        cause: "the daemon has no \"cdi\" device driver (features.cdi is off), and the text is from WSL2: with Docker Desktop the engine runs in Docker Desktop's own VM and ignores the distribution's /etc/docker/daemon.json, so the feature must be set in Docker Desktop.",
        check: "in Docker Desktop, Settings > Docker Engine, add '\"features\": {\"cdi\": true}' and apply (it restarts the engine); a docker engine installed inside the WSL distribution reads its /etc/docker/daemon.json instead",
        rank: RANK_ENVIRONMENT,
        ..DOCKER
    },
    // moby daemon/devices.go: '--gpus' asks for a driver with the "gpu" capability, which only
    // the NVIDIA driver (daemon/devices_nvidia_linux.go, when nvidia-container-runtime-hook is
    // installed) or AMD's (daemon/devices_amd_linux.go) registers; where the text names only
    // an Intel or AMD GPU as the machine's graphics, the NVIDIA toolkit is not the remedy.
    EmitterRule {
        line: &[&["could not select device driver \"\" with capabilities: [[gpu]]"]],
        needs: OTHER_GRAPHICS,
        absent: NVIDIA_GPU,
        object: ObjectAt::Is("a GPU device driver"),
        cause: "the daemon has no device driver for '--gpus', and the text names only an Intel or AMD GPU as this machine's graphics: '--gpus' is served by NVIDIA's container toolkit for an NVIDIA GPU (or AMD's container toolkit), so on a machine without an NVIDIA GPU the program must run on the CPU or take its GPU another way.",
        check: "'lspci -nn | grep -i -e vga -e 3d' on the host lists the GPUs; with no NVIDIA GPU drop '--gpus' (run on the CPU, or pass an Intel or AMD GPU with '--device /dev/dri' and, for ROCm, '--device /dev/kfd' to an image built for it); with one, install and configure the NVIDIA container toolkit",
        rank: RANK_DECISIVE,
        ..DOCKER
    },
    // moby daemon/runtime_unix.go under Docker Desktop: the runtimes come from its settings.
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&["unknown or invalid runtime name: "]],
        needs: WSL,
        operation: Operation::FindRuntime,
        object: ObjectAt::After("unknown or invalid runtime name: "),
        gpu_object: true,
        cause: "the daemon has no runtime called '{object}', and the text is from WSL2: Docker Desktop's engine ignores the distribution's /etc/docker/daemon.json (where 'nvidia-ctk runtime configure' writes); Docker Desktop gives NVIDIA GPUs with '--gpus all' and needs no runtime entry.",
        check: "drop '--runtime {object}' and use '--gpus all' with Docker Desktop (its WSL 2 backend passes /dev/dxg and /usr/lib/wsl); to keep a runtime, add it in Settings > Docker Engine, or run a docker engine inside the distribution",
        rank: RANK_ENVIRONMENT,
        ..RULE
    },
    EmitterRule {
        emitter: "dynamic-loader",
        who: "ldconfig",
        line: &[&["/usr/lib/wsl/lib/", "is not a symbolic link"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Before(" is not a symbolic link"),
        cause: "harmless: WSL2 mounts the Windows NVIDIA driver's libraries at /usr/lib/wsl/lib, where {object} is a full copy instead of a symbolic link to libcuda.so.1.1, and ldconfig only warns about it; CUDA still loads. If something failed, the reason is on another line.",
        check: "nothing to fix for CUDA; to silence the warning, replace the copies by links in the Windows driver store (C:\\Windows\\System32\\lxss\\lib: 'mklink libcuda.so.1 libcuda.so.1.1' from an administrator cmd.exe), which a driver update restores",
        rank: RANK_NOTE,
        ..RULE
    },
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the dynamic loader",
        line: &[&["file too short"]],
        needs: JETSON,
        operation: Operation::LoadLibrary,
        object: ObjectAt::Before("file too short"),
        objects: &["/usr/lib/aarch64-linux-gnu/", "/usr/local/cuda", "lib"],
        cause: "{object} is an empty file: on a Jetson (L4T) the images carry 0-byte placeholders for CUDA, cuDNN and TensorRT that the NVIDIA runtime mounts the host's libraries over (as the CSV files in /etc/nvidia-container-runtime/host-files-for-container.d list them); it stayed empty because the container was not started with the NVIDIA runtime, or the host (JetPack) does not have that library installed.",
        check: "start the container with '--runtime nvidia'; on the host 'ls -l' the same path and 'dpkg -l | grep -e nvinfer -e cudnn -e cuda' (install JetPack's CUDA, cuDNN and TensorRT: 'sudo apt install nvidia-jetpack'); the image's L4T release must match the host's ('cat /etc/nv_tegra_release')",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "mesa-loader",
        who: "Mesa's libGL (GLX)",
        line: &[&["No matching fbConfigs or visuals found"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GLX configs"),
        cause: "Mesa's GLX found no framebuffer config matching the visuals the X server offers: the X server runs another GL stack than the program's Mesa (NVIDIA's X driver, whose GLX Mesa's libGL cannot use; a remote X server reached through ssh -X or a forwarded socket; or a Mesa of another release in the container than on the host), so the DRI driver is dropped and it falls back to software rendering or fails.",
        check: "'glxinfo -B' on the host names the X server's GL vendor: with NVIDIA's X driver give the container NVIDIA's GL libraries (NVIDIA_DRIVER_CAPABILITIES including graphics, or the CDI spec) rather than Mesa; with a forwarded X server use a local display (or LIBGL_ALWAYS_INDIRECT=1); else match the container's Mesa to the host's release",
        ..RULE
    },
];
