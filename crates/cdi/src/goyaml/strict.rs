//! Where libyaml (YAML 1.1, ported into yaml.v2) refuses what the YAML 1.2 parser gpuctl uses
//! accepts, checked on the text around the parser's events:
//! - a `%YAML` directive other than 1.1 ("found incompatible YAML document", `parserc.go`);
//! - the `\/` escape in a double-quoted scalar, which YAML 1.1 lacks ("found unknown escape
//!   character", `scannerc.go`);
//! - a tab before a token in block context after a line start or a `-`, `?` or `:` indicator,
//!   where libyaml allows a simple key and so does not skip tabs
//!   (`yaml_parser_scan_to_next_token`: "found character that cannot start any token").

use super::YamlError;

/// Refuses a `%YAML` directive other than 1.1 before the first document.
pub(super) fn directives(text: &str) -> Result<(), YamlError> {
    for line in text.lines() {
        let t = line.trim_end();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some(rest) = t.strip_prefix("%YAML") else {
            if t.starts_with('%') {
                continue;
            }
            return Ok(());
        };
        let version = rest.split_whitespace().next().unwrap_or("");
        if version != "1.1" {
            return Err(YamlError::Syntax(
                "found incompatible YAML document".to_string(),
            ));
        }
    }
    Ok(())
}

/// Turns the tabs between the ':' before byte `at` and `at` into spaces.
pub(super) fn tabs_to_spaces_before(text: &mut String, at: usize) {
    let bytes = text.as_bytes();
    let at = at.min(bytes.len());
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |i| i + 1);
    if start == 0 || bytes[start - 1] != b':' {
        return;
    }
    let run: String = text[start..at].replace('\t', " ");
    text.replace_range(start..at, &run);
}

/// Maps the parser's character positions to byte offsets, moving forward only.
pub(super) struct Cursor<'a> {
    text: &'a str,
    chars: usize,
    bytes: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Cursor {
            text,
            chars: 0,
            bytes: 0,
        }
    }

    /// The byte offset of character `index`, or `None` when it lies behind the cursor.
    pub(super) fn byte(&mut self, index: usize) -> Option<usize> {
        if index < self.chars {
            return None;
        }
        let mut it = self.text[self.bytes..].char_indices();
        while self.chars < index {
            let (_, c) = it.next()?;
            self.bytes += c.len_utf8();
            self.chars += 1;
        }
        Some(self.bytes)
    }

    /// Refuses a tab in the blanks before the token at byte `at`, in block context, when
    /// libyaml would be allowing a simple key there.
    pub(super) fn tab_before(&self, at: usize, line: usize) -> Result<(), YamlError> {
        let before = &self.text.as_bytes()[..at];
        let blanks = before
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let run = &before[before.len() - blanks..];
        if !run.contains(&b'\t') {
            return Ok(());
        }
        let head = &before[..before.len() - blanks];
        let prev = head.last().copied();
        // After a `---` document marker libyaml allows no simple key, so it skips the tab.
        let marker = head.ends_with(b"---")
            && matches!(
                head.len().checked_sub(4).map(|i| head[i]),
                None | Some(b'\n')
            );
        // (After a simple key's ':' libyaml allows no simple key either, so ':' is fine.)
        if !marker && matches!(prev, None | Some(b'\n' | b'\r' | b'-' | b'?')) {
            return Err(YamlError::Syntax(format!(
                "line {line}: found character that cannot start any token"
            )));
        }
        Ok(())
    }

    /// Refuses a `\/` escape in the double-quoted scalar that starts at byte `at`.
    pub(super) fn slash_escape(&self, at: usize, line: usize) -> Result<(), YamlError> {
        let b = self.text.as_bytes();
        if b.get(at) != Some(&b'"') {
            return Ok(());
        }
        let mut i = at + 1;
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => return Ok(()),
                b'\\' if b.get(i + 1) == Some(&b'/') => {
                    return Err(YamlError::Syntax(format!(
                        "line {line}: found unknown escape character, while parsing a quoted scalar"
                    )));
                }
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        Ok(())
    }
}
