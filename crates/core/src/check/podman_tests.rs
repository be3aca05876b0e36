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
    let c = check(&f, false);
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
    assert_eq!(check(&f, false).status, Status::Skipped);

    let mut m = MockPodmanCli::new();
    m.expect_run()
        .with(eq(&["info", "--format", "json"][..]))
        .times(1)
        .returning(|_| None);
    let f = PodmanFacts::ask(&m, Some("5.1.0"));
    assert_eq!(f.version.as_deref(), Some("5.1.0"));
    assert_eq!(check(&f, false).status, Status::Ok);
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
    let c = check(&f, false);
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
    assert_eq!(check(&f, false).status, Status::Problem);
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

/// A stand-in podman that answers, then leaves a process behind holding its stdout (as a
/// misbehaving wrapper or plug-in would): the answer comes back, and the whole call, the read
/// included, ends within a generous bound of the limit (issue 16, item 10).
#[test]
fn a_process_left_holding_stdout_does_not_stall_the_read() {
    let limit = Duration::from_secs(2);
    let start = Instant::now();
    let r = run_limited(
        Path::new("/bin/sh"),
        &[
            "-c",
            "echo '{\"Client\":{\"Version\":\"5.4.0\"}}'; sleep 60 & exit 0",
        ],
        limit,
    );
    let took = start.elapsed();
    assert!(took < 2 * limit, "took {took:?}");
    assert!(matches!(r, Ok(ref out) if out.contains("5.4.0")), "{r:?}");
}

/// A stand-in podman that hangs with a child of its own on the pipe: both are killed with the
/// process group when the limit passes, and the call ends within a generous bound.
#[test]
fn a_hanging_podman_and_its_children_are_killed_at_the_limit() {
    let limit = Duration::from_millis(500);
    let start = Instant::now();
    let r = run_limited(Path::new("/bin/sh"), &["-c", "sleep 60 & sleep 60"], limit);
    let took = start.elapsed();
    assert!(took < 2 * limit + DRAIN_GRACE, "took {took:?}");
    assert!(
        matches!(r, Err(ref e) if e.contains("did not answer")),
        "{r:?}"
    );
}

#[test]
fn a_podman_that_hung_on_version_is_not_asked_for_info() {
    let mut m = MockPodmanCli::new();
    m.expect_run()
        .with(eq(&["version", "--format", "json"][..]))
        .times(1)
        .returning(|_| {
            Some(Err(
                "'podman version' did not answer within 15 s".to_string()
            ))
        });
    m.expect_run()
        .with(eq(&["info", "--format", "json"][..]))
        .times(0)
        .returning(|_| None);
    let f = PodmanFacts::ask(&m, None);
    assert_eq!(f.errors.len(), 1);
    assert_eq!(check(&f, false).status, Status::Warning);
}

#[test]
fn another_host_is_not_asked_and_says_how_to_give_its_version() {
    let c = check(&PodmanFacts::given(None), true);
    assert_eq!(c.status, Status::Skipped);
    assert!(c.facts[0].starts_with("skipped: --root names another host; give --podman-version"));
    let c = check(&PodmanFacts::given(Some("4.9.3")), true);
    assert_eq!(c.status, Status::Ok);
}

/// podman 4.3's words for an image not in local storage reach the failure's sentence (its
/// last stderr line), control characters dropped.
#[test]
fn a_failing_podman_s_last_stderr_line_is_kept() {
    let r = run_limited(
        Path::new("/bin/sh"),
        &[
            "-c",
            "echo 'Error: inspecting object: nosuch:1: image not known\x1b[2K' >&2; echo >&2; exit 125",
        ],
        Duration::from_secs(5),
    );
    let e = r.err().unwrap_or_default();
    assert!(
        e.ends_with(
            "failed (exit status: 125): Error: inspecting object: nosuch:1: image not known[2K"
        ),
        "{e}"
    );
}
