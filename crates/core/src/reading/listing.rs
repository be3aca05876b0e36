//! Issue 31, round 6: a render node's `ls -l` line whose group did not reach the container.
//!
//! People paste `ls -l /dev/dri` from inside the container when a GPU program cannot open the
//! render node. The node keeps the host's GID; where the container has no group of that GID
//! `ls` prints the bare number (linuxserver/docker-plex#211, corpus 226: `root 109 226, 128 …
//! renderD128`), and where the GID means another group there it prints that group's name
//! (tteck/Proxmox#2523, corpus 245: `ssl-cert` in an LXC). Either way the container's user is
//! not in the node's group, so opening it is refused: the GID has to be added by number. A
//! node listed with `render` or `video`, or that others may open (`crw-rw-rw-`), says nothing.
//!
//! Round 7: a listing of the DRM devices that holds none. `ls /sys/class/drm` on the host
//! lists a `cardN` (and `renderDN`) for every GPU a kernel driver drives, beside `version`;
//! with none, no DRM driver drives a GPU there (intel/intel-device-plugins-for-kubernetes#864:
//! a kernel too old for the GPU, so the device plug-in advertises nothing). `ls /dev/dri`
//! inside a container that lists no node says the container was given none.

use super::{Operation, Owner, RANK_REASON, Reading};

/// The groups a distribution gives its render and card nodes (udev's 50-udev-default.rules:
/// `render` for renderD*, `video` for card*).
const NODE_GROUPS: &[&str] = &["render", "video"];

/// The readings of every render node listed with a group the container's user cannot be in.
pub(crate) fn render_groups(text: &str) -> Vec<Reading> {
    // One search of the text before any line is split: most texts list no node.
    if !text.contains("renderD") {
        return Vec::new();
    }
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| reading(i + 1, line))
        .collect()
}

/// The readings of every `/dev/kfd` or render node listed as its owner's only (`crw-------
/// root root … kfd`): no udev rule gave it the group and mode (0660, render or video) that lets
/// anyone but root open it (ROCm/ROCT-Thunk-Interface#36: a kernel's amdgpu without ROCm's
/// udev rule).
pub(crate) fn owner_only(text: &str) -> Vec<Reading> {
    if !text.contains("kfd") && !text.contains("renderD") {
        return Vec::new();
    }
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [mode, _links, _owner, _group, _major, _minor, .., name] = fields.as_slice() else {
                return None;
            };
            let node = name.rsplit('/').next().unwrap_or(name);
            let gpu = node == "kfd"
                || node
                    .strip_prefix("renderD")
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            let m = mode.as_bytes();
            let only_owner = m.len() >= 10 && m[0] == b'c' && &m[4..10] == b"------";
            (gpu && only_owner).then(|| Reading {
                line: i + 1,
                emitter: "ls",
                operation: Operation::Open,
                object: Some(format!("/dev/{}{node}", if node == "kfd" { "" } else { "dri/" })),
                cause: "the node may be opened by its owner only (mode 0600): no udev rule gave it the group and mode that let a user or a container's process open it (render or video, 0660), as ROCm's and the distributions' rules do; only root can use the GPU.".to_string(),
                check: "'ls -l /dev/kfd /dev/dri' on the host; add a udev rule (KERNEL==\"kfd\", GROUP=\"render\", MODE=\"0660\"; the same for renderD*) or install the vendor's package that ships it, then 'sudo udevadm trigger' and add the user to that group".to_string(),
                owner: Owner::Stack,
                rank: RANK_REASON,
                who: "the node's listing",
                host_path: None,
                host_mount: None,
            })
        })
        .collect()
}

/// The reading of an `ls` of /sys/class/drm or /dev/dri whose output names no card or render
/// node (a listing that names one, or whose output was not pasted, says nothing).
pub(crate) fn no_drm_device(text: &str) -> Option<Reading> {
    if !text.contains("/sys/class/drm") && !text.contains("/dev/dri") {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().find_map(|(i, line)| {
        let target = listed(line)?;
        let output: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| command(l).is_none() && !l.trim().is_empty())
            .take(64)
            .copied()
            .collect();
        let names: Vec<&str> = output.iter().flat_map(|l| entries(l)).collect();
        let device = |n: &&str| n.starts_with("card") || n.starts_with("renderD");
        if names.is_empty() || names.iter().any(device) || output.iter().any(|l| l.contains("No such file")) {
            return None;
        }
        let (who, cause, check) = if target == "/sys/class/drm" {
            (
                "the host's DRM device listing",
                "the host's /sys/class/drm lists no card or render node: no kernel driver drives a GPU on this host (i915 or xe, amdgpu, nvidia-drm not loaded, or a kernel too old for the GPU or without its firmware), so no device node exists to pass and a device plug-in advertises none.",
                "'lspci -nnk | grep -A3 -E \"VGA|Display|3D\"' on the host names the GPU and the driver in use; 'dmesg | grep -iE \"i915|xe|amdgpu|nvidia|drm\"' says why none bound; a kernel and firmware new enough for the GPU ('gpuctl requirement <device id>')",
            )
        } else {
            (
                "the container's /dev/dri listing",
                "/dev/dri lists no card or render node where it was listed: the container was given no GPU node (no '--device /dev/dri' or CDI device), or the host has none.",
                "'ls -l /dev/dri' on the host; give the container the GPU as 'gpuctl args' prints it",
            )
        };
        Some(Reading {
            line: i + 1,
            emitter: "ls",
            operation: Operation::FindDevice,
            object: None,
            cause: cause.to_string(),
            check: check.to_string(),
            owner: Owner::Stack,
            rank: RANK_REASON,
            who,
            host_path: None,
            host_mount: None,
        })
    })
}

/// The command of a shell line (after a `$ ` or `# ` prompt, `user@host:dir$ `, `sudo `).
fn command(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = match t.split_once(['$', '#']) {
        Some((p, r))
            if r.starts_with(' ') && (p.is_empty() || (p.contains('@') && !p.contains(' '))) =>
        {
            r
        }
        _ => return None,
    };
    let t = t.trim_start();
    Some(t.strip_prefix("sudo ").unwrap_or(t).trim_start())
}

/// The directory an `ls` of one DRM directory lists (`ls -la /sys/class/drm/`).
fn listed(line: &str) -> Option<&'static str> {
    let mut words = command(line)?.split_whitespace();
    if words.next() != Some("ls") {
        return None;
    }
    let paths: Vec<&str> = words.filter(|w| !w.starts_with('-')).collect();
    match paths.as_slice() {
        [p] if p.trim_end_matches('/') == "/sys/class/drm" => Some("/sys/class/drm"),
        [p] if p.trim_end_matches('/') == "/dev/dri" => Some("/dev/dri"),
        _ => None,
    }
}

/// The names an `ls` output line lists: a long listing's last field, or every word of a short
/// one (`total 0`, `.` and `..` are none).
fn entries(line: &str) -> Vec<&str> {
    let long = line.len() > 10
        && line.as_bytes()[1..10]
            .iter()
            .all(|b| b"rwxsStT-".contains(b));
    let names: Vec<&str> = if long {
        line.split_whitespace().last().into_iter().collect()
    } else if line.starts_with("total ") {
        Vec::new()
    } else {
        line.split_whitespace().collect()
    };
    names
        .into_iter()
        .filter(|n| *n != "." && *n != "..")
        .collect()
}

fn reading(number: usize, line: &str) -> Option<Reading> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    // crw-rw----[+.] links owner group major, minor month day time name
    let [mode, _links, _owner, group, major, _minor, .., name] = fields.as_slice() else {
        return None;
    };
    let node = name.rsplit('/').next().unwrap_or(name);
    let render = node
        .strip_prefix("renderD")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let mode = mode.as_bytes();
    let group_only = mode.len() >= 10 && mode[0] == b'c' && &mode[4..6] == b"rw" && mode[8] == b'-';
    if !render || !group_only || *major != "226," || NODE_GROUPS.contains(group) {
        return None;
    }
    let unnamed = group.bytes().all(|b| b.is_ascii_digit());
    let cause = if unnamed {
        format!(
            "the node keeps the host's GID {group}, which names no group in the container, so the container's user is not in the node's group and may not open it (the host's render group did not reach the container)."
        )
    } else {
        format!(
            "the node keeps the host's GID, which names another group ('{group}') in the container, so the container's render group is not the node's and its user may not open it (the GIDs of host and container differ, as in an LXC)."
        )
    };
    Some(Reading {
        line: number,
        emitter: "ls",
        operation: Operation::Open,
        object: Some(format!("/dev/dri/{node}")),
        cause,
        check: "on the host, 'stat -c %g /dev/dri/renderD128' gives the node's GID: add it to the container by number ('--group-add <gid>', or podman's '--group-add keep-groups'; in an LXC, map or add that GID and put the service's user in it)".to_string(),
        owner: Owner::Stack,
        rank: RANK_REASON,
        who: "the container's user",
        host_path: None,
        host_mount: None,
    })
}
