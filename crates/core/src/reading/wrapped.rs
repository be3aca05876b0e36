//! A message a person pasted is often wrapped at a terminal's or an issue form's width (round 7
//! of issue 31): a rule whose words are on no one line reads the lines joined.

use std::collections::HashSet;

use super::matching::apply;
use super::{Candidate, EmitterRule, EmitterStatus, Reading, candidates_by};

/// A message a person pasted is often wrapped (a terminal's or an issue form's width): a rule
/// whose words are in the text once its line breaks are spaces, but that read no one line,
/// reads two neighbouring lines joined (the reading is the first line's). Only a pasted text's
/// size: a machine's log is not wrapped, and a 16 MiB one is not read twice.
pub(super) fn read(
    text: &str,
    rules: &[&EmitterRule],
    gpu: &[&str],
    found: &HashSet<&str>,
    candidates: &[Candidate<'_>],
    read: &[bool],
) -> Vec<Reading> {
    if !text.contains('\n') {
        return Vec::new();
    }
    let flat = text.replace("\r\n", " ").replace('\n', " ");
    let unread: Vec<&Candidate<'_>> = candidates
        .iter()
        .zip(read)
        .filter(|(_, r)| !**r)
        .map(|(c, _)| c)
        .collect();
    let joined_words = candidates_by(rules, &|w| found.contains(w) || flat.contains(w));
    let newly: Vec<&Candidate<'_>> = joined_words
        .iter()
        .filter(|(r, _)| !candidates.iter().any(|(c, _)| std::ptr::eq(*c, *r)))
        .collect();
    if unread.is_empty() && newly.is_empty() {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (r, present) in unread.into_iter().chain(newly) {
        let alone = |l: &str| apply(r, l, 1, gpu, present).is_some();
        let mut i = 0;
        while i < lines.len() {
            match joined_reading(r, present, gpu, &lines[i..], i + 1, &alone) {
                Some((reading, taken)) => {
                    out.push(reading);
                    i += taken;
                }
                None => i += 1,
            }
        }
    }
    out
}

/// The most lines one wrapped message is read across (a long line wrapped at 80 columns).
const WRAPPED_LINES: usize = 4;

/// The shortest line taken for a wrapped one (terminals and issue forms wrap at 80 columns or
/// more: a line of under 20 characters was ended by its writer) ...
const WRAPPED_WIDTH: usize = 20;

/// ... unless the next line's first word would have run past 60 columns on it: a line is
/// wrapped short before a long path.
const WRAPPED_PAST: usize = 60;

/// Whether `line` reads as wrapped before `next`: a line that was wrapped ran to the width,
/// while a short one ended where its writer ended it and `next` is another message.
fn wrapped(line: &str, next: &str) -> bool {
    if starts_record(next) {
        return false;
    }
    let line = line.trim();
    let word = next.split_whitespace().next().unwrap_or("");
    line.len() >= WRAPPED_WIDTH || line.len() + 1 + word.len() > WRAPPED_PAST
}

/// Whether `line` opens a log record of its own, which no wrap of the line before it does:
/// glog's and klog's header (`I tensorflow/…/dso_loader.cc:105] `, `E0312 10:00:00.000000`),
/// logfmt's `time="…"`, or an ISO date (`2024-02-03T00:54:32`). TensorFlow's loader prints a
/// line per library, and joining its "successfully opened libcuda.so.1" to the failure above
/// it read a library that loaded as one that did not (issue 31, round 8, set K).
fn starts_record(line: &str) -> bool {
    let b = line.as_bytes();
    let glog = matches!(b.first(), Some(b'I' | b'W' | b'E' | b'F'))
        && (b.get(1) == Some(&b' ') || (b.len() > 5 && b[1..5].iter().all(u8::is_ascii_digit)));
    let logfmt = line.starts_with("time=\"") || line.starts_with("level=");
    let iso = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-';
    glog || logfmt || iso
}

/// The rule's reading of the first lines of `lines` joined (2 up to [`WRAPPED_LINES`]), and how
/// many it took: joined with a space (a break where a space was) or with nothing (a break
/// inside a word, as a terminal wraps a path). A window holding a line the rule reads alone is
/// not joined: that line is its own reading.
fn joined_reading(
    r: &EmitterRule,
    present: &[&EmitterStatus],
    gpu: &[&str],
    lines: &[&str],
    number: usize,
    alone: &dyn Fn(&str) -> bool,
) -> Option<(Reading, usize)> {
    if lines.first().is_none_or(|l| alone(l)) {
        return None;
    }
    for k in 2..=WRAPPED_LINES.min(lines.len()) {
        if alone(lines[k - 1]) || !wrapped(lines[k - 2], lines[k - 1]) {
            return None;
        }
        let window = &lines[..k];
        // Each break is a space or nothing, and one paste can hold both (a terminal's wrap
        // inside a path, then a form's at a space): every mix of the window's breaks is tried.
        for mask in 0..1u32 << (k - 1) {
            let mut joined = String::new();
            for (i, l) in window.iter().enumerate() {
                let glued = i > 0 && mask & (1 << (i - 1)) != 0;
                if i > 0 && !glued {
                    joined.push(' ');
                }
                let l = l.trim_end_matches('\r');
                joined.push_str(if glued { l } else { l.trim() });
            }
            if let Some(reading) = apply(r, &joined, number, gpu, present) {
                return Some((reading, k));
            }
        }
    }
    None
}

/// The largest text whose wrapped lines are joined for a rule (64 KiB: a pasted message).
pub(crate) const WRAPPED_MAX: usize = 64 << 10;
