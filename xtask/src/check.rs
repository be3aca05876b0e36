//! What a container saw, and whether it is what was granted. Pure functions over text: the
//! script the container runs prints tagged lines (`@@char`, `@@open`, ...), and everything here
//! parses and judges them, so that every rule is unit-tested without podman.
//!
//! The rule the checks rest on (docs/podman-ci.md#fake-device-nodes): a fake node that podman
//! passed through with `--device` (or CDI) is in the container's device cgroup, so opening it
//! reaches the kernel, which has no driver for it and answers ENXIO ("No such device or address").
//! A node that is only visible (bind-mounted, not allowed) fails with EPERM from the device cgroup.
//! A node that was not granted at all is absent: podman's `/dev` is a fresh tmpfs.

use std::collections::BTreeMap;

/// A character device node: where it is and its numbers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CharNode {
    /// The path (in the container, or on the host).
    pub path: String,
    /// The major number.
    pub major: u32,
    /// The minor number.
    pub minor: u32,
}

impl CharNode {
    /// A node at `path` with `major:minor`.
    pub fn new(path: &str, major: u32, minor: u32) -> Self {
        CharNode {
            path: path.to_string(),
            major,
            minor,
        }
    }
}

/// Why opening a node failed, from busybox sh's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// ENXIO: the node is allowed, and no driver answers. A granted fake node.
    NoDevice,
    /// EPERM: the device cgroup refuses the node. Visible, not granted.
    NotPermitted,
    /// EACCES: file permissions refuse it.
    Denied,
    /// ENOENT: nothing there (or a dangling link).
    NotFound,
    /// Anything else, with the shell's words.
    Other(String),
}

/// What the container found at one probed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// Nothing at the path.
    Absent,
    /// Opening it for reading succeeded (a real device, or a directory).
    Opened,
    /// Opening it failed.
    Failed(OpenError),
}

/// What a vendor tool printed inside the container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRun {
    /// The tool (`nvidia-smi`).
    pub name: String,
    /// Its output, stdout and stderr together.
    pub output: String,
    /// Its exit code, when the script got to print it.
    pub code: Option<i32>,
}

/// Everything the container script reported.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerReport {
    /// The `ls -l` listings of `/dev`, `/dev/dri` and `/dev/dri/by-path`, as printed.
    pub listing: String,
    /// Every character device under `/dev`.
    pub chars: Vec<CharNode>,
    /// The outcome for each probed path.
    pub probes: BTreeMap<String, Probe>,
    /// The `Groups:` line of `/proc/self/status`.
    pub groups: Option<Vec<u32>>,
    /// `NVIDIA_*` environment variables, `KEY=VALUE`.
    pub env: Vec<String>,
    /// A vendor tool's run, when the script ran one.
    pub tool: Option<ToolRun>,
    /// The script ran to its end (its last line was printed).
    pub complete: bool,
}

/// Shell lines that list the device directories and every character device under `/dev`.
pub const LIST_DEVICES: &str = "for d in /dev /dev/dri /dev/dri/by-path; do echo \"@@ls $d\"; ls -l \"$d\" 2>&1; done\n\
echo @@end-ls\n\
find /dev -type c 2>/dev/null | while read -r f; do stat -c '@@char %n %t %T' \"$f\"; done\n";

/// The script a fake-mode container runs: list the device directories and every character
/// device, try to open each path in `probe` (read-only, so nothing is created), and print the
/// supplementary groups and the NVIDIA environment.
pub fn container_script(probe: &[String]) -> String {
    let quoted: Vec<String> = probe.iter().map(|p| sh_quote(p)).collect();
    let mut s = String::from(LIST_DEVICES);
    if !quoted.is_empty() {
        s.push_str(&format!(
            "for p in {}; do\n  if [ -e \"$p\" ] || [ -L \"$p\" ]; then r=$( (exec 3<\"$p\") 2>&1 ); echo \"@@open $p $? $r\"\n  else echo \"@@absent $p\"; fi\ndone\n",
            quoted.join(" ")
        ));
    }
    s.push_str(TAIL);
    s
}

/// The script's last lines: groups, NVIDIA environment, and the completion mark.
pub const TAIL: &str = "sed -n 's/^Groups:/@@groups/p' /proc/self/status\n\
env | grep '^NVIDIA_' | sed 's/^/@@env /'\n\
echo @@done\n";

/// `'text'` for sh, with embedded single quotes escaped.
pub fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Classifies busybox sh's "can't open" message by its strerror text.
pub fn classify_open_error(message: &str) -> OpenError {
    let m = message.trim();
    if m.ends_with("No such device or address") {
        OpenError::NoDevice
    } else if m.ends_with("Operation not permitted") {
        OpenError::NotPermitted
    } else if m.ends_with("Permission denied") {
        OpenError::Denied
    } else if m.ends_with("no such file") || m.ends_with("No such file or directory") {
        OpenError::NotFound
    } else {
        OpenError::Other(m.to_string())
    }
}

/// Parses the tagged output of [`container_script`] (and of real mode's script).
pub fn parse_report(stdout: &str) -> ContainerReport {
    let mut r = ContainerReport::default();
    let mut in_listing = false;
    let mut in_tool = false;
    for line in stdout.lines() {
        if in_tool {
            if let Some(rest) = line.strip_prefix("@@toolrc ") {
                if let Some(t) = r.tool.as_mut() {
                    t.code = rest.trim().parse().ok();
                }
                in_tool = false;
            } else if let Some(t) = r.tool.as_mut() {
                t.output.push_str(line);
                t.output.push('\n');
            }
            continue;
        }
        if line.starts_with("@@ls ") {
            in_listing = true;
        } else if line == "@@end-ls" {
            in_listing = false;
            continue;
        }
        if in_listing {
            r.listing.push_str(line);
            r.listing.push('\n');
            continue;
        }
        if let Some(rest) = line.strip_prefix("@@char ") {
            if let Some(node) = parse_char(rest) {
                r.chars.push(node);
            }
        } else if let Some(rest) = line.strip_prefix("@@open ") {
            if let Some((path, probe)) = parse_open(rest) {
                r.probes.insert(path, probe);
            }
        } else if let Some(path) = line.strip_prefix("@@absent ") {
            r.probes.insert(path.to_string(), Probe::Absent);
        } else if let Some(rest) = line.strip_prefix("@@groups") {
            r.groups = Some(parse_groups(rest));
        } else if let Some(rest) = line.strip_prefix("@@env ") {
            r.env.push(rest.to_string());
        } else if let Some(name) = line.strip_prefix("@@tool ") {
            r.tool = Some(ToolRun {
                name: name.trim().to_string(),
                output: String::new(),
                code: None,
            });
            in_tool = true;
        } else if line == "@@done" {
            r.complete = true;
        }
    }
    r
}

/// `PATH MAJOR MINOR` with hexadecimal numbers, as busybox `stat -c '%n %t %T'` prints them.
fn parse_char(rest: &str) -> Option<CharNode> {
    let mut words = rest.split_whitespace();
    let path = words.next()?;
    let major = u32::from_str_radix(words.next()?, 16).ok()?;
    let minor = u32::from_str_radix(words.next()?, 16).ok()?;
    Some(CharNode::new(path, major, minor))
}

/// `PATH RC MESSAGE`: RC 0 is an open that worked; otherwise MESSAGE is the shell's error.
fn parse_open(rest: &str) -> Option<(String, Probe)> {
    let (path, rest) = rest.split_once(' ')?;
    let (rc, message) = rest.split_once(' ').unwrap_or((rest, ""));
    let rc: i32 = rc.parse().ok()?;
    let probe = if rc == 0 {
        Probe::Opened
    } else {
        Probe::Failed(classify_open_error(message))
    };
    Some((path.to_string(), probe))
}

/// The numbers of a `Groups:` value (`"\t44 100 "`); anything that is not a number is skipped.
pub fn parse_groups(value: &str) -> Vec<u32> {
    value
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// What a container must show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expectation {
    /// Nodes that must be there with these numbers and open with ENXIO.
    pub granted: Vec<CharNode>,
    /// Paths that must not exist in the container.
    pub absent: Vec<String>,
    /// Majors of the fake GPU nodes: a container node with one of them must be granted.
    pub gpu_majors: Vec<u32>,
    /// The supplementary groups the container must have, when the scenario checks them.
    pub groups: Option<Vec<u32>>,
    /// `KEY=VALUE` entries the container's environment must hold.
    pub env: Vec<String>,
}

/// Every way `report` differs from `expect`, one sentence each; empty when it matches.
pub fn verify(expect: &Expectation, report: &ContainerReport) -> Vec<String> {
    let mut problems = Vec::new();
    if !report.complete {
        problems.push("the container script did not run to its end".to_string());
    }
    for node in &expect.granted {
        let want = format!("{}:{}", node.major, node.minor);
        match report.probes.get(&node.path) {
            None => problems.push(format!("{} was not probed", node.path)),
            Some(Probe::Absent) => problems.push(format!(
                "{} ({want}) was granted but is missing in the container",
                node.path
            )),
            Some(Probe::Failed(OpenError::NoDevice)) => {}
            Some(Probe::Failed(OpenError::NotPermitted)) => problems.push(format!(
                "{} is visible but the device cgroup refuses it (EPERM): it was mounted, not passed as a device",
                node.path
            )),
            Some(Probe::Opened) => problems.push(format!(
                "{} opened, but a fake node must fail with ENXIO: it is not the fake node",
                node.path
            )),
            Some(Probe::Failed(e)) => problems.push(format!(
                "opening {} failed with {e:?}, expected ENXIO (No such device or address)",
                node.path
            )),
        }
        match report.chars.iter().find(|c| c.path == node.path) {
            Some(c) if (c.major, c.minor) == (node.major, node.minor) => {}
            Some(c) => problems.push(format!(
                "{} is {}:{} in the container, expected {want}",
                node.path, c.major, c.minor
            )),
            None if matches!(report.probes.get(&node.path), Some(Probe::Absent)) => {}
            None => problems.push(format!(
                "{} is not a character device in the container",
                node.path
            )),
        }
    }
    for path in &expect.absent {
        match report.probes.get(path) {
            Some(Probe::Absent) => {}
            None => problems.push(format!("{path} was not probed")),
            Some(p) => problems.push(format!(
                "{path} was not granted but is in the container ({})",
                probe_text(p)
            )),
        }
    }
    for c in &report.chars {
        let granted = expect.granted.iter().any(|g| g.path == c.path);
        let listed_absent = expect.absent.contains(&c.path);
        if expect.gpu_majors.contains(&c.major) && !granted && !listed_absent {
            problems.push(format!(
                "{} ({}:{}) is a GPU node in the container that was not granted",
                c.path, c.major, c.minor
            ));
        }
    }
    if let Some(want) = &expect.groups {
        match &report.groups {
            None => problems.push("the container printed no Groups: line".to_string()),
            Some(got) if got == want => {}
            Some(got) => problems.push(format!(
                "the container's supplementary groups are [{}], expected [{}]",
                join(got),
                join(want)
            )),
        }
    }
    for e in &expect.env {
        if !report.env.contains(e) {
            problems.push(format!(
                "the container's environment lacks {e} (it has: {})",
                report.env.join(" ")
            ));
        }
    }
    problems
}

/// A short description of a probe outcome.
pub fn probe_text(p: &Probe) -> &'static str {
    match p {
        Probe::Absent => "absent",
        Probe::Opened => "it opened",
        Probe::Failed(OpenError::NoDevice) => "opening it gives ENXIO: it was passed through",
        Probe::Failed(OpenError::NotPermitted) => "visible, opening it gives EPERM",
        Probe::Failed(OpenError::Denied) => "visible, opening it gives EACCES",
        Probe::Failed(OpenError::NotFound) => "a dangling link",
        Probe::Failed(OpenError::Other(_)) => "visible, opening it fails",
    }
}

/// `44 100`.
pub fn join(numbers: &[u32]) -> String {
    numbers
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
