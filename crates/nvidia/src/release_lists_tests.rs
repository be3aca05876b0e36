//! Tests of the per-release lists' reading (`release_lists.rs`).

use super::*;

fn rel(s: &str) -> DriverRelease {
    DriverRelease::parse(s).unwrap()
}

#[test]
fn every_row_reads_and_every_release_has_rows() {
    let rows = LISTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    let read: usize = releases().iter().map(|r| r.ids.len()).sum();
    assert_eq!(read, rows);
    assert!(releases().len() >= 13, "{}", releases().len());
    assert!(releases().iter().all(|r| r.ids.len() > 500));
}

#[test]
fn the_470_readme_still_supports_kepler_notebooks_its_json_leaves_out() {
    let r = read_release(&rel("470.256.02")).unwrap();
    assert_eq!(r.entry(0x0fcd).unwrap().json, None);
    assert!(r.lists(0x0fcd));
    assert_eq!(
        r.membership(0x0191),
        Membership::LegacyOnly("340.xx".to_string())
    );
}

#[test]
fn rows_are_cut_as_lines_and_split_cut_them() {
    let text = "a\tb\r\n\nc\t\td\n# x\ty";
    assert_eq!(
        table_lines(text).collect::<Vec<_>>(),
        text.lines().collect::<Vec<_>>()
    );
    assert_eq!(tab_fields::<3>("c\t\td"), Some(["c", "", "d"]));
    assert_eq!(tab_fields::<3>("c\td"), None);
    assert_eq!(tab_fields::<2>("c\t\td"), None);
    for line in LISTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let split: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            tab_fields::<7>(line).map(|f| f.to_vec()),
            Some(split),
            "{line}"
        );
    }
}

#[test]
fn any_lists_is_whether_some_release_names_the_id() {
    for id in (0..=u16::MAX)
        .step_by(7)
        .chain([0x0191, 0x0fcd, 0x2335, u16::MAX])
    {
        let named = releases().iter().any(|r| r.entry(id).is_some());
        assert_eq!(any_lists(id), named, "{id:04x}");
    }
    assert!(any_lists(0x0191));
}

#[test]
fn neighbours_compare_by_number() {
    let (lo, hi) = neighbours(&rel("510.47.03"));
    assert_eq!(lo.unwrap().release, rel("470.256.02"));
    assert_eq!(hi.unwrap().release, rel("525.147.05"));
    let (lo, hi) = neighbours(&rel("535"));
    assert_eq!(lo.unwrap().release, rel("525.147.05"));
    assert_eq!(hi.unwrap().release, rel("550.54.15"));
}
