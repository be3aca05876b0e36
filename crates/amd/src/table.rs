//! The AMD table (docs/requirement.md#amd-table): PCI device id (and revision) to marketing
//! name, LLVM target and the ROCm releases that list it, loaded from the data files under `crates/amd/data/`, each of which
//! names the repository, file and commit it was extracted from:
//!
//! - `amdgpu-ids.tsv`: libdrm's `amdgpu.ids`, device id and revision to marketing name.
//! - `thunk-gfxip.tsv`: ROCT-Thunk-Interface's gfxip table, device id to gfx IP version, which
//!   names the LLVM target (`9.0.10` is `gfx90a`). It stops at gfx10.3: newer GPUs tell ROCm
//!   their target through KFD, so for them the target comes from the ROCm documentation's
//!   product list, matched by marketing name.
//! - `rocm-gpus.tsv`: per ROCm release, the products and LLVM targets AMD lists.
//! - `community-targets.tsv`: marketing names whose target only LLVM's AMDGPUUsage or public
//!   threads state (the integrated GPUs of Phoenix and Strix, Navi 33).
//! - `rocm-unofficial.tsv`: targets no release lists that people run ROCm on, with the
//!   `HSA_OVERRIDE_GFX_VERSION` they set.
//! - `amdgpu-pciids.tsv`: the kernel's amdgpu pciidlist, device id to the first Linux release
//!   that lists it and the first that binds it by default (without `amdgpu.exp_hw_support`).
//! - `amdgpu-kernel.tsv`: for the GPUs amdgpu binds by IP discovery (not in its pciidlist), the
//!   first kernel per LLVM target, each row with its source.
//!
//! The files are compiled in and parsed once, on first use. A line that does not parse is
//! skipped, never a panic; the tests assert that no line of the shipped files is skipped.

use gpuctl_core::plugin::text::tsv_rows;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use gpuctl_core::plugin::requirement::Version;

const AMDGPU_IDS: &str = include_str!("../data/amdgpu-ids.tsv");
const THUNK_GFXIP: &str = include_str!("../data/thunk-gfxip.tsv");
const ROCM_GPUS: &str = include_str!("../data/rocm-gpus.tsv");
const ROCM_UNOFFICIAL: &str = include_str!("../data/rocm-unofficial.tsv");
const COMMUNITY_TARGETS: &str = include_str!("../data/community-targets.tsv");
const AMDGPU_KERNEL: &str = include_str!("../data/amdgpu-kernel.tsv");
const AMDGPU_PCIIDS: &str = include_str!("../data/amdgpu-pciids.tsv");

/// One device id of amdgpu's pciidlist, with the releases the extracted trees first list it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciIdRow {
    /// The amdgpu chip (`RAVEN`, `NAVI12`), without the `CHIP_` prefix.
    pub chip: &'static str,
    /// The first release whose pciidlist lists the id.
    pub first_listed: Version,
    /// The first release that binds it without `amdgpu.exp_hw_support=1`.
    pub first_default: Version,
}

/// One marketing name of a device id, from libdrm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRow {
    /// The PCI device id.
    pub device_id: u16,
    /// The PCI revision the name is for.
    pub revision: u8,
    /// The marketing name.
    pub name: &'static str,
}

/// One ROCm documentation row: a release lists a product (or only a target) with a status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RocmRow {
    /// The ROCm release.
    pub release: Version,
    /// The product, or empty for a matrix that lists targets only.
    pub product: &'static str,
    /// The LLVM target.
    pub target: &'static str,
    /// `supported`, `deprecated`, `unsupported` or `community`.
    pub status: &'static str,
    /// Where the row comes from.
    pub source: &'static str,
}

impl RocmRow {
    /// True when the release lists the GPU as one it runs on (supported or deprecated).
    pub fn lists(&self) -> bool {
        matches!(self.status, "supported" | "deprecated")
    }
}

/// The parsed data files.
#[derive(Debug, Default)]
pub struct Tables {
    /// libdrm's names, in file order.
    pub names: Vec<NameRow>,
    /// Device id to LLVM target and chip name, from the thunk's gfxip table.
    pub gfxip: BTreeMap<u16, (String, &'static str)>,
    /// The ROCm documentation rows.
    pub rocm: Vec<RocmRow>,
    /// Unofficial targets and their override.
    pub unofficial: BTreeMap<&'static str, (&'static str, &'static str)>,
    /// Marketing names to targets that only public threads state.
    pub community: Vec<(&'static str, &'static str)>,
    /// LLVM target to the first kernel whose amdgpu drives its GPUs by IP discovery.
    pub kernels: BTreeMap<&'static str, Version>,
    /// amdgpu's pciidlist by device id.
    pub pciids: BTreeMap<u16, PciIdRow>,
    /// Each ROCm row's product, normalized, in the same order (compared often, made once).
    rocm_products: Vec<String>,
    /// Lines that did not parse (file name, line); empty for the shipped files.
    pub skipped: Vec<(&'static str, &'static str)>,
}

/// The tables, parsed on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(parse_all)
}

fn hex16(s: &str) -> Option<u16> {
    (s.len() == 4).then(|| u16::from_str_radix(s, 16).ok())?
}

fn parse_all() -> Tables {
    let mut t = Tables::default();
    for (line, f) in tsv_rows(AMDGPU_IDS) {
        match (
            f.as_slice(),
            f.get(1).and_then(|r| u8::from_str_radix(r, 16).ok()),
        ) {
            ([id, _, name], Some(revision)) if hex16(id).is_some() => t.names.push(NameRow {
                device_id: hex16(id).unwrap_or_default(),
                revision,
                name,
            }),
            _ => t.skipped.push(("amdgpu-ids.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(THUNK_GFXIP) {
        let parsed = match f.as_slice() {
            [id, major, minor, stepping, chip] => {
                let n = |s: &str| s.parse::<u32>().ok();
                match (hex16(id), n(major), n(minor), n(stepping)) {
                    (Some(id), Some(a), Some(b), Some(c)) if c < 16 => {
                        Some((id, format!("gfx{a}{b}{c:x}"), *chip))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match parsed {
            Some((id, target, chip)) => {
                t.gfxip.insert(id, (target, chip));
            }
            None => t.skipped.push(("thunk-gfxip.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(ROCM_GPUS) {
        match (f.as_slice(), f.first().and_then(|r| Version::parse(r).ok())) {
            ([_, product, target, status, source], Some(release)) if target.starts_with("gfx") => {
                t.rocm.push(RocmRow {
                    release,
                    product,
                    target,
                    status,
                    source,
                })
            }
            _ => t.skipped.push(("rocm-gpus.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(ROCM_UNOFFICIAL) {
        match f.as_slice() {
            [target, value, source] if Version::parse(value).is_ok() => {
                t.unofficial.insert(*target, (*value, *source));
            }
            _ => t.skipped.push(("rocm-unofficial.tsv", line)),
        }
    }
    t.rocm_products = t.rocm.iter().map(|r| normalize(r.product)).collect();
    for (line, f) in tsv_rows(COMMUNITY_TARGETS) {
        match f.as_slice() {
            [name, target, _] if target.starts_with("gfx") => t.community.push((name, target)),
            _ => t.skipped.push(("community-targets.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(AMDGPU_KERNEL) {
        match (f.as_slice(), f.get(1).and_then(|v| Version::parse(v).ok())) {
            ([key, _, _], Some(first)) => {
                t.kernels.insert(*key, first);
            }
            _ => t.skipped.push(("amdgpu-kernel.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(AMDGPU_PCIIDS) {
        let v = |i: usize| f.get(i).and_then(|s| Version::parse(s).ok());
        match (f.as_slice(), v(2), v(3)) {
            ([id, chip, _, _], Some(first_listed), Some(first_default))
                if hex16(id).is_some() && first_listed <= first_default =>
            {
                t.pciids.insert(
                    hex16(id).unwrap_or_default(),
                    PciIdRow {
                        chip,
                        first_listed,
                        first_default,
                    },
                );
            }
            _ => t.skipped.push(("amdgpu-pciids.tsv", line)),
        }
    }
    t
}

/// True when normalized `name` is normalized `listed` or starts with it followed by a space.
fn names_match(name: &str, listed: &str) -> bool {
    name == listed
        || name
            .strip_prefix(listed)
            .is_some_and(|rest| rest.starts_with(' '))
}

/// A marketing name in the form names are compared in: lowercase, `(TM)` and `™` dropped,
/// single spaces.
pub fn normalize(name: &str) -> String {
    name.replace("(TM)", "")
        .replace('™', "")
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl Tables {
    /// libdrm's name for `id` at `revision`, or, when that revision is not listed (or not
    /// known), the first name the file gives the id.
    pub fn name(&self, id: u16, revision: Option<u8>) -> Option<&'static str> {
        let of_id = || self.names.iter().filter(|r| r.device_id == id);
        revision
            .and_then(|rev| of_id().find(|r| r.revision == rev))
            .or_else(|| of_id().next())
            .map(|r| r.name)
    }

    /// The ROCm-listed product a marketing name is, by the longest listed name that is the
    /// whole name or its start followed by a space (`AMD Instinct MI300X HF` is an MI300X).
    pub fn product_of(&self, name: &str) -> Option<&RocmRow> {
        let name = normalize(name);
        self.rocm
            .iter()
            .zip(&self.rocm_products)
            .filter(|(r, p)| !r.product.is_empty() && names_match(&name, p))
            .max_by_key(|(r, _)| r.product.len())
            .map(|(r, _)| r)
    }

    /// The LLVM target of device `id`, and where it was found: the thunk's table, else the
    /// ROCm product any of the id's libdrm names is, else a name public threads give a target.
    pub fn target(&self, id: u16) -> Option<(String, TargetSource)> {
        if let Some((target, _)) = self.gfxip.get(&id) {
            return Some((target.clone(), TargetSource::Thunk));
        }
        self.names
            .iter()
            .filter(|r| r.device_id == id)
            .find_map(|r| self.product_of(r.name))
            .map(|p| (p.target.to_string(), TargetSource::RocmProduct))
            .or_else(|| {
                self.names
                    .iter()
                    .filter(|r| r.device_id == id)
                    .find_map(|r| {
                        let name = normalize(r.name);
                        self.community
                            .iter()
                            .find(|(n, _)| names_match(&name, &normalize(n)))
                    })
                    .map(|(_, t)| (t.to_string(), TargetSource::Community))
            })
    }

    /// The releases that list `target`, oldest first.
    pub fn releases_listing(&self, target: &str) -> Vec<&RocmRow> {
        let mut out: Vec<&RocmRow> = self
            .rocm
            .iter()
            .filter(|r| r.target == target && r.lists())
            .collect();
        out.sort_by_key(|r| r.release);
        out
    }

    /// The first kernel whose amdgpu drives device `id` of LLVM `target` by default. A device of
    /// amdgpu's pciidlist takes its own row, by id (Picasso's 15d8 and Raven's 15dd differ),
    /// and none when the oldest tree read already binds it (its first release was not read);
    /// any other device takes its target's row, if it has one.
    pub fn first_kernel(&self, id: u16, target: Option<&str>) -> Option<Version> {
        match self.pciids.get(&id) {
            Some(row) => {
                (Some(row.first_default) != self.oldest_pciid_tree()).then_some(row.first_default)
            }
            None => target.and_then(|t| self.kernels.get(t)).copied(),
        }
    }

    /// The oldest kernel tree whose pciidlist was read: an id it lists may be older still.
    pub fn oldest_pciid_tree(&self) -> Option<Version> {
        self.pciids.values().map(|r| r.first_listed).min()
    }

    /// The newest release the data covers.
    pub fn newest_release(&self) -> Option<Version> {
        self.rocm.iter().map(|r| r.release).max()
    }
}

/// Where a device's LLVM target was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetSource {
    /// ROCT-Thunk-Interface's gfxip table, by device id.
    Thunk,
    /// The ROCm documentation's product list, by marketing name.
    RocmProduct,
    /// A public thread naming the target of a marketing name.
    Community,
}
