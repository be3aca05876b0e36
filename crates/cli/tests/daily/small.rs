//! Item 13, the small ones: usage errors led like gpuctl's own, `--format` in any case, a
//! did-you-mean for a mistyped vendor with the vendors in plain words, completions that offer
//! selector words and vendor names.

use rstest::rstest;

use super::*;

#[rstest]
#[case::unknown_flag(&["args", "--frmat", "json"])]
#[case::bad_format(&["args", "--format", "xml"])]
#[case::no_command(&[])]
#[case::run_without_image(&["run"])]
fn clap_usage_errors_start_like_gpuctl_s_errors(#[case] args: &[&str]) {
    let (code, out, err) = run(&host("empty"), args);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("gpuctl: error: "), "{err}");
}

#[rstest]
#[case(&["args", "--format", "JSON", "all"])]
#[case(&["args", "--format", "Quadlet", "all"])]
#[case(&["detect", "--format", "JSON"])]
#[case(&["doctor", "--format", "Json"])]
#[case(&["requirement", "--format", "JSON", "10de:2684"])]
fn format_names_ignore_case_as_selectors_do(#[case] args: &[&str]) {
    let (code, _, err) = run(&host("workstation"), args);
    assert!(code == 0 || code == 1, "{code} {err}");
    assert!(!err.contains("invalid value"), "{err}");
}

#[test]
fn a_mistyped_vendor_gets_a_did_you_mean_and_plain_words() {
    let (code, out, err) = run(&host("workstation"), &["args", "nvdia"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "gpuctl: error: unknown GPU vendor 'nvdia' in the selection (did you mean 'nvidia'?); expected 'all', 'true', 'none', 'false' or a vendor name (nvidia, amd, intel)\n"
    );
}

#[rstest]
#[case("bash")]
#[case("zsh")]
#[case("fish")]
fn completions_offer_selector_words_and_vendor_names(#[case] shell: &str) {
    let (code, script, _) = run(&host("empty"), &["completions", shell]);
    assert_eq!(code, 0);
    for word in ["all", "none", "true", "false", "nvidia", "amd", "intel"] {
        assert!(script.contains(word), "{shell}: {word} missing");
    }
    // The words complete selectors: bash lists them together for `args`' SELECTOR.
    if shell == "bash" {
        assert!(
            script.contains("all true none false nvidia amd intel"),
            "{script}"
        );
    }
}

#[test]
fn doctor_help_says_which_commands_run_podman() {
    let (code, help, _) = run(&host("empty"), &["doctor", "--help"]);
    assert_eq!(code, 0);
    assert!(!help.contains("never runs podman"), "{help}");
    assert!(
        help.contains("doctor and run ask the podman on PATH"),
        "{help}"
    );
}
