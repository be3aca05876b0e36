//! The man pages: one per visible subcommand, every flag on its page, the same bytes on every
//! run, and (where groff is installed) pages that groff renders without a warning.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use super::*;

fn visible(cmd: &clap::Command) -> Vec<clap::Command> {
    cmd.get_subcommands()
        .filter(|s| !s.is_hide_set())
        .cloned()
        .collect()
}

#[test]
fn one_page_per_subcommand_after_the_top_one() {
    let names: Vec<String> = pages().unwrap().into_iter().map(|p| p.file_name).collect();
    let mut want = vec!["gpuctl.1".to_string()];
    for s in visible(&Cli::command()) {
        want.push(format!("gpuctl-{}.1", s.get_name()));
        // A command's own subcommands follow its page (`gpuctl-cdi-list.1`).
        for n in visible(&s) {
            want.push(format!("gpuctl-{}-{}.1", s.get_name(), n.get_name()));
        }
    }
    assert_eq!(names, want);
    assert!(names.contains(&"gpuctl-cdi-generate.1".to_string()));
    assert!(names.contains(&"gpuctl-completions.1".to_string()));
}

#[test]
fn every_page_has_a_roff_header_and_its_flags() {
    let cmd = Cli::command();
    let pages = pages().unwrap();
    let top = &pages[0];
    assert!(
        top.roff.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &top.roff[..80]
    );
    assert!(top.roff.contains(".TH gpuctl 1"), "no .TH line");
    for sub in visible(&cmd) {
        assert!(
            top.roff.contains(&format!("gpuctl\\-{}", sub.get_name())),
            "the top page does not list {}",
            sub.get_name()
        );
        let page = pages
            .iter()
            .find(|p| p.file_name == format!("gpuctl-{}.1", sub.get_name()))
            .unwrap();
        assert!(
            page.roff
                .contains(&format!(".TH gpuctl-{} 1", sub.get_name()))
        );
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
                assert!(page.roff.contains(&roff), "{}: no {roff}", page.file_name);
            }
        }
        for n in visible(&sub) {
            let file = format!("gpuctl-{}-{}.1", sub.get_name(), n.get_name());
            let page = pages.iter().find(|p| p.file_name == file).unwrap();
            assert!(
                page.roff
                    .contains(&format!("gpuctl\\-{}\\-{}", sub.get_name(), n.get_name()))
            );
            for arg in n.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(long) = arg.get_long() {
                    let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
                    assert!(page.roff.contains(&roff), "{file}: no {roff}");
                }
            }
        }
    }
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        if let Some(long) = arg.get_long() {
            let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
            assert!(top.roff.contains(&roff), "gpuctl.1: no {roff}");
        }
    }
    assert!(top.roff.contains(".SH \"EXIT STATUS\""));
}

#[test]
fn regenerating_gives_the_same_bytes() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let first = write(a.path()).unwrap();
    let second = write(b.path()).unwrap();
    assert_eq!(first.len(), second.len());
    for (x, y) in first.iter().zip(&second) {
        assert_eq!(x.file_name(), y.file_name());
        assert_eq!(
            std::fs::read(x).unwrap(),
            std::fs::read(y).unwrap(),
            "{} differs between two runs",
            x.display()
        );
    }
    // Writing over an existing set changes nothing either.
    let again = write(a.path()).unwrap();
    for (x, y) in again.iter().zip(&second) {
        assert_eq!(std::fs::read(x).unwrap(), std::fs::read(y).unwrap());
    }
}

#[test]
fn groff_renders_every_page_without_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    for path in write(dir.path()).unwrap() {
        let out = match Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&path)
            .output()
        {
            Ok(out) => out,
            Err(e) => {
                eprintln!("groff is not installed ({e}); the header checks above stand in");
                return;
            }
        };
        assert!(out.status.success(), "groff failed on {}", path.display());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "groff on {}: {stderr}", path.display());
    }
}

/// Every page shows what to type (issue 28, item 10), and every example list names a command
/// that exists, so a renamed subcommand cannot leave its examples behind.
#[test]
fn every_page_has_examples_of_a_command_that_exists() {
    let pages = pages().unwrap();
    for page in &pages {
        assert!(
            page.roff.contains(".SH EXAMPLES\n.TP\n"),
            "{} has no examples",
            page.file_name
        );
    }
    let names: Vec<String> = visible(&Cli::command())
        .iter()
        .map(|s| s.get_name().to_string())
        .collect();
    for (name, list) in SUB_EXAMPLES {
        assert!(names.iter().any(|n| n == name), "no subcommand {name}");
        assert!(!list.is_empty(), "{name}");
    }
}
