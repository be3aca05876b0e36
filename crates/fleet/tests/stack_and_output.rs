//! The fleet's stack combination on its own, and the atomic write against a planted link.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gpuctl_fleet::model::{ConstraintEntry, Kind};
use gpuctl_fleet::output::write_atomic;
use gpuctl_fleet::stack::{describe_all, intersect, split_sentence};

fn choice(component: &str, noun: &str, allowed: &[&str]) -> ConstraintEntry {
    ConstraintEntry {
        component: component.into(),
        noun: noun.into(),
        kind: Kind::Choice,
        scope: "host".into(),
        allowed: allowed.iter().map(|s| s.to_string()).collect(),
        min: None,
        max: None,
        describe: String::new(),
    }
}

fn range(component: &str, noun: &str, min: Option<&str>, max: Option<&str>) -> ConstraintEntry {
    ConstraintEntry {
        component: component.into(),
        noun: noun.into(),
        kind: Kind::Range,
        scope: "host".into(),
        allowed: Vec::new(),
        min: min.map(str::to_string),
        max: max.map(str::to_string),
        describe: String::new(),
    }
}

#[test]
fn ranges_meet_at_the_highest_floor_and_the_lowest_ceiling() {
    let a = [range(
        "nvidia-driver-branch",
        "driver branch",
        Some("535"),
        Some("580"),
    )];
    let b = [range(
        "nvidia-driver-branch",
        "driver branch",
        Some("570"),
        None,
    )];
    let c = intersect(&a, &b).unwrap();
    assert_eq!(describe_all(&c), "driver branch 570 to 580");
    // A ceiling keeps its point releases: 580 and 580.95 meet at 580.95.
    let d = [range(
        "nvidia-driver-branch",
        "driver branch",
        Some("580.95"),
        None,
    )];
    assert_eq!(
        describe_all(&intersect(&a, &d).unwrap()),
        "driver branch 580.95 to 580"
    );
    let e = [range(
        "nvidia-driver-branch",
        "driver branch",
        Some("590"),
        None,
    )];
    let split = intersect(&a, &e).unwrap_err();
    assert_eq!(
        split_sentence(&split[0], "node-a", "node-b"),
        "node-a needs driver branch 535 to 580, node-b driver branch 590 or newer"
    );
}

#[test]
fn choices_keep_what_both_accept_and_any_is_no_constraint() {
    let any = [choice("nvidia-kernel-module", "kernel module", &[])];
    let open = [choice("nvidia-kernel-module", "kernel module", &["open"])];
    let prop = [choice(
        "nvidia-kernel-module",
        "kernel module",
        &["proprietary"],
    )];
    assert_eq!(
        describe_all(&intersect(&any, &open).unwrap()),
        "open kernel module"
    );
    let split = intersect(&open, &prop).unwrap_err();
    assert_eq!(
        split_sentence(&split[0], "node-blackwell", "node-maxwell"),
        "node-blackwell needs the open kernel module, node-maxwell the proprietary one"
    );
    // Components one side does not constrain are kept from the other.
    let kernel = [range("kernel", "Linux kernel", Some("6.5"), None)];
    assert_eq!(
        describe_all(&intersect(&open, &kernel).unwrap()),
        "open kernel module, Linux kernel 6.5 or newer"
    );
}

#[test]
fn a_planted_temporary_name_is_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    // The first name this process would try, planted as a link to the victim.
    let planted = dir
        .path()
        .join(format!(".gpuctl.gpuctl-{}-0.tmp", std::process::id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let target = dir.path().join("gpuctl");
    std::fs::write(&target, "old").unwrap();
    write_atomic(&target, b"new\n").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
    assert!(
        std::fs::symlink_metadata(&planted)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
}
