//! Text helpers with the semantics of the Python tool gpuctl replaces, where they differ from
//! Rust's: what counts as white space, where lines break, how a token is quoted in a message.

/// Python's `str.isspace()` for one character: Unicode white space plus the information
/// separators U+001C..U+001F, which Rust's `char::is_whitespace` leaves out.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python's `str.splitlines()`: every line boundary Python knows, without the terminators.
pub fn py_splitlines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let is_break = matches!(
            c,
            '\n' | '\r'
                | '\u{0b}'
                | '\u{0c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !is_break {
            continue;
        }
        out.push(&s[start..i]);
        let mut next = i + c.len_utf8();
        if c == '\r'
            && let Some(&(j, '\n')) = chars.peek()
        {
            chars.next();
            next = j + 1;
        }
        start = next;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// True when `s` is non-empty and every character is an ASCII digit.
///
/// Python's `isdigit` also takes other scripts' digits ("٣"); gpuctl takes ASCII only, a
/// deliberate difference: an index is typed on a keyboard or written in a config file.
pub fn is_ascii_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Python's `repr()` of a string: single quotes unless the text holds a single quote and no
/// double quote, backslash escapes for the quote, backslash and control characters.
pub fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// `s` as it may be printed to a terminal or a line-based reader when a host supplied it: every
/// character that would end a line, move the cursor, start an escape sequence or reorder the
/// text around it is written in Rust's escape notation (`\n`, `\u{1b}`, `\u{2028}`),
/// the rest as it is. C0 and C1 controls and DEL, YAML's and Unicode's line and paragraph
/// separators (U+0085 is a C1 control, U+2028, U+2029), and the bidirectional embeddings,
/// overrides and isolates (U+202A..U+202E, U+2066..U+2069), which make a terminal show text in
/// another order than it is. One helper for every text output (docs/output-safety.md).
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_unprintable) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unprintable(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// True for what [`escape_controls`] escapes.
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Python's list repr of integers: `[3, 5]`.
pub fn py_int_list(items: &[u32]) -> String {
    let inner: Vec<String> = items.iter().map(u32::to_string).collect();
    format!("[{}]", inner.join(", "))
}

/// Python's list repr of strings: `['nvidia', 'amd', 'intel']`.
pub fn py_str_list<S: AsRef<str>>(items: &[S]) -> String {
    let inner: Vec<String> = items.iter().map(|s| py_repr(s.as_ref())).collect();
    format!("[{}]", inner.join(", "))
}

/// The candidate nearest to a mistyped word, for "did you mean": at most one edit per three
/// letters of the candidate (at least one), the first of equally near candidates.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d > 0 && *d <= (c.chars().count() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance in characters (insertions, deletions, substitutions).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The rows of a vendor data file shipped in a crate (the AMD and Intel tables): one row per
/// line, fields separated by tabs, blank lines and `#` comment lines (the file's origin)
/// skipped. Each row comes with its line, so a loader can report a line it cannot read.
pub fn tsv_rows(text: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| (l, l.split('\t').collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(" 0x8086 \n\n", "0x8086")]
    #[case("\u{1c}nvidia\u{1f}", "nvidia")]
    #[case("\u{a0}amd\u{85}", "amd")]
    #[case("", "")]
    fn strip_like_python(#[case] input: &str, #[case] want: &str) {
        assert_eq!(py_strip(input), want);
    }

    #[rstest]
    #[case("a\nb", vec!["a", "b"])]
    #[case("a\r\nb\rc", vec!["a", "b", "c"])]
    #[case("a\n", vec!["a"])]
    #[case("a\u{0b}b\u{1e}c\u{2028}d", vec!["a", "b", "c", "d"])]
    #[case("", vec![])]
    #[case("\n\n", vec!["", ""])]
    fn splitlines_like_python(#[case] input: &str, #[case] want: Vec<&str>) {
        assert_eq!(py_splitlines(input), want);
    }

    #[rstest]
    #[case("matrox", "'matrox'")]
    #[case("it's", "\"it's\"")]
    #[case("a'b\"c", "'a\\'b\"c'")]
    #[case("nvidia ", "'nvidia '")]
    #[case("tab\there", "'tab\\there'")]
    fn repr_like_python(#[case] input: &str, #[case] want: &str) {
        assert_eq!(py_repr(input), want);
    }

    #[test]
    fn list_reprs() {
        assert_eq!(py_int_list(&[3, 5]), "[3, 5]");
        assert_eq!(
            py_str_list(&["nvidia", "amd", "intel"]),
            "['nvidia', 'amd', 'intel']"
        );
    }

    #[rstest]
    #[case("nvdia", Some("nvidia"))]
    #[case("nvida", Some("nvidia"))]
    #[case("NVIDIA", None)]
    #[case("amdd", Some("amd"))]
    #[case("intl", Some("intel"))]
    #[case("alll", Some("all"))]
    #[case("nvidia", None)]
    #[case("matrox", None)]
    #[case("xx", None)]
    fn did_you_mean(#[case] word: &str, #[case] want: Option<&str>) {
        let words = ["nvidia", "amd", "intel", "all", "true", "none", "false"];
        assert_eq!(closest(word, words), want);
    }

    #[rstest]
    #[case("intel: usable (cdi)", "intel: usable (cdi)")]
    #[case("a\nintel: usable (cdi)", "a\\nintel: usable (cdi)")]
    #[case("\u{1b}[2K\rok", "\\u{1b}[2K\\rok")]
    #[case("a\u{85}b\u{2028}c\u{2029}", "a\\u{85}b\\u{2028}c\\u{2029}")]
    #[case("\u{202e}txt.exe", "\\u{202e}txt.exe")]
    #[case("tab\tdel\u{7f}", "tab\\tdel\\u{7f}")]
    #[case("Grüße – ✓", "Grüße – ✓")]
    fn controls_are_escaped(#[case] input: &str, #[case] want: &str) {
        assert_eq!(escape_controls(input), want);
    }

    #[rstest]
    #[case("0", true)]
    #[case("00", true)]
    #[case("", false)]
    #[case("+1", false)]
    #[case(" 1", false)]
    #[case("\u{663}", false)]
    fn ascii_digits(#[case] input: &str, #[case] want: bool) {
        assert_eq!(is_ascii_digits(input), want);
    }
}
