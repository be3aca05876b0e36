//! The parsers doctor reads the host with.

use super::*;
use crate::check::containers_conf::ConfEnv;
use crate::check::containers_conf::engine_runtime;
use crate::check::user::Identity;
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
        r.text()
            .ends_with("0 problem(s), 1 warning(s), 1 ok, 0 skipped\n")
    );
    let r = DoctorReport {
        checks: vec![Check::new(codes::TIER, "amd", Status::Problem).remedy("do it")],
    };
    assert!(r.has_problem());
    assert!(r.text().contains("fix: do it"));
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
    let text = r.text();
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
    use crate::backend::{GpuBackend, Registry};
    use crate::check::podman::PodmanFacts;
    use crate::host::Host;
    use crate::node_vendor::{NodeVendor, RENDER_NODE, VendorFacts};
    use crate::probe::Probe;
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
    static ACME: NodeVendor = NodeVendor {
        facts: VendorFacts {
            host_checks: Some(acme_checks),
            ..VendorFacts::new("acme", "Acme", "acme.example/npu", 0x1e5a)
        },
        device_node: RENDER_NODE,
        ..NodeVendor::DEFAULT
    };
    static PLAIN: NodeVendor = NodeVendor {
        facts: VendorFacts::new("plain", "Plain", "plain.example/x", 0x1e5b),
        device_node: RENDER_NODE,
        ..NodeVendor::DEFAULT
    };
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
    assert!(PLAIN.diagnostics().host_checks(&probe, &ctx).is_empty());
}

/// Issue 15, item 5: doctor plans the selection once, and a plan that fails is a finding of its
/// own, for `all` as for named GPUs, never dropped on the way to the checks that share it.
#[rstest]
#[case::all(Selection::All)]
#[case::named(Selection::Grants(vec![("acme".to_string(), None)]))]
fn the_plan_is_computed_once_and_its_error_shown(#[case] selection: Selection) {
    use crate::backend::{GpuBackend, MockGpuBackend, Registry};
    use crate::check::podman::PodmanFacts;
    use crate::detect::VendorReport;
    use crate::error::GpuError;
    use crate::host::Host;
    use crate::plan::Tier;
    use crate::probe::Probe;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let plans = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = plans.clone();
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const("acme");
    m.expect_order().return_const(100u32);
    m.expect_missing_summary().return_const("no acme node");
    m.expect_device_noun().return_const("NPU");
    m.expect_cdi_kind().return_const("acme.example/npu");
    m.expect_cdi_kinds().returning(|| vec!["acme.example/npu"]);
    m.expect_node_group().return_const(None);
    m.expect_pci_vendor_id().return_const(0x1e5au16);
    m.expect_pci_classes()
        .return_const(crate::pci::GPU_BASE_CLASSES);
    m.expect_tier().returning(|_| Ok(Some(Tier::Raw)));
    m.expect_detect().returning(|p| {
        Ok(VendorReport::new(
            p,
            "acme",
            "acme.example/npu",
            Some(Tier::Raw),
            crate::reason::Reason::Vendor("raw nodes".to_string()),
            Vec::new(),
        ))
    });
    m.expect_plan().returning(move |_, _, _| {
        counted.fetch_add(1, Ordering::SeqCst);
        Err(GpuError::Unserved {
            vendor: "acme".to_string(),
            message: "acme's firmware is too old for its driver".to_string(),
        })
    });
    // No checks, families or CDI generator of its own.
    m.expect_diagnostics().return_const(
        Box::new(crate::backend::NoCapability) as Box<dyn crate::backend::Diagnostics>
    );
    m.expect_cdi_tooling().return_const(
        Box::new(crate::backend::NoCapability) as Box<dyn crate::backend::CdiTooling>
    );
    let backend: &'static dyn GpuBackend = Box::leak(Box::new(m));
    let reg = Registry::from_backends([backend]);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let host = Host::at(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let probe = Probe::new(&host, &[], None);
    let ctx = DoctorContext {
        identity: None,
        podman: PodmanFacts::default(),
        conf_env: ConfEnv::default(),
        another_host: true,
    };
    let report = run(&reg, &probe, &selection, &ctx);
    assert_eq!(plans.load(Ordering::SeqCst), 1);
    let sel: Vec<&Check> = report
        .checks
        .iter()
        .filter(|c| c.code == codes::SELECTION)
        .collect();
    assert_eq!(sel.len(), 1, "{report:?}");
    assert_eq!(sel[0].status, Status::Problem);
    assert_eq!(
        sel[0].facts,
        ["'gpuctl args' refuses it: acme's firmware is too old for its driver"]
    );
    assert!(report.has_problem());
}

/// doctor's JSON, from its one printer: the keys scripts read, in the order doctor has always
/// printed them, and `problems` counted from the checks as they are when printed.
#[test]
fn doctor_json_is_the_report_with_its_problem_count() {
    use crate::output::ReportFormat;
    let mut r = DoctorReport {
        checks: vec![Check::new(codes::SELINUX, "SELinux", Status::Ok).fact("off")],
    };
    r.checks.push(
        Check::new(CheckCode::new("amd-kfd"), "/dev/kfd", Status::Problem).remedy("load amdgpu"),
    );
    let json = r
        .render(ReportFormat::Json)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        json,
        concat!(
            r#"{"checks":[{"code":"selinux","facts":["off"],"remedy":null,"status":"ok","subject":"SELinux"},"#,
            r#"{"code":"amd-kfd","facts":[],"remedy":"load amdgpu","status":"problem","subject":"/dev/kfd"}],"problems":1}"#,
            "\n"
        )
    );
    assert_eq!(r.render(ReportFormat::Text).ok(), Some(r.text()));
}

/// The permission check names the groups a vendor says its nodes need, never `render` for nodes
/// that are not render nodes, and leaves out the nodes of a vendor that says they need none
/// (issue 27 item 4).
#[rstest]
#[case(
    crate::check::NodeGroups::Render,
    Some("each such node should belong to its render or video group")
)]
#[case(crate::check::NodeGroups::Named(&["hl"]), Some("each such node should belong to the hl group with mode 0660, which the Gaudi driver or its udev rules set"))]
#[case(crate::check::NodeGroups::Named(&[]), Some("each such node should belong to the group the Gaudi driver gives it with mode 0660"))]
#[case(crate::check::NodeGroups::None, None)]
fn the_node_check_names_the_vendor_s_groups(
    #[case] groups: crate::check::NodeGroups,
    #[case] want: Option<&str>,
) {
    use crate::backend::MockGpuBackend;
    use crate::check::containers_conf::ConfEnv;
    use crate::check::podman::PodmanFacts;
    use crate::host::Host;
    use crate::plan::{Need, Plan, Tier, VendorPlan};
    use crate::probe::Probe;
    use std::os::unix::fs::PermissionsExt;

    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const("gaudi");
    m.expect_display_name().return_const("Gaudi");
    m.expect_node_group().return_const(None);
    m.expect_cdi_kinds().returning(|| vec!["habana.ai/gaudi"]);
    m.expect_node_groups().return_const(groups);
    let backend: &'static dyn GpuBackend = Box::leak(Box::new(m));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let node = dir.path().join("dev/accel/accel1");
    std::fs::create_dir_all(dir.path().join("dev/accel")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&node, "").unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&node, std::fs::Permissions::from_mode(0o600))
        .unwrap_or_else(|e| panic!("{e}"));
    let host = Host::at(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let probe = Probe::new(&host, &[], None);
    let mut block = VendorPlan::new("gaudi", Tier::Raw);
    block.add(Need::DeviceNode("/dev/accel/accel1".into()), None);
    let plan = Plan::new(vec![block]);
    let ctx = DoctorContext {
        identity: None,
        podman: PodmanFacts::default(),
        conf_env: ConfEnv::default(),
        another_host: false,
    };
    let checks = node_access::render_groups(&probe, &ctx, Some(&plan), &[backend]);
    let remedies: Vec<&str> = checks.iter().filter_map(|c| c.remedy.as_deref()).collect();
    match want {
        None => assert!(checks.is_empty(), "{checks:?}"),
        Some(want) => {
            assert_eq!(checks.len(), 1, "{checks:?}");
            assert_eq!(checks[0].subject, "/dev/accel/accel1");
            assert!(remedies[0].contains(want), "{remedies:?}");
            if groups != crate::check::NodeGroups::Render {
                assert!(!remedies[0].contains("render"), "{remedies:?}");
            }
        }
    }
}
