//! Quadlet: the `[Container]` keys of a `.container` unit, one per line, in the order of the
//! podman arguments. Quadlet reads the keys differently (podman's pkg/systemd/quadlet):
//! `AddDevice=` splits words and unquotes, `Environment=` and `Mount=` split words, unquote and
//! apply C escapes, `GroupAdd=` takes the line as it is. Quadlet copies the values into the
//! generated `ExecStart=` escaping only quotes, backslashes and whitespace (pkg/systemd/parser,
//! escapeString), and systemd then expands `%` specifiers and `$` variables there, so a literal
//! `%` is written `%%` and a literal `$` is written `$$` (systemd.unit(5) "Specifiers",
//! systemd.service(5) "Command lines"). `AddDevice=` has no C escapes and takes a leading `-` as
//! "optional", so a device it would read otherwise is refused before rendering
//! ([`super::check_plan`]), never quoted.

use super::{Note, Rendering, podman_bind};
use crate::plan::{Need, Plan};
use gpuctl_cdi::podman::PodmanCeiling;

/// The first podman whose Quadlet reads `GroupAdd=` (podman commit 6d1098f8, PR #22601;
/// docs/vendors.md#quadlet-and-the-podman-release).
const GROUP_ADD_FROM: (u32, u32) = (5, 1);
/// The first podman that ships Quadlet (with `PodmanArgs=` from the start).
const QUADLET_FROM: (u32, u32) = (4, 4);

/// Renders the `[Container]` section for the podman that will read it: `GroupAdd=` from 5.1,
/// `PodmanArgs=--group-add keep-groups` before; with no release given, `GroupAdd=` and a note.
pub fn render(plan: &Plan, podman: Option<&PodmanCeiling>) -> Rendering {
    let mut text = String::from("[Container]\n");
    let mut notes = Vec::new();
    if let Some(p) = podman
        && p.release < QUADLET_FROM
    {
        notes.push(Note::NoQuadlet(p.podman.clone()));
    }
    for item in plan.items() {
        let line = match &item.need {
            Need::CdiDevice(name) | Need::DeviceNode(name) => {
                format!("AddDevice={}", systemd_quote(name))
            }
            Need::Env { name, value } => {
                format!("Environment={}", systemd_quote(&format!("{name}={value}")))
            }
            Need::BindReadOnly(path) => format!("Mount={}", systemd_quote(&podman_bind(path))),
            Need::KeepGroups => match podman {
                None => {
                    notes.push(Note::QuadletGroupAdd);
                    "GroupAdd=keep-groups".to_string()
                }
                Some(p) if p.release >= GROUP_ADD_FROM => "GroupAdd=keep-groups".to_string(),
                Some(_) => "PodmanArgs=--group-add keep-groups".to_string(),
            },
        };
        text.push_str(&line);
        text.push('\n');
    }
    Rendering { text, notes }
}

/// One word as systemd's word splitting reads it back: as it is when it holds nothing special,
/// otherwise in double quotes with `\`, `"` and control characters escaped; `%` and `$`
/// doubled always, since they would start a specifier or a variable. A leading `-` is quoted too (for `AddDevice=` it
/// would mean "ignore when missing").
pub fn systemd_quote(word: &str) -> String {
    let special = |c: char| c.is_whitespace() || c.is_control() || "\"'\\;".contains(c);
    let doubled = word.replace('%', "%%").replace('$', "$$");
    if !word.is_empty() && !word.starts_with('-') && !word.chars().any(special) {
        return doubled;
    }
    let mut out = String::from("\"");
    for c in doubled.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
