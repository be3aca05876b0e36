//! Issue 31, round 6: a render node's `ls -l` line whose group did not reach the container.
//!
//! People paste `ls -l /dev/dri` from inside the container when a GPU program cannot open the
//! render node. The node keeps the host's GID; where the container has no group of that GID
//! `ls` prints the bare number (linuxserver/docker-plex#211, corpus 226: `root 109 226, 128 …
//! renderD128`), and where the GID means another group there it prints that group's name
//! (tteck/Proxmox#2523, corpus 245: `ssl-cert` in an LXC). Either way the container's user is
//! not in the node's group, so opening it is refused: the GID has to be added by number. A
//! node listed with `render` or `video`, or that others may open (`crw-rw-rw-`), says nothing.

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
