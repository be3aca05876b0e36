//! Whether gpuctl printed the arguments the contract asks for, before any container runs. Pure
//! functions: gpuctl's output in, sentences about every difference out.

/// `podman run` arguments sorted by what they do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgsView {
    /// `--device` values, in order.
    pub devices: Vec<String>,
    /// `--mount` values, in order.
    pub mounts: Vec<String>,
    /// `-e`/`--env` values, in order.
    pub env: Vec<String>,
    /// `--group-add` values, in order.
    pub group_adds: Vec<String>,
    /// Anything else, in order.
    pub other: Vec<String>,
}

/// Sorts `args` into an [`ArgsView`]; takes both `--flag value` and `--flag=value`.
pub fn view(args: &[String]) -> ArgsView {
    let mut v = ArgsView::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, val)) if f.starts_with("--") => (f, Some(val.to_string())),
            _ => (a.as_str(), None),
        };
        let slot = match flag {
            "--device" => &mut v.devices,
            "--mount" => &mut v.mounts,
            "-e" | "--env" => &mut v.env,
            "--group-add" => &mut v.group_adds,
            _ => {
                v.other.push(a.clone());
                continue;
            }
        };
        match inline.or_else(|| it.next().cloned()) {
            Some(value) => slot.push(value),
            None => v.other.push(a.clone()),
        }
    }
    v
}

/// The arguments a scenario expects, by kind; lists are compared in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgsExpectation {
    /// `--device` values.
    pub devices: Vec<String>,
    /// Host paths each bind-mounted read-only at the same path (the by-path links).
    pub by_path_mounts: Vec<String>,
    /// `-e` values.
    pub env: Vec<String>,
    /// How many times `--group-add keep-groups` must appear (0 or 1).
    pub keep_groups: usize,
}

/// The `--mount` value gpuctl uses for a by-path link: the link bind-mounted read-only at its
/// own path.
pub fn by_path_mount(link: &str) -> String {
    format!("type=bind,source={link},destination={link},ro=true")
}

/// Every way `args` differs from `expect`.
pub fn check_args(expect: &ArgsExpectation, args: &[String]) -> Vec<String> {
    let v = view(args);
    let mut problems = Vec::new();
    let mut compare = |what: &str, got: &[String], want: &[String]| {
        if got != want {
            problems.push(format!(
                "{what}: got [{}], expected [{}]",
                got.join(" "),
                want.join(" ")
            ));
        }
    };
    compare("--device", &v.devices, &expect.devices);
    let mounts: Vec<String> = expect
        .by_path_mounts
        .iter()
        .map(|l| by_path_mount(l))
        .collect();
    compare("--mount", &v.mounts, &mounts);
    compare("-e", &v.env, &expect.env);
    let keep = v.group_adds.iter().filter(|g| *g == "keep-groups").count();
    if keep != expect.keep_groups {
        problems.push(format!(
            "--group-add keep-groups appears {keep} time(s), expected {}",
            expect.keep_groups
        ));
    }
    let other_groups: Vec<&String> = v
        .group_adds
        .iter()
        .filter(|g| *g != "keep-groups")
        .collect();
    if !other_groups.is_empty() {
        problems.push(format!(
            "unexpected --group-add {:?} (podman refuses other groups next to keep-groups)",
            other_groups
        ));
    }
    if !v.other.is_empty() {
        problems.push(format!("unexpected arguments [{}]", v.other.join(" ")));
    }
    problems
}

/// Every way gpuctl's stderr differs from the warnings a scenario expects: each expected
/// fragment must appear, and each line must carry one of them (no surprise warnings).
pub fn check_stderr(stderr: &str, expected: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for e in expected {
        if !stderr.contains(e.as_str()) {
            problems.push(format!("gpuctl printed no warning containing {e:?}"));
        }
    }
    for line in stderr.lines().filter(|l| !l.trim().is_empty()) {
        if !expected.iter().any(|e| line.contains(e.as_str())) {
            problems.push(format!("unexpected gpuctl message: {line}"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn view_sorts_flags() {
        let args = strings(&[
            "--device",
            "/dev/kfd",
            "--mount=type=bind,source=/a,destination=/a,ro=true",
            "-e",
            "X=1",
            "--group-add",
            "keep-groups",
            "--privileged",
        ]);
        let v = view(&args);
        assert_eq!(v.devices, ["/dev/kfd"]);
        assert_eq!(v.mounts, ["type=bind,source=/a,destination=/a,ro=true"]);
        assert_eq!(v.env, ["X=1"]);
        assert_eq!(v.group_adds, ["keep-groups"]);
        assert_eq!(v.other, ["--privileged"]);
    }

    #[test]
    fn a_flag_without_value_is_other() {
        assert_eq!(view(&strings(&["--device"])).other, ["--device"]);
    }

    fn amd_expectation() -> ArgsExpectation {
        ArgsExpectation {
            devices: strings(&["/dev/kfd", "/dev/dri/renderD129"]),
            by_path_mounts: strings(&["/dev/dri/by-path/pci-0000:0b:00.0-render"]),
            env: vec![],
            keep_groups: 1,
        }
    }

    #[rstest]
    #[case::exact(&["--device", "/dev/kfd", "--device", "/dev/dri/renderD129", "--mount", "type=bind,source=/dev/dri/by-path/pci-0000:0b:00.0-render,destination=/dev/dri/by-path/pci-0000:0b:00.0-render,ro=true", "--group-add", "keep-groups"], 0)]
    #[case::wrong_node(&["--device", "/dev/kfd", "--device", "/dev/dri/renderD130", "--mount", "type=bind,source=/dev/dri/by-path/pci-0000:0b:00.0-render,destination=/dev/dri/by-path/pci-0000:0b:00.0-render,ro=true", "--group-add", "keep-groups"], 1)]
    #[case::keep_groups_twice(&["--device", "/dev/kfd", "--device", "/dev/dri/renderD129", "--mount", "type=bind,source=/dev/dri/by-path/pci-0000:0b:00.0-render,destination=/dev/dri/by-path/pci-0000:0b:00.0-render,ro=true", "--group-add", "keep-groups", "--group-add", "keep-groups"], 1)]
    #[case::no_mount_no_groups(&["--device", "/dev/kfd", "--device", "/dev/dri/renderD129"], 2)]
    #[case::all_of_dri(&["--device", "/dev/kfd", "--device", "/dev/dri", "--group-add", "keep-groups"], 2)]
    fn amd_args(#[case] args: &[&str], #[case] problems: usize) {
        let got = check_args(&amd_expectation(), &strings(args));
        assert_eq!(got.len(), problems, "{got:?}");
    }

    #[rstest]
    #[case("", &[], 0)]
    #[case("warning: best-effort ordering\n", &["best-effort"], 0)]
    #[case("", &["best-effort"], 1)]
    #[case("warning: something else\n", &[], 1)]
    #[case("warning: /etc/cdi/a.yaml skipped\nwarning: /etc/cdi/b.yaml skipped\n", &["/etc/cdi/a.yaml", "/etc/cdi/b.yaml"], 0)]
    fn stderr(#[case] text: &str, #[case] expected: &[&str], #[case] problems: usize) {
        let got = check_stderr(text, &strings(expected));
        assert_eq!(got.len(), problems, "{got:?}");
    }
}
