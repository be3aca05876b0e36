//! Issue 31, round 9 (held-out sets P's and Q's misses as classes). Each rule's wording is the
//! emitter's own, named beside it (docs/explain.md "Round 9").
//!
//! - Mesa's DRI loader (src/glx/dri_common.c and the EGL loader, since Mesa 23.1): "DRI driver
//!   not from this Mesa build ('%s' vs '%s')": libGL (or libEGL) and the DRI driver it found
//!   come from two Mesa builds, which the loader refuses to pair; a half-updated Mesa, a
//!   32-bit libGL left at the older release, or a driver from another repository
//!   (ValveSoftware/steam-for-linux#9294: Mesa-libGL1-32bit of another build than the rest).
//! - The engines' CDI injection, "CDI device injection failed: %w" (containerd's CRI plugin
//!   and nerdctl, CRI-O, dockerd since 25 and BuildKit all wrap the CDI library's error in
//!   these words; podman says "setting up CDI devices"): "unresolvable CDI devices %s" there
//!   is a name no spec in the engine's spec directories declares. On Kubernetes the spec is
//!   the device plug-in's or operator's to write on each node, and a node it does not run on
//!   has none while the scheduler may still place the pod by another label
//!   (trueforge-org/truecharts#29531: a chart without the NFD rules Intel's plug-in selects
//!   nodes by).
//! - Slurm's GRES configuration (src/interfaces/gres.c, formerly src/common/gres.c), which
//!   schedules GPUs on a node from gres.conf: slurmd's "can't stat gres.conf file %s: %m" for a
//!   File= device node the node lacks (BiBiServ/bibigrid#705: a gres.conf written for a GPU the
//!   worker does not have), "gres.conf duplicate records for %s" for two records of one GPU
//!   (ComputeCanada/puppet-magic_castle#27: AutoDetect=nvml with Name=gpu lines besides), and
//!   slurmctld's "invalid GRES core specification (%s) on node %s" for a Cores=/CPUs= list the
//!   node's cores do not cover (NVIDIA/deepops#1195: hyperthread CPU numbers from the
//!   generator's template).
//! - The dynamic loader on the Vulkan loader (libvulkan.so.1): no GPU stack mounts it (NVIDIA's
//!   runtime and CDI bring the driver's ICD and its JSON, AMD's and Intel's are Mesa's, in the
//!   image), so an image without it is the image's packaging (ggml-org/llama.cpp#11422: the
//!   Vulkan image's base layer lacked it).
//! - libva's va.c: "dlopen of %s failed: %s" with the loader's reason: an undefined symbol is
//!   the driver linked against another release of a library it needs (intel/media-driver's iHD
//!   against gmmlib: an upgraded driver with the old libigdgmm), "wrong ELF class" a driver of
//!   the other word size where the 64-bit one belongs (a 32-bit radeonsi_drv_video.so in
//!   /usr/lib/dri).
//! - libva's "User environment variable requested driver 'i965'" (LIBVA_DRIVER_NAME) beside a
//!   failure: Intel's legacy i965 driver stops at Gen9.5 (Coffee and Comet Lake); Ice Lake and
//!   later GPUs need iHD (intel/media-driver's answer for UHD Graphics 750).

use super::{EmitterRule, LOADER, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_VAGUE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    MESA_BUILD,
    CDI_INJECTION,
    GRES_FILE,
    GRES_DUPLICATE,
    GRES_CORES,
    VULKAN_LOADER,
    VA_DRIVER_SYMBOL,
    VA_DRIVER_CLASS,
    VA_I965_FORCED,
    COMPOSE_LIMITS,
    SLURM_NO_AUTODETECT,
    SLURM_COUNT,
];

/// Compose's GPU devices under limits, where the schema has none (set T: a project's
/// docker-compose.yml).
const COMPOSE_LIMITS: EmitterRule = EmitterRule {
    emitter: "docker-compose",
    who: "Compose's schema check",
    line: &[
        &["limits Additional property devices is not allowed"],
        &["limits value Additional properties are not allowed ('devices' was unexpected)"],
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the GPU devices"),
    cause: "the Compose file puts 'devices' under deploy.resources.limits, where the schema has no such key: a GPU is requested under deploy.resources.reservations.devices (driver: nvidia, count or device_ids, capabilities: [gpu]).",
    check: "move the devices list to deploy.resources.reservations.devices; 'docker compose config' validates the file",
    rank: RANK_DECISIVE,
    ..RULE
};

/// slurmd asked to autodetect GPUs through a library it was built without (slurm's gpu plugin
/// select: "We were configured to autodetect nvml functionality, but we weren't able to find
/// that lib when Slurm was configured."; NVIDIA/deepops' Slurm built without NVML).
const SLURM_NO_AUTODETECT: EmitterRule = EmitterRule {
    emitter: "slurmd",
    who: "Slurm's node daemon (slurmd)",
    line: &[&["configured to autodetect", "when Slurm was configured"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::Is("Slurm's GPU autodetection plugin"),
    cause: "gres.conf asks slurmd to detect the GPUs (AutoDetect=nvml, rsmi or oneapi), but this Slurm was built without that library (no gpu/nvml plugin: the CUDA toolkit's nvml.h or libnvidia-ml was not found when Slurm was configured), so slurmd exits.",
    check: "'ls $(dirname $(command -v slurmd))/../lib/slurm/gpu_nvml.so'; rebuild Slurm with NVML found (its configure's --with-nvml), or drop AutoDetect and list each GPU with Name=gpu File=/dev/nvidiaN lines",
    rank: RANK_DECISIVE,
    ..RULE
};

/// slurmctld's node registration with fewer GPUs than slurm.conf (gres.c
/// _node_config_validate: "gres/%s count reported lower than configured (%u < %u)"; a MIG
/// layout that changed the count on calculquebec's cluster).
const SLURM_COUNT: EmitterRule = EmitterRule {
    emitter: "slurmctld",
    who: "Slurm's controller (slurmctld)",
    line: &[
        &["gres/gpu", "count reported lower than configured"],
        &["gres/gpu: Count changed on node"],
    ],
    operation: Operation::Allocate,
    object: ObjectAt::Is("the node's GPUs"),
    cause: "the node registered fewer GPUs than slurm.conf's Gres=gpu:N says, so slurmctld drains it: a GPU is missing on the node (its driver not loaded, a GPU fallen off the bus), or the GPUs were repartitioned (a MIG layout with another number of instances) and slurm.conf was not changed with them.",
    check: "'nvidia-smi -L' on the node and 'slurmd -G' (the GRES it finds) against slurm.conf's NodeName line; fix the node or the count, then 'scontrol reconfigure' and 'scontrol update nodename=<node> state=resume'",
    rank: RANK_DECISIVE,
    ..RULE
};

/// libva's driver whose own library is of another release.
const VA_DRIVER_SYMBOL: EmitterRule = EmitterRule {
    emitter: "vaapi",
    who: "VA-API (libva)",
    line: &[&["dlopen of ", "_drv_video.so failed", "undefined symbol"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::After("dlopen of "),
    cause: "libva found the driver {object} but could not load it: it was built against another release of a library it links (Intel's iHD against gmmlib, libigdgmm: the driver upgraded without it; a driver against a newer libva or libdrm), so a symbol it needs is missing.",
    check: "upgrade the driver and the libraries it links together, from one source ('apt list --installed | grep -e intel-media -e libigdgmm -e libva'); 'ldd {object}' names the library, and mixing an image's and a PPA's packages is the usual cause",
    rank: RANK_DECISIVE,
    ..RULE
};

/// libva's driver of the other word size.
const VA_DRIVER_CLASS: EmitterRule = EmitterRule {
    emitter: "vaapi",
    who: "VA-API (libva)",
    line: &[&["dlopen of ", "wrong ELF class"]],
    operation: Operation::LoadLibrary,
    object: ObjectAt::After("dlopen of "),
    cause: "libva found {object} but it is a driver of the other word size (a 32-bit build where the 64-bit libva looks, or the reverse): the 32-bit package was installed in place of the 64-bit one, or LIBVA_DRIVERS_PATH points at the other architecture's directory.",
    check: "'file {object}' names its class; install the 64-bit driver package (mesa-va-drivers, intel-media-va-driver) and point LIBVA_DRIVERS_PATH at its directory",
    rank: RANK_DECISIVE,
    ..RULE
};

/// Intel's legacy i965 VA-API driver asked for by name.
const VA_I965_FORCED: EmitterRule = EmitterRule {
    emitter: "vaapi",
    who: "VA-API (libva)",
    line: &[&["requested driver 'i965'"]],
    needs: &["failed", "error", "not supported", "does not support"],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("i965_drv_video.so"),
    cause: "LIBVA_DRIVER_NAME asks for Intel's legacy i965 driver, which drives GPUs up to Gen9.5 (Coffee Lake, Comet Lake) only: an Ice Lake or later GPU (UHD Graphics 7xx, Iris Xe, Arc) needs the iHD driver (intel-media-va-driver).",
    check: "unset LIBVA_DRIVER_NAME (or set it to iHD) and install intel-media-va-driver (non-free for encoding) in the image; 'vainfo' must then name the iHD driver",
    rank: RANK_VAGUE,
    ..RULE
};

/// The Vulkan loader missing from the image.
const VULKAN_LOADER: EmitterRule = EmitterRule {
    objects: &["libvulkan.so"],
    owner: Owner::Image,
    cause: "{object} is the Vulkan loader, which the image must ship: no GPU stack mounts it (NVIDIA's runtime and CDI spec bring only the driver's Vulkan ICD and its JSON; AMD's and Intel's Vulkan drivers are Mesa's, in the image too).",
    check: "install the loader in the image (Debian and Ubuntu: libvulkan1, with mesa-vulkan-drivers for AMD and Intel; Fedora: vulkan-loader), then 'vulkaninfo --summary' in the container",
    ..LOADER
};

/// A gres.conf File= naming a device node the node lacks.
const GRES_FILE: EmitterRule = EmitterRule {
    emitter: "slurmd",
    who: "Slurm's node daemon (slurmd)",
    line: &[&["can't stat gres.conf file "]],
    operation: Operation::Stat,
    object: ObjectAt::After("can't stat gres.conf file "),
    objects: &["/dev/nvidia", "/dev/dri/", "/dev/kfd", "/dev/accel"],
    cause: "gres.conf names {object} as a GPU's device node and this node has no such file, so slurmd will not start: the gres.conf (one file shared by every node, or written by a deployment tool) lists a GPU this node does not have, or the NVIDIA driver is not loaded here yet (no /dev/nvidia* until it is; slurmd started before it).",
    check: "'ls -l /dev/nvidia*' on the node against its gres.conf lines (NodeName= limits a line to the nodes it names); load the driver before slurmd ('nvidia-smi' or nvidia-persistenced at boot), or use AutoDetect=nvml instead of File= lines",
    rank: RANK_DECISIVE,
    ..RULE
};

/// Two gres.conf records for one GPU.
const GRES_DUPLICATE: EmitterRule = EmitterRule {
    emitter: "slurmd",
    who: "Slurm's node daemon (slurmd)",
    line: &[&["gres.conf duplicate records for "]],
    operation: Operation::Allocate,
    object: ObjectAt::After("gres.conf duplicate records for "),
    objects: &["gpu", "mps", "shard"],
    cause: "gres.conf describes the same {object} devices twice, so slurmd refuses it: AutoDetect=nvml (or rsmi, oneapi) finds the GPUs and explicit Name={object} lines for them are added besides, or two lines name the same File= or none.",
    check: "keep either AutoDetect alone or explicit 'Name=gpu Type=... File=/dev/nvidiaN' lines, one per device node; 'slurmd -G' prints the GRES the node would register",
    rank: RANK_DECISIVE,
    ..RULE
};

/// A gres.conf core list the node's cores do not cover.
const GRES_CORES: EmitterRule = EmitterRule {
    emitter: "slurmctld",
    who: "Slurm's controller (slurmctld)",
    line: &[&["gres/gpu", "invalid GRES core specification"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the GPUs' core affinity in gres.conf"),
    cause: "the Cores= (or CPUs=) list of a GPU in gres.conf names cores the node's definition does not have: Slurm reads it as core indexes of slurm.conf's Sockets and CoresPerSocket, and a list of hardware-thread CPU numbers (a generator's template, 'nvidia-smi topo -m' copied as is) or a slurm.conf with fewer cores runs past them.",
    check: "'slurmd -C' on the node prints its real socket, core and thread counts for slurm.conf; write Cores= as core indexes in that range (or let AutoDetect=nvml set the affinity), then restart slurmctld and slurmd",
    rank: RANK_DECISIVE,
    ..RULE
};

/// An engine's CDI injection of a name no spec declares.
const CDI_INJECTION: EmitterRule = EmitterRule {
    emitter: "cdi",
    who: "the engine's CDI injection (containerd, CRI-O or dockerd)",
    line: &[&["CDI device injection failed", "unresolvable CDI devices "]],
    operation: Operation::FindDevice,
    object: ObjectAt::After("unresolvable CDI devices "),
    gpu_object: true,
    cause: "no CDI spec in the engine's spec directories (/etc/cdi and /var/run/cdi, or the cdi_spec_dirs / cdi-spec-dirs its configuration sets) declares {object}: the spec was never written on this node (on Kubernetes the device plug-in or operator that writes it does not run here: its DaemonSet selects nodes by labels, such as NFD's rules for the vendor, that this node lacks, or it runs without CDI output; elsewhere the vendor's generator was not run), it sits in a directory this engine does not read, or it is invalid and the engine dropped it; a spec that declares only 'all' (WSL2) has no per-GPU names.",
    check: "'ls /etc/cdi /var/run/cdi' on the node and the engine's CDI settings (containerd's enable_cdi and cdi_spec_dirs, docker's cdi-spec-dirs); on Kubernetes, 'kubectl get pods -A -o wide' for the vendor's device plug-in on this node and its DaemonSet's nodeSelector against the node's labels; elsewhere generate the spec ('sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml', 'sudo amd-ctk cdi generate', Intel's intel-cdi-specs-generator)",
    rank: RANK_DECISIVE,
    ..RULE
};

/// Two Mesa builds refused as a pair.
const MESA_BUILD: EmitterRule = EmitterRule {
    emitter: "mesa-loader",
    who: "Mesa's driver loader",
    line: &[&["DRI driver not from this Mesa build"]],
    operation: Operation::MatchVersion,
    object: ObjectAt::Is("the DRI driver's Mesa build"),
    cause: "libGL (or libEGL) and the DRI driver it found come from two different Mesa builds, which Mesa refuses to pair: a half-updated Mesa, its 32-bit libraries left at another release than the 64-bit ones, or a driver from another repository (a PPA, a backport, the image's and the host's Mesa mixed) ahead of the distribution's.",
    check: "list the Mesa packages and their versions ('dpkg -l | grep -i mesa', 'rpm -qa | grep -i mesa'), including the 32-bit ones, and install one build of all of them; 'LIBGL_DEBUG=verbose glxinfo -B' names the driver file it loaded",
    rank: RANK_DECISIVE,
    ..RULE
};
