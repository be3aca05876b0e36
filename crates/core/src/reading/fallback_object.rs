//! The structured fallback's object: which component a failure line is about, cut from the
//! line as its kind is written, and the vendor's device nodes its checks name.

use super::fallback_scan::{Known, Mention, Vocabulary};
use super::vocabulary::ComponentKind as K;

/// The object the failure is about: the first mention of a thing (not a runtime, not the
/// emitter) from the emitter's part of the line on, else before it; as its token (a library's
/// file name, a node's path, a resource or variable name).
pub(super) fn object_of(
    line: &str,
    mentions: &[Mention],
    from: usize,
    by: Option<Known>,
) -> Option<(String, K, Known)> {
    let things: Vec<&Mention> = mentions
        .iter()
        .filter(|m| m.known.component.kind != K::Runtime)
        .filter(|m| by != Some(m.known))
        // A phrase is no object, but the GPU by a vendor's two-word name (`AMD GPU`) is what a
        // device line is about.
        .filter(|m| {
            m.known.component.kind == K::Device || !m.known.component.word.contains([':', ' '])
        })
        .collect();
    let m = things
        .iter()
        .find(|m| m.at >= from)
        .or_else(|| things.first())?;
    let kind = m.known.component.kind;
    Some((token(line, m, kind), kind, m.known))
}

/// The object's token around a mention, cut as its kind is written.
fn token(line: &str, m: &Mention, kind: K) -> String {
    let edge = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | ',' | ';' | '(' | ')' | '[' | ']' | '<' | '>' | '{' | '}'
            )
    };
    let start = if m.known.component.word.starts_with('/') {
        m.at
    } else {
        line[..m.at].rfind(edge).map_or(0, |i| i + 1)
    };
    let end = line[m.end..].find(edge).map_or(line.len(), |i| m.end + i);
    let t = &line[start..end];
    let t = match kind {
        K::DriverLibrary | K::ImageLibrary | K::DriverFile | K::Program => {
            let t = t
                .split(':')
                .find(|p| p.contains(m.known.component.word.trim_start_matches('/')))
                .unwrap_or(t);
            t.rsplit('/').next().unwrap_or(t)
        }
        K::DeviceNode => t.split(":/").next().unwrap_or(t),
        K::Variable => t.split('=').next().unwrap_or(t),
        _ => t,
    };
    t.trim_end_matches(['.', ':', ',']).to_string()
}

/// The vendor's device nodes, then core's, as `ls -l` takes them (`/dev/nvidia* /dev/dri`).
pub(super) fn nodes(v: &Vocabulary, vendor: Option<&'static str>) -> String {
    let mut out: Vec<String> = Vec::new();
    for k in v.known.iter().filter(|k| k.component.kind == K::DeviceNode) {
        if (k.vendor == vendor || k.vendor.is_none()) && k.component.word.starts_with("/dev/") {
            let node = match k.component.prefix && k.component.word != "/dev/dri" {
                true => format!("{}*", k.component.word),
                false => k.component.word.to_string(),
            };
            if !out.contains(&node) {
                out.push(node);
            }
        }
    }
    // The vendor's own first.
    out.sort_by_key(|n| n.starts_with("/dev/dri") || n.starts_with("/dev/dxg"));
    out.retain(|n| n != "/dev/dxg");
    format!("'ls -l {}'", out.join(" "))
}
