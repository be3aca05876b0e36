//! YAML read the way Go's `gopkg.in/yaml.v2` reads it, because podman's CDI library reads every
//! spec (JSON or YAML alike) through `sigs.k8s.io/yaml`, which is yaml.v2 underneath
//! (docs/cdi-parsing.md).
//!
//! [`load`] parses the first document of a stream into a small tree whose aliases stay
//! references (nothing is expanded), refusing nesting deeper than [`MAX_DEPTH`] of any kind
//! (brackets or block indentation). [`walk::check`] then visits the tree as yaml.v2's decoder
//! does, counting decode operations and aliased ones with yaml.v2's own excessive-aliasing rule,
//! and bounding the bytes aliases add. Both bounds hold before any value is built, so a YAML bomb
//! costs time and memory in proportion to its size.

mod json;
mod load;
pub mod resolve;
mod strict;
mod tree;
pub mod walk;

use std::borrow::Cow;

use thiserror::Error;

pub use load::load;
pub use tree::{Doc, Node, NodeId, Scalar};

/// The deepest nesting of collections read. yaml.v2 stops at 10,000 levels
/// (`max_flow_level` and `max_indents` in its `scannerc.go`); a CDI spec nests 7 levels at most
/// (spec, devices, device, containerEdits, hooks, hook, args), so anything deeper than 64 is
/// refused by the library too, as a value of the wrong type.
pub const MAX_DEPTH: usize = 64;

/// Why a YAML text is not read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum YamlError {
    /// The text is not YAML (or not the encoding yaml.v2 accepts).
    #[error("{0}")]
    Syntax(String),
    /// Collections nest deeper than [`MAX_DEPTH`].
    #[error("collections nest deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// yaml.v2's alias rule refuses the document.
    #[error("document contains excessive aliasing")]
    ExcessiveAliasing,
    /// Aliases would add more bytes than the bound.
    #[error("aliases expand the document by more than {limit} bytes")]
    AliasesTooLarge {
        /// The bound.
        limit: u64,
    },
    /// yaml.v2 refuses the document while decoding it (a duplicate key, a bad tag...).
    #[error("{0}")]
    Decode(String),
}

/// Turns file bytes into text as yaml.v2's reader does: a UTF-8 or UTF-16 byte-order mark picks
/// the encoding and is dropped, anything else must be UTF-8, and control characters other than
/// tab, line feed and carriage return are refused (`readerc.go`, `yaml_parser_update_buffer`).
pub fn decode_text(bytes: &[u8]) -> Result<Cow<'_, str>, YamlError> {
    let text: Cow<'_, str> = match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => Cow::Borrowed(utf8(rest)?),
        [0xFF, 0xFE, rest @ ..] => Cow::Owned(utf16(rest, u16::from_le_bytes)?),
        [0xFE, 0xFF, rest @ ..] => Cow::Owned(utf16(rest, u16::from_be_bytes)?),
        _ => Cow::Borrowed(utf8(bytes)?),
    };
    if let Some(c) = text.chars().find(|&c| !printable(c)) {
        return Err(YamlError::Syntax(format!(
            "control characters are not allowed (U+{:04X})",
            u32::from(c)
        )));
    }
    Ok(text)
}

fn utf8(bytes: &[u8]) -> Result<&str, YamlError> {
    std::str::from_utf8(bytes).map_err(|e| {
        YamlError::Syntax(format!(
            "invalid UTF-8 at byte {} (yaml.v2 reads UTF-8, or UTF-16 after a byte-order mark)",
            e.valid_up_to()
        ))
    })
}

fn utf16(bytes: &[u8], word: fn([u8; 2]) -> u16) -> Result<String, YamlError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(YamlError::Syntax(
            "incomplete UTF-16 character at the end".to_string(),
        ));
    }
    let words = bytes.chunks_exact(2).map(|c| word([c[0], c[1]]));
    char::decode_utf16(words)
        .collect::<Result<String, _>>()
        .map_err(|_| YamlError::Syntax("invalid UTF-16 surrogate pair".to_string()))
}

/// The characters libyaml (and so yaml.v2) lets through its reader.
fn printable(c: char) -> bool {
    matches!(u32::from(c),
        0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10_FFFF)
}

#[cfg(test)]
mod tests;
