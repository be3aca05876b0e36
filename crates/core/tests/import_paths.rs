//! One import path per type (issue 15, docs/plugins.md#import-paths): a `pub use` may lift an
//! item out of a private module, never out of a public one, where the item already has a path
//! of its own. Checked for every crate under `crates/`, by reading the module tree from each
//! crate's `lib.rs` (`pub mod` and `mod` declarations) and resolving each `pub use` against it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A module of a crate: its file, and whether a path from outside the crate reaches it.
struct Module {
    file: Option<PathBuf>,
    public: bool,
}

type Tree = BTreeMap<Vec<String>, Module>;

/// The text of a file without line comments (doc comments hold example paths).
fn code(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `mod` declarations of a file: name, whether it is `pub`, whether it is inline.
fn declarations(text: &str) -> Vec<(String, bool, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let (public, rest) = if let Some(r) = line.strip_prefix("pub mod ") {
            (true, r)
        } else if let Some(r) = line.strip_prefix("mod ") {
            (false, r)
        } else if line.starts_with("pub(") && line.contains(") mod ") {
            (false, line.split_once(") mod ").unwrap().1)
        } else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let inline = rest[name.len()..].trim_start().starts_with('{');
        out.push((name, public, inline));
    }
    out
}

/// The module tree of the crate whose `lib.rs` is in `src`.
fn tree(src: &Path) -> Tree {
    let mut out = Tree::new();
    let mut todo = vec![(Vec::<String>::new(), src.join("lib.rs"), true)];
    while let Some((path, file, public)) = todo.pop() {
        let dir = if path.is_empty() || file.ends_with("mod.rs") {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        for (name, is_pub, inline) in declarations(&code(&file)) {
            let mut child = path.clone();
            child.push(name.clone());
            let reach = public && is_pub;
            if inline {
                out.insert(
                    child,
                    Module {
                        file: None,
                        public: reach,
                    },
                );
                continue;
            }
            let flat = dir.join(format!("{name}.rs"));
            let nested = dir.join(&name).join("mod.rs");
            // A test module under `#[path]` has neither; it is private, and holds no `pub use`.
            let found = [flat, nested].into_iter().find(|p| p.exists());
            out.insert(
                child.clone(),
                Module {
                    file: found.clone(),
                    public: reach,
                },
            );
            if let Some(f) = found {
                todo.push((child, f, reach));
            }
        }
        out.entry(path).or_insert(Module {
            file: Some(file),
            public,
        });
    }
    out
}

/// The `pub use` statements of a text (not `pub(crate) use`), each as its use tree.
fn pub_uses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("pub use ") {
        let before = rest[..i].chars().next_back();
        let tail = &rest[i + "pub use ".len()..];
        let end = tail.find(';').unwrap_or(tail.len());
        if before.is_none_or(|c| c.is_whitespace()) {
            out.push(tail[..end].split_whitespace().collect::<Vec<_>>().join(" "));
        }
        rest = &tail[end..];
    }
    out
}

/// The paths a use tree names (`a::{b, c::{d, e as f}}`: `a::b`, `a::c::d`, `a::c::e`).
fn leaves(tree: &str) -> Vec<Vec<String>> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let mut base = prefix.to_vec();
            base.extend(head);
            let body = &tree[open + 1..tree.rfind('}').unwrap()];
            let (mut depth, mut start) = (0, 0);
            for (j, c) in body.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&base, &body[start..j], out);
                        start = j + 1;
                    }
                    _ => {}
                }
            }
            walk(&base, &body[start..], out);
            return;
        }
        let tree = tree.split(" as ").next().unwrap().trim();
        if tree.is_empty() {
            return;
        }
        let mut path = prefix.to_vec();
        path.extend(tree.split("::").map(|s| s.trim().to_string()));
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        out.push(path);
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// Every `pub use` in a publicly reachable module that names an item (or module) which already
/// has a public path of its own, as `module: use tree (item already at path)`.
fn second_paths(src: &Path) -> Vec<String> {
    let modules = tree(src);
    let mut out = Vec::new();
    for (me, module) in &modules {
        let (Some(file), true) = (&module.file, module.public) else {
            continue;
        };
        for stmt in pub_uses(&code(file)) {
            for leaf in leaves(&stmt) {
                // A hidden name (`__register_backend`: a `#[macro_export]` macro sits at the
                // crate root by force) is no import path; its re-export is the only one.
                if leaf.last().is_some_and(|s| s.starts_with("__")) {
                    continue;
                }
                let Some(home) = resolve(&modules, me, &leaf) else {
                    continue;
                };
                let reachable = (1..=home.len()).all(|n| modules[&home[..n].to_vec()].public);
                if reachable {
                    let at = format!("{}::{}", home.join("::"), leaf.last().unwrap());
                    out.push(format!(
                        "{}: pub use {stmt} (already public at {})",
                        me.join("::"),
                        at.trim_start_matches("::")
                    ));
                }
            }
        }
    }
    out
}

/// The module a re-exported leaf comes from, when it is one of this crate's; `None` for an
/// outside crate's item or a path through something that is not a module (an enum's variants).
fn resolve(modules: &Tree, me: &[String], leaf: &[String]) -> Option<Vec<String>> {
    let (mut base, rest): (Vec<String>, &[String]) = match leaf.first()?.as_str() {
        "crate" => (Vec::new(), &leaf[1..]),
        "self" => (me.to_vec(), &leaf[1..]),
        "super" => {
            let supers = leaf.iter().take_while(|s| *s == "super").count();
            (
                me[..me.len().checked_sub(supers)?].to_vec(),
                &leaf[supers..],
            )
        }
        first => {
            let mut child = me.to_vec();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            (me.to_vec(), leaf)
        }
    };
    let (_, parents) = rest.split_last()?;
    for part in parents {
        base.push(part.clone());
        if !modules.contains_key(&base) {
            return None;
        }
    }
    Some(base)
}

fn workspace_crates() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out: Vec<PathBuf> = fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|src| src.join("lib.rs").exists())
        .collect();
    out.sort();
    out
}

#[test]
fn every_public_item_has_one_import_path() {
    let crates = workspace_crates();
    assert!(crates.iter().any(|c| c.ends_with("core/src")));
    let found: Vec<String> = crates
        .iter()
        .flat_map(|src| {
            let name = src.parent().unwrap().file_name().unwrap().to_string_lossy();
            let name = name.to_string();
            second_paths(src)
                .into_iter()
                .map(move |s| format!("crates/{name}: {s}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "a type with two import paths; re-export only out of a private module, or import \
         the item from its home:\n{}",
        found.join("\n")
    );
}

/// The check itself: a re-export out of a public module is found, one out of a private module,
/// an outside crate's item and an enum's variants are not.
#[test]
fn the_check_finds_a_second_path() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    fs::write(
        src.join("lib.rs"),
        "pub mod open;\nmod shut;\npub mod __private { pub use inventory; }\n\
         pub use open::{Kind::*, Twice};\npub use shut::Once;\npub use crate::__hidden as shown;\npub use serde::Serialize;\n",
    )
    .unwrap();
    fs::create_dir(src.join("open")).unwrap();
    fs::write(
        src.join("open/mod.rs"),
        "pub mod deep;\npub struct Twice;\npub enum Kind { A }\n\
         pub use deep::{Deeper, self as again};\n",
    )
    .unwrap();
    fs::write(src.join("open/deep.rs"), "pub struct Deeper;\n").unwrap();
    fs::write(src.join("shut.rs"), "pub struct Once;\n").unwrap();
    let found = second_paths(src);
    assert_eq!(
        found,
        [
            ": pub use open::{Kind::*, Twice} (already public at open::Twice)",
            "open: pub use deep::{Deeper, self as again} (already public at open::deep::Deeper)",
            "open: pub use deep::{Deeper, self as again} (already public at open::deep)",
        ]
    );
}
