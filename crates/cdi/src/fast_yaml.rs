//! The block-YAML reader of the fast path: what `nvidia-ctk` and Intel's generator write. One
//! document (an optional leading `---`), block mappings of plain keys, block sequences (indented
//! or not), single-line scalars (plain, or quoted without escapes), `{}` and `[]`. Not comments,
//! anchors, aliases, tags, flow collections with content, block scalars, multi-line scalars,
//! quoted keys, or anything it does not recognise: those return `None`.

use super::fast_source::{Frame, Source, Tok, decimal, has_byte};
use crate::goyaml::resolve::plain_is_str;

/// The longest key read: libyaml refuses a simple key over 1024 characters.
const LONGEST_KEY: usize = 1000;

pub(super) struct Yaml<'a> {
    text: &'a str,
    pos: usize,
    /// Whether `pos` is on the rest of a line after `key:` or `- ` (the value starts there),
    /// rather than at the start of a line.
    inline: bool,
    /// The inline value follows `- ` (so it may be a compact mapping), not `key:`.
    after_dash: bool,
    /// The column of the collection whose value the reader stands at.
    owner: usize,
    /// Where the line the reader is on starts.
    line: usize,
}

/// The next non-blank line: its indentation and where its content starts.
enum Line {
    Eof,
    At { indent: usize, start: usize },
}

/// How a scan of a line's plain text stopped.
struct Scan {
    /// At the line's end, or at the first `:` followed by a space or the end of the line.
    stop: usize,
    colon: bool,
    /// ` #` (a comment) came before the stop.
    hash: bool,
}

/// A byte that cannot start a plain scalar (`-`, `?` and `:` can, before a non-space; this
/// reader does not take those except `-`).
fn indicator(b: u8) -> bool {
    // A `match`, not a search of a 20-byte list: it is asked for every key and scalar, and
    // `contains` on a slice calls `memchr` (10 M instructions of a 4096-GPU spec; issue 26).
    matches!(
        b,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

impl<'a> Yaml<'a> {
    pub(super) fn new(text: &'a str) -> Option<Self> {
        let pos = match text.strip_prefix("---") {
            Some(rest) if rest.starts_with('\n') => 4,
            Some(_) => return None,
            None => 0,
        };
        Some(Yaml {
            text,
            pos,
            inline: false,
            after_dash: false,
            owner: 0,
            line: 0,
        })
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn line_end(&self, from: usize) -> usize {
        self.bytes()[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.text.len(), |i| from + i)
    }

    /// Scans plain text from `from`. This is the reader's inner loop, so it skips eight bytes at
    /// a time while none of them is a line feed, `:` or `#`.
    fn scan(&self, from: usize) -> Scan {
        let b = self.bytes();
        let mut hash = false;
        let mut i = from;
        loop {
            while let Some(chunk) = b.get(i..i + 8) {
                let word = u64::from_le_bytes(chunk.try_into().unwrap_or([b'\n'; 8]));
                let hit = has_byte(word, b'\n') | has_byte(word, b':') | has_byte(word, b'#');
                if hit != 0 {
                    // The lowest flagged lane is a true match (false flags only sit above one).
                    i += hit.trailing_zeros() as usize / 8;
                    break;
                }
                i += 8;
            }
            let Some(&c) = b.get(i) else { break };
            match c {
                b'\n' => break,
                b':' if matches!(b.get(i + 1), None | Some(b' ' | b'\n')) => {
                    return Scan {
                        stop: i,
                        colon: true,
                        hash,
                    };
                }
                b'#' => hash |= i > from && b[i - 1] == b' ',
                _ => {}
            }
            i += 1;
        }
        Scan {
            stop: i,
            colon: false,
            hash,
        }
    }

    /// Moves past the line that ends at or after `at`.
    fn next_line_from(&mut self, at: usize) {
        let end = match self.bytes().get(at) {
            Some(b'\n') | None => at,
            Some(_) => self.line_end(at),
        };
        self.pos = (end + 1).min(self.text.len());
        self.inline = false;
    }

    /// The next line with content, from the start of a line; a comment is not taken.
    fn peek(&self) -> Option<Line> {
        let b = self.bytes();
        let mut p = self.pos;
        loop {
            let indent = b[p..].iter().take_while(|&&c| c == b' ').count();
            let start = p + indent;
            match b.get(start) {
                None => return Some(Line::Eof),
                Some(b'\n') => p = start + 1,
                Some(b'#') => return None,
                Some(_) => return Some(Line::At { indent, start }),
            }
        }
    }

    /// Reads `key:` at `start`, leaving the reader at its value.
    fn key_at(&mut self, start: usize, indent: usize) -> Option<&'a str> {
        let b = self.bytes();
        let scan = self.scan(start);
        if !scan.colon || scan.hash {
            return None;
        }
        let colon = scan.stop;
        let key = &self.text[start..colon];
        let kb = key.as_bytes();
        if kb.is_empty()
            || kb.len() > LONGEST_KEY
            || indicator(kb[0])
            || matches!(kb[kb.len() - 1], b' ' | b':')
            || !plain_is_str(key)
        {
            return None;
        }
        let mut value = colon + 1;
        while b.get(value) == Some(&b' ') {
            value += 1;
        }
        self.owner = indent;
        if matches!(b.get(value), None | Some(b'\n')) {
            self.next_line_from(value);
        } else {
            self.pos = value;
            self.inline = true;
            self.after_dash = false;
        }
        Some(key)
    }

    /// The inline value is exactly `token` (`{}` or `[]`) and nothing follows it on the line.
    fn inline_is(&mut self, token: &str) -> bool {
        if self.bytes()[self.pos] != token.as_bytes()[0] {
            return false;
        }
        let end = self.line_end(self.pos);
        if &self.text[self.pos..end] == token {
            self.next_line_from(end);
            true
        } else {
            false
        }
    }
}

impl<'a> Source<'a> for Yaml<'a> {
    fn root(&mut self) -> Option<Frame> {
        match self.peek()? {
            Line::At { indent: 0, .. } => Some(Frame::default()),
            _ => None,
        }
    }

    fn map_start(&mut self) -> Option<Frame> {
        if self.inline {
            if self.inline_is("{}") {
                return Some(Frame {
                    empty: true,
                    ..Frame::default()
                });
            }
            // `- key: value`: a mapping whose keys stand at this column.
            let indent = self.pos - self.line;
            return self.after_dash.then_some(Frame {
                indent,
                first: true,
                empty: false,
            });
        }
        match self.peek()? {
            Line::At { indent, start } if indent > self.owner && self.bytes()[start] != b'-' => {
                Some(Frame {
                    indent,
                    ..Frame::default()
                })
            }
            _ => None,
        }
    }

    fn map_key(&mut self, frame: &mut Frame) -> Option<Option<&'a str>> {
        if frame.empty {
            return Some(None);
        }
        if frame.first {
            frame.first = false;
            return self.key_at(self.pos, frame.indent).map(Some);
        }
        match self.peek()? {
            Line::Eof => Some(None),
            Line::At { indent, .. } if indent < frame.indent => Some(None),
            Line::At { indent, start } if indent == frame.indent => {
                self.line = start - indent;
                self.key_at(start, indent).map(Some)
            }
            Line::At { .. } => None,
        }
    }

    fn seq_start(&mut self) -> Option<Frame> {
        if self.inline {
            return self.inline_is("[]").then(|| Frame {
                empty: true,
                ..Frame::default()
            });
        }
        // A sequence may stand at its key's column (nvidia-ctk writes it so).
        match self.peek()? {
            Line::At { indent, start } if indent >= self.owner && self.bytes()[start] == b'-' => {
                Some(Frame {
                    indent,
                    ..Frame::default()
                })
            }
            _ => None,
        }
    }

    fn seq_next(&mut self, frame: &mut Frame) -> Option<bool> {
        if frame.empty {
            return Some(false);
        }
        let (indent, start) = match self.peek()? {
            Line::Eof => return Some(false),
            Line::At { indent, start } => (indent, start),
        };
        if indent < frame.indent {
            return Some(false);
        }
        if indent > frame.indent {
            return None;
        }
        let b = self.bytes();
        if b[start] != b'-' {
            // The end of a sequence at its key's column; the mapping goes on.
            return Some(false);
        }
        if b.get(start + 1) != Some(&b' ') {
            return None;
        }
        let value = start + 1 + b[start + 1..].iter().take_while(|&&c| c == b' ').count();
        if matches!(b.get(value), None | Some(b'\n')) {
            return None;
        }
        self.pos = value;
        self.line = start - indent;
        self.inline = true;
        self.after_dash = true;
        self.owner = frame.indent;
        Some(true)
    }

    fn scalar(&mut self) -> Option<Tok<'a>> {
        if !self.inline {
            return None;
        }
        let b = self.bytes();
        let start = self.pos;
        let (tok, end) = match b[start] {
            q @ (b'"' | b'\'') => {
                let len = b[start + 1..]
                    .iter()
                    .position(|&c| c == q || c == b'\\' || c == b'\n')?;
                let close = start + 1 + len;
                let end = close + 1;
                if b[close] != q || !matches!(b.get(end), None | Some(b'\n')) {
                    return None;
                }
                (Tok::Str(&self.text[start + 1..close]), end)
            }
            c => {
                // `-` starts a plain scalar only before a non-blank (`--link`); alone it is an
                // entry of a block sequence.
                let dash_ok = c == b'-' && !matches!(b.get(start + 1), None | Some(b' ' | b'\n'));
                let scan = self.scan(start);
                let end = scan.stop;
                if (indicator(c) && !dash_ok) || scan.colon || scan.hash || b[end - 1] == b' ' {
                    return None;
                }
                (plain(&self.text[start..end])?, end)
            }
        };
        self.next_line_from(end);
        Some(tok)
    }

    fn finish(&mut self) -> Option<()> {
        matches!(self.peek()?, Line::Eof).then_some(())
    }
}

/// A plain scalar, resolved as yaml.v2 does; `None` for what the fast path does not take.
fn plain(s: &str) -> Option<Tok<'_>> {
    match s {
        "true" => return Some(Tok::Bool(true)),
        "false" => return Some(Tok::Bool(false)),
        _ => {}
    }
    if let Some(n) = decimal(s) {
        return Some(Tok::Int(n));
    }
    plain_is_str(s).then_some(Tok::Str(s))
}
