//! No crate of the workspace has an import circle between its modules: a type lives in the
//! module that owns it, and a module that needs it imports that module, never the other way
//! round too (types and constants sit low, behaviour high, as in the AMD and Intel crates).
//!
//! Each crate's modules are found from its `lib.rs` by following `mod` declarations, so nested
//! modules (`requirement::report`) and `#[path]` files count as the modules they are. A module
//! imports another when its non-test code names a path in it (`crate::`, `super::`, `self::` or
//! a child's name), following `use` and `pub use` names to the module that defines the item.
//! A module's own children are its facade, not a layer: the edges between a module and its
//! ancestors are left out, so a parent that re-exports its children, and children that use
//! their parent's types, are no circle; two siblings (or cousins) that name each other are.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod lex;
mod modules;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use modules::{Imports, ModPath};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every crate of the workspace with modules, by its directory from the workspace root.
const CRATES: &[&str] = &[
    "crates/cdi",
    "crates/host",
    "crates/requirement",
    "crates/core",
    "crates/nvidia",
    "crates/amd",
    "crates/intel",
    "crates/fleet",
    "crates/sources",
    "crates/cli",
    "tests/testkit",
    "tests/example-vendor",
    "tests/example-ascend",
    "tests/example-accel",
];

fn name(p: &ModPath) -> String {
    if p.is_empty() {
        "crate".to_string()
    } else {
        p.join("/")
    }
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() <= b.len() && a == &b[..a.len()]
}

/// The import graph of the crate whose sources are in `src`, one node per module.
fn graph(src: &Path) -> Graph {
    let mods = modules::modules(&modules::root_of(src));
    let known: BTreeSet<ModPath> = mods.iter().map(|m| m.path.clone()).collect();
    let named: Vec<_> = mods
        .iter()
        .map(|m| modules::paths(&m.code, &m.path, &m.children))
        .collect();
    let mut imports = Imports::new();
    for (m, names) in mods.iter().zip(&named) {
        for n in names.iter().filter(|n| n.in_use) {
            let mut p = n.path.clone();
            if p.last().is_some_and(|s| s == "self") {
                p.pop();
            }
            let Some(last) = p.last().filter(|s| *s != "*") else {
                continue;
            };
            let key = n.alias.clone().unwrap_or_else(|| last.clone());
            imports.entry(m.path.clone()).or_default().insert(key, p);
        }
    }
    let mut g = Graph::new();
    for (m, names) in mods.iter().zip(&named) {
        g.entry(name(&m.path)).or_default();
        for n in names {
            let mut p = n.path.clone();
            if p.last().is_some_and(|s| s == "self" || s == "*") {
                p.pop();
            }
            let to = modules::owner(&p, &known, &imports);
            if !is_prefix(&to, &m.path) && !is_prefix(&m.path, &to) {
                g.entry(name(&m.path)).or_default().insert(name(&to));
            }
        }
    }
    g
}

fn src(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir)
        .join("src")
}

/// The strongly connected parts of `g` with more than one module (Tarjan), each as one circle
/// in import order, starting from its first module by name.
fn circles(g: &Graph) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        parts: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.g.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[v].min(t.low[w]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.low[v].min(t.index[w]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut part = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                part.push(w);
                if w == v {
                    break;
                }
            }
            t.parts.push(part);
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        parts: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    let mut out: Vec<Vec<String>> = t
        .parts
        .into_iter()
        .filter(|p| p.len() > 1)
        .map(|p| order(g, &p.iter().map(|s| s.to_string()).collect()))
        .collect();
    out.sort();
    out
}

/// The modules of one strongly connected part as a walk that visits each and comes back to the
/// first (greedy: the next module by name not yet visited, through a shortest path).
fn order(g: &Graph, part: &BTreeSet<String>) -> Vec<String> {
    let first = part.iter().next().unwrap().clone();
    let mut walk = vec![first.clone()];
    let mut seen: BTreeSet<String> = [first.clone()].into();
    while seen.len() < part.len() {
        let at = walk.last().unwrap().clone();
        let path = shortest(g, part, &at, |n| !seen.contains(n));
        for n in path.into_iter().skip(1) {
            seen.insert(n.clone());
            walk.push(n);
        }
    }
    let at = walk.last().unwrap().clone();
    walk.extend(shortest(g, part, &at, |n| *n == first).into_iter().skip(1));
    walk
}

fn shortest(
    g: &Graph,
    part: &BTreeSet<String>,
    from: &str,
    goal: impl Fn(&String) -> bool,
) -> Vec<String> {
    let mut prev: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from.to_string()]);
    while let Some(v) = queue.pop_front() {
        for w in g
            .get(&v)
            .into_iter()
            .flatten()
            .filter(|w| part.contains(*w))
        {
            if prev.contains_key(w) || w == from && !goal(w) {
                continue;
            }
            prev.insert(w.clone(), v.clone());
            if goal(w) {
                let mut path = vec![w.clone()];
                while let Some(p) = prev.get(path.last().unwrap()).filter(|p| *p != from) {
                    path.push(p.clone());
                }
                path.push(from.to_string());
                path.reverse();
                return path;
            }
            queue.push_back(w.clone());
        }
    }
    vec![from.to_string()]
}

/// The number of floors: the most modules on one import chain (a circle counts as one floor).
fn height(g: &Graph) -> usize {
    fn floor(
        g: &Graph,
        v: &str,
        memo: &mut BTreeMap<String, usize>,
        path: &mut BTreeSet<String>,
    ) -> usize {
        if let Some(h) = memo.get(v) {
            return *h;
        }
        if !path.insert(v.to_string()) {
            return 0;
        }
        let h = 1 + g
            .get(v)
            .into_iter()
            .flatten()
            .map(|w| floor(g, w, memo, path))
            .max()
            .unwrap_or(0);
        path.remove(v);
        memo.insert(v.to_string(), h);
        h
    }
    let mut memo = BTreeMap::new();
    g.keys()
        .map(|v| floor(g, v, &mut memo, &mut BTreeSet::new()))
        .max()
        .unwrap_or(0)
}

/// Circles not cut yet, by crate and their modules (sorted); each must still be there, and
/// none may join them.
const KNOWN: &[(&str, &[&str])] = &[];

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    let mut known: BTreeSet<(String, Vec<String>)> = KNOWN
        .iter()
        .map(|(d, m)| (d.to_string(), m.iter().map(|s| s.to_string()).collect()))
        .collect();
    for dir in CRATES {
        let g = graph(&src(dir));
        let c = circles(&g);
        println!(
            "{dir}: {} modules, {} floors, {} circles",
            g.len(),
            height(&g),
            c.len()
        );
        for circle in c {
            println!("  {}", circle.join(" -> "));
            for m in circle.iter().collect::<BTreeSet<_>>() {
                let to: Vec<&String> = g[m].iter().filter(|t| circle.contains(t)).collect();
                println!("    {m} -> {to:?}");
            }
            let members: BTreeSet<String> = circle.iter().cloned().collect();
            if !known.remove(&(dir.to_string(), members.into_iter().collect())) {
                found.push(format!("{dir}: {}", circle.join(" -> ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} import circles:\n{}",
        found.len(),
        found.join("\n")
    );
    assert!(
        known.is_empty(),
        "circles cut, take them off KNOWN: {known:?}"
    );
}

/// A crate added under `crates/` (gpuctl-host and gpuctl-requirement were, in issue 27) is
/// checked too: the list above names every one.
#[test]
fn every_crate_under_crates_is_checked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = format!("crates/{}", entry.unwrap().file_name().to_string_lossy());
        if src(&dir).is_dir() && !CRATES.contains(&dir.as_str()) {
            missing.push(dir);
        }
    }
    assert!(missing.is_empty(), "add to CRATES: {missing:?}");
}

#[test]
fn the_graph_sees_nested_modules_and_re_exports() {
    let g = graph(&src("crates/core"));
    // `backend` names `probe::Probe`; a nested module is a node of its own.
    assert!(g["backend"].contains("probe"), "{:?}", g["backend"]);
    assert!(g.contains_key("check/kernel"), "{:?}", g.keys());
    // The requirement model, a crate of its own since issue 27: `report` names `super::`'s
    // `report_entry`, its sibling.
    let requirement = graph(&src("crates/requirement"));
    assert!(
        requirement["report"].contains("report_entry"),
        "{:?}",
        requirement["report"]
    );
    let cdi = graph(&src("crates/cdi"));
    assert!(cdi["spec"].contains("model"), "{:?}", cdi["spec"]);
}

#[test]
fn the_check_finds_a_circle_and_names_it_in_order() {
    let mut g = Graph::new();
    for (a, b) in [
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("c", "d"),
        ("x", "y"),
        ("y", "x"),
    ] {
        g.entry(a.into()).or_default().insert(b.into());
        g.entry(b.into()).or_default();
    }
    assert_eq!(circles(&g), [vec!["a", "b", "c", "a"], vec!["x", "y", "x"]]);
    g.get_mut("c").unwrap().remove("a");
    g.get_mut("y").unwrap().clear();
    assert_eq!(circles(&g), Vec::<Vec<String>>::new());
    assert_eq!(height(&g), 4);
}

/// A crate tree written here: `a` and `b/inner` name each other (one through a `use` group and
/// `super::super::`, one through a re-export at the root), `b`'s children name their parent
/// (no circle), and a test module names everything (left out).
#[test]
fn a_circle_in_a_written_tree_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let p = src.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "mod a;\nmod b;\nmod c;\npub use b::inner::Thing;\n#[cfg(test)]\nmod tests;\n",
    );
    write(
        "a.rs",
        "use crate::{c::Low, Thing};\npub struct A(Thing, Low);\n",
    );
    write("b/mod.rs", "pub mod inner;\npub struct Parent;\n");
    write(
        "b/inner.rs",
        "use super::Parent;\npub struct Thing(Parent);\nfn f() -> super::super::a::A { todo!() }\n// crate::c::Low\nconst S: &str = \"crate::c\";\n",
    );
    write(
        "c.rs",
        "pub struct Low;\n#[cfg(test)]\nmod t { use crate::a::A; }\n",
    );
    write("tests.rs", "use crate::a::A;\n");
    let g = graph(src);
    assert_eq!(circles(&g), [vec!["a", "b/inner", "a"]], "{g:?}");
    assert!(!g["c"].contains("a"), "a test module is no import: {g:?}");
    assert!(
        !g["b/inner"].contains("c"),
        "a comment or a string is no import: {g:?}"
    );
    // Cut: `a` no longer names `Thing`.
    write("a.rs", "use crate::c::Low;\npub struct A(Low);\n");
    let g = graph(src);
    assert!(circles(&g).is_empty(), "{g:?}");
    assert_eq!(height(&g), 3, "b/inner -> a -> c: {g:?}");
}
