//! `gpuctl completions SHELL`: every shell gets a script that knows every subcommand and flag
//! of the clap definition (read here from the same definition, so a new subcommand is checked
//! with no change to this file), and the bash script is valid bash.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin_cmd;
use clap::CommandFactory;
use gpuctl_cli::Cli;
use rstest::rstest;

fn script(shell: &str) -> String {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .args(["completions", shell])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Every visible subcommand of the definition, `help` aside.
fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect()
}

/// Every visible long flag, the subcommands' included.
fn long_flags() -> Vec<String> {
    let cmd = Cli::command();
    let mut flags: Vec<String> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    for sub in cmd.get_subcommands() {
        flags.extend(
            sub.get_arguments()
                .filter(|a| !a.is_hide_set())
                .filter_map(|a| a.get_long().map(str::to_string)),
        );
    }
    flags.sort();
    flags.dedup();
    flags
}

#[rstest]
#[case::bash("bash")]
#[case::zsh("zsh")]
#[case::fish("fish")]
fn every_shell_completes_every_subcommand_and_flag(#[case] shell: &str) {
    let text = script(shell);
    assert!(
        text.contains("gpuctl"),
        "{shell}: the script names no gpuctl"
    );
    let subs = subcommands();
    assert!(subs.iter().any(|s| s == "completions"), "{subs:?}");
    for sub in subs {
        assert!(text.contains(&sub), "{shell}: no subcommand {sub}");
    }
    for flag in long_flags() {
        assert!(text.contains(&flag), "{shell}: no flag --{flag}");
    }
}

#[test]
fn the_bash_script_is_valid_bash() {
    let text = script("bash");
    let mut child = match Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("bash is not installed ({e}); the syntax check is skipped");
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completions_need_no_host() {
    // A --root that does not exist is no reason to refuse a completion script.
    cargo_bin_cmd!("gpuctl")
        .env_clear()
        .args(["--root", "/nonexistent/gpuctl-root", "completions", "fish"])
        .assert()
        .code(0);
}

#[test]
fn an_unknown_shell_is_invalid_input() {
    cargo_bin_cmd!("gpuctl")
        .env_clear()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stdout("");
}
