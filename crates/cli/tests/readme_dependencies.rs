//! README's "Dependencies, and why each is there" names every crate any Cargo.toml of the
//! workspace (and of fuzz/, its own workspace) depends on, so a new dependency cannot come in
//! without its reason (issue 28, item 8: the table stays complete while README shrinks).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifests() -> Vec<PathBuf> {
    let root = root();
    let mut v = vec![root.join("Cargo.toml"), root.join("xtask/Cargo.toml")];
    for dir in ["crates", "tests", "fuzz"] {
        let base = root.join(dir);
        if base.join("Cargo.toml").is_file() {
            v.push(base.join("Cargo.toml"));
        }
        for entry in std::fs::read_dir(&base).unwrap() {
            let manifest = entry.unwrap().path().join("Cargo.toml");
            if manifest.is_file() {
                v.push(manifest);
            }
        }
    }
    v
}

/// The crates named in a manifest's dependency tables (`[dependencies]`, `[dev-dependencies]`,
/// `[build-dependencies]`, `[workspace.dependencies]`, their `target.*` forms, and
/// `[dependencies.NAME]`).
fn dependencies(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_table = false;
    for line in text.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']');
            let last = header.rsplit('.').next().unwrap_or(header);
            in_table = last.ends_with("dependencies");
            if let Some((table, name)) = header.rsplit_once('.')
                && table.ends_with("dependencies")
            {
                out.insert(name.to_string());
            }
            continue;
        }
        if in_table && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            out.insert(name.trim_matches('"').to_string());
        }
    }
    out
}

/// The first column of README's dependency table, each comma-separated name.
fn listed(readme: &str) -> BTreeSet<String> {
    let section = readme
        .split("\n## Dependencies, and why each is there\n")
        .nth(1)
        .expect("README has a \"Dependencies, and why each is there\" section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .flat_map(|cell| {
            cell.split(", ")
                .map(|n| n.split(' ').next().unwrap().to_string())
        })
        .collect()
}

#[test]
fn every_dependency_has_its_reason_in_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let listed = listed(&readme);
    let mut all = BTreeSet::new();
    for manifest in manifests() {
        all.extend(dependencies(&std::fs::read_to_string(&manifest).unwrap()));
    }
    // The workspace's own crates are not dependencies to explain.
    all.retain(|name| !name.starts_with("gpuctl"));
    assert!(
        all.len() > 15,
        "only {} dependencies found: {all:?}",
        all.len()
    );
    let missing: Vec<&String> = all.iter().filter(|n| !listed.contains(*n)).collect();
    assert!(
        missing.is_empty(),
        "README's dependency table lacks {missing:?}; add a row saying why each is there"
    );
}

#[test]
fn manifests_are_read_as_cargo_writes_them() {
    let text = "[package]\nname = \"x\"\n[dependencies]\nserde = { version = \"1\" }\n\
                aho-corasick.workspace = true\n[dev-dependencies]\nrstest = \"0.2\"\n\
                [dependencies.toml]\nversion = \"1\"\n[features]\nfoo = []\n";
    let names: Vec<String> = dependencies(text).into_iter().collect();
    assert_eq!(names, ["aho-corasick", "rstest", "serde", "toml"]);
    let readme = "x\n## Dependencies, and why each is there\n\n| crate | why |\n| --- | --- |\n\
                  | serde, serde_json | a |\n| rustix `fs` | b |\n\n## More\n| nope | c |\n";
    let got: Vec<String> = listed(readme).into_iter().collect();
    assert_eq!(got, ["---", "crate", "rustix", "serde", "serde_json"]);
}
