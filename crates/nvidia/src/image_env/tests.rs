//! The toolkit's rules on real image strings: NVIDIA's CUDA 12.0.0 base image for Ubuntu 22.04
//! (gitlab.com/nvidia/container-images/cuda, dist/12.0.0/ubuntu2204/base/Dockerfile, as copied
//! in github.com/wordslab-org/wordslab, doc/infra/containers/nvidia-cuda-base-install.sh).

use super::*;
use rstest::rstest;

const CUDA_12_0_BASE: &str = "NVIDIA_REQUIRE_CUDA=cuda>=12.0 brand=tesla,driver>=450,driver<451 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 brand=nvidia,driver>=470,driver<471 brand=nvidiartx,driver>=470,driver<471 brand=geforce,driver>=470,driver<471 brand=geforcertx,driver>=470,driver<471 brand=quadro,driver>=470,driver<471 brand=quadrortx,driver>=470,driver<471 brand=titan,driver>=470,driver<471 brand=titanrtx,driver>=470,driver<471 brand=tesla,driver>=510,driver<511 brand=unknown,driver>=510,driver<511 brand=nvidia,driver>=510,driver<511 brand=nvidiartx,driver>=510,driver<511 brand=geforce,driver>=510,driver<511 brand=geforcertx,driver>=510,driver<511 brand=quadro,driver>=510,driver<511 brand=quadrortx,driver>=510,driver<511 brand=titan,driver>=510,driver<511 brand=titanrtx,driver>=510,driver<511 brand=tesla,driver>=515,driver<516 brand=unknown,driver>=515,driver<516 brand=nvidia,driver>=515,driver<516 brand=nvidiartx,driver>=515,driver<516 brand=geforce,driver>=515,driver<516 brand=geforcertx,driver>=515,driver<516 brand=quadro,driver>=515,driver<516 brand=quadrortx,driver>=515,driver<516 brand=titan,driver>=515,driver<516 brand=titanrtx,driver>=515,driver<516 brand=tesla,driver>=520,driver<521 brand=unknown,driver>=520,driver<521 brand=nvidia,driver>=520,driver<521 brand=nvidiartx,driver>=520,driver<521 brand=geforce,driver>=520,driver<521 brand=geforcertx,driver>=520,driver<521 brand=quadro,driver>=520,driver<521 brand=quadrortx,driver>=520,driver<521 brand=titan,driver>=520,driver<521 brand=titanrtx,driver>=520,driver<521\nNV_CUDA_CUDART_VERSION=12.0.107-1\nNV_CUDA_COMPAT_PACKAGE=cuda-compat-12-0\n";

fn rel(s: &str) -> DriverRelease {
    DriverRelease::parse(s).unwrap()
}

fn fit(env: &str, driver: &str) -> Fit {
    check(&parse(env), &rel(driver)).unwrap()
}

#[rstest]
// the first alternative, cuda>=12.0: a driver that runs CUDA 12.0 (525.60.13 and on)
#[case("525.60.13", "fits")]
#[case("535.54.03", "fits")]
// space = or: a 520 driver meets brand=...,driver>=520,driver<521 if the brand is right
#[case("520.61.05", "depends")]
#[case("470.256.02", "depends")]
// no alternative holds: 495 is in no listed branch and runs CUDA 11.5
#[case("495.29.05", "fails")]
fn the_cuda_12_0_base_image(#[case] driver: &str, #[case] want: &str) {
    let got = fit(CUDA_12_0_BASE, driver);
    let kind = match &got {
        Fit::Fits => "fits",
        Fit::Depends(_) => "depends",
        Fit::Fails(_) => "fails",
    };
    assert_eq!(kind, want, "{got:?}");
}

#[test]
fn a_failure_names_both_ways_out() {
    assert_eq!(
        fit(CUDA_12_0_BASE, "495.29.05"),
        Fit::Fails(
            "NVIDIA_REQUIRE_CUDA wants CUDA 12.0 or newer: needs a driver of at least 525.60.13, or an image built for CUDA 11.5 or older (driver 495.29.05 runs CUDA 11.5)"
                .to_string()
        )
    );
}

#[test]
fn comma_is_and() {
    let env = "NVIDIA_REQUIRE_CUDA=cuda>=12.0,driver>=530\n";
    assert!(matches!(fit(env, "525.60.13"), Fit::Fails(_)));
    assert_eq!(fit(env, "535.54.03"), Fit::Fits);
}

#[test]
fn several_variables_are_and() {
    let env = format!("{CUDA_12_0_BASE}NVIDIA_REQUIRE_DRIVER=driver>=550\n");
    assert!(matches!(fit(&env, "535.54.03"), Fit::Fails(_)));
    assert_eq!(fit(&env, "550.54.14"), Fit::Fits);
}

#[rstest]
#[case("true", true)]
#[case("1", true)]
#[case("false", false)]
#[case("yes", false)]
fn disable_require_turns_the_checks_off(#[case] value: &str, #[case] off: bool) {
    let env = format!("{CUDA_12_0_BASE}NVIDIA_DISABLE_REQUIRE={value}\n");
    assert_eq!(fit(&env, "495.29.05") == Fit::Fits, off);
}

#[test]
fn cuda_version_stands_in_when_there_is_no_require_cuda() {
    // what an image that sets only CUDA_VERSION (as NVIDIA's images do beside the variable) asks
    let env = "CUDA_VERSION=12.8.1\n";
    assert!(matches!(fit(env, "560.35.03"), Fit::Fails(w) if w.contains("CUDA 12.8")));
    assert_eq!(fit(env, "570.26"), Fit::Fits);
    // with NVIDIA_REQUIRE_CUDA present, CUDA_VERSION is not a requirement
    let env = "CUDA_VERSION=12.8.1\nNVIDIA_REQUIRE_CUDA=cuda>=12.0\n";
    assert_eq!(fit(env, "560.35.03"), Fit::Fits);
}

#[test]
fn arch_and_brand_are_never_assumed() {
    let env = "NVIDIA_REQUIRE_ARCH=arch>=7.5\n";
    assert!(matches!(fit(env, "570.26"), Fit::Depends(w) if w.contains("NVIDIA_REQUIRE_ARCH")));
}

#[test]
fn an_expression_the_hook_refuses_is_a_failure_naming_it() {
    let got = fit("NVIDIA_REQUIRE_CUDA=cuda~12\n", "570.26");
    assert_eq!(
        got,
        Fit::Fails(
            "NVIDIA_REQUIRE_CUDA ('cuda~12') is not an expression nvidia-container-cli reads: NVIDIA's legacy hook refuses the container (\"requirement error: invalid expression\")"
                .to_string()
        )
    );
}

#[rstest]
// item 8: the whole value is compared with the driver's major.minor
#[case("NVIDIA_REQUIRE_CUDA=cuda>=12.8.1\n", "570.124.06", "fails")]
#[case("NVIDIA_REQUIRE_CUDA=cuda=12.8.1\n", "570.124.06", "fails")]
#[case("NVIDIA_REQUIRE_CUDA=cuda>=12.8.1\n", "575.51.03", "fits")]
// item 9: a TAB or a no-break space is no "or", `==` no operator
#[case("NVIDIA_REQUIRE_CUDA=cuda>=13.0\tcuda>=12.0\n", "570.124.06", "fails")]
#[case(
    "NVIDIA_REQUIRE_CUDA=cuda>=13.0\u{a0}cuda>=12.0\n",
    "570.124.06",
    "fails"
)]
#[case("NVIDIA_REQUIRE_CUDA=cuda==12.8\n", "570.124.06", "fails")]
// item 10: an empty NVIDIA_REQUIRE_CUDA holds, and then CUDA_VERSION is the legacy rule
#[case("NVIDIA_REQUIRE_CUDA=\n", "470.256.02", "fits")]
#[case("NVIDIA_REQUIRE_CUDA=\nCUDA_VERSION=12.8.1\n", "560.35.03", "fails")]
#[case("NVIDIA_REQUIRE_CUDA=\nCUDA_VERSION=12.8.1\n", "570.26", "fits")]
// ... and an empty CUDA_VERSION skips nothing else
#[case(
    "CUDA_VERSION=\nNVIDIA_REQUIRE_DRIVER=driver>=550\n",
    "535.183.01",
    "fails"
)]
#[case(
    "CUDA_VERSION=\nNVIDIA_REQUIRE_DRIVER=driver>=550\n",
    "550.54.14",
    "fits"
)]
// a CUDA_VERSION the toolkit cannot read stops the hook
#[case("CUDA_VERSION=12.x\n", "570.26", "fails")]
// item 11: NVIDIA_REQUIRE_JETPACK* are no requirements, and the rest is still checked
#[case(
    "NVIDIA_REQUIRE_JETPACK=csv-mounts=all\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\n",
    "560.35.03",
    "fails"
)]
#[case(
    "NVIDIA_REQUIRE_JETPACK=csv-mounts=all\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\n",
    "570.26",
    "fits"
)]
#[case("NVIDIA_REQUIRE_JETPACK_HOST_MOUNTS=base-only\n", "470.256.02", "fits")]
// brands: libnvidia-container names none "nvidiartx", so only a later release could match it
#[case(
    "NVIDIA_REQUIRE_CUDA=cuda>=12.8 brand=nvidiartx,driver>=535,driver<536\n",
    "535.183.01",
    "depends"
)]
#[case(
    "NVIDIA_REQUIRE_BRAND=brand=tesla\nNVIDIA_REQUIRE_NOT=brand!=tesla\n",
    "570.26",
    "fails"
)]
// a branch newer than NVIDIA's table runs at least its newest CUDA, maybe more: never refused
// for a CUDA the table cannot place
#[case("NVIDIA_REQUIRE_CUDA=cuda>=13.0\n", "600.10", "fits")]
#[case("NVIDIA_REQUIRE_CUDA=cuda>=13.9\n", "600.10", "depends")]
fn the_toolkit_s_rules_on_an_image(#[case] env: &str, #[case] driver: &str, #[case] want: &str) {
    let got = fit(env, driver);
    let kind = match &got {
        Fit::Fits => "fits",
        Fit::Depends(_) => "depends",
        Fit::Fails(_) => "fails",
    };
    assert_eq!(kind, want, "{got:?}");
}

#[test]
fn a_12_8_1_floor_names_the_driver_that_meets_it() {
    assert_eq!(
        fit("NVIDIA_REQUIRE_CUDA=cuda>=12.8.1\n", "570.124.06"),
        Fit::Fails(
            "NVIDIA_REQUIRE_CUDA wants CUDA 12.8.1 or newer, and nvidia-container-cli compares the driver's CUDA (major.minor, 12.8) with the whole 12.8.1, which no 12.8 driver meets: needs a driver of at least 575.51.03, or an image built for CUDA 12.8 or older (driver 570.124.06 runs CUDA 12.8)"
                .to_string()
        )
    );
}

#[test]
fn more_than_32_requirements_are_refused() {
    let many = |n: usize| {
        (0..n)
            .map(|i| format!("NVIDIA_REQUIRE_R{i}=driver>=1\n"))
            .collect::<String>()
    };
    assert_eq!(fit(&many(32), "570.26"), Fit::Fits);
    assert!(
        matches!(fit(&many(33), "570.26"), Fit::Fails(w) if w.contains("33 requirements") && w.contains("too many requirements")),
    );
    // CUDA_VERSION's legacy requirement counts among them
    let legacy = format!("{}CUDA_VERSION=12.0\n", many(32));
    assert!(matches!(fit(&legacy, "570.26"), Fit::Fails(w) if w.contains("CUDA_VERSION")));
    // NVIDIA_DISABLE_REQUIRE turns even that off
    let off = format!("{}NVIDIA_DISABLE_REQUIRE=1\n", many(40));
    assert_eq!(fit(&off, "570.26"), Fit::Fits);
}

#[test]
fn what_the_image_asks_for_is_the_value_as_written() {
    assert_eq!(
        asked_cuda(&parse("NVIDIA_REQUIRE_CUDA=cuda>=12.8.1 brand=tesla\n")).as_deref(),
        Some("12.8.1")
    );
    assert_eq!(
        asked_cuda(&parse("NVIDIA_REQUIRE_CUDA=\nCUDA_VERSION=12.8.1\n")).as_deref(),
        Some("12.8")
    );
    assert_eq!(asked_cuda(&parse("CUDA_VERSION=\n")), None);
    assert_eq!(
        least_driver(&parse("NVIDIA_REQUIRE_CUDA=cuda>=12.8\n")).map(|d| d.as_str()),
        Some("570.26")
    );
    assert_eq!(least_driver(&parse("NVIDIA_REQUIRE_CUDA=cuda~12\n")), None);
}

#[test]
fn no_requirement_fits() {
    assert_eq!(fit("PATH=/usr/bin\n", "470.256.02"), Fit::Fits);
}
