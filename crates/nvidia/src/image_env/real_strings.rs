//! Each of the toolkit's rules (docs/requirement.md, "An image's environment") on the real
//! environments of NVIDIA's CUDA images from 11.8 to 13.0, in tests/images/ (their sources are
//! in tests/images/README.md: gitlab.com/nvidia/container-images/cuda, dist/<version>/<os>/
//! base/Dockerfile). Table 3's floors are in crates/nvidia/data/cuda-drivers.tsv.

use super::*;
use rstest::rstest;

const CUDA_11_8: &str = include_str!("../../../../tests/images/cuda-11.8.0-base-ubuntu2204.env");
const CUDA_12_2: &str = include_str!("../../../../tests/images/cuda-12.2.2-ubuntu2204.env");
const CUDA_12_4: &str = include_str!("../../../../tests/images/cuda-12.4.1-base-ubuntu2204.env");
const CUDA_12_8: &str = include_str!("../../../../tests/images/cuda-12.8.0-base-ubuntu2404.env");
const CUDA_12_9: &str = include_str!("../../../../tests/images/cuda-12.9.0-base-ubuntu2404.env");
const CUDA_13_0: &str =
    include_str!("../../../../tests/images/cuda-13.0.2-vllm-openai-v0.23.0.env");

fn kind(env: &str, driver: &str) -> &'static str {
    let rel = DriverRelease::parse(driver).unwrap_or_else(|e| panic!("{driver}: {e}"));
    match check(&parse(env), &rel) {
        Ok(Fit::Fits) => "fits",
        Ok(Fit::Depends(_)) => "depends",
        Ok(Fit::Fails(_)) => "fails",
        Err(e) => panic!("{e}"),
    }
}

#[rstest]
// `cuda>=X.Y`, the first alternative: a driver at Table 3's floor for X.Y runs the image
#[case(CUDA_11_8, "520.61.05", "fits")]
#[case(CUDA_12_2, "535.54.03", "fits")]
#[case(CUDA_12_4, "550.54.14", "fits")]
#[case(CUDA_12_8, "570.26", "fits")]
#[case(CUDA_12_9, "575.51.03", "fits")]
#[case(CUDA_13_0, "580.65.06", "fits")]
// space-separated alternatives are "or": a driver of a listed forward-compatibility branch
// meets `brand=B,driver>=N,driver<N+1` when the GPU's brand is one listed, which gpuctl does
// not read, so the answer depends on it (never "fits")
#[case(CUDA_11_8, "515.105.01", "depends")]
#[case(CUDA_12_2, "525.147.05", "depends")]
#[case(CUDA_12_4, "535.183.01", "depends")]
#[case(CUDA_12_8, "565.57.01", "depends")]
#[case(CUDA_12_9, "570.172.08", "depends")]
#[case(CUDA_13_0, "575.64.05", "depends")]
// comma-separated conditions are "and": a 555 driver meets `driver>=550` but not `driver<551`,
// and runs CUDA 12.5 only, so no alternative of the 12.8 image holds
#[case(CUDA_11_8, "495.29.05", "fails")]
#[case(CUDA_12_2, "530.30.02", "fails")]
#[case(CUDA_12_4, "545.29.06", "fails")]
#[case(CUDA_12_8, "555.42.06", "fails")]
#[case(CUDA_12_9, "545.29.06", "fails")]
// the 13.0 image lists 535, 550, 565, 570 and 575, not 560
#[case(CUDA_13_0, "560.35.03", "fails")]
fn nvidia_s_cuda_images(#[case] env: &str, #[case] driver: &str, #[case] want: &str) {
    assert_eq!(kind(env, driver), want, "{driver}");
}

#[test]
fn a_failure_names_table_3_s_floor_and_the_newest_cuda_the_driver_runs() {
    let rel = DriverRelease::parse("555.42.06").unwrap();
    let Ok(Fit::Fails(why)) = check(&parse(CUDA_12_8), &rel) else {
        panic!("12.8 on 555 must fail");
    };
    assert_eq!(
        why,
        "NVIDIA_REQUIRE_CUDA wants CUDA 12.8 or newer: needs a driver of at least 570.26, or an image built for CUDA 12.5 or older (driver 555.42.06 runs CUDA 12.5)"
    );
}

#[test]
fn several_variables_must_all_hold() {
    // Two real strings as two variables: the 12.2 one holds on 535.54.03, the 12.8 one only
    // on some brands (535 is one of its forward-compatibility branches).
    let second = CUDA_12_8
        .lines()
        .find_map(|l| l.strip_prefix("NVIDIA_REQUIRE_CUDA="))
        .unwrap();
    let env = format!("{CUDA_12_2}NVIDIA_REQUIRE_CUDA_12_8={second}\n");
    assert_eq!(kind(CUDA_12_2, "535.54.03"), "fits");
    assert_eq!(kind(&env, "535.54.03"), "depends");
    assert_eq!(kind(&env, "570.26"), "fits");
    assert_eq!(kind(&env, "530.30.02"), "fails");
}

#[rstest]
#[case("1", "fits")]
#[case("true", "fits")]
#[case("false", "fails")]
#[case("yes", "fails")]
fn nvidia_disable_require_turns_the_checks_off(#[case] value: &str, #[case] want: &str) {
    let env = format!("{CUDA_13_0}NVIDIA_DISABLE_REQUIRE={value}\n");
    assert_eq!(kind(&env, "560.35.03"), want);
}

#[test]
fn cuda_version_counts_only_without_nvidia_require_cuda() {
    // With NVIDIA_REQUIRE_CUDA the 12.8 image runs on a 565 driver of a listed brand...
    assert_eq!(kind(CUDA_12_8, "565.57.01"), "depends");
    // ...without it, CUDA_VERSION=12.8.0 stands for cuda>=12.8, with no alternative.
    let bare: String = CUDA_12_8
        .lines()
        .filter(|l| !l.starts_with("NVIDIA_REQUIRE_CUDA="))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(bare.contains("CUDA_VERSION=12.8.0\n"));
    assert_eq!(kind(&bare, "565.57.01"), "fails");
    assert_eq!(kind(&bare, "570.26"), "fits");
}
