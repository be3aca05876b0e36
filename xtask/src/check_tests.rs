use super::*;
use rstest::rstest;

#[rstest]
#[case(
    "sh: can't open /dev/nvidia0: No such device or address",
    OpenError::NoDevice
)]
#[case(
    "sh: can't open '/dev/nvidia0': No such device or address",
    OpenError::NoDevice
)]
#[case(
    "sh: can't open /dev/nvidia1: Operation not permitted",
    OpenError::NotPermitted
)]
#[case("sh: can't open /dev/kfd: Permission denied", OpenError::Denied)]
#[case("sh: can't open /dev/x: no such file", OpenError::NotFound)]
#[case(
    "sh: can't open /dev/x: No such file or directory\n",
    OpenError::NotFound
)]
#[case("sh: can't open /dev/x: Is a directory", OpenError::Other("sh: can't open /dev/x: Is a directory".to_string()))]
fn open_errors(#[case] message: &str, #[case] want: OpenError) {
    assert_eq!(classify_open_error(message), want);
}

#[rstest]
#[case("\t44 100 ", vec![44, 100])]
#[case("\t ", vec![])]
#[case("", vec![])]
#[case(" 0 44 x 100", vec![0, 44, 100])]
fn groups(#[case] value: &str, #[case] want: Vec<u32>) {
    assert_eq!(parse_groups(value), want);
}

/// Output captured from podman 4.3.1 + runc on the CI VM, shortened.
const SAMPLE: &str = "@@ls /dev
total 0
drwxr-xr-x    3 root     root            80 Nov 29 16:43 dri
crw-r--r--    1 root     root      195,   0 Nov 29 16:43 nvidia0
@@ls /dev/dri
total 0
crw-r--r--    1 root     root      226, 128 Nov 29 16:43 renderD128
@@ls /dev/dri/by-path
ls: /dev/dri/by-path: No such file or directory
@@end-ls
@@char /dev/nvidia0 c3 0
@@char /dev/dri/renderD128 e2 80
@@char /dev/null 1 3
@@open /dev/nvidia0 1 sh: can't open /dev/nvidia0: No such device or address
@@open /dev/dri/renderD128 1 sh: can't open /dev/dri/renderD128: No such device or address
@@absent /dev/nvidia1
@@absent /dev/kfd
@@groups\t44 100 
@@env NVIDIA_VISIBLE_DEVICES=all
@@done
";

#[test]
fn parses_a_report() {
    let r = parse_report(SAMPLE);
    assert!(r.complete);
    assert!(r.listing.contains("renderD128"));
    assert!(!r.listing.contains("@@char"));
    assert_eq!(
        r.chars,
        [
            CharNode::new("/dev/nvidia0", 195, 0),
            CharNode::new("/dev/dri/renderD128", 226, 128),
            CharNode::new("/dev/null", 1, 3),
        ]
    );
    assert_eq!(
        r.probes.get("/dev/nvidia0"),
        Some(&Probe::Failed(OpenError::NoDevice))
    );
    assert_eq!(r.probes.get("/dev/kfd"), Some(&Probe::Absent));
    assert_eq!(r.groups, Some(vec![44, 100]));
    assert_eq!(r.env, ["NVIDIA_VISIBLE_DEVICES=all"]);
    assert_eq!(r.tool, None);
}

#[test]
fn parses_a_tool_run() {
    let r =
        parse_report("@@tool nvidia-smi\nGPU 0: NVIDIA H200 (UUID: GPU-1)\n@@toolrc 0\n@@done\n");
    assert_eq!(
        r.tool,
        Some(ToolRun {
            name: "nvidia-smi".to_string(),
            output: "GPU 0: NVIDIA H200 (UUID: GPU-1)\n".to_string(),
            code: Some(0),
        })
    );
    assert!(r.complete);
}

fn expectation() -> Expectation {
    Expectation {
        granted: vec![
            CharNode::new("/dev/nvidia0", 195, 0),
            CharNode::new("/dev/dri/renderD128", 226, 128),
        ],
        absent: vec!["/dev/nvidia1".to_string(), "/dev/kfd".to_string()],
        gpu_majors: vec![195, 226, 120, 121],
        groups: Some(vec![44, 100]),
        env: vec!["NVIDIA_VISIBLE_DEVICES=all".to_string()],
    }
}

#[test]
fn the_sample_matches() {
    assert_eq!(
        verify(&expectation(), &parse_report(SAMPLE)),
        Vec::<String>::new()
    );
}

#[rstest]
#[case::granted_node_missing(
    "@@open /dev/nvidia0 1 sh: can't open /dev/nvidia0: No such device or address",
    "@@absent /dev/nvidia0",
    "was granted but is missing"
)]
#[case::granted_node_only_mounted(
    "@@open /dev/nvidia0 1 sh: can't open /dev/nvidia0: No such device or address",
    "@@open /dev/nvidia0 1 sh: can't open /dev/nvidia0: Operation not permitted",
    "EPERM"
)]
#[case::granted_node_is_something_else(
    "@@open /dev/nvidia0 1 sh: can't open /dev/nvidia0: No such device or address",
    "@@open /dev/nvidia0 0 ",
    "must fail with ENXIO"
)]
#[case::wrong_numbers(
    "@@char /dev/nvidia0 c3 0",
    "@@char /dev/nvidia0 c3 1",
    "expected 195:0"
)]
#[case::leaked_node(
    "@@absent /dev/nvidia1",
    "@@open /dev/nvidia1 1 sh: can't open /dev/nvidia1: No such device or address",
    "was not granted"
)]
#[case::unlisted_gpu_node(
    "@@char /dev/null 1 3",
    "@@char /dev/nvidia7 c3 7",
    "GPU node in the container that was not granted"
)]
#[case::groups_dropped("@@groups\t44 100 ", "@@groups\t ", "supplementary groups are []")]
#[case::env_missing(
    "@@env NVIDIA_VISIBLE_DEVICES=all",
    "@@env NVIDIA_VISIBLE_DEVICES=void",
    "lacks NVIDIA_VISIBLE_DEVICES=all"
)]
#[case::incomplete("@@done", "", "did not run to its end")]
fn differences_are_reported(#[case] line: &str, #[case] replacement: &str, #[case] fragment: &str) {
    let text = SAMPLE.replace(line, replacement);
    assert_ne!(text, SAMPLE, "the case must change the sample");
    let problems = verify(&expectation(), &parse_report(&text));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains(fragment), "{problems:?}");
}

#[test]
fn script_probes_quoted_paths_read_only() {
    let s = container_script(&["/dev/dri/by-path/pci-0000:03:00.0-render".to_string()]);
    assert!(s.contains("for p in '/dev/dri/by-path/pci-0000:03:00.0-render'; do"));
    // `<>` would create a missing file in the container's /dev tmpfs and hide its absence.
    assert!(s.contains("(exec 3<\"$p\")"));
    assert!(!s.contains("<>"));
    assert!(s.ends_with("echo @@done\n"));
}

#[test]
fn quoting() {
    assert_eq!(sh_quote("a'b"), "'a'\\''b'");
}
