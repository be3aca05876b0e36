//! Merging vendors' plans: canonical order, a repeated need kept once, all-or-nothing.

use super::*;
use crate::backend::MockGpuBackend;
use crate::host::Host;
use crate::plan::Tier;
use crate::plan::{Need, Plan, VendorPlan};
use crate::render::podman_args;
use crate::selector::{Pick, Selection};
use gpuctl_cdi::CdiRegistry;
use rstest::rstest;

fn s(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| i.to_string()).collect()
}

/// podman pairs as needs: the inverse of `render::podman_pair`.
fn needs(args: &[&str]) -> Vec<Need> {
    args.chunks(2)
        .map(|pair| match pair {
            ["--device", d] if d.contains('=') => Need::CdiDevice(d.to_string()),
            ["--device", d] => Need::DeviceNode(d.to_string()),
            ["--group-add", "keep-groups"] => Need::KeepGroups,
            ["-e", kv] => {
                let (name, value) = kv.split_once('=').unwrap_or((kv, ""));
                Need::Env {
                    name: name.to_string(),
                    value: value.to_string(),
                }
            }
            other => panic!("not a test pair: {other:?}"),
        })
        .collect()
}

fn block(vendor: &'static str, tier: Tier, args: &[&str]) -> VendorPlan {
    let mut plan = VendorPlan::new(vendor, tier);
    for n in needs(args) {
        plan.add(n, None);
    }
    plan
}

#[rstest]
#[case(vec![vec!["-e", "A=1", "-e", "B=2"], vec!["-e", "A=1", "-e", "X=1"]], &["-e", "A=1", "-e", "B=2", "-e", "X=1"])]
#[case(vec![vec!["--group-add", "keep-groups", "--device", "/x"], vec!["--group-add", "keep-groups"]], &["--group-add", "keep-groups", "--device", "/x"])]
#[case(vec![vec!["--device", "/dev/kfd"], vec!["--device", "/dev/kfd", "--device", "/y"]], &["--device", "/dev/kfd", "--device", "/y"])]
#[case(vec![vec!["-e", "V=0,0"]], &["-e", "V=0,0"])]
#[case(vec![], &[])]
fn a_repeated_need_is_kept_once_where_it_first_appears(
    #[case] blocks: Vec<Vec<&str>>,
    #[case] want: &[&str],
) {
    let names = ["a", "b", "c"];
    let plan = Plan::new(
        blocks
            .iter()
            .zip(names)
            .map(|(b, n)| block(n, Tier::Raw, b))
            .collect(),
    );
    assert_eq!(podman_args(&plan), s(want));
}

/// A mock vendor that is usable (or not) and answers with `args`.
fn vendor(
    name: &'static str,
    order: u32,
    tier: Option<Tier>,
    args: &'static [&'static str],
) -> &'static dyn GpuBackend {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const(name);
    m.expect_order().return_const(order);
    m.expect_device_noun().return_const("GPU");
    m.expect_tier().returning(move |_| Ok(tier));
    m.expect_node_group().return_const(None);
    m.expect_missing_summary().return_const("no thing");
    m.expect_plan().returning(move |_, tier, grant| {
        // The tier is the one `Registry::plan` decided through `Probe::tier_of`.
        let mut plan = block(name, tier.expect("a usable vendor's tier"), args);
        if let Some(ix) = &grant.indexes {
            plan.add(
                Need::Env {
                    name: name.to_string(),
                    value: format!("{ix:?}"),
                },
                None,
            );
        }
        plan.notice(crate::finding::Finding::vendor(
            name,
            "test-warned",
            Vec::new(),
            format!("{name} warned"),
        ));
        Ok(plan)
    });
    Box::leak(Box::new(m))
}

fn failing(name: &'static str, order: u32) -> &'static dyn GpuBackend {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const(name);
    m.expect_order().return_const(order);
    m.expect_tier().returning(|_| Ok(Some(Tier::Raw)));
    m.expect_device_noun().return_const("GPU");
    m.expect_node_group().return_const(None);
    m.expect_plan().returning(move |_, _, _| {
        Err(GpuError::Unserved {
            vendor: name.to_string(),
            message: "nope".to_string(),
        })
    });
    Box::leak(Box::new(m))
}

fn with_probe<T>(f: impl FnOnce(&Probe) -> T) -> T {
    let host = Host::system();
    let probe = Probe::with_cdi(&host, CdiRegistry::default());
    f(&probe)
}

#[test]
fn all_takes_the_usable_vendors_in_canonical_order_and_merges_keep_groups() {
    let reg = Registry::from_backends([
        vendor(
            "intel",
            2,
            Some(Tier::Raw),
            &[
                "--device",
                "/dev/dri/renderD128",
                "--group-add",
                "keep-groups",
            ],
        ),
        vendor("nvidia", 0, None, &["never"]),
        vendor(
            "amd",
            1,
            Some(Tier::Raw),
            &["--device", "/dev/kfd", "--group-add", "keep-groups"],
        ),
    ]);
    let out = with_probe(|p| reg.plan(p, &Selection::All)).expect("args");
    assert_eq!(
        podman_args(&out),
        s(&[
            "--device",
            "/dev/kfd",
            "--group-add",
            "keep-groups",
            "--device",
            "/dev/dri/renderD128"
        ])
    );
    let notices: Vec<String> = out.notices().iter().map(|n| n.to_string()).collect();
    assert_eq!(notices, s(&["amd warned", "intel warned"]));
}

#[test]
fn all_with_nothing_usable_names_what_each_vendor_lacks() {
    let reg =
        Registry::from_backends([vendor("nvidia", 0, None, &[]), vendor("amd", 1, None, &[])]);
    let err = with_probe(|p| reg.plan(p, &Selection::All)).expect_err("nothing usable");
    assert_eq!(
        err.to_string(),
        "the selection is 'all' but no usable GPU support was detected on this host (no vendor CDI spec, no thing, no thing); run 'gpuctl detect' to see what each vendor lacks"
    );
}

#[test]
fn grants_group_by_vendor_and_one_failure_fails_the_whole_call() {
    let ok = vendor(
        "nvidia",
        0,
        Some(Tier::Cdi),
        &["--device", "nvidia.com/gpu=all"],
    );
    let reg = Registry::from_backends([ok, failing("amd", 1)]);
    let sel = Selection::Grants(vec![
        ("nvidia".into(), Some(Pick::Index(0))),
        ("nvidia".into(), Some(Pick::Index(2))),
        ("amd".into(), None),
    ]);
    let err = with_probe(|p| reg.plan(p, &sel)).expect_err("amd fails");
    assert_eq!(err.to_string(), "nope");
    let only_nvidia = Selection::Grants(vec![
        ("nvidia".into(), Some(Pick::Index(0))),
        ("nvidia".into(), Some(Pick::Index(2))),
    ]);
    let out = with_probe(|p| reg.plan(p, &only_nvidia)).expect("args");
    assert_eq!(
        podman_args(&out),
        s(&["--device", "nvidia.com/gpu=all", "-e", "nvidia=[0, 2]"])
    );
}

#[test]
fn nothing_selected_asks_no_vendor() {
    let reg = Registry::from_backends([failing("nvidia", 0)]);
    let out = with_probe(|p| reg.plan(p, &Selection::None)).expect("empty");
    assert!(out.is_empty());
}

#[test]
fn the_registry_rejects_bad_and_duplicate_names() {
    let reg = Registry::from_backends([
        vendor("acme", 100, None, &[]),
        vendor("acme", 101, None, &[]),
        vendor("all", 5, None, &[]),
        vendor("Bad Name", 6, None, &[]),
    ]);
    assert_eq!(reg.names(), ["acme"]);
    assert_eq!(reg.rejected().len(), 3);
}

#[test]
fn the_data_vendor_base_is_no_vendor_until_named() {
    use crate::node_vendor::{NodeVendor, RENDER_NODE, VendorFacts};
    static BASE: NodeVendor = NodeVendor::DEFAULT;
    static NAMED: NodeVendor = NodeVendor {
        facts: VendorFacts {
            order: 7,
            ..VendorFacts::new("acme", "Acme", "acme.example/npu", 0x1e5a)
        },
        device_node: RENDER_NODE,
        ..NodeVendor::DEFAULT
    };
    let reg = Registry::from_backends([&BASE as &dyn GpuBackend, &NAMED]);
    assert_eq!(reg.names(), ["acme"]);
    assert_eq!(reg.rejected().len(), 1);
    assert_eq!(NAMED.order(), 7);
    assert_eq!(BASE.order(), 100);
}

/// A device name reaches only a vendor served on the CDI tier (issue 19 item 1): on a raw or
/// hook tier the registry refuses it before the vendor's recipe sees a grant it cannot read.
#[rstest]
#[case(
    Tier::Raw,
    Err(
        "bad device index in 'amd:GPU-x'; expected 'amd' or 'amd:<non-negative integer>' — this host serves amd on the raw tier, where devices are numbered (see 'gpuctl detect'); a device name selects a device only where a valid CDI spec declares amd.com/gpu"
    )
)]
#[case(
    Tier::Hook,
    Err(
        "bad device index in 'amd:GPU-x'; expected 'amd' or 'amd:<non-negative integer>' — this host serves amd on the hook tier, where devices are numbered (see 'gpuctl detect'); a device name selects a device only where a valid CDI spec declares amd.com/gpu"
    )
)]
#[case(Tier::Cdi, Ok(&["--device", "amd.com/gpu=all", "-e", "amd=[]"][..]))]
fn a_device_name_is_served_on_the_cdi_tier_only(
    #[case] tier: Tier,
    #[case] want: Result<&[&str], &str>,
) {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const("amd");
    m.expect_order().return_const(1u32);
    m.expect_cdi_kind().return_const("amd.com/gpu");
    m.expect_device_noun().return_const("GPU");
    m.expect_tier().returning(move |_| Ok(Some(tier)));
    m.expect_node_group().return_const(None);
    m.expect_plan().returning(|_, tier, grant| {
        assert_eq!(
            grant.names,
            ["GPU-x"],
            "the name reaches the backend as written"
        );
        let mut plan = block(
            "amd",
            tier.expect("usable"),
            &["--device", "amd.com/gpu=all"],
        );
        plan.add(
            Need::Env {
                name: "amd".into(),
                value: format!("{:?}", grant.indexes.clone().unwrap_or_default()),
            },
            None,
        );
        Ok(plan)
    });
    let reg = Registry::from_backends([&*Box::leak(Box::new(m)) as &dyn GpuBackend]);
    let sel = Selection::Grants(vec![("amd".into(), Some(Pick::Name("GPU-x".into())))]);
    let got = with_probe(|p| reg.plan(p, &sel))
        .map(|plan| podman_args(&plan))
        .map_err(|e| e.to_string());
    assert_eq!(got, want.map(s).map_err(str::to_string));
}

/// The registry hands a hook-tier plan the backend's words for docker's note: its name, its
/// device noun and its runtime (issue 27 item 4), so a plug-in's note names its own runtime.
#[test]
fn a_hook_tier_plan_carries_the_vendor_s_runtime() {
    let runtime = crate::plan::HookRuntime {
        name: "habana",
        setup: "habana-container-runtime",
    };
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const("gaudi");
    m.expect_display_name().return_const("Gaudi");
    m.expect_order().return_const(100u32);
    m.expect_device_noun().return_const("accelerator");
    m.expect_tier().returning(|_| Ok(Some(Tier::Hook)));
    m.expect_node_group().return_const(None);
    m.expect_hook_runtime().return_const(Some(runtime));
    m.expect_plan()
        .returning(|_, tier, _| Ok(block("gaudi", tier.expect("usable"), &["-e", "V=all"])));
    let reg = Registry::from_backends([&*Box::leak(Box::new(m)) as &dyn GpuBackend]);
    let plan = with_probe(|p| reg.plan(p, &Selection::All)).expect("plan");
    assert_eq!(
        plan.vendors()[0].hook_words(),
        crate::plan::HookWords {
            display: "Gaudi",
            noun: "accelerator",
            runtime: Some(runtime),
        }
    );
}

/// A generator's own flags say where it writes (issue 27 item 4): `{path}` and `{dir}` in
/// `cdi_output_args`, `--output={path}` (nvidia-ctk's, amd-ctk's) by default; the stale-spec
/// remedy of a data vendor is that command.
#[rstest]
#[case(
    "--output={path}",
    "/etc/cdi/x.yaml",
    "sudo x-ctk cdi generate --output=/etc/cdi/x.yaml"
)]
#[case(
    "-o {path}",
    "/var/run/cdi/x.json",
    "sudo x-ctk cdi generate -o /var/run/cdi/x.json"
)]
#[case(
    "--output-dir {dir}",
    "/etc/cdi/x.yaml",
    "sudo x-ctk cdi generate --output-dir /etc/cdi"
)]
#[case(
    "--output-dir {dir}",
    "/x.yaml",
    "sudo x-ctk cdi generate --output-dir /"
)]
#[case(
    "--output-dir {dir}",
    "x.yaml",
    "sudo x-ctk cdi generate --output-dir ."
)]
fn the_generator_command_takes_the_generator_s_own_flags(
    #[case] args: &'static str,
    #[case] path: &str,
    #[case] want: &str,
) {
    use crate::node_vendor::{NodeVendor, VendorFacts};
    let facts = VendorFacts {
        cdi_generator: Some("sudo x-ctk cdi generate"),
        cdi_output_args: args,
        ..VendorFacts::new("x", "X", "x.example/dev", 0x1234)
    };
    let vendor = NodeVendor {
        facts,
        device_node: "/dev/x",
        ..NodeVendor::DEFAULT
    };
    assert_eq!(cdi_generate_command(&vendor, path).as_deref(), Some(want));
    assert_eq!(
        with_probe(|p| vendor.cdi_tooling().cdi_regenerate(p, path)),
        Some(format!("'{want}'"))
    );
    let none = NodeVendor {
        facts: VendorFacts {
            cdi_generator: None,
            ..facts
        },
        ..vendor
    };
    assert_eq!(cdi_generate_command(&none, path), None);
}
