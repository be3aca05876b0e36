//! The tree a YAML or JSON document is read into (yaml.v2's `node`, `decode.go`): the YAML
//! parser and the JSON fast path both build it, so it sits below both.

use std::borrow::Cow;

/// An index into [`Doc::nodes`].
pub type NodeId = u32;

/// One scalar as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar<'a> {
    /// The text, escapes and folding applied.
    pub text: Cow<'a, str>,
    /// Plain and untagged: yaml.v2 resolves it (`yes`, `0666`, `~`); a quoted one is a string.
    pub implicit: bool,
    /// The full tag (`tag:yaml.org,2002:int`, `!foo`), or empty.
    pub tag: Box<str>,
    /// 1-based line, for messages.
    pub line: u32,
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// A scalar.
    Scalar(Scalar<'a>),
    /// A sequence of nodes.
    Seq(Vec<NodeId>),
    /// A mapping, keys and values alternating, in document order.
    Map(Vec<NodeId>, u32),
    /// A reference to an anchored node.
    Alias(NodeId),
    /// A collection still being read (only while loading).
    Open,
}

/// The first document of a stream.
#[derive(Debug, Default)]
pub struct Doc<'a> {
    /// Every node; children come after their parent.
    pub nodes: Vec<Node<'a>>,
    /// The top node, or `None` for an empty stream.
    pub root: Option<NodeId>,
}

impl<'a> Doc<'a> {
    /// The same tree, owning its text.
    pub(super) fn into_owned(self) -> Doc<'static> {
        let nodes = self
            .nodes
            .into_iter()
            .map(|n| match n {
                Node::Scalar(s) => Node::Scalar(Scalar {
                    text: Cow::Owned(s.text.into_owned()),
                    implicit: s.implicit,
                    tag: s.tag,
                    line: s.line,
                }),
                Node::Seq(v) => Node::Seq(v),
                Node::Map(v, l) => Node::Map(v, l),
                Node::Alias(t) => Node::Alias(t),
                Node::Open => Node::Open,
            })
            .collect();
        Doc {
            nodes,
            root: self.root,
        }
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node<'a> {
        // Ids are only made by `load`, so they are always in range.
        &self.nodes[id as usize]
    }

    /// The node `id`, aliases followed (one step is enough: an alias never names an alias).
    pub fn target(&self, id: NodeId) -> &Node<'a> {
        match self.node(id) {
            Node::Alias(t) => self.node(*t),
            n => n,
        }
    }
}
