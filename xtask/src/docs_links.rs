//! Every `docs/<page>.md#<section>` cited in the workspace (code comments, READMEs, the docs
//! themselves) names a page that exists and a heading on it, so renaming a heading in docs/
//! without the comments that cite it fails here instead of leaving a dead reference.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation other than `-` and
/// `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(page: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut out = BTreeSet::new();
    for line in page.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
    }
    out
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// `(page, anchor)` for each `<name>.md[#anchor]` that points into docs/: written as
/// `docs/<name>.md` anywhere, or as a bare `<name>.md` inside docs/ itself.
fn citations(text: &str, inside_docs: bool) -> Vec<(String, Option<String>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = text[from..].find(".md") {
        let dot = from + pos;
        from = dot + 3;
        let mut start = dot;
        while start > 0 && is_name_char(bytes[start - 1]) {
            start -= 1;
        }
        if start == dot {
            continue;
        }
        let in_docs_dir = text[..start].ends_with("docs/");
        let bare = start > 0 && matches!(bytes[start - 1], b'(' | b'[' | b' ');
        if !(in_docs_dir || inside_docs && bare) {
            continue;
        }
        let name = &text[start..dot];
        let mut anchor = None;
        if bytes.get(dot + 3) == Some(&b'#') {
            let a_start = dot + 4;
            let mut a_end = a_start;
            while a_end < bytes.len() && is_name_char(bytes[a_end]) {
                a_end += 1;
            }
            anchor = Some(text[a_start..a_end].to_string());
        }
        out.push((format!("{name}.md"), anchor));
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Not following links: the fixture hosts' sysfs trees link in circles, as sysfs does.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !name.starts_with('.') && name != "target" {
                sources(&path, out);
            }
        } else if kind.is_file() && (name.ends_with(".rs") || name.ends_with(".md")) {
            out.push(path);
        }
    }
}

#[test]
fn every_cited_docs_section_exists() {
    let root = crate::gpuctl::workspace_root();
    let docs = root.join("docs");
    let mut files = vec![
        root.join("README.md"),
        root.join("CHANGELOG.md"),
        root.join("CONTRIBUTING.md"),
        root.join(".ci/run"),
        root.join(".ci/deploy-check"),
        // The deploy examples name the sections that explain them.
        root.join("deploy/kubernetes/gpuctl-nfd.yaml"),
        root.join("deploy/ansible/gpuctl.yml"),
        root.join("deploy/ansible/inventory.ini"),
        root.join("deploy/container/Containerfile"),
    ];
    for dir in ["crates", "xtask", "tests", "docs"] {
        sources(&root.join(dir), &mut files);
    }
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (page, anchor) in citations(&text, file.starts_with(&docs)) {
            checked += 1;
            let Ok(target) = std::fs::read_to_string(docs.join(&page)) else {
                broken.push(format!("{}: docs/{page} does not exist", file.display()));
                continue;
            };
            if let Some(anchor) = anchor
                && !anchors(&target).contains(&anchor)
            {
                broken.push(format!("{}: docs/{page} has no #{anchor}", file.display()));
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} citations found: is the scan broken?"
    );
    assert!(
        broken.is_empty(),
        "dead docs references:\n{}",
        broken.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" Keep-groups, crun and runc"),
        "keep-groups-crun-and-runc"
    );
    assert_eq!(slug("Rex-GPU's test cases"), "rex-gpus-test-cases");
    assert_eq!(slug("`cargo xtask man`"), "cargo-xtask-man");
}
