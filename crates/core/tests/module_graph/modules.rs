//! A crate's modules, found from its root file by following `mod` declarations (so `#[path]`
//! files and nested modules get their real names), and the module each path in them names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::lex;

/// A module's path from the crate root: `[]` is the root, `["requirement", "report"]` is
/// `crate::requirement::report`.
pub type ModPath = Vec<String>;

/// One non-test module of a crate: its path and its code (see [`lex::code`]).
pub struct Module {
    pub path: ModPath,
    pub code: String,
    /// The modules it declares (`mod x;`, test modules left out).
    pub children: BTreeSet<String>,
}

/// Every non-test module reachable from the crate root `root` (a `lib.rs`).
pub fn modules(root: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    visit(root, Vec::new(), true, &mut out);
    out
}

fn visit(file: &Path, path: ModPath, owns_dir: bool, out: &mut Vec<Module>) {
    let raw = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dir = file.parent().unwrap().to_path_buf();
    // A `foo.rs` keeps its children in `foo/`; a `mod.rs` or `lib.rs` in its own directory.
    let child_dir = if owns_dir {
        dir.clone()
    } else {
        dir.join(file.file_stem().unwrap())
    };
    let mut children = BTreeSet::new();
    let mut attrs: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for line in raw.lines() {
        let t = line.trim();
        if t.starts_with("#[") {
            attrs.push(t.to_string());
            continue;
        }
        if let Some(name) = mod_declaration(t)
            && !attrs.iter().any(|a| a.contains("cfg(test)"))
        {
            let at = attrs.iter().find_map(|a| {
                let rest = a.strip_prefix("#[path = \"")?;
                Some(dir.join(rest.split('"').next()?))
            });
            let (f, owns) = match at {
                Some(f) => (f, false),
                None if child_dir.join(format!("{name}.rs")).exists() => {
                    (child_dir.join(format!("{name}.rs")), false)
                }
                None => (child_dir.join(&name).join("mod.rs"), true),
            };
            children.insert(name.clone());
            files.push((f, name, owns));
        }
        if !t.is_empty() {
            attrs.clear();
        }
    }
    out.push(Module {
        path: path.clone(),
        code: lex::code(&raw),
        children,
    });
    for (f, name, owns) in files {
        let mut p = path.clone();
        p.push(name);
        visit(&f, p, owns, out);
    }
}

/// `name` in `mod name;` / `pub mod name;` / `pub(crate) mod name;` (not an inline `mod x {`).
fn mod_declaration(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub ").unwrap_or(line);
    let rest = match rest.strip_prefix("pub(") {
        Some(r) => r.split_once(") ")?.1,
        None => rest,
    };
    let name = rest.strip_prefix("mod ")?.strip_suffix(';')?;
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_')
        .then(|| name.to_string())
}

/// Every path `text` names from `crate::`, `super::`, `self::` or a child module of `me`, made
/// absolute (a `use` group `a::{b, c::d}` gives one path per leaf), with whether it sits in a
/// `use` item and its alias (`as x`), if any.
pub fn paths(text: &str, me: &[String], children: &BTreeSet<String>) -> Vec<Named> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let starts = (s[i].is_alphabetic() || s[i] == '_')
            && (i == 0 || !(s[i - 1].is_alphanumeric() || s[i - 1] == '_' || s[i - 1] == ':'));
        if !starts {
            i += 1;
            continue;
        }
        let word_end = (i..s.len())
            .find(|&j| !(s[j].is_alphanumeric() || s[j] == '_'))
            .unwrap_or(s.len());
        let word: String = s[i..word_end].iter().collect();
        let anchored =
            matches!(word.as_str(), "crate" | "super" | "self") || children.contains(&word);
        if !anchored || !s[word_end..].starts_with(&[':', ':']) {
            i = word_end;
            continue;
        }
        let in_use = text_before(&s, i).ends_with("use");
        let mut leaves = Vec::new();
        let end = tree(&s, i, Vec::new(), &mut leaves);
        for (segs, alias) in leaves {
            if let Some(abs) = absolute(&segs, me) {
                out.push(Named {
                    path: abs,
                    in_use,
                    alias,
                });
            }
        }
        i = end.max(word_end);
    }
    out
}

/// One path a module names.
pub struct Named {
    pub path: ModPath,
    pub in_use: bool,
    pub alias: Option<String>,
}

fn text_before(s: &[char], i: usize) -> String {
    let start = i.saturating_sub(12);
    s[start..i]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// Parses a path tree at `i` (`a::b`, `a::{b, c::*}`, `x as y`) into `leaves`; returns its end.
fn tree(
    s: &[char],
    mut i: usize,
    mut prefix: Vec<String>,
    leaves: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    loop {
        while s.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match s.get(i) {
            Some('{') => {
                i += 1;
                loop {
                    i = tree(s, i, prefix.clone(), leaves);
                    while s.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                        i += 1;
                    }
                    match s.get(i) {
                        Some('}') => return i + 1,
                        None => return i,
                        _ => {}
                    }
                }
            }
            Some('*') => {
                prefix.push("*".to_string());
                leaves.push((prefix, None));
                return i + 1;
            }
            Some(c) if c.is_alphabetic() || *c == '_' => {
                let end = (i..s.len())
                    .find(|&j| !(s[j].is_alphanumeric() || s[j] == '_'))
                    .unwrap_or(s.len());
                prefix.push(s[i..end].iter().collect());
                i = end;
                if s[i..].starts_with(&[':', ':']) {
                    i += 2;
                    continue;
                }
                let mut j = i;
                while s.get(j).is_some_and(|c| c.is_whitespace()) {
                    j += 1;
                }
                let mut alias = None;
                if s[j..].starts_with(&['a', 's', ' ']) {
                    let k = j + 3;
                    let end = (k..s.len())
                        .find(|&m| !(s[m].is_alphanumeric() || s[m] == '_'))
                        .unwrap_or(s.len());
                    alias = Some(s[k..end].iter().collect());
                    i = end;
                }
                leaves.push((prefix, alias));
                return i;
            }
            _ => {
                if !prefix.is_empty() {
                    leaves.push((prefix, None));
                }
                return i;
            }
        }
    }
}

/// `segs` (starting `crate`, `super`, `self` or a child's name) as a path from the root.
fn absolute(segs: &[String], me: &[String]) -> Option<ModPath> {
    let mut at: Vec<String> = me.to_vec();
    let mut rest = segs;
    match segs.first()?.as_str() {
        "crate" => {
            at.clear();
            rest = &segs[1..];
        }
        "self" => rest = &segs[1..],
        "super" => {}
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        at.pop()?;
        rest = &rest[1..];
    }
    if rest.first().is_some_and(|s| s == "self") {
        rest = &rest[1..];
    }
    at.extend(rest.iter().cloned());
    Some(at)
}

/// For each module, the names its `use` items bring in and the path each stands for.
pub type Imports = BTreeMap<ModPath, BTreeMap<String, ModPath>>;

/// The module a path names: the longest module prefix, following `use` and `pub use` names so
/// that `crate::Verdict` re-exported from `requirement::verdict` names that module.
pub fn owner(path: &[String], known: &BTreeSet<ModPath>, imports: &Imports) -> ModPath {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let n = (0..=path.len())
            .rev()
            .find(|&n| known.contains(&path[..n].to_vec()))
            .unwrap_or(0);
        let module = path[..n].to_vec();
        let Some(next) = path.get(n) else {
            return module;
        };
        match imports.get(&module).and_then(|m| m.get(next)) {
            Some(target) if target != &path[..=n] => {
                let mut p = target.clone();
                p.extend(path[n + 1..].iter().cloned());
                path = p;
            }
            _ => return module,
        }
    }
    path
}

/// Where a crate's root file is.
pub fn root_of(dir: &Path) -> PathBuf {
    dir.join("lib.rs")
}
