//! Text helpers: the host crate's (the Python tool's white space, line breaks and quoting,
//! [`gpuctl_host::text`]), and the one-pass word search the failure catalogue needs, which
//! belongs to no host read.

pub use gpuctl_host::text::*;

/// Which of `words` occur in `text`, found in one pass (a stderr can be 16 MiB and the
/// catalogue has a few hundred words).
pub fn present<'w>(text: &str, words: &[&'w str]) -> std::collections::HashSet<&'w str> {
    let words: Vec<&'w str> = words.iter().copied().filter(|w| !w.is_empty()).collect();
    // A DFA steps each byte with one table lookup, however many words there are; the default
    // (a contiguous NFA for a few hundred words) walks deeper states and failure links for every
    // byte that begins a word, which a long log pays for line by line.
    let Ok(ac) = aho_corasick::AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
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
