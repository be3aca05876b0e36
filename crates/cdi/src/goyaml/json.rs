//! A fast path for text that is plain JSON, read into the same tree the YAML parser builds and
//! with the same verdict libyaml (and so yaml.v2) gives it, JSON being YAML's flow style:
//! strings are double-quoted scalars, numbers, `true`, `false` and `null` plain scalars that the
//! YAML resolver reads. Where libyaml refuses what JSON allows, so does this: the `\/` escape
//! (yaml.v2 `scannerc.go` knows no such escape), a `\u` escape of a surrogate, a key whose `:`
//! is more than 1024 characters or a line away (`yaml_parser_stale_simple_keys`), a tab before
//! the top value or at the start of a later line. Anything else that is not plain JSON
//! (comments, trailing commas, YAML) is left to the YAML parser.

use std::borrow::Cow;

use super::tree::{Doc, Node, NodeId, Scalar};
use super::{MAX_DEPTH, YamlError};

/// `Ok(None)`: not plain JSON, read it as YAML.
pub(super) fn load_json(text: &str) -> Result<Option<Doc<'_>>, YamlError> {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
        line: 1,
        doc: Doc::default(),
        depth: 0,
    };
    r.outer_space(true)?;
    if !matches!(r.b.get(r.pos), Some(b'{' | b'[')) {
        return Ok(None);
    }
    let Some(root) = r.value()? else {
        return Ok(None);
    };
    r.outer_space(false)?;
    if r.pos != r.b.len() {
        return Ok(None);
    }
    r.doc.root = Some(root);
    Ok(Some(r.doc))
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    doc: Doc<'a>,
    depth: usize,
}

fn syntax(line: u32, what: &str) -> YamlError {
    YamlError::Syntax(format!("line {line}: {what}"))
}

type Step = Result<Option<NodeId>, YamlError>;

impl<'a> Reader<'a> {
    /// Space outside the top value: libyaml skips a tab there only after a token on the same
    /// line (`yaml_parser_scan_to_next_token`, simple keys allowed at a line start).
    fn outer_space(&mut self, before: bool) -> Result<(), YamlError> {
        let mut line_start = before;
        while let Some(&c) = self.b.get(self.pos) {
            match c {
                b' ' | b'\r' => {}
                b'\n' => {
                    line_start = true;
                    self.line += 1;
                }
                b'\t' if line_start => {
                    return Err(syntax(
                        self.line,
                        "found character that cannot start any token",
                    ));
                }
                b'\t' => {}
                _ => return Ok(()),
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn space(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            match c {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => self.line += 1,
                _ => return,
            }
            self.pos += 1;
        }
    }

    fn push(&mut self, node: Node<'a>) -> Result<NodeId, YamlError> {
        let id = NodeId::try_from(self.doc.nodes.len())
            .map_err(|_| YamlError::Syntax("too many nodes".to_string()))?;
        self.doc.nodes.push(node);
        Ok(id)
    }

    fn scalar(&mut self, text: Cow<'a, str>, implicit: bool) -> Step {
        let line = self.line;
        self.push(Node::Scalar(Scalar {
            text,
            implicit,
            tag: Box::default(),
            line,
        }))
        .map(Some)
    }

    fn value(&mut self) -> Step {
        self.space();
        match self.b.get(self.pos) {
            Some(b'{') => self.collection(true),
            Some(b'[') => self.collection(false),
            Some(b'"') => match self.string()? {
                Some(s) => self.scalar(s, false),
                None => Ok(None),
            },
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't' | b'f' | b'n') => {
                for word in ["true", "false", "null"] {
                    if self.text[self.pos..].starts_with(word) {
                        self.pos += word.len();
                        return self.scalar(Cow::Borrowed(word), true);
                    }
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    fn number(&mut self) -> Step {
        let start = self.pos;
        let digits = |r: &mut Self| {
            let from = r.pos;
            while r.b.get(r.pos).is_some_and(u8::is_ascii_digit) {
                r.pos += 1;
            }
            r.pos - from
        };
        if self.b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        let n = digits(self);
        if n == 0 || (n > 1 && self.b[int_start] == b'0') {
            return Ok(None);
        }
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Ok(None);
            }
        }
        if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.b.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Ok(None);
            }
        }
        self.scalar(Cow::Borrowed(&self.text[start..self.pos]), true)
    }

    /// A string at `pos` (on its opening quote).
    fn string(&mut self) -> Result<Option<Cow<'a, str>>, YamlError> {
        self.pos += 1;
        let start = self.pos;
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let Some(&c) = self.b.get(self.pos) else {
                return Ok(None);
            };
            match c {
                b'"' => {
                    let tail = &self.text[run..self.pos];
                    self.pos += 1;
                    return Ok(Some(match owned {
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(tail),
                    }));
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.text[run..self.pos]);
                    let Some(ch) = self.escape()? else {
                        return Ok(None);
                    };
                    s.push(ch);
                    run = self.pos;
                }
                0..=0x1F => return Ok(None),
                // NEL, LS and PS are line breaks to YAML 1.1: they would fold the string.
                0xC2 if self.b.get(self.pos + 1) == Some(&0x85) => return Ok(None),
                0xE2 if self.b.get(self.pos + 1) == Some(&0x80)
                    && matches!(self.b.get(self.pos + 2), Some(0xA8 | 0xA9)) =>
                {
                    return Ok(None);
                }
                _ => self.pos += 1,
            }
        }
    }

    fn escape(&mut self) -> Result<Option<char>, YamlError> {
        let Some(&e) = self.b.get(self.pos + 1) else {
            return Ok(None);
        };
        self.pos += 2;
        Ok(Some(match e {
            b'"' => '"',
            b'\\' => '\\',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'/' => {
                return Err(syntax(self.line, "found unknown escape character"));
            }
            b'u' => {
                let hex = self.text.get(self.pos..self.pos + 4).unwrap_or("");
                let Ok(v) = u32::from_str_radix(hex, 16) else {
                    return Ok(None);
                };
                if hex.len() != 4 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                    return Ok(None);
                }
                self.pos += 4;
                match char::from_u32(v) {
                    Some(c) => c,
                    None => {
                        return Err(syntax(
                            self.line,
                            "found invalid Unicode character escape code",
                        ));
                    }
                }
            }
            _ => return Ok(None),
        }))
    }

    fn collection(&mut self, map: bool) -> Step {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(YamlError::TooDeep);
        }
        let line = self.line;
        let id = self.push(Node::Open)?;
        self.pos += 1;
        let close = if map { b'}' } else { b']' };
        let mut items = Vec::new();
        self.space();
        if self.b.get(self.pos) == Some(&close) {
            self.pos += 1;
        } else {
            loop {
                if map {
                    self.space();
                    if self.b.get(self.pos) != Some(&b'"') {
                        return Ok(None);
                    }
                    let (key_at, key_line) = (self.pos, self.line);
                    let Some(key) = self.string()? else {
                        return Ok(None);
                    };
                    let key_id = self.scalar(key, false)?;
                    self.space();
                    if self.b.get(self.pos) != Some(&b':') {
                        return Ok(None);
                    }
                    // libyaml forgets a key whose ':' is on a later line or more than 1024
                    // characters on, and then stops at the ':'.
                    if self.line != key_line || self.text[key_at..self.pos].chars().count() > 1024 {
                        return Err(syntax(self.line, "did not find expected ',' or '}'"));
                    }
                    self.pos += 1;
                    items.extend(key_id);
                }
                let Some(v) = self.value()? else {
                    return Ok(None);
                };
                items.push(v);
                self.space();
                match self.b.get(self.pos) {
                    Some(b',') => self.pos += 1,
                    Some(&c) if c == close => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Ok(None),
                }
            }
        }
        self.doc.nodes[id as usize] = if map {
            Node::Map(items, line)
        } else {
            Node::Seq(items)
        };
        self.depth -= 1;
        Ok(Some(id))
    }
}
