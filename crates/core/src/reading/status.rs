//! An emitter's own status enum read as data (issue 31, round 4): one rule per class of the
//! enum (the values whose failure means the same thing for a container), each value found on
//! a line by its name, its message or its number, so that a caller's wording nobody here has
//! read (`HIP error: no ROCm-capable device is detected`, `hipGetDeviceCount returned 100`,
//! `error: hipErrorNoDevice`) reads the same.

use super::EmitterRule;

/// One value of an emitter's own status enum, as its header defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmitterStatus {
    /// The enum's name for it (`hipErrorNoDevice`), read as a whole identifier anywhere.
    pub name: &'static str,
    /// Its number (`100`; `0x1008` for HSA's, negative for OpenCL's).
    pub code: i64,
    /// The emitter's message for it (`hipGetErrorString`'s "no ROCm-capable device is
    /// detected"), read only on a line with the rule's shape; "" when it has none of its own.
    pub text: &'static str,
}

/// A status: `EmitterStatus { name, code, text }` in a table's row.
pub const fn status(name: &'static str, code: i64, text: &'static str) -> EmitterStatus {
    EmitterStatus { name, code, text }
}

/// Where a caller prints a status's number: the token right after `after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberAt {
    /// The words right before the number (`Call returned `, `hsa_init failed with `).
    pub after: &'static str,
    /// The number is hex without `0x` (ROCclr's `%x`); a `0x` prefix always reads as hex.
    pub hex: bool,
}

/// `NumberAt { after, hex: false }`.
pub const fn decimal_after(after: &'static str) -> NumberAt {
    NumberAt { after, hex: false }
}

/// `NumberAt { after, hex: true }`.
pub const fn hex_after(after: &'static str) -> NumberAt {
    NumberAt { after, hex: true }
}

/// The statuses of `rule` whose stem ([`stem`]) occurs somewhere in the text (`has` tells,
/// from the words found in the one pass): only these are looked for by name line by line. A
/// message, bare name or number is looked for only on a line with the rule's shape, so it
/// needs no word of its own in that pass.
pub(super) fn present_by(rule: &EmitterRule, has: impl Fn(&str) -> bool) -> Vec<&EmitterStatus> {
    rule.statuses.iter().filter(|s| has(stem(s.name))).collect()
}

/// The stems of every status of `rules`, each once, for the one pass over the text: a few
/// dozen words stand for some six hundred names (and their messages need none).
pub(super) fn stems<'r>(rules: impl Iterator<Item = &'r EmitterRule>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for s in rules.flat_map(|r| r.statuses.iter()) {
        let st = stem(s.name);
        if !out.contains(&st) {
            out.push(st);
        }
    }
    out
}

/// The part of a name its enum's values share: up to the second `_` (`HSA_STATUS_`,
/// `CL_INVALID_`, `ZE_RESULT_`; a name with fewer is its own stem), or the first two words of
/// a camel-case name (`hipError` of `hipErrorNoDevice`, `ErrorDevice` of Vulkan-Hpp's
/// `ErrorDeviceLost`).
pub(super) fn stem(name: &'static str) -> &'static str {
    if name.contains('_') {
        let end = name
            .match_indices('_')
            .nth(1)
            .map_or(name.len(), |(i, _)| i + 1);
        return &name[..end];
    }
    let end = name
        .char_indices()
        .skip(1)
        .filter(|(_, c)| c.is_ascii_uppercase())
        .nth(1)
        .map_or(name.len(), |(i, _)| i);
    &name[..end]
}

/// The status `line` names: by its name anywhere; on a line with the rule's shape
/// (`in_shape`) also by its bare name, its message (the longest that fits) or its number.
pub(super) fn find<'r>(
    rule: &'r EmitterRule,
    line: &str,
    in_shape: bool,
    present: &[&'r EmitterStatus],
) -> Option<&'r EmitterStatus> {
    if let Some(s) = present
        .iter()
        .find(|s| line.contains(stem(s.name)) && ident_in(line, s.name))
    {
        return Some(s);
    }
    if !in_shape {
        return None;
    }
    if let Some(s) = rule
        .statuses
        .iter()
        .find(|s| bare(rule, s).is_some_and(|b| ident_in(line, b)))
    {
        return Some(s);
    }
    if let Some(s) = rule
        .statuses
        .iter()
        .filter(|s| !s.text.is_empty() && line.contains(s.text))
        .max_by_key(|s| s.text.len())
    {
        return Some(s);
    }
    // An enum whose values are all negative (OpenCL's) is often written without its sign by a
    // person ("error 1001": intel/compute-runtime#579).
    let unsigned = rule.statuses.iter().all(|s| s.code < 0);
    rule.numbers.iter().find_map(|at| {
        line.match_indices(at.after).find_map(|(i, _)| {
            let n = number(&line[i + at.after.len()..], at.hex)?;
            rule.statuses
                .iter()
                .find(|s| s.code == n || (unsigned && n > 0 && s.code == -n))
        })
    })
}

/// `{status}` in a cause: the name and its number (`hipErrorNoDevice (100)`,
/// `HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008)`).
pub(super) fn label(rule: &EmitterRule, s: &EmitterStatus) -> String {
    if rule.hex && s.code >= 0 {
        format!("{} ({:#x})", s.name, s.code)
    } else {
        format!("{} ({})", s.name, s.code)
    }
}

/// The name without the rule's droppable prefix (`ERROR_DEVICE_LOST` for `VK_`).
fn bare(rule: &EmitterRule, s: &EmitterStatus) -> Option<&'static str> {
    (!rule.bare.is_empty())
        .then(|| s.name.strip_prefix(rule.bare))
        .flatten()
}

/// Whether `name` occurs in `line` as a whole identifier (no letter, digit or `_` on either
/// side): `hipErrorInvalidDevice` is not in `hipErrorInvalidDeviceFunction`.
fn ident_in(line: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name).any(|(i, _)| {
        !line[..i].chars().next_back().is_some_and(word)
            && !line[i + name.len()..].chars().next().is_some_and(word)
    })
}

/// The number at the start of `s` (after spaces, quotes and brackets): decimal, `-` for
/// negative, `0x` for hex (or hex throughout with `hex`); one that runs on into a letter or
/// digit of another word (`41040`, `0x1008f`) is none.
fn number(s: &str, hex: bool) -> Option<i64> {
    let s = s.trim_start_matches([' ', '(', '"', '\'', '=', ':', '[']);
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (radix, s) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(rest) => (16, rest),
        None if hex => (16, s),
        None => (10, s),
    };
    let end = s
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(s.len());
    let digits = &s[..end];
    if digits.is_empty() {
        return None;
    }
    let n = i64::from_str_radix(digits, radix).ok()?;
    Some(if negative { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_reads_in_its_radix_and_not_into_another_word() {
        assert_eq!(number(" 4104 ", false), Some(4104));
        assert_eq!(number("1008", true), Some(0x1008));
        assert_eq!(number("(0x1008)", false), Some(0x1008));
        assert_eq!(number(" -1001", false), Some(-1001));
        assert_eq!(number("41040", false), Some(41040));
        assert_eq!(number("0x1008f", false), Some(0x1008f));
        assert_eq!(number("abc", false), None);
    }

    #[test]
    fn a_stem_is_what_an_enum_s_names_share() {
        assert_eq!(stem("HSA_STATUS_ERROR"), "HSA_STATUS_");
        assert_eq!(stem("VK_TIMEOUT"), "VK_TIMEOUT");
        assert_eq!(stem("hipErrorNoDevice"), "hipError");
        assert_eq!(stem("ErrorDeviceLost"), "ErrorDevice");
    }

    #[test]
    fn a_name_is_a_whole_identifier() {
        assert!(ident_in(
            "error: hipErrorInvalidDevice.",
            "hipErrorInvalidDevice"
        ));
        assert!(!ident_in(
            "hipErrorInvalidDeviceFunction",
            "hipErrorInvalidDevice"
        ));
        assert!(!ident_in("MY_ZE_RESULT_ERROR_X", "ZE_RESULT_ERROR_X"));
    }
}
