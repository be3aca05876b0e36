//! Matching one rule against one line: the line's shape, the words that make it another
//! emitter's, and the object found by its place in the line.

use super::status::{self, EmitterStatus};
use super::{EmitterRule, ObjectAt, Reading};

/// The rule's reading of `line` (number `number`, from 1), or `None` when its shape is not
/// there, a word of [`EmitterRule::unless`] is, or the object is not one the rule reads. A
/// status rule reads a line that names one of `present` (its statuses found in the text).
pub(super) fn apply(
    rule: &EmitterRule,
    line: &str,
    number: usize,
    gpu: &[&str],
    present: &[&EmitterStatus],
) -> Option<Reading> {
    let shape = rule
        .line
        .iter()
        .any(|l| !l.is_empty() && l.iter().all(|w| has(line, w)));
    let found = if rule.statuses.is_empty() {
        None
    } else {
        Some(status::find(rule, line, shape, present)?)
    };
    if (found.is_none() && !shape) || rule.unless.iter().any(|w| line.contains(w)) {
        return None;
    }
    // A rule of several shapes may have its object's marker in one of them only (ffmpeg's
    // "Failed to initialise VAAPI connection" names no node, "No VA display found for device"
    // does): the line still reads, with no object, unless the rule needs one (`objects`,
    // `gpu_object`, below).
    let object = match rule.object {
        ObjectAt::None => None,
        ObjectAt::After(marker) => token_after(line, marker),
        ObjectAt::Before(marker) => token_before(line, marker),
        ObjectAt::Is(object) => Some(object.to_string()),
        ObjectAt::Named => Some(token_named(line, rule.objects)?),
    };
    if !rule.objects.is_empty()
        && !object
            .as_deref()
            .is_some_and(|o| rule.objects.iter().any(|p| o.starts_with(p)))
    {
        return None;
    }
    if rule.gpu_object && !object.as_deref().is_some_and(|o| names_gpu(o, gpu)) {
        return None;
    }
    let label = found.map(|s| status::label(rule, s)).unwrap_or_default();
    let fill = |s: &str| {
        s.replace("{object}", object.as_deref().unwrap_or("it"))
            .replace("{status}", &label)
    };
    Some(Reading {
        line: number,
        emitter: rule.emitter,
        operation: rule.operation,
        cause: fill(rule.cause),
        check: fill(rule.check),
        object,
        owner: rule.owner,
        rank: rule.rank,
        who: rule.who,
        host_path: rule.host_path,
        host_mount: rule.host_mount,
    })
}

/// Quotes, backticks and punctuation that end a token or wrap it.
fn is_edge(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '"' | '\'' | '`' | ',' | ';' | '(' | ')' | '[' | ']' | '\\'
        )
}

fn token_after(line: &str, marker: &str) -> Option<String> {
    let rest = &line[line.find(marker)? + marker.len()..];
    let rest = rest.trim_start_matches(is_edge);
    let end = rest.find(is_edge).unwrap_or(rest.len());
    clean(&rest[..end])
}

fn token_before(line: &str, marker: &str) -> Option<String> {
    let head = &line[..line.find(marker)?];
    let head = head.trim_end_matches(is_edge);
    let start = head.rfind(is_edge).map_or(0, |i| i + 1);
    // "ImportError: libcudnn.so.8" leaves no edge before the name: cut at the last ": ".
    let token = &head[start..];
    clean(token.rsplit(": ").next().unwrap_or(token))
}

/// The first token of `line` whose file name starts with one of `objects` (`/usr/lib/x86_64-
/// linux-gnu/libcuda.so` gives `libcuda.so`), split at edges and at `:`.
fn token_named(line: &str, objects: &[&str]) -> Option<String> {
    line.split(|c: char| is_edge(c) || c == ':')
        .map(|t| t.rsplit('/').next().unwrap_or(t))
        .filter(|t| objects.iter().any(|o| t.starts_with(o)))
        .find_map(clean)
}

fn clean(token: &str) -> Option<String> {
    let t = token.trim_end_matches(['.', ':']);
    (!t.is_empty()).then(|| t.to_string())
}

/// True when a token of `object` (split at anything not a letter or digit) is one of `gpu`:
/// `nvidia.com/gpu`, `gpu.intel.com/i915`, `nvidia-container-runtime`, `amd.com/gpu`.
fn names_gpu(object: &str, gpu: &[&str]) -> bool {
    object
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|t| gpu.contains(&t))
}

/// Whether `line` holds `word`; a word that ends in a digit (a status number, `returned
/// 4104`) must not run on into another digit or letter (`returned 41040`, `0x1008f`).
fn has(line: &str, word: &str) -> bool {
    if !word.ends_with(|c: char| c.is_ascii_digit()) {
        return line.contains(word);
    }
    line.match_indices(word).any(|(i, _)| {
        !line[i + word.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
    })
}
