//! Merging vendors' blocks: canonical order, pair de-duplication, all-or-nothing.

use super::*;
use crate::backend::{MockGpuBackend, Tier};
use crate::cdi::CdiRegistry;
use crate::host::Host;
use rstest::rstest;

fn s(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| i.to_string()).collect()
}

#[rstest]
#[case(&["a", "b", "c", "d", "a", "b", "x"], &["a", "b", "c", "d", "x"])]
#[case(&["a", "b", "a", "c", "a", "b"], &["a", "b", "a", "c"])]
#[case(&["--group-add", "keep-groups", "--device", "x", "--group-add", "keep-groups"], &["--group-add", "keep-groups", "--device", "x"])]
#[case(&["-e", "V=0,0"], &["-e", "V=0,0"])]
#[case(&[], &[])]
fn dedup_pairs_keeps_the_first_of_each_pair(#[case] input: &[&str], #[case] want: &[&str]) {
    assert_eq!(dedup_pairs(s(input)), s(want));
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
    m.expect_tier().returning(move |_| Ok(tier));
    m.expect_missing_summary().return_const("no thing");
    m.expect_run_args().returning(move |_, grant| {
        let mut a = s(args);
        if let Some(ix) = &grant.indexes {
            a.push(format!("{name}={ix:?}"));
        }
        Ok(RunArgs {
            args: a,
            warnings: vec![crate::finding::Finding::VendorNameTaken {
                vendor: format!("{name} warned"),
            }],
        })
    });
    Box::leak(Box::new(m))
}

fn failing(name: &'static str, order: u32) -> &'static dyn GpuBackend {
    let mut m = MockGpuBackend::new();
    m.expect_vendor().return_const(name);
    m.expect_order().return_const(order);
    m.expect_tier().returning(|_| Ok(Some(Tier::Raw)));
    m.expect_run_args().returning(move |_, _| {
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
    let out = with_probe(|p| run_args(&reg, p, &Selection::All)).expect("args");
    assert_eq!(
        out.args,
        s(&[
            "--device",
            "/dev/kfd",
            "--group-add",
            "keep-groups",
            "--device",
            "/dev/dri/renderD128"
        ])
    );
    let vendors: Vec<String> = out
        .warnings
        .iter()
        .filter_map(|w| match w {
            crate::finding::Finding::VendorNameTaken { vendor } => Some(vendor.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(vendors, s(&["amd warned", "intel warned"]));
}

#[test]
fn all_with_nothing_usable_names_what_each_vendor_lacks() {
    let reg =
        Registry::from_backends([vendor("nvidia", 0, None, &[]), vendor("amd", 1, None, &[])]);
    let err = with_probe(|p| run_args(&reg, p, &Selection::All)).expect_err("nothing usable");
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
        ("nvidia".into(), Some(0)),
        ("nvidia".into(), Some(2)),
        ("amd".into(), None),
    ]);
    let err = with_probe(|p| run_args(&reg, p, &sel)).expect_err("amd fails");
    assert_eq!(err.to_string(), "nope");
    let only_nvidia =
        Selection::Grants(vec![("nvidia".into(), Some(0)), ("nvidia".into(), Some(2))]);
    let out = with_probe(|p| run_args(&reg, p, &only_nvidia)).expect("args");
    assert_eq!(
        out.args,
        s(&["--device", "nvidia.com/gpu=all", "nvidia=[0, 2]"])
    );
}

#[test]
fn nothing_selected_asks_no_vendor() {
    let reg = Registry::from_backends([failing("nvidia", 0)]);
    let out = with_probe(|p| run_args(&reg, p, &Selection::None)).expect("empty");
    assert!(out.args.is_empty());
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
