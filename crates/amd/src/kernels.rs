//! amdgpu's own lists at each kernel release read from Debian's `linux-source-*` packages
//! (docs/requirement.md#amd-table): the pciidlist of `amdgpu_drv.c` per release
//! (`amdgpu-kernels.tsv`) and, per release, whether amdgpu binds SI and CIK chips by default or
//! leaves them to radeon unless its `si_support`/`cik_support` parameter says otherwise
//! (`amdgpu-si-cik.tsv`), and what amdkfd, ROCm's kernel side, supports per release: LLVM
//! targets, or chips in trees older than its `gfx_target_version` (`amdkfd-kernels.tsv`). All
//! are written by `data/amdgpu-kernels.py`, whose header names each package, version and file.
//!
//! The releases are Debian's point releases (5.10.223, 6.1.176, ...), which carry stable
//! updates: an id a stable update added is listed by the point release though its release
//! line's first tree does not list it, so a floor from these reads is the first read release
//! from which every later read lists the id, and the earlier reads that list it are named in
//! a note rather than trusted as the release line's. A pciidlist entry that later releases drop
//! is no ceiling: from 5.18 on amdgpu also binds any AMD display device by IP discovery.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use gpuctl_core::plugin::requirement::Version;
use gpuctl_core::plugin::text::tsv_rows;

const AMDGPU_KERNELS: &str = include_str!("../data/amdgpu-kernels.tsv");
const AMDGPU_SI_CIK: &str = include_str!("../data/amdgpu-si-cik.tsv");
const AMDKFD_KERNELS: &str = include_str!("../data/amdkfd-kernels.tsv");

/// One pciidlist entry at one release read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    /// The release read.
    pub release: Version,
    /// The amdgpu chip, without `CHIP_`.
    pub chip: &'static str,
    /// Flagged `AMD_EXP_HW_SUPPORT`: binds only with `amdgpu.exp_hw_support=1`.
    pub exp_hw: bool,
}

/// How one release treats one old GCN generation (SI, CIK).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerationRow {
    /// The release read.
    pub release: Version,
    /// `si` or `cik`: the parameter's stem.
    pub generation: &'static str,
    /// `amdgpu` when amdgpu binds the chips by default, `radeon` when it leaves them to radeon.
    pub default_driver: &'static str,
    /// The generation's chips.
    pub chips: Vec<&'static str>,
}

/// The parsed files.
#[derive(Debug, Default)]
pub struct KernelReads {
    /// The releases read, oldest first.
    pub releases: Vec<Version>,
    /// Device id to its entries, oldest release first.
    pub lists: BTreeMap<u16, Vec<Listing>>,
    /// The SI and CIK rows, in file order.
    pub generations: Vec<GenerationRow>,
    /// amdkfd's support per release read: (release, `target` or `chip`, the target or chip).
    pub kfd: Vec<(Version, &'static str, &'static str)>,
    /// Lines that did not parse (file name, line); empty for the shipped files.
    pub skipped: Vec<(&'static str, &'static str)>,
}

/// The reads, parsed on first use.
pub fn reads() -> &'static KernelReads {
    static READS: OnceLock<KernelReads> = OnceLock::new();
    READS.get_or_init(parse)
}

fn parse() -> KernelReads {
    let mut k = KernelReads::default();
    for (line, f) in tsv_rows(AMDGPU_KERNELS) {
        let release = f.first().and_then(|v| Version::parse(v).ok());
        let id = f
            .get(1)
            .filter(|s| s.len() == 4)
            .and_then(|s| u16::from_str_radix(s, 16).ok());
        match (f.as_slice(), release, id) {
            ([_, _, chip, exp @ ("yes" | "no")], Some(release), Some(id)) => {
                if !k.releases.contains(&release) {
                    k.releases.push(release);
                }
                k.lists.entry(id).or_default().push(Listing {
                    release,
                    chip,
                    exp_hw: *exp == "yes",
                });
            }
            _ => k.skipped.push(("amdgpu-kernels.tsv", line)),
        }
    }
    k.releases.sort();
    for listings in k.lists.values_mut() {
        listings.sort_by_key(|l| l.release);
    }
    for (line, f) in tsv_rows(AMDGPU_SI_CIK) {
        match (f.as_slice(), f.first().and_then(|v| Version::parse(v).ok())) {
            (
                [
                    _,
                    generation @ ("si" | "cik"),
                    driver @ ("amdgpu" | "radeon"),
                    chips,
                ],
                Some(r),
            ) => k.generations.push(GenerationRow {
                release: r,
                generation,
                default_driver: driver,
                chips: chips.split(',').collect(),
            }),
            _ => k.skipped.push(("amdgpu-si-cik.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(AMDKFD_KERNELS) {
        match (f.as_slice(), f.first().and_then(|v| Version::parse(v).ok())) {
            ([_, kind @ ("target" | "chip"), value], Some(r)) => k.kfd.push((r, kind, value)),
            _ => k.skipped.push(("amdkfd-kernels.tsv", line)),
        }
    }
    k
}

impl KernelReads {
    /// Whether amdkfd at `release` supports LLVM `target`; `None` where that tree names chips,
    /// not targets, or was not read.
    pub fn kfd_supports(&self, release: Version, target: &str) -> Option<bool> {
        let rows: Vec<_> = self.kfd.iter().filter(|(r, _, _)| *r == release).collect();
        rows.iter()
            .all(|(_, kind, _)| *kind == "target")
            .then(|| rows.iter().any(|(_, _, t)| *t == target))
            .filter(|_| !rows.is_empty())
    }

    /// The chip the newest read listing the id gives it.
    pub fn chip(&self, id: u16) -> Option<&'static str> {
        self.lists.get(&id).and_then(|l| l.last()).map(|l| l.chip)
    }

    /// The first read release from which every later read lists the id without
    /// `AMD_EXP_HW_SUPPORT`, and whether it is the oldest read (then its first release is older
    /// and not known). `None` when the newest read does not bind it by default.
    pub fn settled_from(&self, id: u16) -> Option<(Version, bool)> {
        let default_at = |r: &Version| {
            self.lists
                .get(&id)
                .is_some_and(|l| l.iter().any(|x| x.release == *r && !x.exp_hw))
        };
        let mut from = None;
        for r in self.releases.iter().rev() {
            if !default_at(r) {
                break;
            }
            from = Some(*r);
        }
        from.map(|v| (v, Some(&v) == self.releases.first()))
    }

    /// The reads that list the id before `floor`: stable updates of an older release line.
    pub fn listed_before(&self, id: u16, floor: Version) -> Vec<Version> {
        self.lists
            .get(&id)
            .map(|l| {
                l.iter()
                    .filter(|x| x.release < floor)
                    .map(|x| x.release)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// For an SI or CIK chip, the generation and the note that says which releases read need
    /// the module parameters for amdgpu to bind it.
    pub fn generation_note(&self, chip: &str) -> Option<String> {
        let rows: Vec<&GenerationRow> = self
            .generations
            .iter()
            .filter(|g| g.chips.contains(&chip))
            .collect();
        let generation = rows.first()?.generation;
        let join = |driver: &str| {
            rows.iter()
                .filter(|g| g.default_driver == driver)
                .map(|g| g.release.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (radeon, amdgpu) = (join("radeon"), join("amdgpu"));
        let upper = generation.to_uppercase();
        let mut note = format!(
            "{upper} chip: amdgpu binds it only in a kernel built with CONFIG_DRM_AMDGPU_{upper}"
        );
        if !radeon.is_empty() {
            note.push_str(&format!(
                ", and in Linux {radeon} only with amdgpu.{generation}_support=1 \
                 radeon.{generation}_support=0 (radeon has it otherwise)"
            ));
        }
        if !amdgpu.is_empty() {
            note.push_str(&format!("; by default in Linux {amdgpu}"));
        }
        note.push_str(" (releases read; those between not)");
        Some(note)
    }
}
