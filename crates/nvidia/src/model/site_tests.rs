//! Site-policy files: the reference's subclass example as a file, every malformed row, the caps.

#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use std::io::Write;
use std::path::Path;

use rstest::rstest;

use super::KernelModule::{Either, Open};
use super::RexFacts;
use super::site::{Format, MAX_FILE_BYTES, MAX_ROWS, SiteError, load_site_rows, parse_site_rows};
use super::table::{GenerationRow, GenerationTable};

const SUBCLASS_YAML: &str = "\
# The reference's subclass example, as a site-policy file.
- generation: Hopper (site policy)
  first: 0x2330
  last: 0x2330
  kernel_module: open
  min_branch: 575
";

const SUBCLASS_JSON: &str = r#"[
  {"generation": "Hopper (site policy)", "first": "2330", "last": "10de:2330",
   "kernel_module": "open", "min_branch": 575}
]"#;

fn parse(text: &str, format: Format) -> Result<Vec<GenerationRow>, String> {
    parse_site_rows(text, format, Path::new("site.yaml")).map_err(|e| e.to_string())
}

#[rstest]
#[case(SUBCLASS_YAML, Format::Yaml)]
#[case(SUBCLASS_JSON, Format::Json)]
fn subclass_example(#[case] text: &str, #[case] format: Format) {
    let rows = parse(text, format).expect("valid");
    let base = GenerationTable::new(vec![
        GenerationRow::new(
            (0x1df7, 0x28ff),
            Some("Turing/Ampere/Ada/Hopper".into()),
            Either,
            (None, None),
            Some(true),
        )
        .expect("valid"),
    ]);
    let site = base.clone().with_prepended(rows);
    let r = site.lookup(0x2330);
    assert_eq!(r.generation(), Some("Hopper (site policy)"));
    assert_eq!(
        (r.kernel_module(), r.min_branch(), r.max_branch()),
        (Open, Some(575), None)
    );
    // A row without a compute key has no opinion.
    assert_eq!(r.compute(), None);
    assert_eq!(
        site.lookup(0x2331).generation(),
        Some("Turing/Ampere/Ada/Hopper")
    );
    assert_eq!(
        base.lookup(0x2330).generation(),
        Some("Turing/Ampere/Ada/Hopper")
    );
}

#[rstest]
#[case("", Format::Yaml, 0)]
#[case("  \n", Format::Json, 0)]
#[case("[]", Format::Json, 0)]
#[case("- {first: '0000', last: 'FFFF'}", Format::Yaml, 1)]
#[case(
    "- {first: 2330, last: 2330, min_branch: '0580', max_branch: 580.0, compute: false}",
    Format::Yaml,
    1
)]
fn good_files(#[case] text: &str, #[case] format: Format, #[case] rows: usize) {
    assert_eq!(parse(text, format).map(|r| r.len()), Ok(rows));
}

#[test]
fn unquoted_yaml_ids_are_hex() {
    let rows = parse("- {first: 2330, last: 2330}", Format::Yaml).expect("valid");
    assert_eq!((rows[0].first(), rows[0].last()), (0x2330, 0x2330));
    assert_eq!(rows[0].kernel_module(), Either);
    assert_eq!(rows[0].generation(), None);
}

#[rstest]
#[case(
    "- {first: 2331, last: 2330}",
    "site.yaml row 1: first 2331 is above last 2330"
)]
#[case(
    "- {first: 2330, last: 2330}\n- {first: 2330, last: 2330, kernel_module: nouveau}",
    "site.yaml row 2: kernel_module must be open, proprietary or either, not 'nouveau'"
)]
#[case(
    "- {first: 2330, last: 2330, min_branch: 590, max_branch: 580}",
    "site.yaml row 1: min_branch 590 is above max_branch 580: no driver branch can satisfy that"
)]
#[case(
    "- {first: 2330, last: 2330, min_branch: 580.95}",
    "site.yaml row 1: min_branch: a driver branch is an integer like 580, not '580.95'"
)]
#[case(
    "- {first: 2330, last: 2330, min_branch: x, max_branch: y}",
    "site.yaml row 1: max_branch: a driver branch is an integer like 580, not 'y'"
)]
#[case(
    "- {first: 2330, last: 2330, max_branch: -1}",
    "site.yaml row 1: max_branch: a driver branch is an integer like 580, not '-1'"
)]
#[case(
    "- {first: zzzz, last: 2330}",
    "site.yaml row 1: first 'zzzz' is not a PCI device id; write four hex digits, e.g. 2330, 0x2330 or 10de:2330"
)]
#[case(
    "- {first: 2330, last: 0x23300}",
    "site.yaml row 1: last '0x23300' is not a PCI device id; write four hex digits, e.g. 2330, 0x2330 or 10de:2330"
)]
#[case(
    "- {first: 2330, last: '1002:2330'}",
    "site.yaml row 1: last '1002:2330' is not a PCI device id; write four hex digits, e.g. 2330, 0x2330 or 10de:2330"
)]
#[case(
    "- {generation: X, last: 2330}",
    "site.yaml row 1: every row needs first and last"
)]
fn bad_rows(#[case] text: &str, #[case] want: &str) {
    assert_eq!(parse(text, Format::Yaml), Err(want.to_string()));
}

#[rstest]
#[case(
    "{rows: []}",
    Format::Yaml,
    "invalid type: map, expected a list of generation rows"
)]
#[case(
    "- {first: 2330, last: 2330, colour: red}",
    Format::Yaml,
    "unknown field `colour`"
)]
#[case(
    "- {first: 2330, last: 2330, compute: yes}",
    Format::Yaml,
    "expected a boolean"
)]
#[case(
    "[{\"first\": 9008, \"last\": \"2330\"}]",
    Format::Json,
    "invalid type: integer `9008`, expected a string"
)]
#[case(
    "[{\"first\": \"2330\", \"last\": \"2330\"}",
    Format::Json,
    "EOF while parsing"
)]
#[case("[] []", Format::Json, "trailing characters")]
#[case("- [", Format::Yaml, "")]
#[case(
    "- [1]",
    Format::Yaml,
    "expected a generation row, a mapping with first and last"
)]
fn syntax_errors(#[case] text: &str, #[case] format: Format, #[case] fragment: &str) {
    let err = parse_site_rows(text, format, Path::new("site.x")).expect_err("bad");
    assert!(matches!(err, SiteError::Syntax { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.starts_with("site.x is not a list of generation rows: "),
        "{msg}"
    );
    assert!(msg.contains(fragment), "{msg}");
}

#[rstest]
#[case(Format::Json)]
#[case(Format::Yaml)]
fn too_many_rows_stop_early(#[case] format: Format) {
    let row = match format {
        Format::Json => "{\"first\":\"0000\",\"last\":\"0000\"},",
        Format::Yaml => "- {first: '0000', last: '0000'}\n",
    };
    let mut text = row.repeat(MAX_ROWS + 1);
    if format == Format::Json {
        text.pop();
        text = format!("[{text}]");
    }
    let err = parse_site_rows(&text, format, Path::new("big")).expect_err("too many");
    assert_eq!(
        err,
        SiteError::TooManyRows {
            path: "big".into(),
            limit: MAX_ROWS
        }
    );
    assert_eq!(
        err.to_string(),
        "big has more than 10000 rows, more than a site table can need"
    );
    text = row.repeat(MAX_ROWS);
    if format == Format::Json {
        text.pop();
        text = format!("[{text}]");
    }
    assert_eq!(
        parse_site_rows(&text, format, Path::new("big")).map(|r| r.len()),
        Ok(MAX_ROWS)
    );
}

#[rstest]
#[case("t.json", Some(Format::Json))]
#[case("t.JSON", Some(Format::Json))]
#[case("t.yaml", Some(Format::Yaml))]
#[case("t.yml", Some(Format::Yaml))]
#[case("t.toml", None)]
#[case("t", None)]
fn formats_by_extension(#[case] name: &str, #[case] want: Option<Format>) {
    assert_eq!(Format::of_path(Path::new(name)), want);
}

#[test]
fn files_are_read_bounded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("site.yml");
    std::fs::write(&good, SUBCLASS_YAML).expect("write");
    assert_eq!(load_site_rows(&good).map(|r| r.len()), Ok(1));

    let big = dir.path().join("big.json");
    let mut f = std::fs::File::create(&big).expect("create");
    f.write_all(&vec![b' '; MAX_FILE_BYTES as usize + 1])
        .expect("write");
    drop(f);
    let err = load_site_rows(&big).expect_err("too large");
    assert_eq!(
        err,
        SiteError::TooLarge {
            path: big.clone(),
            limit: MAX_FILE_BYTES
        }
    );

    let other = dir.path().join("site.toml");
    std::fs::write(&other, "").expect("write");
    assert_eq!(
        load_site_rows(&other),
        Err(SiteError::UnknownFormat {
            path: other.clone()
        })
    );

    let binary = dir.path().join("bin.yaml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).expect("write");
    assert_eq!(
        load_site_rows(&binary),
        Err(SiteError::NotText {
            path: binary.clone()
        })
    );

    let missing = dir.path().join("missing.yaml");
    assert!(matches!(
        load_site_rows(&missing),
        Err(SiteError::Unreadable { .. })
    ));
    let folder = dir.path().join("folder.yaml");
    std::fs::create_dir(&folder).expect("mkdir");
    let err = load_site_rows(&folder).expect_err("directory");
    assert_eq!(
        err.to_string(),
        format!(
            "{} cannot be read (it is a directory, not a regular file)",
            folder.display()
        )
    );
}

#[test]
fn character_devices_are_refused_before_they_are_opened() {
    // /dev/zero never ends and a FIFO blocks open() until a writer comes (issue 11 item 7):
    // neither is a regular file, so neither is opened.
    let dir = tempfile::tempdir().expect("tempdir");
    let zero = dir.path().join("zero.json");
    if std::os::unix::fs::symlink("/dev/zero", &zero).is_ok() && Path::new("/dev/zero").exists() {
        let err = load_site_rows(&zero).expect_err("a device");
        assert_eq!(
            err.to_string(),
            format!(
                "{} cannot be read (it is a character device, not a regular file)",
                zero.display()
            )
        );
    }
}
