//! The lines of a failure text that show it, each with a neighbour on either side, so that a
//! 300-line log is answered with the few lines that matter (issue 19), not repeated whole.

use super::Quoted;
use crate::families::Family;

/// The most lines quoted; a text that matches on more lines is cut after these.
const MAX_LINES: usize = 40;
/// The most characters of one quoted line (a minified JSON log can be one line of megabytes).
const MAX_CHARS: usize = 400;

/// The substrings of the family's signs that match `text`, one sign whole at a time.
pub(super) fn sign_needles(family: &Family, text: &str) -> Vec<&'static str> {
    family
        .signs
        .iter()
        .filter(|sign| !sign.is_empty() && sign.iter().all(|s| crate::text::holds(text, s)))
        .flat_map(|sign| sign.iter().copied())
        .collect()
}

/// The lines holding a needle, with one line of context on each side; the last line when no
/// needle sits on one line (a sign broken across lines).
pub(super) fn lines(text: &str, all: &crate::text::Lines, needles: &[&str]) -> Vec<Quoted> {
    let hits = all.holding(text, needles);
    let hits = if hits.is_empty() {
        all.count().checked_sub(1).into_iter().collect()
    } else {
        hits
    };
    let mut keep: Vec<usize> = hits
        .iter()
        .flat_map(|&i| [i.saturating_sub(1), i, i + 1])
        .filter(|&i| i < all.count())
        .collect();
    keep.sort_unstable();
    keep.dedup();
    keep.truncate(MAX_LINES);
    keep.into_iter()
        .map(|i| Quoted {
            number: i + 1,
            text: cut(all.get(text, i)),
        })
        .collect()
}

fn cut(line: &str) -> String {
    match line.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => format!("{} [...]", &line[..at]),
        None => line.to_string(),
    }
}

/// The quoted lines, numbered, with `...` where lines were left out.
pub(super) fn render(quote: &[Quoted]) -> String {
    let mut out = String::new();
    let mut last = 0;
    for q in quote {
        if last != 0 && q.number > last + 1 {
            out.push_str("      ...\n");
        }
        out.push_str(&format!("{:>5} | {}\n", q.number, q.text));
        last = q.number;
    }
    out
}
