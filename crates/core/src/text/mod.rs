//! Text helpers: the host crate's (the Python tool's white space, line breaks and quoting,
//! [`gpuctl_host::text`]), and the one-pass word search the failure catalogue needs, which
//! belongs to no host read.

pub use gpuctl_host::text::*;

/// The length of text from which [`present`] builds a DFA: measured with callgrind, the
/// contiguous NFA costs some 30 instructions a byte more on a log, and the DFA some 150 M to
/// build, so they break even near 5 MiB.
const DFA_FROM: usize = 4 << 20;

/// Which of `words` occur in `text`, found in one pass (a stderr can be 16 MiB and the
/// catalogue has a few hundred words).
pub fn present<'w>(text: &str, words: &[&'w str]) -> std::collections::HashSet<&'w str> {
    let words: Vec<&'w str> = words.iter().copied().filter(|w| !w.is_empty()).collect();
    // A DFA steps each byte with one table lookup, however many words there are; the default
    // (a contiguous NFA for a few hundred words) walks deeper states and failure links for every
    // byte that begins a word, which a long log pays for line by line. But building the DFA
    // of the catalogue's words costs some 150 M instructions, which a podman error of a few
    // lines (the common case) would pay thirty times over: only a log past DFA_FROM bytes,
    // where the NFA's extra steps cost more than that, gets one.
    let kind = if text.len() >= DFA_FROM {
        aho_corasick::AhoCorasickKind::DFA
    } else {
        aho_corasick::AhoCorasickKind::ContiguousNFA
    };
    let Ok(ac) = aho_corasick::AhoCorasick::builder()
        .kind(Some(kind))
        .build(&words)
    else {
        // Only a pattern set too large for the automaton fails; search them one by one.
        return words.into_iter().filter(|w| text.contains(w)).collect();
    };
    let mut found = std::collections::HashSet::new();
    for m in ac.find_overlapping_iter(text) {
        found.insert(words[m.pattern().as_usize()]);
        if found.len() == words.len() {
            break;
        }
    }
    found
}
