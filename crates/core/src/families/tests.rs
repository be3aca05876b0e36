//! The core catalogue's own invariants; the real texts are tested end to end with every vendor
//! registered, in crates/cli/tests/explain_real.rs.

use super::*;
use std::collections::HashSet;

#[test]
fn codes_are_unique_and_every_family_can_match_and_says_what_to_do() {
    let mut seen = HashSet::new();
    for f in CORE_FAMILIES {
        assert!(seen.insert(f.code), "{} twice", f.code);
        assert!(
            !f.signs.is_empty() && f.signs.iter().all(|s| !s.is_empty()),
            "{}",
            f.code
        );
        assert!(f.remedy.starts_with("Hint: "), "{}", f.code);
        assert!(f.diagnosis.ends_with('.'), "{}", f.code);
    }
}

#[test]
fn a_sign_needs_all_its_substrings_and_case_counts() {
    let f = CORE_FAMILIES
        .iter()
        .find(|f| f.code == "render-node-denied")
        .copied();
    let Some(f) = f else {
        panic!("render-node-denied is in the catalogue");
    };
    assert!(f.matches("cat: can't open '/dev/dri/renderD128': Permission denied"));
    assert!(!f.matches("cat: can't open '/dev/dri/renderD128'"));
    assert!(!f.matches("cat: can't open '/dev/dri/renderd128': permission denied"));
}

#[test]
fn the_lowest_priority_wins() {
    let reg = Registry::from_backends(std::iter::empty());
    let text = "Error: unable to find group keep-groups";
    assert_eq!(
        classify(text, &reg).map(|f| f.code.as_str()),
        Some("keep-groups-unsupported")
    );
    assert_eq!(classify("Error: image not known", &reg), None);
}

/// Core's families, and the answers explain builds without a sign (a CDI kind named, a CDI name
/// taken for a path), name only checks core's doctor runs; vendors' are held to theirs in
/// crates/cli/tests/check_links.rs.
#[test]
fn core_families_name_only_core_checks() {
    use crate::check::codes;
    use catalogue::{KIND_MENTION, NAME_AS_PATH, UNRECOGNISED_FAMILY};
    let specials = [KIND_MENTION, NAME_AS_PATH, UNRECOGNISED_FAMILY];
    for f in CORE_FAMILIES.iter().chain(&specials) {
        for c in f.checks {
            assert!(codes::CORE.contains(c), "{} names {c}", f.code);
        }
    }
    assert_eq!(NAME_AS_PATH.checks, [codes::PODMAN]);
}
