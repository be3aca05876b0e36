//! Issue 31, round 8: a device node's errno says which of the open's causes it was. A line
//! that names a GPU's device node (`/dev/dri/renderD128`, `/dev/kfd`, `/dev/nvidiactl`) and an
//! errno, as strerror prints it (`Permission denied`), by name (`EACCES`) or as the kernel's
//! negative number (`-13`), was answered with every cause of a failed open at once; each errno
//! has its own (open(2), and what the engines' device rules and the GPU drivers answer with
//! it). Set L showed three libGL lines that differed only in the errno, each with another
//! cause; this reads any emitter's line that way.

/// The errnos a device node's open answers with, and how each is written.
const ERRNOS: &[(Errno, &[&str], &[&str])] = &[
    (Errno::Access, &["permission denied", "eacces"], &["-13"]),
    (Errno::Perm, &["operation not permitted", "eperm"], &[]),
    (Errno::NoEnt, &["no such file or directory", "enoent"], &[]),
    (
        Errno::NoDev,
        &["no such device", "enodev", "enxio"],
        &["-19", "-6"],
    ),
    (Errno::Inval, &["invalid argument", "einval"], &["-22"]),
    (Errno::Busy, &["device or resource busy", "ebusy"], &["-16"]),
    (Errno::Io, &["input/output error", "eio"], &["-5"]),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Errno {
    Access,
    Perm,
    NoEnt,
    NoDev,
    Inval,
    Busy,
    Io,
}

/// The errno of a line, by its words or a negative number standing as a token.
fn errno(line: &str) -> Option<Errno> {
    let lower = line.to_ascii_lowercase();
    ERRNOS.iter().find_map(|(e, words, numbers)| {
        let by_word = words.iter().any(|w| {
            lower.match_indices(w).any(|(i, _)| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric())
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            })
        });
        let by_number = numbers.iter().any(|n| {
            lower.match_indices(n).any(|(i, _)| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + n.len()..].chars().next();
                before.is_none_or(|c| matches!(c, ' ' | ':' | '(' | '='))
                    && !after.is_some_and(|c| c.is_ascii_digit() || c == '.')
            })
        });
        (by_word || by_number).then_some(*e)
    })
}

/// The cause and the check for a device node's failure whose line names its errno; `None`
/// where it names none (the open's general reading stands).
pub(super) fn device_node(line: &str) -> Option<(&'static str, &'static str)> {
    Some(match errno(line)? {
        Errno::Access => (
            "the node {object} is there but the process may not open it: its user is not in the group that owns it (render or video for /dev/dri and /dev/kfd), that group did not reach the container (no '--group-add keep-groups', a '--user' that drops it, another GID inside it), or an SELinux or AppArmor label refuses it.",
            "'ls -ln {object}' and 'id' where the program runs; add the node's GID by number ('--group-add <gid>', podman's '--group-add keep-groups'); on an SELinux host 'ausearch -m avc -ts recent'",
        ),
        Errno::Perm => (
            "the node {object} is in the container but its device cgroup refuses the open: it was bind-mounted or listed without a device rule (a volume instead of '--device', an LXC without 'lxc.cgroup2.devices.allow'), passed read-only, or its rule was dropped after the container started (a 'systemctl daemon-reload' under runc with systemd's cgroup driver).",
            "pass the node with '--device' (or a CDI device), read-write; in an LXC, 'lxc.cgroup2.devices.allow: c <major>:* rwm'; recreate a container whose device rules a daemon-reload dropped",
        ),
        Errno::NoEnt => (
            "there is no {object} where the program runs: it was not passed to the container, or the host's driver did not create it (not loaded, or the GPU has another number here).",
            "'ls -l {object}' on the host and in the container; pass the nodes that exist as 'gpuctl args' prints them, and run 'gpuctl doctor' (a CDI spec naming a node the host lacks is stale)",
        ),
        Errno::NoDev => (
            "the node {object} exists but no device answers behind it: the driver that owns its major number is not loaded or has no GPU at its minor (a node made by hand or shipped in the image, a driver unloaded or reloaded since the container started, a GPU unbound or fallen off the bus).",
            "'ls -l {object}' and 'cat /proc/devices' on the host (the major must be the driver's), 'dmesg' for the driver; restart the container after a driver reload; never ship device nodes in an image",
        ),
        Errno::Inval => (
            "the driver refused the open or its first request with 'invalid argument': the user space is of another release than the kernel driver (ROCm's and KFD, NVIDIA's libraries and module), or the driver does not support this GPU for that use.",
            "compare the user space's release with the host's driver ('gpuctl doctor' checks the fit); 'dmesg' on the host names what the driver refused",
        ),
        Errno::Busy => (
            "the device {object} is held: another process or container has it open exclusively (an exclusive compute mode, a VM's passthrough, a display server on the primary node), or a driver reset is under way.",
            "'sudo fuser -v {object}' on the host lists the holders; stop them or give the program another GPU",
        ),
        Errno::Io => (
            "the driver answered with an I/O error on {object}: the GPU or its driver is in a bad state (a hang it could not reset, firmware that did not load, a GPU falling off the bus); the host's kernel log says which.",
            "'dmesg' on the host around the driver's lines (NVRM/Xid, amdgpu, i915 or xe); a reset or a reboot, and the firmware the driver asks for",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("open /dev/dri/renderD128: Permission denied", Some(Errno::Access))]
    #[case("[drm] Failed to open render node: -13", Some(Errno::Access))]
    #[case("cannot open /dev/kfd: Operation not permitted", Some(Errno::Perm))]
    #[case(
        "unable to open /dev/nvidia-uvm: No such file or directory",
        Some(Errno::NoEnt)
    )]
    #[case(
        "open /dev/nvidia0 failed: No such device or address",
        Some(Errno::NoDev)
    )]
    #[case(
        "failed to initialize GPU device /dev/dri/card1: -19 (No such device)",
        Some(Errno::NoDev)
    )]
    #[case(
        "could not open device /dev/dri/card0 (Invalid argument)",
        Some(Errno::Inval)
    )]
    #[case("open /dev/nvidia0: Device or resource busy", Some(Errno::Busy))]
    #[case("read /dev/dri/card0: Input/output error", Some(Errno::Io))]
    // a number that is no errno token, and a word inside another
    #[case("open /dev/dri/card0 failed after 1.5 s: -130", None)]
    #[case("open /dev/dri/card0: unexpected eiowait", None)]
    fn errnos(#[case] line: &str, #[case] want: Option<Errno>) {
        assert_eq!(errno(line), want, "{line}");
    }
}
