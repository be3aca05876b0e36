//! Issue 24's findings 1-5 as printed: each release judged by its own README list
//! (crates/nvidia/data/proprietary-lists.tsv; docs/requirement.md, "Per-release lists").

use rstest::rstest;

use super::gpuctl;

#[rstest]
#[case(&["0191", "--driver", "proprietary:470.256.02"], 1, "driver proprietary:470.256.02: does not satisfy — NVIDIA GPU (Kepler or older, 10de:0191): proprietary module: the README of 470.256.02 lists it only under \"The 340.xx driver supports\" (legacy GPUs): 340.xx is its last branch")]
#[case(&["06c0", "--driver", "proprietary:450.248.02"], 1, "driver proprietary:450.248.02: does not satisfy — NVIDIA GPU (Kepler or older, 10de:06c0): proprietary module: the README of 450.248.02 lists it only under \"The 390.xx driver supports\" (legacy GPUs): 390.xx is its last branch")]
#[case(&["2584", "--driver", "proprietary:525.147.05"], 1, "driver proprietary:525.147.05: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:2584): proprietary module: the README of 525.147.05 (nvidia-tesla-driver 525.147.05-19) does not list it; the first release read that lists it is 535.216.03")]
#[case(&["1eb8", "--driver", "proprietary:535.261.03"], 0, "driver proprietary:535.261.03: satisfies")]
#[case(&["1eb8", "--driver", "proprietary:550"], 0, "driver proprietary:550: satisfies")]
#[case(&["1fb8", "--driver", "proprietary:418.226.00"], 0, "driver proprietary:418.226.00: satisfies")]
#[case(&["0fcd", "--driver", "proprietary:470.256.02"], 0, "driver proprietary:470.256.02: satisfies")]
#[case(&["232c", "--driver", "proprietary:550.54.15"], 1, "driver proprietary:550.54.15: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:232c): proprietary module: the README of 550.54.15 (nvidia-tesla-550-driver 550.54.15-5) does not list it; the first release read that lists it is 535.216.03")]
#[case(&["232c", "--driver", "proprietary:550.163.01"], 0, "driver proprietary:550.163.01: satisfies")]
#[case(&["232c", "--driver", "proprietary:550"], 1, "driver proprietary:550: unknown — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:232c): proprietary module: depends on the release within branch 550: 550.163.01 is the first release read that lists it; 550.54.15 does not")]
#[case(&["26b8", "--driver", "proprietary:390.157"], 1, "driver proprietary:390.157: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:26b8): proprietary module: the README of 390.157 (nvidia-legacy-390xx-driver 390.157-16) does not list it; the first release read that lists it is 535.216.03")]
#[case(&["20b1", "--driver", "proprietary:340.108"], 1, "driver proprietary:340.108: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:20b1): proprietary module: the README of 340.108 (nvidia-legacy-340xx-driver 340.108-27) does not list it; the first release read that lists it is 450.248.02")]
#[case(&["1c23", "--driver", "proprietary:340.108"], 1, "driver proprietary:340.108: does not satisfy — NVIDIA GPU (Maxwell/Pascal/Volta, 10de:1c23): proprietary module: the README of 340.108 (nvidia-legacy-340xx-driver 340.108-27) does not list it; the first release read that lists it is 418.226.00")]
#[case(&["1e37", "--driver", "open:570.124.06"], 1, "driver open:570.124.06: does not satisfy — NVIDIA GPU (Turing/Ampere/Ada/Hopper, 10de:1e37): open module: no open module README read lists 10de:1e37, and no supported-gpus.json read flags it kernelopen")]
fn each_release_answers_by_its_own_list(
    #[case] args: &[&str],
    #[case] code: i32,
    #[case] last_line: &str,
) {
    let mut full = vec!["requirement"];
    full.extend_from_slice(args);
    let out = gpuctl(&full)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap_or_default();
    assert_eq!(text.lines().last(), Some(last_line), "{text}");
}

#[test]
fn a_legacy_gpu_names_its_last_branch_and_no_longer_says_no_source_lists_it() {
    let out = gpuctl(&["requirement", "0191"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap_or_default();
    assert!(!text.contains("no source lists 10de:0191"), "{text}");
    assert!(
        text.contains("  last branch: 340.xx (the README of 555.58.02 lists it only under \"The 340.xx driver supports\")\n"),
        "{text}"
    );
}

#[test]
fn a_changelog_name_several_ids_carry_is_no_floor() {
    let out = gpuctl(&["requirement", "2584"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap_or_default();
    assert!(
        !text.contains("first listed: proprietary kernel module 470.129.06"),
        "{text}"
    );
    assert!(
        text.contains("NVIDIA changelog: \"GeForce RTX 3050\" added in 470.129.06 (2022-05-13), a name 3 device ids carry: no floor for 10de:2584"),
        "{text}"
    );
}

/// Where release `release`'s README puts `id` (crates/nvidia/data/proprietary-lists.tsv, the
/// third column: `current`, `legacy-340`, `gsp`), or `None` when it does not name it.
fn readme_section(release: &str, id: &str) -> Option<&'static str> {
    include_str!("../../../nvidia/data/proprietary-lists.tsv")
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.len() == 7 && f[0] == release && f[1] == id)
        .map(|f| f[2])
}

/// The combined line's floor takes each release's own list (issue 24, item 1): an id the
/// changelog does not date has the first release read that lists it as a floor "at the
/// latest", a legacy id's last branch is a ceiling said beside it, and one below the others'
/// floor is said as no release read listing every GPU.
#[rstest]
#[case(&["0191"], "  driver floor (the first releases listing every GPU): proprietary kernel module from 340.108 at the latest (an earlier release may list it); last branch: 340.xx (10de:0191: the README of 555.58.02 lists it only under \"The 340.xx driver supports\")")]
// V100's changelog floor (384.98) is above 0191's bound, so it stays exact.
#[case(&["0191", "1db4"], "  driver floor (the first releases listing every GPU): proprietary kernel module 384.98 or newer; last branch: 340.xx (10de:0191: the README of 555.58.02 lists it only under \"The 340.xx driver supports\"), below the floor: no proprietary release read (340.108 to 555.58.02) lists every GPU")]
// "GeForce RTX 3050" dates no id; 535.216.03 is the first release read that lists 2584.
#[case(&["2584"], "  driver floor (the first releases listing every GPU): open kernel module 535.43.28 or newer; proprietary kernel module from 535.216.03 at the latest (an earlier release may list it)")]
// 418.226.00 lists 1fb8, below the changelog's 430.09.
#[case(&["1fb8"], "  driver floor (the first releases listing every GPU): open kernel module 515.48.07 or newer; proprietary kernel module from 418.226.00 at the latest (an earlier release may list it)")]
fn the_combined_floor_takes_each_release_s_own_list(#[case] ids: &[&str], #[case] line: &str) {
    assert_eq!(readme_section("340.108", "0191"), Some("current"));
    assert_eq!(readme_section("555.58.02", "0191"), Some("legacy-340"));
    assert_eq!(readme_section("525.147.05", "2584"), None);
    assert!(readme_section("535.216.03", "2584").is_some());
    assert!(readme_section("418.226.00", "1fb8").is_some());
    let mut full = vec!["requirement"];
    full.extend_from_slice(ids);
    let out = gpuctl(&full).assert().code(0).get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap_or_default();
    assert!(text.lines().any(|l| l == line), "{text}");
    assert!(!text.contains("driver floor: not known"), "{text}");
}
