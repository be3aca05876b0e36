//! i915's and xe's pciidlists at the kernel releases read from Debian's linux-source packages
//! (`kernel-releases.tsv`, written by `data/kernel-releases.py`) against what the Intel table
//! answers: at every release read, every id a driver lists binds with that driver as the
//! release's info/desc struct says (asked for force_probe or not), and the release-line table
//! (`i915-releases.tsv`, drm-kmod's trees up to 6.11) agrees with every read tree it covers.
#![allow(clippy::unwrap_used)]

use gpuctl_core::plugin::requirement::Version;
use gpuctl_intel::kernels::reads;
use gpuctl_intel::requirement::{Binding, lookup};
use gpuctl_intel::table::tables;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

fn line(release: &Version) -> Version {
    v(&format!("{}.{}", release.parts()[0], release.parts()[1]))
}

/// Listings a Debian point release has though its release line's first tree does not (stable
/// updates): Arrow Lake's b640, 6.13 by its pull (id-pulls.tsv), is in 6.12.117 with both
/// drivers ("[PATCH 6.12 259/466] drm/xe/pciid: Add new PCI id for ARL").
const STABLE_UPDATES: &[(&str, u16, &str)] =
    &[("i915", 0xb640, "6.12.117"), ("xe", 0xb640, "6.12.117")];

#[test]
fn every_line_parses_and_the_releases_are_the_packages() {
    let k = reads();
    assert!(k.skipped.is_empty(), "{:?}", k.skipped);
    let of = |d: &str| {
        k.releases[d]
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        of("i915"),
        ["5.10.223", "6.1.176", "6.12.117", "7.2.13", "7.3.4"]
    );
    // xe_pci.c is in no tree before 6.8; 6.12.117 is the oldest read that has it.
    assert_eq!(of("xe"), ["6.12.117", "7.2.13", "7.3.4"]);
}

/// At each release read, each id a driver lists (of a platform the table gives that driver)
/// binds as the release's struct says: asked for a parameter when it is gated there, unasked
/// otherwise. Where a release-line source dates the change between two reads (DG1's i915
/// force_probe dropped in 6.17, force-probe.tsv), the reads on both sides agree with it.
#[test]
fn every_read_listing_binds_as_its_release_says() {
    let k = reads();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for ((driver, id), listings) in &k.lists {
        let gpu = lookup(*id);
        let Some(row) = gpu.drivers.iter().find(|d| d.driver == *driver) else {
            continue;
        };
        for l in listings {
            let binding = gpu.binding(row, l.release);
            let stable = STABLE_UPDATES.contains(&(*driver, *id, l.release.to_string().as_str()));
            let ok = match (l.gate, &binding) {
                // The floor stays the release line's; the note names the stable listing.
                (_, Binding::ListedFrom(_)) if stable => gpu
                    .requirement()
                    .notes()
                    .iter()
                    .any(|n| n.starts_with(&format!("{driver}: Linux {} (read)", l.release))),
                ("none", Binding::Unasked) => true,
                ("force_probe" | "alpha_support", Binding::Asked { .. }) => true,
                _ => false,
            };
            if !ok {
                wrong.push(format!(
                    "{driver} {id:04x} at {}: {} vs {binding:?}",
                    l.release, l.gate
                ));
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 2000, "{checked}");
}

/// Each row of i915-releases.tsv against every read tree of a release line it covers (up to
/// 6.11): listed exactly when its first release is at or before the line.
#[test]
fn the_i915_release_table_agrees_with_every_read_tree() {
    let (t, k) = (tables(), reads());
    let mut wrong = Vec::new();
    for row in &t.i915 {
        for release in &k.releases["i915"] {
            if line(release) > v("6.11") {
                continue;
            }
            let listed = k
                .lists
                .get(&("i915", row.device_id))
                .is_some_and(|l| l.iter().any(|x| x.release == *release));
            if listed != (row.first_listed <= line(release)) {
                wrong.push(format!(
                    "{:04x} at {release}: listed {listed}",
                    row.device_id
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Issue 24's Intel examples, each from the reads themselves: ATS-M's ats_m_info has
/// .require_force_probe in every release read (7.2.13 included), so i915 needs force_probe;
/// d74a/d74b are in 7.3.4's pciidlist, not 7.2.13's; d744 is in 7.2.13's only; cri_desc is
/// gated in 7.2.13 and 7.3.4.
#[test]
fn the_issues_examples_follow_the_reads() {
    let k = reads();
    let gate = |d: &'static str, id: u16, r: &str| {
        k.lists
            .get(&(d, id))
            .and_then(|l| l.iter().find(|x| x.release == v(r)))
            .map(|x| x.gate)
    };
    assert_eq!(gate("i915", 0x56c0, "7.2.13"), Some("force_probe"));
    let ats = lookup(0x56c0);
    let i915 = ats.drivers.iter().find(|d| d.driver == "i915").unwrap();
    assert!(matches!(
        ats.binding(i915, v("7.2.13")),
        Binding::Asked { until: None, .. }
    ));
    assert!(
        ats.requirement()
            .describe()
            .starts_with("i915 kernel driver (needs i915.force_probe=56c0)")
    );
    for id in [0xd74a, 0xd74b] {
        assert_eq!(gate("xe", id, "7.2.13"), None);
        assert_eq!(gate("xe", id, "7.3.4"), Some("none"));
        let r = lookup(id).requirement();
        assert!(
            r.describe().ends_with("Linux kernel 7.3.4 or newer"),
            "{}",
            r.describe()
        );
    }
    assert_eq!(gate("xe", 0xd744, "7.2.13"), Some("force_probe"));
    assert_eq!(gate("xe", 0xd744, "7.3.4"), None);
    assert_eq!(lookup(0xd744).platform, Some("Nova Lake-S"));
    assert_eq!(gate("xe", 0x674c, "7.2.13"), Some("force_probe"));
    assert_eq!(lookup(0x674c).drivers[0].force_probe, Some(true));
}
