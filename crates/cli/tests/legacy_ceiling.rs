//! One answer for old NVIDIA GPUs: where NVIDIA's own per-release READMEs give an id a last
//! branch below Rex's generation ceiling, the headline, the combined line and the verdict all
//! say that branch; and a branch older than 515 (NVIDIA's first open kernel module, 515.43.04)
//! means the proprietary module, not "module unknown". Facts: the READMEs read list 10de:06c0
//! (GeForce GTX 480, Fermi) only under "The 390.xx driver supports", 10de:0191 (GeForce 8800
//! GTX, Tesla) only under "The 340.xx driver supports", and 10de:102d (Tesla K80, Kepler) under
//! the 470 legacy list, which is Rex's ceiling for the row.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::cargo::cargo_bin_cmd;
use rstest::rstest;

fn gpuctl(args: &[&str]) -> (i32, String, String) {
    let empty = tempfile::tempdir().unwrap();
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("PATH", empty.path())
        .args(["-q", "requirement"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[rstest]
#[case("06c0", "390")]
#[case("0191", "340")]
#[case("102d", "470")]
#[case("1380", "580")]
fn headline_combined_and_json_say_the_last_branch(#[case] id: &str, #[case] last: &str) {
    let (code, out, _) = gpuctl(&[id]);
    assert_eq!(code, 0, "{out}");
    let want = format!("proprietary kernel module, driver branch {last} or older");
    let first = out.lines().next().unwrap();
    assert!(first.ends_with(&want), "headline: {first}");
    assert!(out.contains(&format!("combined: {want}")), "{out}");
    let (_, json, _) = gpuctl(&["--format", "json", id]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let text = v.to_string();
    assert!(
        text.contains(&format!("\"max_branch\":{last}")),
        "JSON max_branch for {id}: {text}"
    );
}

#[rstest]
// The branch above the last one does not satisfy, the last one does, the same with and without
// the module named, as a branch or a full release.
#[case(
    "06c0",
    "470",
    1,
    "does not satisfy — NVIDIA GPU (Kepler or older, 10de:06c0): proprietary module: 390.xx is its last branch: the README of 555.58.02"
)]
#[case(
    "06c0",
    "proprietary:470",
    1,
    "does not satisfy — NVIDIA GPU (Kepler or older, 10de:06c0): proprietary module: 390.xx is its last branch"
)]
#[case(
    "06c0",
    "470.256.02",
    1,
    "the README of 470.256.02 lists it only under \"The 390.xx driver supports\" (legacy GPUs): 390.xx is its last branch"
)]
#[case("06c0", "390", 0, "driver 390: satisfies")]
#[case("06c0", "390.157", 0, "driver 390.157: satisfies")]
#[case("102d", "470", 0, "driver 470: satisfies")]
#[case(
    "0191",
    "390",
    1,
    "does not satisfy — NVIDIA GPU (Kepler or older, 10de:0191): proprietary module: 340.xx is its last branch"
)]
fn the_verdict_says_the_same_branch(
    #[case] id: &str,
    #[case] driver: &str,
    #[case] code: i32,
    #[case] line: &str,
) {
    let (got, out, err) = gpuctl(&[id, "--driver", driver]);
    assert_eq!(got, code, "{out}{err}");
    let last = out.lines().last().unwrap();
    assert!(last.contains(line), "{id} --driver {driver}: {last}");
    assert!(!out.contains("unknown kernel module"), "{out}");
}

#[rstest]
#[case("open:470")]
#[case("open:390.157")]
fn an_open_module_before_515_is_an_error_that_says_why(#[case] driver: &str) {
    let (code, out, err) = gpuctl(&["06c0", "--driver", driver]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(&format!("'{driver}' is not a driver spec"))
            && err.contains("has no open kernel module")
            && err.contains("515.43.04"),
        "{err}"
    );
}

#[test]
fn a_branch_from_515_on_keeps_the_module_unknown() {
    // 535 ships both modules: a Turing GPU supports either, so the answer stays about the
    // branch; a Maxwell GPU needs the proprietary one, which "535" does not say.
    let (code, out, _) = gpuctl(&["1380", "--driver", "535"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .contains("unknown kernel module, the proprietary one is needed"),
        "{out}"
    );
}

#[test]
fn a_site_row_is_kept_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("site.yaml");
    std::fs::write(
        &table,
        "- first: 06c0\n  last: 06c0\n  generation: Fermi (site)\n  kernel_module: proprietary\n  max_branch: 470\n",
    )
    .unwrap();
    let (code, out, err) = gpuctl(&["--table", table.to_str().unwrap(), "06c0"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("proprietary kernel module, driver branch 470 or older"),
        "{out}"
    );
}
