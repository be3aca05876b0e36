//! libnvidia-container's failures read as a class (issue 31, round 4): every line the legacy
//! hook's CLI prints is `nvidia-container-cli: <stage> error: <reason>` (src/cli/configure.c
//! and list.c: `warnx("<stage> error: %s", ...)` for the stages permission, initialization,
//! container, detection, device, mig-config, mig-monitor, requirement, mount and ldcache), and
//! the reason is one of the library's own strings with the errno text lower-cased after it
//! (src/error_generic.c `error_vset`: `"<what>: <path>: <strerror>"`). So a reason is read by
//! what the library was doing (src/xfuncs.h and src/utils.c: `file creation failed: %s`,
//! `mount operation failed: %s`, `stat failed: %s`, `path error: %s`) and the errno the kernel
//! gave it, not by one sentence. This file holds the mount stage (the container's root
//! filesystem and the host's driver files); the other stages are
//! [`crate::explain_rules_cli_stages`]. Sources: NVIDIA/libnvidia-container at the paths named
//! above each rule, and docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_REASON, RULE};

/// nvidia-container-cli's lines.
pub(crate) const CLI: EmitterRule = EmitterRule {
    emitter: "nvidia-container-cli",
    who: "nvidia-container-cli (the legacy hook)",
    ..RULE
};

/// The CLI's name, which `warnx` puts before every line it prints (the program name).
pub(crate) const HOOK: &str = "nvidia-container-cli";

/// The image's layout in the way of the driver's files.
const LAYOUT: &str = "the image's own layout is in the way of a path the hook mounts the driver's files at ({object}): a file, a link loop, or an absolute symbolic link that leaves the container's root (a /usr/lib64 or /usr/local/nvidia link in the image) where the hook needs a directory inside it, and the hook refuses to follow it.";

/// What to check when the hook cannot write into the container's root filesystem.
const ROOTFS_CHECK: &str = "'docker run --rm --entrypoint ls IMAGE -ld' on the directory named (what the image has there); the engine's volumes and mounts over it ('docker inspect' Mounts); or pass the GPU by CDI ('nvidia-ctk cdi generate', then '--device nvidia.com/gpu=all'), which mounts the driver's files itself";

/// The hook's `file creation failed: <path in the container>: <errno>` (src/utils.c
/// `file_create`) and `mount operation failed: <host file>: <errno>` (src/xfuncs.h
/// `xmount`), by the errno; `file exists` is [`crate::explain_rules`]'s and a `/proc/driver/nvidia`
/// path [`crate::explain_rules_loaders`]'.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        line: &[&[HOOK, "file creation failed: ", "read-only file system"]],
        operation: Operation::Mount,
        object: ObjectAt::After("file creation failed: "),
        cause: "the place in the container where the hook creates {object} (to mount the host driver's file over it) is read-only when the hook runs: a volume or bind mount over that directory mounted read-only (a host /usr or /usr/lib given with ':ro'), an image on read-only storage, or a runtime that makes the root filesystem read-only before its hooks run.",
        check: ROOTFS_CHECK,
        ..CLI
    },
    EmitterRule {
        line: &[&[HOOK, "file creation failed: ", "permission denied"]],
        operation: Operation::Mount,
        object: ObjectAt::After("file creation failed: "),
        cause: "the hook may not write {object} into the container's root filesystem: a rootless or user-namespaced container whose files belong to IDs the hook does not run as, or a security policy (SELinux, AppArmor) that denies it; the legacy hook is not meant for rootless engines.",
        check: "'podman info --format {{.Host.Security.Rootless}}' (or docker's rootless mode) and 'getenforce'; for a rootless engine pass the GPU by CDI ('nvidia-ctk cdi generate', then '--device nvidia.com/gpu=all') instead of the hook",
        ..CLI
    },
    EmitterRule {
        line: &[
            &[HOOK, "file creation failed: ", "not a directory"],
            &[
                HOOK,
                "file creation failed: ",
                "too many levels of symbolic links",
            ],
        ],
        operation: Operation::Mount,
        object: ObjectAt::After("file creation failed: "),
        cause: LAYOUT,
        check: ROOTFS_CHECK,
        ..CLI
    },
    // src/utils.c `path_resolve`: `path error: %s/%s: <errno>` and `path error: %s resolves
    // outside of %s`.
    EmitterRule {
        line: &[&[HOOK, "path error: "]],
        operation: Operation::Mount,
        object: ObjectAt::After("path error: "),
        cause: LAYOUT,
        check: ROOTFS_CHECK,
        ..CLI
    },
    EmitterRule {
        line: &[&[HOOK, "file creation failed: ", "no space left on device"]],
        operation: Operation::Mount,
        object: ObjectAt::After("file creation failed: "),
        cause: "the file system holding the container's root ({object}) is full: the hook could not create even the empty files it mounts the driver's files over.",
        check: "'df -h' and 'df -i' on the engine's storage ('docker info' Docker Root Dir, /var/lib/containers); free space ('docker system prune')",
        ..CLI
    },
    // xmount's `mount operation failed: <source>: <errno>`: EPERM is the kernel refusing the
    // bind mount, EACCES the hook reaching the host file.
    EmitterRule {
        line: &[&[HOOK, "mount operation failed: ", "operation not permitted"]],
        operation: Operation::Mount,
        object: ObjectAt::After("mount operation failed: "),
        cause: "the kernel refused the hook's bind mount of {object}: the hook runs without the privilege to mount in the container's mount namespace (a rootless engine, a user-namespaced or nested container such as docker inside LXC/LXD or another container), or a security module (AppArmor) denies mount.",
        check: "where the engine runs ('systemd-detect-virt -c' says whether it is itself a container); in LXC/LXD allow nesting, or pass the GPU by CDI ('nvidia-ctk cdi generate', then '--device nvidia.com/gpu=all'), whose mounts the runtime makes",
        ..CLI
    },
    EmitterRule {
        line: &[&[HOOK, "mount operation failed: ", "permission denied"]],
        operation: Operation::Mount,
        object: ObjectAt::After("mount operation failed: "),
        cause: "the hook was denied {object} while mounting it: a security policy (SELinux labels, AppArmor) or, in a rootless or user-namespaced engine, a host file the hook's user may not reach.",
        check: "'ls -lZ {object}' and 'getenforce' on the host; 'journalctl -k | grep -i -e apparmor -e avc'",
        ..CLI
    },
    EmitterRule {
        line: &[&[
            HOOK,
            "mount operation failed: ",
            "no such file or directory",
        ]],
        unless: &["/proc/driver/nvidia"],
        operation: Operation::Mount,
        object: ObjectAt::After("mount operation failed: "),
        cause: "{object}, which the hook found among the driver's files a moment before, is gone when it mounts it: the driver was upgraded or removed under the running system, or a driver container (the GPU operator's) restarted and its tree changed.",
        check: "'ls -l {object}' and 'cat /proc/driver/nvidia/version' against 'nvidia-smi' on the host; after a driver change reboot (or restart the driver container), then retry",
        ..CLI
    },
    // `stat failed: <path>` / `lstat failed: <path>` (src/xfuncs.h) on a file rather than a
    // device node (`/dev/...` is [`crate::explain_rules`]'s rule).
    EmitterRule {
        line: &[
            &[
                HOOK,
                "mount error: stat failed: ",
                "no such file or directory",
            ],
            &[
                HOOK,
                "mount error: lstat failed: ",
                "no such file or directory",
            ],
        ],
        // A path in the container's root (an overlay's merged tree) is the image's file, read
        // below; a host path must be one where the driver's files live.
        unless: &["stat failed: /dev/", "/merged/", "/rootfs/", "/compat/"],
        operation: Operation::Stat,
        object: ObjectAt::After("stat failed: "),
        objects: &[
            "/usr/",
            "/lib",
            "/etc/",
            "/opt/",
            "/run/nvidia",
            "/var/lib/nvidia",
        ],
        cause: "the hook was to mount {object}, which this host does not have: on Jetson (L4T) the CSV files under /etc/nvidia-container-runtime/host-files-for-container.d list files of another L4T release or board; elsewhere the driver file vanished after it was listed (the driver was upgraded or removed under the running system).",
        check: "'ls -l {object}' on the host; on Jetson install the L4T packages of the running release (or upgrade nvidia-container-toolkit, which skips CSV entries a board lacks); elsewhere reboot after a driver change",
        ..CLI
    },
    // src/nvc_mount.c: the CUDA forward-compatibility libraries the hook mounts from the
    // image's /usr/local/cuda/compat when the image is newer than the driver.
    EmitterRule {
        line: &[&[HOOK, "stat failed: ", "/compat/lib"]],
        operation: Operation::Stat,
        object: ObjectAt::After("stat failed: "),
        cause: "the image's CUDA forward-compatibility libraries are broken: the hook mounts the image's own /usr/local/cuda/compat libraries when the image's CUDA is newer than the driver, and {object} (a link in the image) names a file the image does not hold.",
        check: "'docker run --rm --entrypoint ls IMAGE -l /usr/local/cuda/compat' (a dangling libcuda.so link); reinstall the image's cuda-compat package, or remove the directory and use a host driver that runs the image's CUDA",
        ..CLI
    },
    // src/nvc_mount.c: `invalid device node: %s` when the host path is not a character device.
    EmitterRule {
        line: &[&[HOOK, "invalid device node: "]],
        operation: Operation::Mount,
        object: ObjectAt::After("invalid device node: "),
        cause: "the host's {object} is not a character device (a plain file or directory left where the device node should be, such as one a bind mount of a missing node created), so the hook will not mount it.",
        check: "'ls -l {object}' on the host: remove a plain file or directory there, then reload the driver's modules (or run 'nvidia-modprobe') to recreate the node",
        ..CLI
    },
    // src/nvc_mount.c and src/nvc.c: MIG's capability nodes (/proc/driver/nvidia-caps/mig-minors
    // lists them; /dev/nvidia-caps/nvidia-cap<N> are the nodes).
    EmitterRule {
        line: &[
            &[HOOK, "/proc/driver/nvidia-caps/mig-minors"],
            &[HOOK, "unable to get cap device attributes: "],
            &[HOOK, "error running mknod for nvcap"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("MIG's capability device nodes (/dev/nvidia-caps)"),
        cause: "the hook was asked for MIG access (a MIG device in NVIDIA_VISIBLE_DEVICES, or NVIDIA_MIG_CONFIG_DEVICES / NVIDIA_MIG_MONITOR_DEVICES) but the host's MIG capability nodes are not there: the driver exposes no nvidia-caps (a driver older than MIG, 450.80), the /dev/nvidia-caps nodes were never created on the host, or the hook could not create them (mknod is denied in a user namespace).",
        check: "'ls -l /dev/nvidia-caps' and 'cat /proc/driver/nvidia-caps/mig-minors' on the host; create the nodes ('sudo nvidia-ctk system create-device-nodes --control-devices' or 'nvidia-modprobe -f /proc/driver/nvidia-caps/mig-minors -c ...'), or let the GPU operator's driver create them",
        host_path: Some("/dev/nvidia-caps"),
        rank: RANK_REASON - 1,
        ..CLI
    },
];
