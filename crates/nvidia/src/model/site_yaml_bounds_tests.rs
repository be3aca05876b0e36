//! YAML site tables past the bounds on aliases and nesting are invalid input, refused before
//! yaml_serde expands anything (issue 11 item 5: a 980 KB table aliasing one 500 KB scalar
//! 10,000 times reached 4.9 GB).

use std::path::Path;
use std::time::{Duration, Instant};

use super::site::{Format, SiteError, parse_site_rows};

fn refused(text: &str) -> String {
    let start = Instant::now();
    let got = parse_site_rows(text, Format::Yaml, Path::new("site.yaml"));
    // Generous, for debug builds on a shared machine.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    match got {
        Err(SiteError::Syntax { message, .. }) => message,
        other => panic!("not refused as a syntax error: {other:?}"),
    }
}

#[test]
fn a_large_scalar_aliased_ten_thousand_times_is_refused() {
    let mut text = format!(
        "- generation: &g {}\n  first: \"2330\"\n  last: \"2330\"\n",
        "x".repeat(500_000)
    );
    for _ in 0..10_000 {
        text.push_str("- {generation: *g, first: \"2330\", last: \"2330\"}\n");
    }
    assert!(text.len() < 1024 * 1024);
    assert_eq!(
        refused(&text),
        "aliases expand the document by more than 1048576 bytes; write the rows out without YAML aliases or deep nesting"
    );
}

#[test]
fn block_nesting_is_refused() {
    assert_eq!(
        refused(&"? ".repeat(400_000)),
        "collections nest deeper than 64 levels; write the rows out without YAML aliases or deep nesting"
    );
}

#[test]
fn an_alias_bomb_is_refused() {
    let mut text = String::from("- &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("- &a{i} [{refs}]\n"));
    }
    assert_eq!(
        refused(&text),
        "document contains excessive aliasing; write the rows out without YAML aliases or deep nesting"
    );
}
