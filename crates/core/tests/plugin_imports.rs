//! A plug-in imports from one place (issue 27, docs/plugins.md#import-paths): the vendor crates'
//! and the example plug-ins' sources (`src/`, `tests/`, `benches/`, test code included) name no
//! `gpuctl_core` path but `gpuctl_core::plugin`, and neither do the guide's Rust snippets (doc
//! tests of the CLI crate). Sources are read as the module-graph test reads them, with its lexer:
//! comments gone and literals emptied, so a path in a message or a comment is no import.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The module graph's lexer; this test needs only its blanking, not its cut of test items.
#[allow(dead_code)]
#[path = "module_graph/lex.rs"]
mod lex;

use std::fs;
use std::path::{Path, PathBuf};

/// The vendor crates and the example plug-ins (built outside the workspace too).
const PLUGINS: [&str; 6] = [
    "crates/nvidia",
    "crates/amd",
    "crates/intel",
    "tests/example-accel",
    "tests/example-ascend",
    "tests/example-vendor",
];

/// The pages whose Rust snippets a plug-in author copies.
const GUIDES: [&str; 2] = ["docs/plugins.md", "docs/plugin-guide.md"];

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Each `gpuctl_core` path in `code` other than `gpuctl_core::plugin::...`, as `line: path`.
/// `gpuctl_core::{plugin::X}` and `use gpuctl_core as g` count as other paths: one spelling.
fn other_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("gpuctl_core") {
            let before = rest[..i].chars().next_back();
            let tail = &rest[i + "gpuctl_core".len()..];
            rest = tail;
            if before.is_some_and(is_ident) || tail.starts_with(is_ident) {
                continue;
            }
            let path: String = tail
                .chars()
                .take_while(|c| is_ident(*c) || *c == ':')
                .collect();
            let facade = path
                .strip_prefix("::plugin")
                .is_some_and(|after| !after.starts_with(is_ident));
            if !facade {
                out.push(format!("{}: gpuctl_core{path}", n + 1));
            }
        }
    }
    out
}

/// The Rust fenced blocks of a Markdown page, other lines blank (line numbers kept).
fn rust_blocks(text: &str) -> String {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (inside, fence) {
            (false, Some(info)) => {
                inside = info.starts_with("rust");
                out.push("");
            }
            (true, Some(_)) => {
                inside = false;
                out.push("");
            }
            (true, None) => out.push(line),
            (false, None) => out.push(""),
        }
    }
    out.join("\n")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn plugins_import_only_from_the_facade() {
    let root = workspace();
    let mut found = Vec::new();
    for plugin in PLUGINS {
        let mut files = Vec::new();
        for dir in ["src", "tests", "benches"] {
            rust_files(&root.join(plugin).join(dir), &mut files);
        }
        files.sort();
        let mut uses_facade = false;
        for file in files {
            let code = lex::blank(&fs::read_to_string(&file).unwrap());
            uses_facade |= code.contains("gpuctl_core::plugin::");
            let shown = file.strip_prefix(&root).unwrap().display().to_string();
            found.extend(
                other_paths(&code)
                    .into_iter()
                    .map(|p| format!("{shown}:{p}")),
            );
        }
        assert!(
            uses_facade,
            "{plugin} names no gpuctl_core::plugin path: read nothing?"
        );
    }
    for guide in GUIDES {
        let code = rust_blocks(&fs::read_to_string(root.join(guide)).unwrap());
        assert!(
            code.contains("gpuctl_core::plugin::"),
            "{guide}: no snippet read"
        );
        found.extend(
            other_paths(&code)
                .into_iter()
                .map(|p| format!("{guide}:{p}")),
        );
    }
    assert!(
        found.is_empty(),
        "a plug-in imports from gpuctl_core::plugin only; these name another path:\n{}",
        found.join("\n")
    );
}

/// The check itself: a module path, a nested tree and an alias are found; the facade, a longer
/// crate name, a comment and a message are not.
#[test]
fn the_check_finds_a_path_beside_the_facade() {
    let text = "use gpuctl_core::plugin::{Check, Probe};\nuse gpuctl_core::backend::Grant;\n\
                use gpuctl_core::{plugin::Host};\nuse gpuctl_core as core;\n\
                gpuctl_core::plugin::register_backend!(X);\nuse gpuctl_core_extra::a;\n\
                // gpuctl_core::probe::Probe\nconst S: &str = \"gpuctl_core::plan\";\n\
                use gpuctl_core::plugins::Y;\n";
    assert_eq!(
        other_paths(&lex::blank(text)),
        [
            "2: gpuctl_core::backend::Grant",
            "3: gpuctl_core::",
            "4: gpuctl_core",
            "9: gpuctl_core::plugins::Y",
        ]
    );
    let page = "text `gpuctl_core::probe`\n```rust\nuse gpuctl_core::plan::Tier;\n```\n";
    assert_eq!(
        other_paths(&rust_blocks(page)),
        ["3: gpuctl_core::plan::Tier"]
    );
}
