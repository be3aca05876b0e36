//! The Intel table (docs/requirement.md#intel-table): PCI device id to platform and the kernel
//! drivers that bind it, loaded from
//! the data files under `crates/intel/data/`, each of which names its origin:
//!
//! - `pciids.tsv`: the kernel's `include/drm/intel/pciids.h`, platform macro to device ids.
//! - `platforms.tsv`: platform macro to the platform's name and whether it is discrete.
//! - `drivers.tsv`: which driver (i915, xe) lists each platform, whether xe needs
//!   `force_probe` for it, and the first kernel release where a source states it.
//! - `force-probe.tsv`: the kernel from which a driver binds a platform without
//!   `force_probe`, with the commit that dropped it.
//! - `i915-releases.tsv`: per device id, the first kernel release whose i915 binds it, the first
//!   that binds it without a module parameter, and that parameter, read from i915's own sources
//!   release by release.
//! - `id-pulls.tsv`: per driver and device id, the first kernel release the main drm pull
//!   request of that release settles, for ids `i915-releases.tsv` does not cover.
//! - `compute-runtime.tsv`: the OpenCL and Level Zero versions Intel's compute runtime README
//!   gives each platform, or its legacy1 packages (with versions where its legacy table has any).
//!
//! Compiled in and parsed once, on first use; a line that does not parse is skipped, never a
//! panic, and the tests assert that none of the shipped lines is.

use gpuctl_core::plugin::text::tsv_rows;
use std::sync::OnceLock;

use gpuctl_core::plugin::requirement::Version;

const PCIIDS: &str = include_str!("../data/pciids.tsv");
const PLATFORMS: &str = include_str!("../data/platforms.tsv");
const DRIVERS: &str = include_str!("../data/drivers.tsv");
const COMPUTE: &str = include_str!("../data/compute-runtime.tsv");
const FORCE_PROBE: &str = include_str!("../data/force-probe.tsv");
const I915_RELEASES: &str = include_str!("../data/i915-releases.tsv");
const ID_PULLS: &str = include_str!("../data/id-pulls.tsv");
const I915_LEGACY: &str = include_str!("../data/i915-legacy.tsv");

/// A platform: its macro, name and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Platform {
    /// The pciids.h macro stem (`TGL`).
    pub macro_name: &'static str,
    /// The name (`Tiger Lake`).
    pub name: &'static str,
    /// A discrete GPU rather than an integrated one.
    pub discrete: bool,
}

/// One driver that lists a platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverRow {
    /// The platform macro stem.
    pub macro_name: &'static str,
    /// `i915` or `xe`.
    pub driver: &'static str,
    /// Whether the driver binds it only with `force_probe`; `None` when the sources do not say.
    pub force_probe: Option<bool>,
    /// The first kernel release listing it, when a source states it.
    pub first_kernel: Option<Version>,
    /// The first kernel release binding it without `force_probe`, when a source states it.
    pub default_from: Option<Version>,
    /// The module parameter the releases before `default_from` need: `force_probe`, or
    /// `alpha_support` (its name before Linux 5.3).
    pub parameter: &'static str,
    /// The last kernel release read that lists it, when a newer read no longer does.
    pub last_kernel: Option<Version>,
    /// The newest release read of the driver, when no release read lists the device although
    /// the platform row says the driver lists the platform (an id added after every read).
    pub unlisted_through: Option<Version>,
}

/// When i915 binds one device id, from i915's own sources release by release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct I915Release {
    /// The PCI device id.
    pub device_id: u16,
    /// The first release whose pciidlist binds it.
    pub first_listed: Version,
    /// The first release binding it with no module parameter; `None` when every release read
    /// still asks for one.
    pub first_default: Option<Version>,
    /// The parameter the gated releases ask for (`force_probe`, `alpha_support`); `None` when
    /// never gated.
    pub gate: Option<&'static str>,
}

/// What Intel's compute runtime says about a platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputeRow {
    /// The platform macro stem.
    pub macro_name: &'static str,
    /// The README's name for it.
    pub readme_platform: &'static str,
    /// The OpenCL version, `-` when the documentation gives none.
    pub opencl: &'static str,
    /// The Level Zero version, `-` when the documentation gives none.
    pub level_zero: &'static str,
    /// Served by the legacy1 packages (Gen8, Gen9, Gen11) rather than the regular ones.
    pub legacy: bool,
}

/// The parsed data files.
#[derive(Debug, Default)]
pub struct Tables {
    /// Device id to platform macro, in file order.
    pub ids: Vec<(u16, &'static str)>,
    /// The platforms.
    pub platforms: Vec<Platform>,
    /// The drivers, i915 rows first as in the file.
    pub drivers: Vec<DriverRow>,
    /// The compute runtime's support.
    pub compute: Vec<ComputeRow>,
    /// i915's binding of each device id, release by release.
    pub i915: Vec<I915Release>,
    /// (driver, device id, first kernel) as a release's main drm pull settles it.
    pub id_pulls: Vec<(&'static str, u16, Version)>,
    /// Device ids i915 already binds in Linux 4.12, the oldest release read (i915-legacy.tsv's
    /// "<4.12"): their first release is older and not known here.
    pub i915_before_oldest: Vec<u16>,
    /// Lines that did not parse (file name, line); empty for the shipped files.
    pub skipped: Vec<(&'static str, &'static str)>,
}

/// The tables, parsed on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(parse_all)
}

fn parse_all() -> Tables {
    let mut t = Tables::default();
    for (line, f) in tsv_rows(PCIIDS) {
        match f.as_slice() {
            [m, id] if id.len() == 4 => match u16::from_str_radix(id, 16) {
                Ok(id) => t.ids.push((id, m)),
                Err(_) => t.skipped.push(("pciids.tsv", line)),
            },
            _ => t.skipped.push(("pciids.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(PLATFORMS) {
        match f.as_slice() {
            [m, name, d @ ("yes" | "no")] => t.platforms.push(Platform {
                macro_name: m,
                name,
                discrete: *d == "yes",
            }),
            _ => t.skipped.push(("platforms.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(DRIVERS) {
        let force = |s: &str| match s {
            "yes" => Some(Some(true)),
            "no" => Some(Some(false)),
            "-" => Some(None),
            _ => None,
        };
        let kernel = |s: &str| match s {
            "-" => Some(None),
            v => Version::parse(v).ok().map(Some),
        };
        match f.as_slice() {
            [m, d @ ("i915" | "xe"), fp, k] => match (force(fp), kernel(k)) {
                (Some(force_probe), Some(first_kernel)) => t.drivers.push(DriverRow {
                    macro_name: m,
                    driver: d,
                    force_probe,
                    first_kernel,
                    default_from: None,
                    parameter: "force_probe",
                    last_kernel: None,
                    unlisted_through: None,
                }),
                _ => t.skipped.push(("drivers.tsv", line)),
            },
            _ => t.skipped.push(("drivers.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(FORCE_PROBE) {
        let version = f.get(2).and_then(|v| Version::parse(v).ok());
        let row = match (f.as_slice(), version) {
            ([m, d, _, _], Some(v)) => t
                .drivers
                .iter_mut()
                .find(|r| r.macro_name == *m && r.driver == *d)
                .map(|r| r.default_from = Some(v)),
            _ => None,
        };
        if row.is_none() {
            t.skipped.push(("force-probe.tsv", line));
        }
    }
    for (line, f) in tsv_rows(COMPUTE) {
        match f.as_slice() {
            [m, p, cl, ze, pk @ ("regular" | "legacy1")] => t.compute.push(ComputeRow {
                macro_name: m,
                readme_platform: p,
                opencl: cl,
                level_zero: ze,
                legacy: *pk == "legacy1",
            }),
            _ => t.skipped.push(("compute-runtime.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(I915_RELEASES) {
        let version = |s: &str| Version::parse(s).ok();
        let row = match f.as_slice() {
            [id, first, default, gate] if id.len() == 4 => {
                let gate = match *gate {
                    "-" => Some(None),
                    g @ ("force_probe" | "alpha_support") => Some(Some(g)),
                    _ => None,
                };
                let default = match *default {
                    "-" => Some(None),
                    v => version(v).map(Some),
                };
                match (u16::from_str_radix(id, 16), version(first), default, gate) {
                    (Ok(device_id), Some(first_listed), Some(first_default), Some(gate)) => {
                        Some(I915Release {
                            device_id,
                            first_listed,
                            first_default,
                            gate,
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match row {
            Some(r) => t.i915.push(r),
            None => t.skipped.push(("i915-releases.tsv", line)),
        }
    }
    for (line, f) in tsv_rows(I915_LEGACY) {
        if !legacy_row(&mut t, &f) {
            t.skipped.push(("i915-legacy.tsv", line));
        }
    }
    for (line, f) in tsv_rows(ID_PULLS) {
        match f.as_slice() {
            [d @ ("i915" | "xe"), id, v] if id.len() == 4 => {
                match (u16::from_str_radix(id, 16), Version::parse(v)) {
                    (Ok(id), Ok(v)) => t.id_pulls.push((d, id, v)),
                    _ => t.skipped.push(("id-pulls.tsv", line)),
                }
            }
            _ => t.skipped.push(("id-pulls.tsv", line)),
        }
    }
    t
}

/// One i915-legacy.tsv row: the id joins its platform stem, and i915's release data where the
/// first release is one that was read.
fn legacy_row(t: &mut Tables, f: &[&'static str]) -> bool {
    let [stem, id, first, default, gate] = f else {
        return false;
    };
    let Ok(device_id) = u16::from_str_radix(id, 16) else {
        return false;
    };
    let gate = match *gate {
        "-" => None,
        g @ ("force_probe" | "alpha_support") => Some(g),
        _ => return false,
    };
    t.ids.push((device_id, stem));
    if *first == "<4.12" && (*default == "<4.12" || gate.is_some()) {
        t.i915_before_oldest.push(device_id);
        if gate.is_none() {
            return true;
        }
    }
    let first_listed = match *first {
        "<4.12" => Version::parse("4.12").ok(),
        v => Version::parse(v).ok(),
    };
    let first_default = match *default {
        "-" => Some(None),
        "<4.12" => Version::parse("4.12").ok().map(Some),
        v => Version::parse(v).ok().map(Some),
    };
    match (first_listed, first_default) {
        (Some(first_listed), Some(first_default)) if *first != "<4.12" || gate.is_some() => {
            t.i915.push(I915Release {
                device_id,
                first_listed,
                first_default,
                gate,
            });
            true
        }
        _ => false,
    }
}

impl Tables {
    /// The first kernel of `driver` for device `id`, as a release's main drm pull settles it.
    pub fn id_pull(&self, driver: &str, id: u16) -> Option<Version> {
        self.id_pulls
            .iter()
            .find(|(d, i, _)| *d == driver && *i == id)
            .map(|(_, _, v)| *v)
    }

    /// When i915 binds device `id`, where the release data has it.
    pub fn i915_release(&self, id: u16) -> Option<&I915Release> {
        self.i915.iter().find(|r| r.device_id == id)
    }

    /// The compute runtime's row for `macro_name`.
    pub fn compute_of(&self, macro_name: &str) -> Option<&ComputeRow> {
        self.compute.iter().find(|c| c.macro_name == macro_name)
    }

    /// The platform macro of device `id`.
    pub fn macro_of(&self, id: u16) -> Option<&'static str> {
        self.ids.iter().find(|(i, _)| *i == id).map(|(_, m)| *m)
    }

    /// The platform named by `macro_name`.
    pub fn platform(&self, macro_name: &str) -> Option<&Platform> {
        self.platforms.iter().find(|p| p.macro_name == macro_name)
    }

    /// The drivers listing `macro_name`, i915 first.
    pub fn drivers_of(&self, macro_name: &str) -> Vec<&DriverRow> {
        self.drivers
            .iter()
            .filter(|d| d.macro_name == macro_name)
            .collect()
    }
}
