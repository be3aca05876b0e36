//! Which source drives the GPUs: each source judged by THE verdict, as `--driver` judges it.

#![allow(
    clippy::expect_used,
    reason = "a broken catalogue or fixture should stop the test loudly"
)]

use std::io::Write as _;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::requirement::{Fit, VendorRequest};
use gpuctl_core::plugin::requirement_answer::{Request, answer};
use gpuctl_sources::{Catalogue, DistroReport, choose};
// The vendors register themselves when linked.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;
use rstest::rstest;

fn ask(catalogue: &Catalogue, distro: &str, ids: &[&str]) -> DistroReport {
    let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    let release = catalogue.resolve(distro).expect("known release");
    let request = Request {
        ids: &ids,
        specs: &[],
        vendor: VendorRequest::default(),
    };
    choose(
        &Host::system(),
        Registry::discovered(),
        request,
        catalogue,
        &release,
    )
    .expect("answers")
    .1
}

#[rstest]
// A current GPU: the release's own driver, proprietary module first.
#[case::rtx4080_12("debian:12", "2704", Some("nvidia-driver"))]
#[case::h100_13("debian:13", "2330", Some("nvidia-driver"))]
// Volta: the proprietary module only.
#[case::v100_11("debian:11", "1db4", Some("nvidia-driver"))]
// Kepler: 470 is its last branch, a Tesla package in 12, none in 13.
#[case::k80_11("debian:11", "102d", Some("nvidia-driver"))]
#[case::k80_12("debian:12", "102d", Some("nvidia-tesla-470-driver"))]
#[case::k80_13("debian:13", "102d", None)]
// Fermi: 390 is its last branch, in 11 and unstable only.
#[case::fermi_11("debian:11", "06c0", Some("nvidia-legacy-390xx-driver"))]
#[case::fermi_12("debian:12", "06c0", None)]
#[case::fermi_sid("debian:sid", "06c0", Some("nvidia-legacy-390xx-driver"))]
// Blackwell needs the open module at 570 or newer: Debian carries 550 at most.
#[case::b200_sid("debian:sid", "2901", None)]
// Ubuntu carries 580 in both modules: Blackwell gets the open one.
#[case::b200_noble("ubuntu:24.04", "2901", Some("nvidia-driver-580-open"))]
#[case::rtx4080_jammy("ubuntu:22.04", "2704", Some("nvidia-driver-580"))]
#[case::k80_noble("ubuntu:noble", "102d", None)]
fn nvidia_gpus_get_the_first_source_that_fits(
    #[case] distro: &str,
    #[case] id: &str,
    #[case] chosen: Option<&str>,
) {
    let c = Catalogue::builtin().expect("loads");
    let r = ask(&c, distro, &[id]);
    assert_eq!(r.vendors.len(), 1);
    let v = &r.vendors[0];
    assert_eq!(v.chosen.as_deref(), chosen, "{v:#?}");
    // The chosen one is the first that fits; every one before it says why not.
    let first = v.sources.iter().position(|s| s.fits == Fit::Yes);
    assert_eq!(first.map(|i| v.sources[i].source.package.as_str()), chosen);
    for s in &v.sources[..first.unwrap_or(v.sources.len())] {
        assert!(s.why_not.is_some(), "{}", s.source.package);
    }
    assert_eq!(v.none.is_some(), chosen.is_none());
}

#[test]
fn a_legacy_gpu_hears_the_last_release_that_carried_its_package() {
    let c = Catalogue::builtin().expect("loads");
    let fermi = ask(&c, "debian:13", &["06c0"]);
    let none = fermi.vendors[0].none.as_deref().expect("none fits");
    assert!(
        none.starts_with("Debian 13 (trixie) carries no package"),
        "{none}"
    );
    assert!(
        none.contains("the last release that did: Debian 11 (bullseye), nvidia-legacy-390xx-driver 390.157-1~deb11u1"),
        "{none}"
    );
    assert!(
        none.contains("a later one does: Debian unstable (sid), nvidia-legacy-390xx-driver"),
        "{none}"
    );
    let kepler = ask(&c, "debian:13", &["102d"]);
    let none = kepler.vendors[0].none.as_deref().expect("none fits");
    assert!(
        none.contains("the last release that did: Debian 12 (bookworm), nvidia-tesla-470-driver"),
        "{none}"
    );
    let blackwell = ask(&c, "debian:12", &["2901"]);
    let none = blackwell.vendors[0].none.as_deref().expect("none fits");
    assert!(
        none.ends_with("no release of debian in the catalogue carries one"),
        "{none}"
    );
}

/// Every source's verdict is `requirement --driver`'s on the same specs: one verdict.
#[rstest]
fn each_verdict_is_the_driver_verdict(
    #[values("debian:11", "debian:12", "debian:13", "debian:sid")] distro: &str,
    #[values(&["2704"][..], &["2901", "2330"][..], &["1db4"][..], &["06c0"][..], &["1002:744c"][..], &["8086:e20b"][..], &["1002:74a1", "2330"][..])]
    ids: &[&str],
) {
    let c = Catalogue::builtin().expect("loads");
    let r = ask(&c, distro, ids);
    let owned: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    for v in &r.vendors {
        for s in &v.sources {
            let request = Request {
                ids: &owned,
                specs: &s.source.stack,
                vendor: VendorRequest::default(),
            };
            let direct = answer(&Host::system(), Registry::discovered(), request)
                .expect("answers")
                .verdict(&v.vendor)
                .expect("the vendor is there");
            assert_eq!((s.fits, s.why_not.clone()), (direct.fit, direct.why));
        }
    }
}

fn site(text: &str) -> (tempfile::NamedTempFile, Catalogue) {
    let mut f = tempfile::Builder::new()
        .suffix(".yaml")
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    let c = Catalogue::with_site(f.path()).expect("loads");
    (f, c)
}

const ROLLING: &str = r#"
- {distro: acme, release: "1", label: Acme 1, vendor: nvidia, package: rolling-open, stack: ["open:580+"], install: acme-get rolling-open, source: https://acme.example}
- {distro: acme, release: "1", label: Acme 1, vendor: nvidia, package: rolling-proprietary, stack: ["proprietary:560+"], install: acme-get rolling-proprietary, source: https://acme.example}
- {distro: acme, release: "1", label: Acme 1, vendor: nvidia, package: unversioned, stack: ["proprietary"], install: acme-get unversioned, source: https://acme.example}
"#;

/// A branch_at_least source satisfies a floor and never a ceiling (the reference's
/// `satisfied_by` matrix: 2901 | open>=590 fits; 1db4 | prop>=560 does not).
#[test]
fn a_rolling_source_meets_floors_and_never_ceilings() {
    let (_f, c) = site(ROLLING);
    let b200 = ask(&c, "acme:1", &["2901"]);
    assert_eq!(b200.vendors[0].chosen.as_deref(), Some("rolling-open"));
    let v100 = ask(&c, "acme:1", &["1db4"]);
    let v = &v100.vendors[0];
    assert_eq!(v.chosen, None);
    let rolling = &v.sources[1];
    assert_eq!(rolling.fits, Fit::Unknown);
    assert!(
        rolling
            .why_not
            .as_deref()
            .is_some_and(|w| w.contains("newest branch it carries, which can be newer than 580")),
        "{rolling:?}"
    );
    // A source that names no branch is unknown too, never "any".
    assert_eq!(v.sources[2].fits, Fit::Unknown);
}

#[test]
fn a_vendor_without_sources_is_said_so() {
    let (_f, c) = site(ROLLING);
    let r = ask(&c, "acme:1", &["1002:744c"]);
    assert_eq!(
        r.vendors[0].none.as_deref(),
        Some(
            "the catalogue lists no AMD source for Acme 1; no release of acme in the catalogue carries one"
        )
    );
    assert!(r.unserved());
}

#[test]
fn a_bad_spec_in_a_site_row_names_the_row() {
    let (_f, c) = site(
        "- {distro: acme, release: '1', label: Acme 1, vendor: nvidia, package: broken, stack: ['open:5x0'], install: x, source: y}\n",
    );
    let release = c.resolve("acme").expect("known");
    let ids = vec!["2901".to_string()];
    let request = Request {
        ids: &ids,
        specs: &[],
        vendor: VendorRequest::default(),
    };
    let e = choose(
        &Host::system(),
        Registry::discovered(),
        request,
        &c,
        &release,
    )
    .expect_err("refused");
    assert!(e.to_string().starts_with("source broken (Acme 1): "), "{e}");
}
