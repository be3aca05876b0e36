//! The command line end to end: every exit code of `args`, `detect` and `explain`, global
//! flags, and the promise that errors are one sentence on stderr with nothing on stdout.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use predicates::prelude::*;
use rstest::rstest;

fn host(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/hosts")
        .join(name)
}

fn gpuctl(root: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().arg("--root").arg(root);
    cmd
}

/// An error is exactly one `gpuctl: error:` line: no panic, no Debug output, no backtrace.
fn one_error_line() -> impl Predicate<str> {
    predicate::function(|s: &str| {
        let lines: Vec<&str> = s
            .lines()
            .filter(|l| !l.starts_with("gpuctl: warning: "))
            .collect();
        lines.len() == 1 && lines[0].starts_with("gpuctl: error: ") && !s.contains("panicked")
    })
}

#[test]
fn args_prints_one_line_for_podman() {
    gpuctl(&host("workstation"))
        .args(["args", "nvidia"])
        .assert()
        .code(0)
        .stdout("--device nvidia.com/gpu=all -e NVIDIA_VISIBLE_DEVICES=all -e NVIDIA_DRIVER_CAPABILITIES=all\n")
        .stderr("");
}

#[test]
fn gpuctl_root_in_the_environment_works_like_the_flag() {
    cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("GPUCTL_ROOT", host("intel-laptop"))
        .args(["args", "--format", "json", "intel"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "[\"--device\",\"/dev/dri/renderD128\",",
        ));
}

#[rstest]
#[case(&["args", "none"], "")]
#[case(&["args", ""], "")]
#[case(&["args", "", " , "], "")]
#[case(&["args", "--format", "json", "none"], "[]\n")]
#[case(&["args", "--format", "json", "false"], "[]\n")]
fn an_empty_selection_prints_nothing_and_probes_nothing(
    #[case] args: &[&str],
    #[case] stdout: &str,
) {
    // The root does not even need to look like a host.
    let t = Tree::new();
    gpuctl(t.root())
        .args(args)
        .assert()
        .code(0)
        .stdout(stdout.to_string())
        .stderr("");
}

#[rstest]
#[case::unknown_vendor(&["args", "matrox"], "unknown GPU vendor 'matrox'")]
#[case::unknown_beside_all(&["args", "all,matrox"], "unknown GPU vendor 'matrox'")]
#[case::bad_index(&["args", "nvidia:+1"], "bad device index in 'nvidia:+1'")]
#[case::huge_index(&["args", "amd:99999999999"], "is too large")]
#[case::none_combined(&["args", "none", "amd"], "'none' selects no GPU")]
#[case::no_selector(
    &["args"],
    "gpuctl args needs a selector: all, a vendor (nvidia, amd, intel), VENDOR:N"
)]
#[case::no_selector_json(&["args", "--format", "json"], "or none for no GPU")]
#[case::bad_format(&["args", "--format", "xml", "all"], "")]
#[case::bad_detect_format(&["detect", "--format", "yaml"], "")]
#[case::no_command(&[], "")]
#[case::unknown_command(&["frobnicate"], "")]
fn invalid_input_exits_2(#[case] args: &[&str], #[case] fragment: &str) {
    let out = gpuctl(&host("workstation"))
        .args(args)
        .assert()
        .code(2)
        .stdout("");
    if !fragment.is_empty() {
        out.stderr(one_error_line().and(predicate::str::contains(fragment)));
    }
}

#[test]
fn a_missing_root_is_invalid_input() {
    gpuctl(Path::new("/no/such/root"))
        .args(["args", "all"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("gpuctl: error: the root directory /no/such/root does not exist; pass --root (or GPUCTL_ROOT) an existing directory\n");
}

#[rstest]
#[case("empty", "all", "no usable GPU support was detected")]
#[case("empty", "nvidia", "no legacy 'oci-nvidia-hook.json' OCI hook")]
#[case("dgx-b200", "intel", "nor an Intel render node")]
#[case("amd-mi300x", "amd:8", "this host has 8 amd device(s)")]
#[case("dgx-b200", "nvidia:9", "no valid CDI spec declares nvidia.com/gpu=9")]
fn a_request_the_host_cannot_serve_exits_1(
    #[case] name: &str,
    #[case] sel: &str,
    #[case] fragment: &str,
) {
    gpuctl(&host(name))
        .args(["args", sel])
        .assert()
        .code(1)
        .stdout("")
        .stderr(one_error_line().and(predicate::str::contains(fragment)));
}

#[test]
fn one_failing_vendor_means_no_partial_arguments() {
    // nvidia and intel could be served; amd:5 cannot: nothing is printed.
    gpuctl(&host("workstation"))
        .args(["args", "nvidia,intel,amd:5"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(one_error_line().and(predicate::str::contains("amd device(s) [5]")));
}

#[test]
fn quiet_silences_warnings_but_not_results() {
    let noisy = gpuctl(&host("cdi-broken"))
        .args(["args", "nvidia"])
        .assert()
        .code(0);
    let warned = String::from_utf8(noisy.get_output().stderr.clone()).unwrap();
    assert!(
        warned.contains("gpuctl: warning: CDI spec /etc/cdi/nvidia.yaml is skipped"),
        "{warned}"
    );
    gpuctl(&host("cdi-broken"))
        .args(["-q", "args", "nvidia"])
        .assert()
        .code(0)
        .stderr("")
        .stdout(predicate::str::starts_with("--device /dev/nvidia-modeset"));
}

#[test]
fn verbose_shows_what_was_probed() {
    gpuctl(&host("workstation"))
        .args(["-v", "args", "amd"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "renderD129: vendor 0x1002, PCI address 0000:03:00.0",
        ));
}

#[test]
fn cdi_spec_dir_replaces_the_default_directories() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/nvidia.yaml", "nvidia.com/gpu", &["0", "all"]);
    t.cdi_spec("/opt/cdi/amd.yaml", "amd.com/gpu", &["0", "all"]);
    gpuctl(t.root())
        .args(["--cdi-spec-dir", "/opt/cdi", "args", "all"])
        .assert()
        .code(0)
        .stdout("--device amd.com/gpu=all --group-add keep-groups\n");
}

#[test]
fn detect_exits_0_even_without_gpus() {
    gpuctl(&host("empty"))
        .args(["detect"])
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("nvidia: not usable")
                .and(predicate::str::contains("intel: not usable")),
        );
}

const UNRESOLVABLE: &str =
    "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n";

#[test]
fn explain_reads_a_file_and_names_the_host_facts() {
    let t = Tree::new();
    t.file("/tmp/podman.err", UNRESOLVABLE);
    t.file(
        "/etc/cdi/nvidia.yaml",
        &gpuctl_testkit::cdi_yaml("nvidia.com/gpu", &["0", "all"]).replace("0.5.0", "0.7.0"),
    );
    gpuctl(t.root())
        .arg("explain")
        .arg(t.path("/tmp/podman.err"))
        .assert()
        .code(0)
        .stdout(
            predicate::str::starts_with(format!("GPU misconfiguration, in these lines (of 1):\n    1 | {}\n", UNRESOLVABLE.trim()))
                .and(predicate::str::contains("On this host ('gpuctl doctor' checks without asking podman: cdi-version, cdi-readable):\n  skipped  cdi-version        /etc/cdi/nvidia.yaml"))
                .and(predicate::str::contains("nvidia.com/gpu=all is declared by /etc/cdi/nvidia.yaml (cdiVersion 0.7.0, which needs podman 5.1 or newer)"))
                .and(predicate::str::contains("Hint: GPU CDI configuration appears to be missing or broken.")),
        );
}

#[test]
fn explain_reads_stdin_and_exits_1_without_a_gpu_problem() {
    let t = Tree::new();
    gpuctl(t.root())
        .arg("explain")
        .write_stdin("Error: image not found\n")
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("No GPU misconfiguration found"));
    gpuctl(t.root())
        .args(["explain", "-"])
        .write_stdin("Error: option --group-add keep-groups is not supported by runc\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "is only supported by the crun OCI runtime",
        ));
}

/// issue 31: `--format json` carries the emitter, operation, object and cause read from the
/// line; a library the image lacks stays unclaimed (exit 1) and says why.
#[test]
fn explain_json_names_the_emitter_and_an_image_library_is_not_claimed() {
    let t = Tree::new();
    // https://github.com/NVIDIA/nvidia-container-toolkit/issues/1269
    let out = gpuctl(t.root())
        .args(["explain", "--format", "json"])
        .write_stdin("nvidia-container-cli: initialization error: nvml error: driver not loaded\n")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap_or_default();
    assert_eq!(v["family"], "gpu-structured");
    assert_eq!(v["emitter"], "nvidia-container-cli");
    assert_eq!(v["operation"], "initialise");
    assert_eq!(v["object"], "NVML");
    assert!(
        v["cause"]
            .as_str()
            .is_some_and(|c| c.contains("not loaded")),
        "{v}"
    );
    // https://github.com/yeyupiaoling/Whisper-Finetune/issues/16
    gpuctl(t.root())
        .arg("explain")
        .write_stdin("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n")
        .assert()
        .code(1)
        .stdout(
            predicate::str::starts_with("No GPU misconfiguration found")
                .and(predicate::str::contains("This is the image's packaging")),
        );
}

#[test]
fn explain_with_an_unreadable_file_exits_2() {
    gpuctl(&host("empty"))
        .args(["explain", "/no/such/file"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line().and(predicate::str::contains("cannot read /no/such/file")));
}

#[test]
fn explain_names_the_nvidia_hook_before_cdi() {
    gpuctl(&host("empty"))
        .arg("explain")
        .write_stdin("Error: OCI runtime error: crun: error executing hook /usr/bin/nvidia-container-runtime-hook (exit code: 1): nvidia-container-cli: container error: cgroup subsystem devices not found, CDI")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no-cgroups = true"));
}

#[test]
fn help_and_version_exit_0() {
    cargo_bin_cmd!("gpuctl")
        .arg("--help")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("args"));
    cargo_bin_cmd!("gpuctl").arg("--version").assert().code(0);
}

#[test]
fn a_spec_too_new_for_the_given_podman_is_not_used() {
    let t = Tree::new();
    t.file(
        "/etc/cdi/nvidia.yaml",
        &gpuctl_testkit::cdi_yaml("nvidia.com/gpu", &["0", "all"]).replace("0.5.0", "0.7.0"),
    );
    t.dev(&["nvidiactl", "nvidia0"]);
    gpuctl(t.root())
        .args(["args", "nvidia"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("--device nvidia.com/gpu=all"));
    gpuctl(t.root())
        .args(["--podman-version", "4.9.3", "args", "nvidia"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("--device /dev/nvidia0 --device /dev/nvidiactl"))
        .stderr("gpuctl: warning: CDI spec /etc/cdi/nvidia.yaml is skipped: cdiVersion 0.7.0 is newer than podman 4.9.3 can load (its CDI library reads up to 0.6.0); podman skips it too (it reports only 'unresolvable CDI devices'), so upgrade podman, or regenerate the spec for this podman\n");
    gpuctl(t.root())
        .env("GPUCTL_PODMAN_VERSION", "5.1.0")
        .args(["args", "nvidia"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("--device nvidia.com/gpu=all"));
    gpuctl(t.root())
        .args(["--podman-version", "latest", "args", "nvidia"])
        .assert()
        .code(2)
        .stderr(one_error_line().and(predicate::str::contains("is not a version like 4.3.1")));
}

/// issue 19 item 3 on a bundled host: the missing render node is named, and doctor's file checks
/// say what this host has instead.
#[test]
fn explain_names_a_missing_render_node_and_what_this_host_has() {
    gpuctl(&host("intel-laptop"))
        .arg("explain")
        .write_stdin("Error: stat /dev/dri/renderD128: no such file or directory\n")
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("Diagnosis (render-node-missing)")
                .and(predicate::str::contains(
                    "  ok       tier               intel",
                ))
                .and(predicate::str::contains(
                    "This host does not show the cause now",
                )),
        );
}

/// A failure no family knows that names a GPU component is answered, never silently dropped:
/// read by its structure (issue 31); a text that names one but reports no failure is answered
/// as not recognised; a non-GPU failure that looks alike (a serial device) is not answered.
#[test]
fn an_unknown_gpu_failure_is_answered_and_a_look_alike_is_not() {
    gpuctl(&host("empty"))
        .arg("explain")
        .write_stdin("step 1\nError: Failed to initialize NVML\nstep 3\nstep 4\n")
        .assert()
        .code(0)
        .stdout(
            predicate::str::starts_with(
                "GPU failure, read from the line of the component that failed",
            )
            .and(predicate::str::contains(
                "    2 | Error: Failed to initialize NVML\n    3 | step 3\n\n",
            ))
            .and(predicate::str::contains(
                "Diagnosis (gpu-structured): NVML could not initialise: ",
            ))
            .and(predicate::str::contains("step 4").not()),
        );
    gpuctl(&host("empty"))
        .arg("explain")
        .write_stdin("step 1\nthe host runs NVML 12.4\nstep 3\nstep 4\n")
        .assert()
        .code(0)
        .stdout(
            predicate::str::starts_with("Looks GPU-related, but gpuctl does not recognise it")
                .and(predicate::str::contains("Diagnosis (gpu-unrecognised)")),
        );
    gpuctl(&host("empty"))
        .arg("explain")
        .write_stdin("Error response from daemon: error gathering device information while adding custom device \"/dev/ttyUSB0\": no such file or directory\n")
        .assert()
        .code(1);
}
