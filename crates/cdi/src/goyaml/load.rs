//! The first document of a YAML stream as a tree, built as yaml.v2's `parser` builds its nodes
//! (`decode.go`): later documents are never read, an anchor names its node from the moment the
//! node starts, and an alias is a reference to the anchored node, not a copy.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::tree::{Doc, Node, NodeId, Scalar};
use super::{MAX_DEPTH, YamlError, strict};

struct Frame {
    id: NodeId,
    items: Vec<NodeId>,
    map: bool,
    flow: bool,
    line: u32,
}

/// Reads the first document of `text`: plain JSON by a fast path with the same verdict, the rest
/// by the YAML parser.
pub fn load(text: &str) -> Result<Doc<'_>, YamlError> {
    if let Some(doc) = super::json::load_json(text)? {
        return Ok(doc);
    }
    strict::directives(text)?;
    let mut at = match load_yaml(text) {
        Ok(doc) => return Ok(doc),
        Err(Failure::Refused(e)) => return Err(e),
        Err(Failure::TabAfterColon(at, _)) => at,
    };
    // saphyr-parser refuses `key:<TAB>value`, which libyaml reads as `key: value` (a tab after
    // a simple key's ':' is skipped): make such tabs spaces and read again, a few times at most.
    let mut patched = text.to_string();
    for _ in 0..64 {
        strict::tabs_to_spaces_before(&mut patched, at);
        match load_yaml(&patched) {
            Ok(doc) => return Ok(doc.into_owned()),
            Err(Failure::Refused(e)) => return Err(e),
            Err(Failure::TabAfterColon(next, _)) => at = next,
        }
    }
    match load_yaml(&patched) {
        Ok(doc) => Ok(doc.into_owned()),
        Err(Failure::Refused(e) | Failure::TabAfterColon(_, e)) => Err(e),
    }
}

enum Failure {
    Refused(YamlError),
    /// saphyr's "':' must be followed by a valid YAML whitespace", at this byte.
    TabAfterColon(usize, YamlError),
}

impl From<YamlError> for Failure {
    fn from(e: YamlError) -> Self {
        Failure::Refused(e)
    }
}

fn load_yaml(text: &str) -> Result<Doc<'_>, Failure> {
    let mut cursor = strict::Cursor::new(text);
    let mut flow_depth = 0usize;
    let mut doc = Doc::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, NodeId> = HashMap::new();
    let mut started = false;
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, span) = match parser.next_event() {
            None => break,
            Some(Ok(e)) => e,
            // The scanner's own bound on flow nesting (255 levels) can trip before the parser
            // hands over the 65th collection.
            Some(Err(e)) if e.info() == "recursion limit exceeded" => {
                return Err(YamlError::TooDeep.into());
            }
            // libyaml ends the first document at whatever token follows its top node
            // (`yaml_parser_parse_document_end` only peeks); yaml.v2 never reads further.
            Some(Err(_)) if doc.root.is_some() && stack.is_empty() => break,
            Some(Err(e)) if e.info() == "':' must be followed by a valid YAML whitespace" => {
                let at = text
                    .char_indices()
                    .nth(e.marker().index())
                    .map_or(text.len(), |(b, _)| b);
                return Err(Failure::TabAfterColon(
                    at,
                    YamlError::Syntax(scan_error(text, &e)),
                ));
            }
            Some(Err(e)) => return Err(YamlError::Syntax(scan_error(text, &e)).into()),
        };
        let line = u32::try_from(span.start.line()).unwrap_or(u32::MAX);
        let at = match &event {
            Event::Scalar(..)
            | Event::Alias(_)
            | Event::SequenceStart(..)
            | Event::MappingStart(..) => cursor.byte(span.start.index()),
            _ => None,
        };
        if let Some(at) = at {
            if flow_depth == 0 {
                cursor.tab_before(at, span.start.line())?;
            }
            if matches!(event, Event::Scalar(_, ScalarStyle::DoubleQuoted, ..)) {
                cursor.slash_escape(at, span.start.line())?;
            }
        }
        let new = match event {
            Event::StreamStart | Event::Nothing => continue,
            Event::DocumentStart(_) => {
                started = true;
                continue;
            }
            // yaml.v2's Unmarshal decodes the first document and never looks further.
            Event::DocumentEnd | Event::StreamEnd => break,
            Event::Alias(anchor) => {
                let target = *anchors.get(&anchor).ok_or_else(|| {
                    YamlError::Syntax(format!("line {line}: unknown anchor referenced"))
                })?;
                if matches!(doc.node(target), Node::Open) {
                    // yaml.v2 fails on it when decoding: "anchor '…' value contains itself".
                    return Err(Failure::Refused(YamlError::Decode(format!(
                        "line {line}: an anchor's value contains itself"
                    ))));
                }
                push(&mut doc, Node::Alias(target))?
            }
            Event::Scalar(text, style, anchor, tag) => {
                let tag: Box<str> = tag.map_or_else(Box::default, |t| {
                    format!("{}{}", t.handle, t.suffix).into_boxed_str()
                });
                let implicit = style == ScalarStyle::Plain && tag.is_empty();
                let id = push(
                    &mut doc,
                    Node::Scalar(Scalar {
                        text,
                        implicit,
                        tag,
                        line,
                    }),
                )?;
                if anchor != 0 {
                    anchors.insert(anchor, id);
                }
                id
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(YamlError::TooDeep.into());
                }
                let map = matches!(event, Event::MappingStart(..));
                let flow =
                    at.is_some_and(|at| matches!(text.as_bytes().get(at), Some(b'[' | b'{')));
                flow_depth += usize::from(flow);
                let id = push(&mut doc, Node::Open)?;
                if anchor != 0 {
                    anchors.insert(anchor, id);
                }
                stack.push(Frame {
                    id,
                    items: Vec::new(),
                    map,
                    flow,
                    line,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else {
                    return Err(YamlError::Syntax("unbalanced collection end".to_string()).into());
                };
                flow_depth -= usize::from(frame.flow);
                doc.nodes[frame.id as usize] = if frame.map {
                    Node::Map(frame.items, frame.line)
                } else {
                    Node::Seq(frame.items)
                };
                frame.id
            }
        };
        match stack.last_mut() {
            Some(parent) => parent.items.push(new),
            None => doc.root = Some(new),
        }
    }
    if !stack.is_empty() || (started && doc.root.is_none()) && !doc.nodes.is_empty() {
        return Err(YamlError::Syntax("the document ends inside a collection".to_string()).into());
    }
    Ok(doc)
}

fn push<'a>(doc: &mut Doc<'a>, node: Node<'a>) -> Result<NodeId, YamlError> {
    let id = NodeId::try_from(doc.nodes.len())
        .map_err(|_| YamlError::Syntax("too many YAML nodes".to_string()))?;
    doc.nodes.push(node);
    Ok(id)
}

/// libyaml's wording, which yaml.v2 and gpuctl's earlier parser share: the problem and where it
/// is, then the context and where that started.
fn scan_error(text: &str, e: &saphyr_parser::ScanError) -> String {
    let m = e.marker();
    let at = |line: usize, col: usize| format!("line {line} column {col}");
    let context = at(m.line(), m.col() + 1);
    match e.info().split_once(", found ") {
        Some((while_, problem)) if problem == "unexpected end of stream" => {
            let line = text.lines().count().max(1);
            let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!(
                "found {problem} at {}, {while_} at {context}",
                at(line, col)
            )
        }
        Some((while_, problem)) => format!("found {problem}, {while_} at {context}"),
        None => format!("{} at {context}", e.info()),
    }
}
