//! The podman boundary, mocked: what doctor makes of podman's answers, its failure, its absence.

use super::*;
use mockall::predicate::eq;

const VERSION_JSON: &str = r#"{"Client":{"APIVersion":"4.9.3","Version":"4.9.3","GoVersion":"go1.22.2","GitCommit":"","BuiltTime":"Thu Jan  1 00:00:00 1970","Built":0,"OsArch":"linux/amd64","Os":"linux"}}"#;
const INFO_JSON: &str = r#"{"host":{"arch":"amd64","ociRuntime":{"name":"crun","package":"crun_1.14.1","path":"/usr/bin/crun"},"security":{"rootless":true,"selinuxEnabled":false}}}"#;

#[test]
fn version_and_info_are_read() {
    let mut m = MockPodmanCli::new();
    m.expect_run()
        .with(eq(&["version", "--format", "json"][..]))
        .returning(|_| Some(Ok(VERSION_JSON.to_string())));
    m.expect_run()
        .with(eq(&["info", "--format", "json"][..]))
        .returning(|_| Some(Ok(INFO_JSON.to_string())));
    let f = PodmanFacts::ask(&m, None);
    assert_eq!(f.version.as_deref(), Some("4.9.3"));
    assert_eq!(f.runtime.as_deref(), Some("crun"));
    assert_eq!(f.rootless, Some(true));
    let c = check(&f);
    assert_eq!(c.status, Status::Ok);
    assert!(
        c.facts[0].contains("up to cdiVersion 0.6.0"),
        "{:?}",
        c.facts
    );
}

#[test]
fn no_podman_skips_and_a_given_version_skips_the_version_call() {
    let mut m = MockPodmanCli::new();
    m.expect_run().returning(|_| None);
    let f = PodmanFacts::ask(&m, None);
    assert!(!f.found);
    assert_eq!(check(&f).status, Status::Skipped);

    let mut m = MockPodmanCli::new();
    m.expect_run()
        .with(eq(&["info", "--format", "json"][..]))
        .times(1)
        .returning(|_| None);
    let f = PodmanFacts::ask(&m, Some("5.1.0"));
    assert_eq!(f.version.as_deref(), Some("5.1.0"));
    assert_eq!(check(&f).status, Status::Ok);
}

#[test]
fn a_failing_or_hanging_podman_is_a_warning_with_its_words() {
    let mut m = MockPodmanCli::new();
    m.expect_run().returning(|_| {
        Some(Err(
            "'podman info --format json' did not answer within 15 s".to_string(),
        ))
    });
    let f = PodmanFacts::ask(&m, None);
    let c = check(&f);
    assert_eq!(c.status, Status::Warning);
    assert!(c.facts.iter().any(|x| x.contains("did not answer")));
}

#[test]
fn an_old_podman_has_no_cdi() {
    let f = PodmanFacts {
        found: true,
        version: Some("3.4.4".to_string()),
        ..PodmanFacts::default()
    };
    assert_eq!(check(&f).status, Status::Problem);
}

#[test]
fn the_real_runner_times_out_and_reports_failure() {
    let r = run_limited(
        Path::new("/bin/sh"),
        &["-c", "sleep 5"],
        Duration::from_millis(100),
    );
    assert!(
        matches!(r, Err(ref e) if e.contains("did not answer")),
        "{r:?}"
    );
    let r = run_limited(
        Path::new("/bin/sh"),
        &["-c", "echo hi"],
        Duration::from_secs(5),
    );
    assert_eq!(r.as_deref(), Ok("hi\n"));
    let r = run_limited(
        Path::new("/bin/sh"),
        &["-c", "exit 3"],
        Duration::from_secs(5),
    );
    assert!(r.is_err());
}
