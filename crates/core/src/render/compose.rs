//! compose: the GPU keys of one service, for podman-compose and docker compose alike. CDI
//! names go in `devices:` (the Compose Specification takes `vendor.com/class=name` there);
//! environment in list form (`- NAME=value`: a repeated name stays valid YAML); strings as
//! JSON strings, which YAML reads as double-quoted scalars, with `$` written `$$` (compose
//! interpolates variables in every value).
//!
//! podman-compose 1.x turns every bind mount into `-v SOURCE:TARGET:ro`, and podman splits that
//! at `:`; a by-path link (`pci-0000:03:00.0-render`) cannot survive it, in short or long form.
//! Such a mount is left out of the keys: a comment shows the long form docker compose takes,
//! and a [`Note`] says so on stderr.

use super::{Note, Rendering};
use crate::plan::{Need, Plan};

/// Renders the keys at column 0, to be indented under a service.
pub fn render(plan: &Plan) -> Rendering {
    let (mut devices, mut env, mut binds, mut lost, mut groups) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for item in plan.items() {
        match &item.need {
            Need::CdiDevice(name) | Need::DeviceNode(name) => devices.push(quoted(name)),
            Need::Env { name, value } => env.push(quoted(&format!("{name}={value}"))),
            Need::BindReadOnly(path) if path.contains(':') => lost.push(path.clone()),
            Need::BindReadOnly(path) => binds.push(path.clone()),
            Need::KeepGroups => groups.push(quoted("keep-groups")),
        }
    }
    let mut text = format!(
        "# gpuctl: {} keys for one compose service; indent them under the service, next to its image.\n",
        plan.noun()
    );
    let mut notes = Vec::new();
    list(&mut text, "devices", &devices);
    list(&mut text, "environment", &env);
    if !binds.is_empty() {
        text.push_str("volumes:\n");
        for p in &binds {
            text.push_str(&long_bind(p, ""));
        }
    }
    if !groups.is_empty() {
        text.push_str(
            "# gpuctl: keep-groups is podman's (crun only); docker compose needs numeric groups.\n",
        );
        notes.push(Note::ComposeKeepGroups);
    }
    list(&mut text, "group_add", &groups);
    if !lost.is_empty() {
        text.push_str(
            "# gpuctl: podman-compose passes binds as '-v SOURCE:TARGET:ro', which cannot carry\n\
             # the ':' of these paths, so they are left out; docker compose takes this long form:\n\
             # volumes:\n",
        );
        for p in &lost {
            text.push_str(&long_bind(p, "# "));
        }
        notes.push(Note::ComposeBindsLeftOut(lost));
    }
    Rendering { text, notes }
}

/// A YAML double-quoted scalar: JSON's string escapes, which YAML reads the same, plus
/// `\uXXXX` for what JSON leaves raw but YAML reads otherwise: its other line breaks (NEL
/// U+0085, U+2028, U+2029), which would end a `#` comment and fold a scalar, and the characters
/// outside YAML's printable set (DEL, the C1 controls, U+FEFF, U+FFFE, U+FFFF), which PyYAML
/// refuses raw. No host string reaches the text, comments included, any other way.
fn quoted(s: &str) -> String {
    let json = serde_json::Value::from(s.replace('$', "$$")).to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '\u{7f}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{feff}'
            | '\u{fffe}'
            | '\u{ffff}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

fn list(text: &mut String, key: &str, values: &[String]) {
    if values.is_empty() {
        return;
    }
    text.push_str(key);
    text.push_str(":\n");
    for v in values {
        text.push_str("  - ");
        text.push_str(v);
        text.push('\n');
    }
}

fn long_bind(path: &str, prefix: &str) -> String {
    let p = quoted(path);
    format!(
        "{prefix}  - type: bind\n{prefix}    source: {p}\n{prefix}    target: {p}\n{prefix}    read_only: true\n"
    )
}
