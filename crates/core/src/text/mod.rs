//! Text helpers: the host crate's (the Python tool's white space, line breaks and quoting,
//! [`gpuctl_host::text`]), and the one-pass word search the failure catalogue needs, which
//! belongs to no host read.

pub use gpuctl_host::text::*;

/// `text` with the typography a forum, a blog or an editor puts into a pasted message undone:
/// curly single and double quotes as `'` and `"`, a no-break space as a space, and an en or em
/// dash as the `--` it replaced (`—gpus`). The tools print ASCII, so their wording matches
/// only once these are undone. A text with none (any machine's log) is not copied: one
/// vectorised scan for the lead bytes of these characters decides.
pub fn plain_quotes(text: &str) -> std::borrow::Cow<'_, str> {
    // U+2013, U+2014, U+2018, U+2019, U+201C, U+201D are E2 80 xx; U+00A0 is C2 A0.
    let b = text.as_bytes();
    let typographic = memchr::memchr2_iter(0xE2, 0xC2, b).any(|i| {
        matches!(
            (b[i], b.get(i + 1), b.get(i + 2)),
            (
                0xE2,
                Some(0x80),
                Some(0x93 | 0x94 | 0x98 | 0x99 | 0x9C | 0x9D)
            ) | (0xC2, Some(0xA0), _)
        )
    });
    if !typographic {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201C}' | '\u{201D}' => out.push('"'),
            '\u{00A0}' => out.push(' '),
            '\u{2013}' | '\u{2014}' => out.push_str("--"),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The lines of a text by where they start: a rule is tried, and a quote looked for, only on
/// the lines that hold its words (found by a vectorised search of the whole text), and a line
/// is found by its number without walking the text, rather than every line of a 16 MiB log
/// searched word by word (some 1.2 G instructions).
pub struct Lines {
    /// The offset where each line starts.
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `text`, as `str::lines` splits it.
    pub fn of(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        // `str::lines` gives no line after a final line break, and none for an empty text.
        if starts.last() == Some(&text.len()) {
            starts.pop();
        }
        Lines { starts }
    }

    /// How many lines there are.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// Line `i` (from 0) as `str::lines` gives it, without its line break and a CR before it;
    /// empty past the last.
    pub fn get<'t>(&self, text: &'t str, i: usize) -> &'t str {
        let Some(&start) = self.starts.get(i) else {
            return "";
        };
        let end = match self.starts.get(i + 1) {
            Some(next) => next - 1,
            None => text.len() - usize::from(text.ends_with('\n')),
        };
        let line = &text[start..end];
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// The lines (from 0, in order, each once) that hold one of `needles`.
    pub fn holding(&self, text: &str, needles: &[&str]) -> Vec<usize> {
        let mut out: Vec<usize> = needles
            .iter()
            .filter(|n| !n.is_empty())
            .flat_map(|n| memchr::memmem::find_iter(text.as_bytes(), n.as_bytes()))
            .map(|at| self.starts.partition_point(|&s| s <= at) - 1)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Whether `text` holds `needle`, by a vectorised search (`str::contains` walks a 16 MiB log
/// several times slower).
pub fn holds(text: &str, needle: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some()
}

/// The largest text [`unquote_paste`] looks at: a message a person pasted, not a machine's log.
const PASTE_MAX: usize = 64 << 10;

/// `text` without what a person's pasting put around every line: a Markdown quote (`> ` before
/// each line) and an indentation all lines share (a code block indented by four spaces, a
/// quoted e-mail). A Python traceback's exception line is told from its frames by its
/// indentation, and a listing's fields by their place, so both read only once the common
/// prefix is gone. A text with neither, or longer than a paste, is not copied.
pub fn unquote_paste(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() > PASTE_MAX {
        return std::borrow::Cow::Borrowed(text);
    }
    let filled = || text.lines().filter(|l| !l.trim().is_empty());
    let quoted = filled().all(|l| l.starts_with("> ") || l.trim_end() == ">");
    let unquote = |l: &'_ str| -> String {
        let l = if quoted {
            l.strip_prefix('>').unwrap_or(l)
        } else {
            l
        };
        l.strip_prefix(' ')
            .filter(|_| quoted)
            .unwrap_or(l)
            .to_string()
    };
    let indent = filled()
        .map(|l| {
            let l = unquote(l);
            l.len() - l.trim_start_matches([' ', '\t']).len()
        })
        .min()
        .unwrap_or(0);
    if !quoted && indent == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let l = unquote(l);
            l.get(indent..)
                .map_or_else(|| l.trim_start().to_string(), str::to_string)
        })
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

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
    // A word a long log repeats on every line (`error`) is marked, not hashed, at each match:
    // hashing every match cost a 16 MiB log some 300 M instructions.
    let mut seen = vec![false; words.len()];
    let mut left = words.len();
    for m in ac.find_overlapping_iter(text) {
        let i = m.pattern().as_usize();
        if !seen[i] {
            seen[i] = true;
            left -= 1;
            if left == 0 {
                break;
            }
        }
    }
    words
        .into_iter()
        .zip(seen)
        .filter_map(|(w, s)| s.then_some(w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::plain_quotes;
    use rstest::rstest;
    use std::borrow::Cow;

    #[rstest]
    #[case(
        "could not select device driver \u{201C}\u{201D}",
        "could not select device driver \"\""
    )]
    #[case(
        "cannot stat \u{2018}/dev/nvidia0\u{2019}",
        "cannot stat '/dev/nvidia0'"
    )]
    #[case("runtime name:\u{00A0}nvidia", "runtime name: nvidia")]
    #[case("docker run \u{2014}gpus all", "docker run --gpus all")]
    #[case(
        "podman run \u{2013}device nvidia.com/gpu=all",
        "podman run --device nvidia.com/gpu=all"
    )]
    fn typography_is_undone(#[case] text: &str, #[case] plain: &str) {
        assert_eq!(plain_quotes(text), plain);
    }

    /// A Markdown quote or an indentation every line shares is taken off; a text with neither
    /// is not copied.
    #[rstest]
    #[case("> line one\n> \n>   indented", "line one\n\n  indented")]
    #[case(
        "    Traceback (most recent call last):\n      File \"x.py\"\n    RuntimeError: boom",
        "Traceback (most recent call last):\n  File \"x.py\"\nRuntimeError: boom"
    )]
    #[case("\tone\n\ttwo", "one\ntwo")]
    fn a_paste_s_common_prefix_is_taken_off(#[case] text: &str, #[case] plain: &str) {
        assert_eq!(super::unquote_paste(text), plain);
    }

    #[rstest]
    #[case("no prefix\n  some indented")]
    #[case(">>> import torch\nTrue")]
    fn a_text_without_a_common_prefix_is_borrowed(#[case] text: &str) {
        assert!(
            matches!(super::unquote_paste(text), Cow::Borrowed(_)),
            "{text}"
        );
    }

    /// The line index splits as `str::lines` does.
    #[rstest]
    #[case("")]
    #[case("one")]
    #[case("one\n")]
    #[case("one\r\ntwo\r\n\nfour")]
    #[case("\n\n")]
    fn lines_split_as_str_lines_does(#[case] text: &str) {
        let lines = super::Lines::of(text);
        let got: Vec<&str> = (0..lines.count()).map(|i| lines.get(text, i)).collect();
        assert_eq!(got, text.lines().collect::<Vec<_>>());
        let want: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains('o'))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(lines.holding(text, &["o"]), want);
    }

    /// Text without those characters (other non-ASCII ones included) is not copied.
    #[rstest]
    #[case("Failed to initialize NVML: Unknown Error")]
    #[case("━━━━━━━━ 100% ⠋ downloading… é")]
    fn plain_text_is_borrowed(#[case] text: &str) {
        assert!(matches!(plain_quotes(text), Cow::Borrowed(_)), "{text}");
    }
}
