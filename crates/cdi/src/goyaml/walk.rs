//! yaml.v2's decoder (`decode.go`, `decoder.unmarshal`), replayed without building values: it
//! visits every node in document order, aliases followed, and fails where yaml.v2 fails under
//! `UnmarshalStrict` into an `interface{}`: excessive aliasing, a key set twice in one mapping
//! (merged keys included), a collection as a key, a merge of something that is not a mapping,
//! a scalar that does not match its tag.

use std::borrow::Cow;
use std::collections::HashSet;

use super::resolve::{Value, resolve};
use super::{Doc, MAX_DEPTH, Node, NodeId, YamlError};

/// yaml.v2's `alias_ratio_range_low`: up to 400,000 decode operations, 99% may come from
/// aliases.
const RATIO_LOW: u64 = 400_000;
/// yaml.v2's `alias_ratio_range_high`: from 4,000,000 decode operations on, 10% may.
const RATIO_HIGH: u64 = 4_000_000;

/// yaml.v2's `allowedAliasRatio`.
fn allowed_alias_ratio(decodes: u64) -> f64 {
    if decodes <= RATIO_LOW {
        0.99
    } else if decodes >= RATIO_HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decodes - RATIO_LOW) as f64 / (RATIO_HIGH - RATIO_LOW) as f64)
    }
}

/// A key as Go compares `interface{}` keys: `1`, `"1"` and `1.0` differ; NaN equals nothing.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Key<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(u64),
    Str(Cow<'a, str>),
}

/// The keys of one mapping: a short list while it is short (most mappings have a few keys), a
/// hash set past that, so a mapping of many keys stays linear.
#[derive(Default)]
struct Keys<'a> {
    few: Vec<Key<'a>>,
    many: HashSet<Key<'a>>,
}

impl<'a> Keys<'a> {
    /// False when `key` was there already.
    fn insert(&mut self, key: Key<'a>) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&key) {
                return false;
            }
            if self.few.len() < 16 {
                self.few.push(key);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(key)
    }
}

/// What the replay counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// yaml.v2's `decodeCount`.
    pub decodes: u64,
    /// yaml.v2's `aliasCount`.
    pub aliased: u64,
    /// Bytes of scalars reached through aliases.
    pub alias_bytes: u64,
}

struct Walk<'d, 'a> {
    doc: &'d Doc<'a>,
    counts: Counts,
    alias_depth: u32,
    depth: usize,
    byte_limit: u64,
}

/// Replays yaml.v2's decoding of `doc`; aliases may add at most `byte_limit` bytes of scalars.
pub fn check(doc: &Doc<'_>, byte_limit: u64) -> Result<Counts, YamlError> {
    let mut w = Walk {
        doc,
        counts: Counts {
            decodes: 1, // the document node
            ..Counts::default()
        },
        alias_depth: 0,
        depth: 0,
        byte_limit,
    };
    if let Some(root) = doc.root {
        w.unmarshal(root)?;
    }
    Ok(w.counts)
}

impl<'a> Walk<'_, 'a> {
    fn count(&mut self) -> Result<(), YamlError> {
        let c = &mut self.counts;
        c.decodes += 1;
        if self.alias_depth > 0 {
            c.aliased += 1;
        }
        if c.aliased > 100
            && c.decodes > 1000
            && c.aliased as f64 / c.decodes as f64 > allowed_alias_ratio(c.decodes)
        {
            return Err(YamlError::ExcessiveAliasing);
        }
        Ok(())
    }

    fn unmarshal(&mut self, id: NodeId) -> Result<(), YamlError> {
        self.count()?;
        match self.doc.node(id) {
            Node::Alias(target) => self.aliased(*target, Self::unmarshal),
            Node::Scalar(s) => {
                // Only a tag can make a scalar fail to resolve.
                if !s.tag.is_empty() {
                    resolve(s).map_err(|e| YamlError::Decode(format!("line {}: {e}", s.line)))?;
                }
                if self.alias_depth > 0 {
                    self.counts.alias_bytes += s.text.len() as u64;
                    if self.counts.alias_bytes > self.byte_limit {
                        return Err(YamlError::AliasesTooLarge {
                            limit: self.byte_limit,
                        });
                    }
                }
                Ok(())
            }
            Node::Seq(items) => self.nested(|w| items.iter().try_for_each(|&i| w.unmarshal(i))),
            Node::Map(items, _) => self.nested(|w| w.mapping(items, &mut Keys::default())),
            Node::Open => Err(YamlError::Syntax("unfinished collection".to_string())),
        }
    }

    fn aliased(
        &mut self,
        target: NodeId,
        f: impl FnOnce(&mut Self, NodeId) -> Result<(), YamlError>,
    ) -> Result<(), YamlError> {
        self.alias_depth += 1;
        let r = f(self, target);
        self.alias_depth -= 1;
        r
    }

    /// Collections reached through aliases nest too; the bound keeps the recursion short.
    fn nested(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<(), YamlError>,
    ) -> Result<(), YamlError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(YamlError::TooDeep);
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn mapping(&mut self, items: &[NodeId], seen: &mut Keys<'a>) -> Result<(), YamlError> {
        for pair in items.chunks(2) {
            let [k, v] = *pair else {
                return Err(YamlError::Syntax(
                    "a mapping key without a value".to_string(),
                ));
            };
            if self.is_merge(k) {
                self.merge(v, seen)?;
                continue;
            }
            self.unmarshal(k)?;
            let key = self.key(k)?;
            self.unmarshal(v)?;
            if let Some(key) = key
                && !seen.insert(key)
            {
                let line = self.line(k);
                return Err(YamlError::Decode(format!(
                    "line {line}: a key is set twice in one mapping"
                )));
            }
        }
        Ok(())
    }

    fn is_merge(&self, id: NodeId) -> bool {
        matches!(self.doc.node(id), Node::Scalar(s) if s.text == "<<" && s.implicit)
    }

    fn key(&self, id: NodeId) -> Result<Option<Key<'a>>, YamlError> {
        match self.doc.target(id) {
            Node::Scalar(s) => {
                let v = resolve(s).map_err(YamlError::Decode)?;
                Ok(match v {
                    Value::Null => Some(Key::Null),
                    Value::Bool(b) => Some(Key::Bool(b)),
                    Value::Int(i) => Some(Key::Int(i)),
                    Value::Uint(u) => Some(Key::Uint(u)),
                    Value::Float(f) if f.is_nan() => None,
                    Value::Float(f) => Some(Key::Float((f + 0.0).to_bits())),
                    Value::Str(s) => Some(Key::Str(s)),
                    Value::Merge => Some(Key::Str(Cow::Borrowed("<<"))),
                })
            }
            _ => Err(YamlError::Decode(format!(
                "line {}: invalid map key: a collection",
                self.line(id)
            ))),
        }
    }

    fn line(&self, id: NodeId) -> u32 {
        match self.doc.target(id) {
            Node::Scalar(s) => s.line,
            Node::Map(_, line) => *line,
            _ => 0,
        }
    }

    /// yaml.v2's `merge`: a mapping, an alias of one, or a sequence of those (last first).
    fn merge(&mut self, id: NodeId, seen: &mut Keys<'a>) -> Result<(), YamlError> {
        let want_map = || {
            YamlError::Decode("map merge requires map or sequence of maps as the value".to_string())
        };
        match self.doc.node(id) {
            Node::Seq(items) => {
                for &item in items.iter().rev() {
                    if !matches!(self.doc.target(item), Node::Map(..)) {
                        return Err(want_map());
                    }
                    self.merge_one(item, seen)?;
                }
                Ok(())
            }
            Node::Map(..) => self.merge_one(id, seen),
            Node::Alias(t) if matches!(self.doc.node(*t), Node::Map(..)) => {
                self.merge_one(id, seen)
            }
            _ => Err(want_map()),
        }
    }

    fn merge_one(&mut self, id: NodeId, seen: &mut Keys<'a>) -> Result<(), YamlError> {
        self.count()?;
        let (target, via_alias) = match self.doc.node(id) {
            Node::Alias(t) => (*t, true),
            _ => (id, false),
        };
        let Node::Map(items, _) = self.doc.node(target) else {
            return Err(YamlError::Decode("map merge requires a map".to_string()));
        };
        if via_alias {
            self.alias_depth += 1;
            let r = self
                .count()
                .and_then(|()| self.nested(|w| w.mapping(items, seen)));
            self.alias_depth -= 1;
            r
        } else {
            self.nested(|w| w.mapping(items, seen))
        }
    }
}
