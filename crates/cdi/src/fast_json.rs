//! The JSON reader of the fast path: strict JSON (what generators write), read as the YAML flow
//! collections yaml.v2 takes it for. Strings without escapes, integers without sign, point or
//! exponent, `true` and `false`; not `null`, trailing commas, comments, escapes, or a key whose
//! `:` is on a later line or over 1000 characters on (libyaml's simple-key rule would read
//! those differently): those return `None`.

use super::fast_source::{Frame, Source, Tok, decimal, has_below, has_byte};

/// The farthest a key's `:` may stand from the key's start (libyaml: 1024).
const LONGEST_KEY: usize = 1000;

pub(super) struct Json<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Json<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Json { text, pos: 0 }
    }

    fn ws(&mut self) {
        let b = self.text.as_bytes();
        while matches!(b.get(self.pos), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Skips white space, then takes `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.text.as_bytes().get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A string without escapes or control characters, at the reader.
    fn string(&mut self) -> Option<&'a str> {
        let b = self.text.as_bytes();
        if b.get(self.pos) != Some(&b'"') {
            return None;
        }
        let start = self.pos + 1;
        let mut end = start;
        loop {
            let Some(chunk) = b.get(end..end + 8) else {
                end += b[end..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\\' || c < b' ')?;
                break;
            };
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([b'"'; 8]));
            let hit = has_byte(word, b'"') | has_byte(word, b'\\') | has_below(word, b' ');
            if hit != 0 {
                // The lowest flagged lane is a true match (false flags only sit above one).
                end += hit.trailing_zeros() as usize / 8;
                break;
            }
            end += 8;
        }
        if b[end] != b'"' {
            return None;
        }
        self.pos = end + 1;
        Some(&self.text[start..end])
    }

    /// A collection's opening bracket, and whether it is empty.
    fn open(&mut self, open: u8, close: u8) -> Option<Frame> {
        if !self.eat(open) {
            return None;
        }
        let empty = self.eat(close);
        Some(Frame {
            indent: 0,
            first: !empty,
            empty,
        })
    }

    /// Before the next entry: `Some(true)` when one follows, `Some(false)` at `close`.
    fn next(&mut self, frame: &mut Frame, close: u8) -> Option<bool> {
        if frame.empty {
            return Some(false);
        }
        if frame.first {
            frame.first = false;
            self.ws();
            return Some(true);
        }
        if self.eat(close) {
            frame.empty = true;
            return Some(false);
        }
        if !self.eat(b',') {
            return None;
        }
        self.ws();
        Some(true)
    }
}

impl<'a> Source<'a> for Json<'a> {
    fn root(&mut self) -> Option<Frame> {
        self.map_start()
    }

    fn map_start(&mut self) -> Option<Frame> {
        self.open(b'{', b'}')
    }

    fn map_key(&mut self, frame: &mut Frame) -> Option<Option<&'a str>> {
        if !self.next(frame, b'}')? {
            return Some(None);
        }
        let start = self.pos;
        let key = self.string()?;
        let b = self.text.as_bytes();
        while b.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        if b.get(self.pos) != Some(&b':') || self.pos - start > LONGEST_KEY {
            return None;
        }
        self.pos += 1;
        Some(Some(key))
    }

    fn seq_start(&mut self) -> Option<Frame> {
        self.open(b'[', b']')
    }

    fn seq_next(&mut self, frame: &mut Frame) -> Option<bool> {
        self.next(frame, b']')
    }

    fn scalar(&mut self) -> Option<Tok<'a>> {
        self.ws();
        let b = self.text.as_bytes();
        if b.get(self.pos) == Some(&b'"') {
            return self.string().map(Tok::Str);
        }
        let len = b[self.pos..]
            .iter()
            .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r'))
            .unwrap_or(b.len() - self.pos);
        let word = &self.text[self.pos..self.pos + len];
        let tok = match word {
            "true" => Tok::Bool(true),
            "false" => Tok::Bool(false),
            _ => Tok::Int(decimal(word)?),
        };
        self.pos += len;
        Some(tok)
    }

    fn finish(&mut self) -> Option<()> {
        // Outside the brackets a tab at a line's start is an error to libyaml
        // (`yaml_parser_scan_to_next_token`).
        let b = self.text.as_bytes();
        while matches!(b.get(self.pos), Some(b' ' | b'\n')) {
            self.pos += 1;
        }
        (self.pos == self.text.len()).then_some(())
    }
}
