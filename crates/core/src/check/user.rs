//! Who runs podman: the invoking user's ids as the host's `/proc/self/status` gives them (a
//! fixture tree supplies its own), and group names from the host's `/etc/group`.

use std::path::Path;

use crate::host::Host;

/// The invoking user's ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Real user id.
    pub uid: u32,
    /// Real group id.
    pub gid: u32,
    /// Supplementary groups.
    pub groups: Vec<u32>,
}

impl Identity {
    /// Reads `/proc/self/status` under the host root; `None` when it is missing or unreadable.
    pub fn of_host(host: &Host) -> Option<Identity> {
        let text = host
            .read_to_string(Path::new("/proc/self/status"), 64 * 1024)
            .ok()?;
        parse_status(&text)
    }

    /// True when the user has `gid` as primary or supplementary group.
    pub fn in_group(&self, gid: u32) -> bool {
        self.gid == gid || self.groups.contains(&gid)
    }
}

/// Parses the `Uid:`, `Gid:` and `Groups:` lines of `/proc/<pid>/status`.
pub fn parse_status(text: &str) -> Option<Identity> {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|rest| rest.split_whitespace().collect::<Vec<_>>())
    };
    let uid = field("Uid:")?.first()?.parse().ok()?;
    let gid = field("Gid:")?.first()?.parse().ok()?;
    let groups = field("Groups:")
        .unwrap_or_default()
        .iter()
        .filter_map(|g| g.parse().ok())
        .collect();
    Some(Identity { uid, gid, groups })
}

/// The name of group `gid` in the host's `/etc/group`, or the number.
pub fn group_name(host: &Host, gid: u32) -> String {
    host.read_to_string(Path::new("/etc/group"), 1024 * 1024)
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                let mut f = l.split(':');
                let name = f.next()?;
                let id = f.nth(1)?;
                (id.parse::<u32>().ok()? == gid).then(|| name.to_string())
            })
        })
        .unwrap_or_else(|| gid.to_string())
}
