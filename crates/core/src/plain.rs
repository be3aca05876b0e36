//! The one check the plain output format needs: `podman run $(gpuctl args nvidia) IMAGE`
//! leaves the line to the shell, which splits it at white space and expands wildcards, so an
//! argument holding a blank, a control character or a wildcard would reach podman as other
//! arguments (a host path named `nvidia0 --privileged`). JSON output carries any string,
//! escaped, and needs no such check.

use thiserror::Error;

/// An argument the shell would not pass to podman as one word.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "the argument {} holds white space, a control character or a shell wildcard, so 'podman run $(gpuctl args ...)' would split or expand it into other arguments — nothing is printed; check the host's /dev, /sys and CDI specs for that name, or use '--format json'",
    quoted(argument)
)]
pub struct UnsafeArgument {
    /// The argument, as it would have been printed.
    pub argument: String,
}

/// True when the shell's word splitting and pathname expansion leave `arg` as one word,
/// unchanged.
pub fn is_one_word(arg: &str) -> bool {
    !arg.chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '*' | '?' | '['))
}

/// Refuses the whole list when any argument is not one word: plain output is all or nothing.
pub fn check(args: &[String]) -> Result<(), UnsafeArgument> {
    match args.iter().find(|a| !is_one_word(a)) {
        Some(a) => Err(UnsafeArgument {
            argument: a.clone(),
        }),
        None => Ok(()),
    }
}

/// The argument in double quotes with every control character escaped, so the sentence stays
/// one line.
fn quoted(arg: &str) -> String {
    format!("{:?}", arg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("/dev/nvidia0", true)]
    #[case(
        "type=bind,source=/dev/dri/by-path/pci-0000:03:00.0-render,destination=/dev/dri/by-path/pci-0000:03:00.0-render,ro=true",
        true
    )]
    #[case("nvidia.com/gpu=all", true)]
    #[case("/dev/nvidia0 --privileged", false)]
    #[case("/dev/nvidia0\n--privileged", false)]
    #[case("/dev/nvidia0\t", false)]
    #[case("/dev/nvidia\u{a0}0", false)]
    #[case("/dev/nvidia\u{1c}0", false)]
    #[case("/dev/nvidia\u{85}0", false)]
    #[case("/dev/nvidia\u{2028}0", false)]
    #[case("/dev/dri/renderD*", false)]
    #[case("/dev/nvidia?", false)]
    #[case("/dev/nvidia[0]", false)]
    fn one_word(#[case] arg: &str, #[case] want: bool) {
        assert_eq!(is_one_word(arg), want);
    }

    #[test]
    fn the_sentence_names_the_argument_on_one_line() {
        let args = [
            "--device".to_string(),
            "/dev/nvidia0\n--privileged".to_string(),
        ];
        let e = check(&args)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.starts_with("the argument \"/dev/nvidia0\\n--privileged\" holds"),
            "{e}"
        );
        assert!(!e.contains('\n'));
        assert_eq!(check(&args[..1]), Ok(()));
    }
}
