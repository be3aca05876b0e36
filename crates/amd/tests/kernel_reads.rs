//! amdgpu's pciidlist at the kernel releases read from Debian's linux-source packages
//! (`amdgpu-kernels.tsv`, `amdgpu-si-cik.tsv`, written by `data/amdgpu-kernels.py`) against the
//! per-release-line table (`amdgpu-pciids.tsv`) and against what `lookup` answers: each row of
//! each file lands where the file puts it.
#![allow(clippy::unwrap_used)]

use gpuctl_amd::kernels::reads;
use gpuctl_amd::requirement::lookup;
use gpuctl_amd::table::tables;
use gpuctl_core::plugin::requirement::Version;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

/// Ids a Debian point release lists although its release line's first tree does not (stable
/// updates): amdgpu-pciids.tsv gives 1638 and 164c (Renoir) 5.11 and 73af (Sienna Cichlid)
/// 5.12, and Debian's 5.10.223 lists all three.
const STABLE_UPDATES: &[(u16, &str)] = &[
    (0x1638, "5.10.223"),
    (0x164c, "5.10.223"),
    (0x73af, "5.10.223"),
];

#[test]
fn every_line_parses_and_five_releases_are_read() {
    let k = reads();
    assert!(k.skipped.is_empty(), "{:?}", k.skipped);
    let releases: Vec<String> = k.releases.iter().map(ToString::to_string).collect();
    assert_eq!(
        releases,
        ["5.10.223", "6.1.176", "6.12.117", "7.2.13", "7.3.4"]
    );
    let per_release = |r: &str| {
        k.lists
            .values()
            .filter(|l| l.iter().any(|x| x.release == v(r)))
            .count()
    };
    // The pciidlist entry counts of each tree (grep -c of its 0x1002 entries).
    assert_eq!(per_release("5.10.223"), 261);
    assert_eq!(per_release("7.3.4"), 312);
    assert_eq!(k.generations.len(), 10);
}

/// Each row of amdgpu-pciids.tsv against every Debian read of a release line it covers (up to
/// 6.11, its newest tree): listed exactly when its first release is at or before the line, with
/// the same chip, flagged experimental exactly before its first default release.
#[test]
fn the_release_line_table_agrees_with_every_read_tree() {
    let (t, k) = (tables(), reads());
    let mut checked = 0;
    for (id, row) in &t.pciids {
        for release in &k.releases {
            let line =
                Version::parse(&format!("{}.{}", release.parts()[0], release.parts()[1])).unwrap();
            if line > v("6.11") {
                continue;
            }
            let read = k
                .lists
                .get(id)
                .and_then(|l| l.iter().find(|x| x.release == *release));
            let stable = STABLE_UPDATES.contains(&(*id, release.to_string().as_str()));
            assert_eq!(
                read.is_some(),
                row.first_listed <= line || stable,
                "{id:04x} at {release}"
            );
            if let Some(read) = read {
                assert_eq!(read.chip, row.chip, "{id:04x} at {release}");
                assert_eq!(
                    read.exp_hw,
                    row.first_default > line && !stable,
                    "{id:04x} at {release}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// Every id only the Debian reads list: its chip, and as floor the first read release from
/// which every later read lists it by default (none when the oldest read already does).
#[test]
fn ids_only_the_reads_list_take_their_floor_from_them() {
    let (t, k) = (tables(), reads());
    let mut only = 0;
    for (id, listings) in &k.lists {
        let gpu = lookup(*id, None);
        assert!(gpu.chip.is_some(), "{id:04x}");
        if t.pciids.contains_key(id) {
            continue;
        }
        only += 1;
        let newest = k.releases.last().unwrap();
        let mut from = None;
        for r in k.releases.iter().rev() {
            if !listings.iter().any(|x| x.release == *r && !x.exp_hw) {
                break;
            }
            from = Some(*r);
        }
        if listings.iter().any(|x| x.release == *newest) {
            let want = from.filter(|f| Some(f) != k.releases.first());
            assert_eq!(gpu.first_kernel, want, "{id:04x}");
        }
        assert!(gpu.requirement().unknown() != Some("unknown device: no source lists it"));
    }
    assert_eq!(only, 9, "ids in the reads but not in amdgpu-pciids.tsv");
}

/// Each SI and CIK chip's ids carry the parameters the releases read need, from
/// amdgpu-si-cik.tsv: radeon's releases named with amdgpu.<gen>_support=1 radeon.<gen>_support=0.
#[test]
fn si_and_cik_ids_say_which_releases_need_the_module_parameters() {
    let (t, k) = (tables(), reads());
    let mut checked = 0;
    for (id, row) in &t.pciids {
        let Some(g) = k.generations.iter().find(|g| g.chips.contains(&row.chip)) else {
            continue;
        };
        let r = lookup(*id, None).requirement();
        let note = r
            .notes()
            .iter()
            .find(|n| n.contains("_support=1"))
            .unwrap_or_else(|| panic!("{id:04x}: {:?}", r.notes()));
        let stem = g.generation;
        assert!(note.contains(&format!("amdgpu.{stem}_support=1 radeon.{stem}_support=0")));
        for row in k.generations.iter().filter(|x| x.generation == stem) {
            let named = note.contains(&row.release.to_string());
            assert!(named, "{id:04x}: {note}");
            if row.default_driver == "radeon" {
                let needs = note.split("by default").next().unwrap_or_default();
                assert!(needs.contains(&row.release.to_string()), "{note}");
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}

/// amdkfd (amdkfd-kernels.tsv) against every kernel floor: for each GPU whose target a ROCm
/// release lists, every read release at or after its floor whose kfd_device.c names targets
/// supports that target, so no floor lets ROCm's kernel side refuse the GPU in a read release.
#[test]
fn amdkfd_supports_every_rocm_target_from_its_floor_in_every_read() {
    use gpuctl_amd::requirement::RocmSupport;
    let (t, k) = (tables(), reads());
    let ids: std::collections::BTreeSet<u16> =
        t.gfxip.keys().chain(t.pciids.keys()).copied().collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for id in ids {
        let gpu = lookup(id, None);
        let (Some(target), RocmSupport::Listed { .. }) = (gpu.target.as_deref(), &gpu.rocm) else {
            continue;
        };
        for release in &k.releases {
            if gpu.first_kernel.is_some_and(|f| *release < f) {
                continue;
            }
            match k.kfd_supports(*release, target) {
                Some(true) => checked += 1,
                Some(false) => wrong.push(format!("{id:04x} {target} at {release}")),
                None => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 100, "{checked}");
    // 5.10.223's kfd_device.c names chips (no gfx_target_version yet); 6.1.176 on, targets.
    assert_eq!(k.kfd_supports(v("5.10.223"), "gfx90a"), None);
    assert_eq!(k.kfd_supports(v("6.1.176"), "gfx942"), Some(false));
    assert_eq!(k.kfd_supports(v("6.12.117"), "gfx942"), Some(true));
}
