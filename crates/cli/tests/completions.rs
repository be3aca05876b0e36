//! `gpuctl completions SHELL`: every shell gets a script that knows every subcommand and flag
//! of the clap definition (read here from the same definition, so a new subcommand is checked
//! with no change to this file), and each script is valid in its shell.
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

/// Each script passes its own shell's syntax check. bash is everywhere gpuctl's tests run; zsh
/// and fish are checked where they are installed and skipped (with a note) elsewhere.
#[rstest]
#[case::bash("bash", &["-n"])]
#[case::zsh("zsh", &["-n"])]
#[case::fish("fish", &["--no-execute"])]
fn every_script_is_valid_in_its_shell(#[case] shell: &str, #[case] check: &[&str]) {
    let text = script(shell);
    let mut child = match Command::new(shell)
        .args(check)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if shell == "bash" => panic!("bash is needed for this test ({e})"),
        Err(e) => {
            eprintln!("{shell} is not installed ({e}); its syntax check is skipped");
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
        "{shell} {check:?}: {}",
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

/// The bash script really completes: loaded into bash, it offers what a user expects after a
/// TAB. `words` is the command line, the last word being the one completed.
#[rstest]
#[case::subcommand(&["gpuctl", "req"], "requirement")]
#[case::subcommand_flag(&["gpuctl", "args", "--fo"], "--format")]
#[case::shell_names(&["gpuctl", "completions", "fi"], "fish")]
#[case::global_flag(&["gpuctl", "--cdi"], "--cdi-spec-dir")]
#[case::nested_subcommand(&["gpuctl", "cdi", "gen"], "generate")]
#[case::vendor_name(&["gpuctl", "cdi", "generate", "am"], "amd")]
fn bash_completes_a_partial_command_line(#[case] words: &[&str], #[case] offered: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gpuctl.bash");
    std::fs::write(&path, script("bash")).unwrap();
    // The function clap_complete defines takes (command, current word, previous word) and
    // reads COMP_WORDS/COMP_CWORD, as bash's programmable completion calls it.
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let current = words[words.len() - 1];
    let previous = words[words.len() - 2];
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _gpuctl gpuctl '{current}' '{previous}'; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    let offers = String::from_utf8_lossy(&out.stdout);
    assert!(
        offers.lines().any(|l| l == offered),
        "after {words:?} bash offered {offers:?}; stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
