//! The parsers doctor reads the host with.

use super::*;
use crate::check::containers_conf::engine_runtime;
use crate::check::user::parse_status;
use rstest::rstest;

/// containers.conf is TOML, read with a TOML parser: comments after a table header, spaces
/// inside its brackets, quoted keys and a multi-line table are the same file to podman
/// (issue 16, item 6).
#[rstest]
#[case("[engine]\nruntime = \"runc\"\n", Some("runc"))]
#[case("[containers]\nruntime = \"runc\"\n[engine]\n", None)]
#[case("[engine]\n# runtime = \"runc\"\n", None)]
#[case(
    "[engine]\nruntime=\"/usr/local/bin/crun\" # local build\n",
    Some("/usr/local/bin/crun")
)]
#[case(
    "[engine]\nruntime = 'crun'\n[engine.runtimes]\nrunc = [\"/usr/bin/runc\"]\n",
    Some("crun")
)]
#[case("[engine] # the engine table\nruntime = \"runc\"\n", Some("runc"))]
#[case("[ engine ]\nruntime = \"runc\"\n", Some("runc"))]
#[case("[\"engine\"]\n\"runtime\" = \"runc\"\n", Some("runc"))]
#[case("engine = { runtime = \"runc\" }\n", Some("runc"))]
#[case("engine.runtime = \"runc\"\n", Some("runc"))]
#[case("[engine]\nruntime = \"\"\n", None)]
#[case("", None)]
fn containers_conf_runtime(#[case] text: &str, #[case] want: Option<&str>) {
    assert_eq!(engine_runtime(text), Ok(want.map(str::to_string)));
}

/// What podman's TOML decoder refuses, podman refuses to start with.
#[rstest]
#[case("[engine\nruntime = \"runc\"\n")]
#[case("[engine]\nruntime = runc\n")]
#[case("[engine]\nruntime = 3\n")]
#[case("engine = \"crun\"\n")]
#[case("[engine]\nruntime = \"crun\"\nruntime = \"runc\"\n")]
fn containers_conf_podman_refuses(#[case] text: &str) {
    let got = engine_runtime(text);
    assert!(got.as_ref().is_err_and(|e| !e.contains('\n')), "{got:?}");
}

#[test]
fn proc_status_gives_ids_and_groups() {
    let id = parse_status(
        "Name:\tbash\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nFDSize:\t256\nGroups:\t10 39 105 \n",
    );
    assert_eq!(
        id,
        Some(Identity {
            uid: 1000,
            gid: 1000,
            groups: vec![10, 39, 105]
        })
    );
    let id = id.unwrap_or(Identity {
        uid: 0,
        gid: 0,
        groups: vec![],
    });
    assert!(id.in_group(105) && id.in_group(1000) && !id.in_group(44));
    assert_eq!(parse_status("Name:\tbash\n"), None);
}

#[test]
fn the_report_exits_on_problems_only_and_counts_them() {
    let r = DoctorReport {
        checks: vec![
            Check::new(codes::SELINUX, "SELinux", Status::Warning).fact("x"),
            Check::new(codes::TIER, "amd", Status::Ok),
        ],
    };
    assert!(!r.has_problem());
    assert!(
        r.render()
            .ends_with("0 problem(s), 1 warning(s), 1 ok, 0 skipped\n")
    );
    let r = DoctorReport {
        checks: vec![Check::new(codes::TIER, "amd", Status::Problem).remedy("do it")],
    };
    assert!(r.has_problem());
    assert!(r.render().contains("fix: do it"));
}

#[test]
fn a_remedy_with_its_own_hint_is_printed_as_written_one_line_each() {
    let r = DoctorReport {
        checks: vec![
            Check::new(
                CheckCode::new("amd-driver"),
                "0000:03:00.0",
                Status::Problem,
            )
            .remedy("Hint: load it\nand reboot."),
        ],
    };
    let text = r.render();
    assert!(
        text.contains("\n         Hint: load it\n         and reboot.\n"),
        "{text}"
    );
    assert!(!text.contains("fix:"), "{text}");
}

/// A render-node vendor's own doctor checks, given as data: the check it adds runs with
/// core's, and the base vendor adds none.
#[test]
fn a_render_node_vendor_adds_host_checks_through_its_field() {
    use crate::backend::{GpuBackend, Probe, Registry};
    use crate::check::podman::PodmanFacts;
    use crate::host::Host;
    use crate::render_node::RenderNodeVendor;
    use crate::selector::Selection;

    fn acme_checks(probe: &Probe, _ctx: &DoctorContext) -> Vec<Check> {
        let there = probe
            .host()
            .exists(std::path::Path::new("/dev/acme-ctl"))
            .unwrap_or(false);
        vec![Check::new(
            CheckCode::new("acme-ctl"),
            "/dev/acme-ctl",
            if there { Status::Ok } else { Status::Problem },
        )]
    }
    static ACME: RenderNodeVendor = RenderNodeVendor {
        host_checks: Some(acme_checks),
        ..RenderNodeVendor::new("acme", "Acme", "acme.example/npu", 0x1e5a)
    };
    static PLAIN: RenderNodeVendor =
        RenderNodeVendor::new("plain", "Plain", "plain.example/x", 0x1e5b);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let host = Host::at(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let probe = Probe::new(&host, &[], None);
    let ctx = DoctorContext {
        identity: Some(Identity {
            uid: 0,
            gid: 0,
            groups: vec![],
        }),
        podman: PodmanFacts::default(),
        conf_env: ConfEnv::default(),
        another_host: true,
    };
    let reg = Registry::from_backends([&ACME as &dyn GpuBackend, &PLAIN]);
    let report = run(&reg, &probe, &Selection::All, &ctx);
    let acme: Vec<&Check> = report
        .checks
        .iter()
        .filter(|c| c.code == "acme-ctl")
        .collect();
    assert_eq!(acme.len(), 1);
    assert_eq!(acme[0].status, Status::Problem);
    assert!(PLAIN.host_checks(&probe, &ctx).is_empty());
}
