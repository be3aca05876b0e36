//! The catalogue as data: the built-in rows, `--distro` names, and a site's sources file.

#![allow(
    clippy::expect_used,
    reason = "a broken catalogue or fixture should stop the test loudly"
)]

use std::io::Write as _;

use gpuctl_sources::{Catalogue, SourcesError, load_site_sources};
use rstest::rstest;

#[test]
fn the_built_in_catalogue_has_debian_s_four_releases_and_two_ubuntu_lts_in_order() {
    let c = Catalogue::builtin().expect("the built-in catalogue loads");
    let releases: Vec<String> = c
        .releases()
        .into_iter()
        .map(|r| format!("{}:{}", r.distro, r.release))
        .collect();
    assert_eq!(
        releases,
        [
            "debian:11",
            "debian:12",
            "debian:13",
            "debian:sid",
            "ubuntu:22.04",
            "ubuntu:24.04"
        ]
    );
    // Every row was read on a date, says from which suite, and where: Debian's from the
    // archive itself, Ubuntu's from packages.ubuntu.com.
    for s in c.sources() {
        assert!(s.read.is_some(), "{}: no date", s.package);
        assert!(s.suite.is_some(), "{}: no suite", s.package);
        let from = match s.distro.as_str() {
            "debian" => "apt-cache madison ",
            _ => "https://packages.ubuntu.com/",
        };
        assert!(s.source.starts_with(from), "{}", s.source);
    }
}

#[rstest]
#[case::number("debian:12", "12")]
#[case::codename("debian:bookworm", "12")]
#[case::any_case("Debian:Trixie", "13")]
#[case::newest_numbered("debian", "13")]
#[case::sid("debian:sid", "sid")]
#[case::unstable("debian:unstable", "sid")]
#[case::spaces(" debian : 11 ", "11")]
#[case::ubuntu_newest_lts("ubuntu", "24.04")]
#[case::ubuntu_codename("ubuntu:jammy", "22.04")]
fn distro_names_resolve(#[case] given: &str, #[case] release: &str) {
    let c = Catalogue::builtin().expect("loads");
    assert_eq!(c.resolve(given).expect("known").release, release);
}

#[rstest]
#[case::distro("fedora", "distribution 'fedora'")]
#[case::release("debian:99", "release '99' of debian")]
#[case::empty_release("debian:", "release '' of debian")]
fn unknown_names_list_the_known_ones(#[case] given: &str, #[case] what: &str) {
    let c = Catalogue::builtin().expect("loads");
    let e = c.resolve(given).expect_err("unknown");
    let text = e.to_string();
    assert!(matches!(e, SourcesError::UnknownDistro { .. }));
    assert!(text.contains(what), "{text}");
    assert!(text.contains("debian:12 (bookworm)"), "{text}");
    assert!(text.contains("debian:sid (unstable)"), "{text}");
    assert!(text.contains("ubuntu:24.04 (noble)"), "{text}");
    assert!(text.contains("--sources FILE"), "{text}");
}

fn file(ext: &str, text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(ext)
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

const SITE_YAML: &str = r#"
- distro: acme
  release: "1"
  label: Acme Linux 1
  vendor: nvidia
  package: acme-nvidia
  stack: ["open:580+"]
  install: acme-get nvidia
  source: https://acme.example/packages
"#;

#[test]
fn a_site_file_puts_its_rows_first() {
    let f = file(".yaml", SITE_YAML);
    let c = Catalogue::with_site(f.path()).expect("loads");
    assert_eq!(c.sources()[0].package, "acme-nvidia");
    assert_eq!(c.resolve("acme").expect("known").label, "Acme Linux 1");
    // The built-in rows are still there, after it.
    assert_eq!(c.resolve("debian:12").expect("known").release, "12");
}

#[test]
fn json_site_files_are_read_too() {
    let f = file(
        ".json",
        r#"[{"distro":"acme","release":"1","label":"Acme 1","vendor":"amd","package":"rocm","stack":["rocm:6.4+"],"install":"x","source":"y"}]"#,
    );
    assert_eq!(load_site_sources(f.path()).expect("reads").len(), 1);
}

#[rstest]
#[case::extension(".txt", SITE_YAML, "neither .json nor .yaml")]
#[case::not_a_list(".yaml", "a: b\n", "write a list of rows")]
#[case::unknown_field(
    ".yaml",
    "- {distro: a, release: '1', label: l, vendor: v, package: p, stack: [x], install: i, source: s, colour: red}\n",
    "unknown field"
)]
#[case::empty_stack(
    ".yaml",
    "- {distro: a, release: '1', label: l, vendor: v, package: p, stack: [], install: i, source: s}\n",
    "row 1: stack is empty"
)]
#[case::colon(
    ".yaml",
    "- {distro: a, release: '1:2', label: l, vendor: v, package: p, stack: [x], install: i, source: s}\n",
    "may not contain ':'"
)]
#[case::alias_bomb(
    ".yaml",
    "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
    "without YAML aliases"
)]
fn bad_site_files_are_named_with_the_remedy(
    #[case] ext: &str,
    #[case] text: &str,
    #[case] says: &str,
) {
    let f = file(ext, text);
    let e = load_site_sources(f.path()).expect_err("refused");
    let msg = e.to_string();
    assert!(msg.contains(&f.path().display().to_string()), "{msg}");
    assert!(msg.contains(says), "{msg}");
}

#[test]
fn an_empty_site_file_adds_nothing() {
    let f = file(".yml", "  \n");
    assert!(load_site_sources(f.path()).expect("reads").is_empty());
}

#[test]
fn a_missing_site_file_is_unreadable() {
    let e =
        load_site_sources(std::path::Path::new("/nonexistent/sources.yaml")).expect_err("refused");
    assert!(matches!(e, SourcesError::File { .. }), "{e}");
    assert!(e.to_string().contains("cannot be read ("), "{e}");
}

/// docs/requirement.md's table of how many sources each release has is the catalogue's.
#[test]
fn the_docs_count_the_catalogue() {
    let c = Catalogue::builtin().expect("loads");
    let docs = include_str!("../../../docs/requirement.md");
    for r in c.releases() {
        let count = |vendor: &str| c.of(&r, vendor).count();
        let row = format!(
            "| {} | {} | {} | {} |",
            r.label,
            count("nvidia"),
            count("amd"),
            count("intel")
        );
        assert!(
            docs.contains(&row),
            "docs/requirement.md lacks the row {row}"
        );
    }
}
