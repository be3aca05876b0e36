//! Floors, full releases, CUDA toolkits and unknown ids through the command line
//! (docs/requirement.md, "NVIDIA driver floors", "CUDA toolkit floors").

use predicates::prelude::*;
use rstest::rstest;

use super::gpuctl;

#[test]
fn an_rtx_4080_on_470_does_not_satisfy() {
    gpuctl(&["requirement", "2704", "--driver", "470"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "  first listed: open kernel module 525.78.01 (2023-01-05, open-gpu-kernel-modules README)\n",
        ))
        .stdout(predicate::str::contains(
            "driver 470: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:2704): proprietary module: no release of branch 470 read lists it (470.256.02); the first release read that lists it is 525.147.05\n",
        ));
}

#[rstest]
#[case::open_release_read(&["2704", "--driver", "open:525.78.01"], 0, "satisfies")]
#[case::open_release_lacking(&["2704", "--driver", "open:525.60.11"], 1, "open module 525.60.11's README does not list it")]
#[case::branch_depends(&["2704", "--driver", "open:525"], 1, "depends on the release within branch 525")]
#[case::proprietary_release(&["2704", "--driver", "proprietary:550.54.15"], 0, "satisfies")]
#[case::module_unknown_release(&["2704", "--driver", "550.54.15"], 0, "satisfies")]
// 450.248.02's own README was read and lacks H100 (issue 24: a release read answers by its list).
#[case::h100_on_450(&["2330", "--driver", "proprietary:450"], 1, "no release of branch 450 read lists it (450.248.02)")]
#[case::v100_branch(&["1db4", "--driver", "proprietary:384"], 1, "NVIDIA's changelog adds \"Tesla V100-PCIE-16GB\" in 384.98")]
#[case::v100_release(&["1db4", "--driver", "proprietary:384.98"], 0, "satisfies")]
fn releases_are_checked_against_the_floors(
    #[case] args: &[&str],
    #[case] code: i32,
    #[case] says: &str,
) {
    let mut all = vec!["requirement"];
    all.extend_from_slice(args);
    gpuctl(&all)
        .assert()
        .code(code)
        .stdout(predicate::str::contains(says));
}

#[test]
fn cuda_12_8_needs_570_26() {
    gpuctl(&["requirement", "2330", "--cuda", "12.8", "--driver", "proprietary:560"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "CUDA 12.8: driver 570.26 or newer (CUDA 12.8 GA, CUDA release notes Table 3)\n",
        ))
        .stdout(predicate::str::contains(
            "driver proprietary:560: does not satisfy — CUDA 12.8 needs driver 570.26 or newer (CUDA release notes, Table 3); branch 560 is older\n",
        ));
    gpuctl(&[
        "requirement",
        "2330",
        "--cuda",
        "12.8.1",
        "--driver",
        "570.124.06",
    ])
    .assert()
    .code(0);
    gpuctl(&[
        "requirement",
        "2330",
        "--cuda",
        "12.8.1",
        "--driver",
        "570.86.15",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "CUDA 12.8.1 needs driver 570.124.06 or newer",
    ));
}

#[test]
fn a_kepler_gpu_and_cuda_12_conflict() {
    gpuctl(&["requirement", "0fc6", "--cuda", "12.4"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "conflict: NVIDIA GPU (Kepler or older, 10de:0fc6) is supported only up to branch 470, but CUDA 12.4 needs driver 550.54.14 or newer\n",
        ));
}

#[rstest]
#[case("12.7")]
#[case("12")]
#[case("v12.8")]
fn a_cuda_the_table_lacks_is_invalid(#[case] cuda: &str) {
    gpuctl(&["requirement", "2704", "--cuda", cuda])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("--cuda '{cuda}'")));
}

#[test]
fn an_nvidia_id_no_list_has_says_it_is_a_guess() {
    gpuctl(&["requirement", "3000"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "no source lists 10de:3000: the requirement is Rex-GPU's generation guess",
        ));
}

#[rstest]
#[case(&["1002:ffff", "--driver", "rocm:6.2"], "AMD GPU (1002:ffff): unknown device: no source lists it")]
#[case(&["8086:ffff", "--driver", "xe"], "Intel GPU (8086:ffff): unknown device: no source lists it")]
fn unknown_amd_and_intel_ids_never_satisfy(#[case] args: &[&str], #[case] says: &str) {
    let mut all = vec!["requirement"];
    all.extend_from_slice(args);
    gpuctl(&all)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(says))
        .stdout(predicate::str::contains("any driver").not());
}

#[test]
fn skylake_gets_i915() {
    gpuctl(&["requirement", "8086:1906"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Intel GPU (Skylake, 8086:1906): i915 kernel driver\n",
        ));
}

/// NVIDIA's CUDA 12.0.0 base image's environment (gitlab.com/nvidia/container-images/cuda,
/// dist/12.0.0/ubuntu2204/base/Dockerfile, as copied in github.com/wordslab-org/wordslab,
/// doc/infra/containers/nvidia-cuda-base-install.sh; PATH as the image sets it).
const CUDA_12_0_ENV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/requirement/cuda-12.0.0-base-ubuntu2204.env"
);

#[rstest]
#[case(
    "495.29.05",
    1,
    "  image on the --driver release: fails — NVIDIA_REQUIRE_CUDA wants CUDA 12.0 or newer: needs a driver of at least 525.60.13, or an image built for CUDA 11.5 or older (driver 495.29.05 runs CUDA 11.5)\n"
)]
#[case(
    "520.61.05",
    1,
    "  image on the --driver release: depends — NVIDIA_REQUIRE_CUDA holds for driver 520.61.05 only on some GPU brands or architectures, which gpuctl does not read\n"
)]
#[case("535.54.03", 0, "  image on the --driver release: fits\n")]
fn an_image_env_is_checked_against_the_release(
    #[case] driver: &str,
    #[case] code: i32,
    #[case] says: &str,
) {
    gpuctl(&[
        "requirement",
        "2704",
        "--image-env",
        CUDA_12_0_ENV,
        "--driver",
        driver,
    ])
    .assert()
    .code(code)
    .stdout(predicate::str::contains(
        "image: CUDA 12.0 or newer, 1 NVIDIA_REQUIRE_* variable(s)\n",
    ))
    .stdout(predicate::str::contains(says));
}

#[test]
fn an_image_env_reads_from_stdin_and_bad_ones_are_refused() {
    let env = std::fs::read_to_string(CUDA_12_0_ENV).expect("fixture");
    gpuctl(&[
        "requirement",
        "2704",
        "--image-env",
        "-",
        "--driver",
        "535.54.03",
    ])
    .write_stdin(env)
    .assert()
    .code(0);
    gpuctl(&[
        "requirement",
        "2704",
        "--image-env",
        "-",
        "--driver",
        "535.54.03",
    ])
    .write_stdin("NVIDIA_REQUIRE_CUDA=cuda~12\n")
    .assert()
    // An expression nvidia-container-cli refuses is the toolkit's verdict on the release, not
    // unreadable input: the legacy hook would refuse the container.
    .code(1)
    .stdout(predicate::str::contains(
        "image on the --driver release: fails — NVIDIA_REQUIRE_CUDA ('cuda~12') is not an expression nvidia-container-cli reads",
    ));
    gpuctl(&["requirement", "2704", "--image-env", "/nonexistent/env"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--image-env /nonexistent/env: cannot be read",
        ));
}

/// `--image-env <(podman image inspect ...)` is a FIFO: read like standard input, and one that
/// nobody writes to is empty input at once, never a hang (issue 19 item 9's rule for explain).
#[test]
fn an_image_env_fifo_is_read_without_blocking_and_a_directory_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("env.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let started = std::time::Instant::now();
    gpuctl(&["requirement", "2704", "--image-env"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "image: no CUDA line, 0 NVIDIA_REQUIRE_* variable(s)\n",
        ));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    gpuctl(&["requirement", "2704", "--image-env"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot be read: it is a directory",
        ));
}

/// The combined line is Rex's (ceilings only); the floor of the GPUs together sits under it, so
/// "any driver branch" is never the last word where the sources know a first release: the
/// newest first listing wins, only the modules Rex's combined answer allows count, and a GPU no
/// source lists makes the floor unknown, never "any".
#[rstest]
#[case(&["2704", "2330"], "  driver floor (the first releases listing every GPU): open kernel module 525.85.05 or newer; proprietary kernel module from 525.85.05 at the latest (an earlier release may list it)\n")]
#[case(&["1db4"], "  driver floor (the first releases listing every GPU): proprietary kernel module 384.98 or newer\n")]
#[case(&["2901", "--cuda", "13.0"], "  driver floor (the first releases listing every GPU): open kernel module 570.86.15 or newer; CUDA 13.0 needs 580.65.06 or newer\n")]
#[case(&["2704", "ffff"], "  driver floor: not known — no source lists the first release for every GPU\n")]
fn the_floor_of_the_gpus_together_is_under_the_combined_line(
    #[case] args: &[&str],
    #[case] line: &str,
) {
    let mut full = vec!["requirement"];
    full.extend_from_slice(args);
    gpuctl(&full)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(line));
}

/// Issue 24 item 9: with NVIDIA_DISABLE_REQUIRE the toolkit checks nothing, so the image's
/// CUDA 12.8 is no floor for `--driver proprietary:565` either (a note says why).
#[test]
fn an_image_that_turns_its_requirements_off_counts_nothing() {
    let env = "NVIDIA_REQUIRE_CUDA=cuda>=12.8\nCUDA_VERSION=12.8.0\nNVIDIA_DISABLE_REQUIRE=1\n";
    let out = gpuctl(&[
        "requirement",
        "2704",
        "--image-env",
        "-",
        "--driver",
        "proprietary:565",
    ])
    .write_stdin(env)
    .assert()
    .code(0)
    .stdout(predicate::str::contains(
        "image: no check (NVIDIA_DISABLE_REQUIRE), 1 NVIDIA_REQUIRE_* variable(s)\n",
    ));
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(!text.contains("CUDA 12.8"), "{text}");
    // the same image without it: CUDA 12.8 is a floor 565 does not meet
    gpuctl(&[
        "requirement",
        "2704",
        "--image-env",
        "-",
        "--driver",
        "proprietary:565",
    ])
    .write_stdin("NVIDIA_REQUIRE_CUDA=cuda>=12.8\nCUDA_VERSION=12.8.0\n")
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "CUDA 12.8: driver 570.26 or newer",
    ));
}
