//! libnvidia-container's stages other than mounting (issue 31, round 4), each read by what the
//! stage was doing and the library's own reason: the driver service it starts before anything
//! else (src/driver.c `driver_init_1_svc`: preload glibc, `change root failed`, drop
//! privileges; src/rpc.c: `<name> rpc ... failed`), the container it enters (src/nvc_container.c,
//! src/utils.c `namespace association failed`), the host's linker cache and the driver's ELF
//! files it reads (src/ldcache.c, src/elftool.c), the devices cgroup (src/cgroup.c, the nvcgo
//! helper), the container's ldconfig it runs (src/nvc_ldcache.c), the image's requirements
//! (src/cli/dsl.c), and the MIG and IMEX selections (src/cli/common.c). The `<stage> error: `
//! prefix is src/cli/configure.c's. Sources in docs/explain.md#emitters.

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_REASON, RANK_VAGUE};

use crate::explain_rules_cli::{CLI, HOOK};

/// Where the driver root the hook enters is configured.
const ROOT_CHECK: &str = "'grep -n -e root -e user /etc/nvidia-container-runtime/config.toml' on the host ('root' is '/' for a driver installed on the host, the driver container's tree such as /run/nvidia/driver under the GPU operator, which must be running); 'ls -ld' on that root";

/// The stages' rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // driver.c: chroot into config.toml's `root` (`--root`) for the driver service.
    EmitterRule {
        line: &[&[HOOK, "change root failed"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the driver root"),
        cause: "the hook could not enter the driver root it is configured with (config.toml's 'root', passed as --root): that directory is missing or not a driver tree, most often the GPU operator's driver container root (/run/nvidia/driver) while the driver container is not running, or a 'root' left from a driver container on a host that now has the driver installed.",
        check: ROOT_CHECK,
        ..CLI
    },
    // driver.c preloads glibc's libm, librt, libpthread (and libgcc_s on aarch64) before it
    // enters a root other than '/'.
    EmitterRule {
        line: &[&[HOOK, "load library failed: "]],
        operation: Operation::Initialise,
        object: ObjectAt::After("load library failed: "),
        objects: &["libm.so", "librt.so", "libpthread.so", "libgcc_s.so"],
        cause: "the hook preloads glibc's {object} from the system it runs on before entering a driver root other than '/' (config.toml's 'root'), and that system lacks it (a musl-based system, an aarch64 host without libgcc_s.so.1): the driver library is not what is missing.",
        check: "'ldconfig -p | grep {object}' where the hook runs; install the library, or use a driver root of '/' with the driver installed on the host",
        ..CLI
    },
    // utils.c perm_drop_privileges / nvc.c's uid_map and gid_map checks.
    EmitterRule {
        line: &[
            &[HOOK, "privilege change failed"],
            &[HOOK, "invalid map file: "],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the user the hook drops to"),
        cause: "the hook could not switch to the user and group it runs the driver service as (config.toml's 'user', root:video by default): in a user namespace (a rootless engine, a nested or user-namespaced container) those IDs are not mapped, or the namespace's uid_map/gid_map cannot be read; the legacy hook is not meant for user namespaces.",
        check: "'cat /proc/self/uid_map' where the engine runs; for a rootless or nested engine pass the GPU by CDI ('nvidia-ctk cdi generate', then '--device nvidia.com/gpu=all'); otherwise set 'user' in /etc/nvidia-container-runtime/config.toml to IDs that exist",
        ..CLI
    },
    // nvc.c / nvc_ldcache.c / rpc.c: the helper processes the hook forks.
    EmitterRule {
        line: &[
            &[HOOK, "process creation failed"],
            &[HOOK, "rpc service process creation failed"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("its helper process"),
        cause: "the hook could not start its helper process: the engine's process limit is reached ('resource temporarily unavailable': the pids cgroup or systemd's TasksMax of the engine), or the sandbox forbids the namespaces it creates ('operation not permitted' in a nested or rootless container).",
        check: "'systemctl show -p TasksMax,TasksCurrent docker containerd' on the host; for a nested or rootless engine pass the GPU by CDI instead of the hook",
        ..CLI
    },
    EmitterRule {
        line: &[
            &[HOOK, "rpc address resolution failed"],
            &[HOOK, "rpc client creation failed"],
            &[HOOK, "rpc service registration failed"],
            &[HOOK, "rpc service initialization failed"],
            &[HOOK, "nvcgo rpc error"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("its helper service"),
        // NVIDIA/nvidia-container-toolkit#2102: "nvcgo rpc error: timed out" where a burst of
        // containers left the helper slower to start than the RPC client's fixed 10 s.
        cause: "the hook could not set up the RPC link to its own helper service (the driver service, or nvcgo, which programs the devices cgroup): a sandbox that denies the socket calls it uses, a helper that died at start (a driver library that crashes it), or, where it 'timed out', a helper slower to start than the library's fixed 10-second RPC timeout (a node under CPU or I/O pressure, many GPU containers starting at once).",
        check: "run the hook by hand with debugging ('nvidia-container-cli -k -d /dev/tty info') on the host; 'dmesg' for a crashing helper",
        rank: RANK_VAGUE,
        ..CLI
    },
    // utils.c ns_enter: `namespace association failed: /proc/<pid>/ns/<ns>`.
    EmitterRule {
        line: &[&[HOOK, "namespace association failed"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the container's namespaces"),
        cause: "the hook could not enter the container's namespaces: the container process it was given had already exited (the container died at start), or its PID is of another PID namespace than the hook's (the engine runs inside another container).",
        check: "'systemd-detect-virt -c' where the engine runs; the engine's own log for the container exiting early",
        ..CLI
    },
    // cli/configure.c: `input error: invalid rootfs directory` (a rootfs not absolute, or '/').
    EmitterRule {
        line: &[&[HOOK, "invalid rootfs directory"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the container's root filesystem"),
        cause: "the hook was handed a container root that is not an absolute path below '/' (the OCI spec's root path passed on unresolved, or '/' itself): it was run by a runtime or tool it does not support.",
        check: "use the NVIDIA runtime or CDI ('nvidia-ctk cdi generate', then '--device nvidia.com/gpu=all') rather than calling the hook from another tool",
        ..CLI
    },
    // The host's /etc/ld.so.cache, which the hook reads to find the driver's libraries
    // (src/ldcache.c: `unsupported file format: %s`; xfuncs.h `open failed: %s`).
    EmitterRule {
        line: &[
            &[HOOK, "open failed: /etc/ld.so.cache"],
            &[HOOK, "unsupported file format: "],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("/etc/ld.so.cache"),
        cause: "the hook finds the driver's libraries through the host's linker cache (/etc/ld.so.cache under its driver root), and that cache is missing (ldconfig never run, a distribution without one, or a driver root that holds none) or in a format this libnvidia-container release does not read (an old toolkit on a newer glibc).",
        check: "'ls -l /etc/ld.so.cache' under the driver root and 'sudo ldconfig'; upgrade libnvidia-container1 and libnvidia-container-tools",
        host_path: Some("/etc/ld.so.cache"),
        ..CLI
    },
    // src/elftool.c: the driver's libraries read as ELF.
    EmitterRule {
        line: &[
            &[HOOK, "elf file read error: "],
            &[HOOK, "elf section "],
            &[HOOK, "elf data read error: "],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: &["lib"],
        cause: "the driver library {object} on the host is not a valid ELF file: it is empty, truncated or corrupt (a partial driver install or upgrade, a zero-byte placeholder copied over it, a damaged disk).",
        check: "'ls -l' and 'file' on it; reinstall the driver package it belongs to ('dpkg -S' or 'rpm -qf' names the package)",
        ..CLI
    },
    // src/cgroup.c: the devices cgroup the hook programs (cgroup v1 devices.allow, or v2 eBPF
    // through nvcgo). The family nvidia-hook-no-cgroups keeps its own signs.
    EmitterRule {
        line: &[
            &[HOOK, "failed to get device cgroup"],
            &[HOOK, "failed to add device rules: "],
        ],
        unless: &["bpf_prog_query"],
        operation: Operation::Mount,
        object: ObjectAt::Is("the container's devices cgroup"),
        cause: "the hook could not find or program the container's devices cgroup: the host's cgroup layout is not one it knows (cgroup v2 without delegation, a cgroup namespace, a nested or rootless engine) — where the engine itself grants the devices (CDI, rootless podman) the hook must not touch cgroups.",
        check: "'stat -fc %T /sys/fs/cgroup' (cgroup2fs is v2) on the host; set 'no-cgroups = true' in /etc/nvidia-container-runtime/config.toml and pass the device nodes, or use CDI",
        ..CLI
    },
    // src/nvc_ldcache.c: ldconfig run inside the container, failing of its own (an exit code)
    // or not starting. Killed by a signal names no cause the code tells (an rlimit, a seccomp
    // filter or the OOM killer), so that line stays the generic hook family's.
    EmitterRule {
        line: &[
            &[HOOK, "ldcache error: process ", " failed with error code: "],
            &[HOOK, "ldcache error: process execution failed"],
            &[HOOK, "ldcache error: process reaping failed"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the container's linker cache"),
        cause: "the ldconfig the hook runs inside the container (to add the driver's libraries to its cache) failed: the image's own ld.so.conf or ld.so.cache is broken or read-only, the image is not glibc-based (Alpine's musl has no ld.so.cache), or config.toml's 'ldconfig' names a binary the image cannot run.",
        check: "'docker run --rm --entrypoint ldconfig IMAGE' on the image; the 'ldconfig' line of /etc/nvidia-container-runtime/config.toml ('@/sbin/ldconfig' on most distributions, '@/sbin/ldconfig.real' on Debian and Ubuntu)",
        ..CLI
    },
    EmitterRule {
        line: &[
            &[HOOK, "running in secure mode with seccomp disabled"],
            &[HOOK, "syscall limiting failed"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("the container's linker cache"),
        cause: "the hook runs the container's ldconfig under a seccomp filter, and this kernel has no seccomp (built without CONFIG_SECCOMP_FILTER, as some embedded and vendor kernels are) or refuses the filter.",
        check: "'grep Seccomp /proc/self/status' on the host (0 or missing: no seccomp); use a kernel with seccomp, or CDI, whose ldconfig hook does not need it",
        ..CLI
    },
    // src/cli/dsl.c: NVIDIA_REQUIRE_* of the image; `arch` is the GPU's compute capability
    // (cli/configure.c check_device_arch). cuda, driver and brand have families.
    EmitterRule {
        line: &[&[HOOK, "unsatisfied condition: arch"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU's compute capability"),
        cause: "the image requires a GPU architecture (its NVIDIA_REQUIRE_* 'arch' clause, the compute capability) that the GPU given to the container does not have: the image was built for newer GPUs.",
        check: "'nvidia-smi --query-gpu=name,compute_cap --format=csv' on the host against the image's 'docker inspect IMAGE' NVIDIA_REQUIRE_* variables; use an image built for this GPU",
        ..CLI
    },
    EmitterRule {
        line: &[&[HOOK, "requirement error: invalid expression"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the image's NVIDIA_REQUIRE_* variables"),
        cause: "an NVIDIA_REQUIRE_* variable of the image (or set on the container) is not an expression the hook reads ('cuda>=12.4 brand=tesla,driver>=535', clauses of '<name><op><version>'), so no requirement could be checked.",
        check: "'docker inspect IMAGE' for NVIDIA_REQUIRE_* and the container's -e settings; fix the variable (NVIDIA_DISABLE_REQUIRE=1 skips the check)",
        ..CLI
    },
    // src/cli/common.c: NVIDIA_MIG_CONFIG_DEVICES / NVIDIA_MIG_MONITOR_DEVICES, and
    // NVIDIA_IMEX_CHANNELS (parse_imex_info).
    EmitterRule {
        line: &[
            &[HOOK, "mig-config error: "],
            &[HOOK, "mig-monitor error: "],
        ],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("the container's MIG settings"),
        cause: "NVIDIA_MIG_CONFIG_DEVICES or NVIDIA_MIG_MONITOR_DEVICES holds a value the hook does not take: only 'all' is supported, and not together with specific MIG devices in NVIDIA_VISIBLE_DEVICES (MIG configuration needs the whole GPUs).",
        check: "the container's NVIDIA_MIG_CONFIG_DEVICES / NVIDIA_MIG_MONITOR_DEVICES ('all'), with whole GPUs in NVIDIA_VISIBLE_DEVICES, in a privileged container",
        ..CLI
    },
    EmitterRule {
        line: &[&[HOOK, "unsupported IMEX channel value: "]],
        operation: Operation::FindDevice,
        object: ObjectAt::After("unsupported IMEX channel value: "),
        cause: "the container's IMEX channel request (NVIDIA_IMEX_CHANNELS) names '{object}', which is not a channel number (channels are numbered, below 2^20, as /dev/nvidia-caps-imex-channels/channel<N>).",
        check: "set NVIDIA_IMEX_CHANNELS to channel numbers ('0', or '0,1'); 'ls /dev/nvidia-caps-imex-channels' on the host lists the channels that exist",
        ..CLI
    },
    // The driver service's own `driver rpc error:` is [`crate::explain_rules`]'s; a helper that
    // is not the driver service is read here above.
    EmitterRule {
        line: &[&[HOOK, "container error: invalid mode of operation"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the container"),
        cause: "the hook was run neither for a container it supervises nor standalone (its caller passed no usable container PID): a runtime or tool calling the legacy hook in a way it does not support.",
        check: "use the NVIDIA runtime or CDI rather than calling nvidia-container-cli from another tool",
        rank: RANK_REASON + 1,
        ..CLI
    },
];
